#!/bin/bash
# The `@TOOL@` docs/per-link.patch or docs/post-link.patch runs from PATH: this checkout's
# (mcountkit-recordmcount: the build server's client, as a kernel build would use it), each call
# logged with its wall time for the report.
start=$EPOCHREALTIME
"@ROOT@/bin/@TOOL@" "$@"
status=$?
echo "$* $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }') s, exit $status" >>"@LOG@"
exit $status

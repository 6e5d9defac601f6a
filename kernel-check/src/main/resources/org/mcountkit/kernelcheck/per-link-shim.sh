#!/bin/bash
# The `mcountkit-recordmcount` docs/per-link.patch runs from PATH: this checkout's (the build
# server's client, as a kernel build would use it), each call logged with its wall time for the report.
start=$EPOCHREALTIME
"@ROOT@/bin/mcountkit-recordmcount" "$@"
status=$?
echo "$* $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }') s, exit $status" >>"@LOG@"
exit $status

#!/bin/bash
# The `mcountkit` docs/per-link.patch runs from PATH: this checkout's launcher, each call logged
# with its wall time for the report.
start=$EPOCHREALTIME
"@ROOT@/bin/mcountkit" "$@"
status=$?
echo "$* $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }') s, exit $status" >>"@LOG@"
exit $status

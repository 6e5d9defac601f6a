#!/bin/sh
# kernel-check's scripts/recordmcount for the mcountkit build: each call logged, then mcountkit.
echo "$*" >>"@DIR@/recordmcount-calls.log"
exec @ENTRY@ "$@"

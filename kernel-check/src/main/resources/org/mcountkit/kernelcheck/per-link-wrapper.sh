#!/bin/sh
# kernel-check's scripts/recordmcount for the --per-link build: the patched Kbuild makes no
# per-object call, so one fails the build.
echo "$*" >>"@DIR@/recordmcount-calls.log"
echo "kernel-check: --per-link: Kbuild called recordmcount per object on $*" >&2
exit 1

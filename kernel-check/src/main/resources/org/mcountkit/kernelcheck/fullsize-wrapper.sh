#!/bin/bash
# kernel-check's scripts/recordmcount for --config: ONE build in which every object goes through
# both tools. The object is copied to the C side's folder (same relative path) and the kernel's own
# C recordmcount (moved aside) writes the copy's table; then mcountkit writes the real object's,
# which the build goes on with. One line per call in recordmcount-calls.log:
#   OBJECT C_STATUS C_MICROSECONDS MCOUNTKIT_STATUS MCOUNTKIT_MICROSECONDS
# (an object make rebuilds, after a stop or a change, gets a line again: the last one counts).
# The C tool's "Cannot find symbol for section" failure is logged in recordmcount-failures.log, as
# the two-build check's C wrapper logs it; any C failure is in the call's line and fails the report,
# not the build (a full-size build is hours long). mcountkit's status is the call's.
set -u
dir=@DIR@
cdir=@CDIR@
args=("$@")
last=$(($# - 1))
obj=${args[last]}
rel=${obj#"$dir"/}
copy=$cdir/$rel
if ! mkdir -p "${copy%/*}" || ! cp "$obj" "$copy"; then
  echo "kernel-check: cannot copy $obj to $copy" >&2
  exit 1
fi
args[last]=$copy
start=$EPOCHREALTIME
{ errors=$("$dir/scripts/recordmcount.c-tool" "${args[@]}" 2>&1 1>&3 3>&-); } 3>&1
c_status=$?
c_end=$EPOCHREALTIME
if [ $c_status -ne 0 ]; then
  echo "kernel-check: the C recordmcount failed on $copy (exit $c_status): $errors" >&2
  if [[ $errors == *'Cannot find symbol for section'* ]]; then
    echo "$rel: ${errors//$'\n'/ }" >>"$dir/recordmcount-failures.log"
  fi
fi
m_start=$EPOCHREALTIME
@ENTRY@ "$@"
m_status=$?
end=$EPOCHREALTIME
# EPOCHREALTIME has six decimals: without its point it is in microseconds.
echo "$rel $c_status $((${c_end/./} - ${start/./})) $m_status $((${end/./} - ${m_start/./}))" \
  >>"$dir/recordmcount-calls.log"
exit $m_status

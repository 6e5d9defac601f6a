#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t tracefs nodev /t
/bin/busybox dmesg -n 1
echo "kernel-check: available_filter_functions begin"
/bin/busybox sed 's/^/aff /' /t/available_filter_functions
echo "kernel-check: available_filter_functions end"
. /ftrace-dump.sh
/bin/busybox reboot -f

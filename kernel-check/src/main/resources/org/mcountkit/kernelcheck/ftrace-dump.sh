# Sourced by the initramfs's /init once tracefs is at /t: what ftrace lists now, for kernel-check to
# compare with `mcountkit functions` line for line: available_filter_functions (kf), its _addrs form
# where the kernel has one (ka, 6.5 and later), dyn_ftrace_total_info (kd) and /proc/modules (kp).
echo "kernel-check: functions begin"
/bin/busybox sed 's/^/kf /' /t/available_filter_functions
if [ -e /t/available_filter_functions_addrs ]; then
  /bin/busybox sed 's/^/ka /' /t/available_filter_functions_addrs
fi
echo "kd $(/bin/busybox cat /t/dyn_ftrace_total_info)"
/bin/busybox sed 's/^/kp /' /proc/modules
echo "kernel-check: functions end"

#!/bin/busybox sh
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb mount -t devtmpfs devtmpfs /dev
$bb mount -t tracefs nodev /t
$bb dmesg -n 1
use_iso() { $bb mount -t iso9660 -o loop,ro /images/iso.img /mnt && $bb cat /mnt/hello.txt && $bb umount /mnt; }
use_vfat() { $bb mount -t vfat -o loop /images/fat.img /mnt && echo x >/mnt/x.txt && $bb ls /mnt && $bb umount /mnt; }
use_msdos() { $bb mount -t msdos -o loop /images/fat.img /mnt && $bb ls /mnt && $bb umount /mnt; }
use_ext4() { $bb mount -t ext4 -o loop /images/ext4.img /mnt && $bb cat /mnt/hello.txt && echo x >/mnt/x.txt && $bb sync && $bb umount /mnt; }
use_kcweak() { echo 1 >/sys/module/kcweak/parameters/poke; }
use_configfs() { $bb mount -t configfs none /cfg && $bb ls /cfg && $bb umount /cfg; }
echo "kernel-check: modules begin"
# A module whose soft dependency (libcrc32c's "pre: crc32c", an alias) came later in the order
# fails once; a second pass loads it.
failed=""
for m in $($bb cat /modules/order); do
  if $bb insmod /modules/$m.ko 2>/dev/null; then echo "km loaded $m"; echo $m >>/loaded; else failed="$failed $m"; fi
done
for m in $failed; do
  if $bb insmod /modules/$m.ko; then echo "km loaded $m"; echo $m >>/loaded; else echo "km insmod-failed $m"; fi
done
. /ftrace-dump.sh
for m in $($bb cat /modules/order); do
  echo "km listed $m $($bb grep -c " \[$m\]\$" /t/available_filter_functions)"
done
for pair in $($bb cat /modules/uses); do
  m=${pair%%:*}
  echo >/t/trace
  if echo ":mod:$m" >/t/set_ftrace_filter; then
    echo function >/t/current_tracer
    ${pair#*:} >/dev/null 2>&1 || echo "km use-failed $m"
    echo 0 >/t/tracing_on
  else
    echo "km filter-failed $m"
  fi
  # Read before the tracer changes: setting a tracer empties the buffer.
  echo "km traced $m $($bb grep -vc '^#' /t/trace)"
  $bb grep -v '^#' /t/trace | $bb head -2 | $bb sed "s/^/km sample $m /"
  echo nop >/t/current_tracer
  echo >/t/set_ftrace_filter
  echo 1 >/t/tracing_on
done
# Removed in the reverse of the order they loaded in (a module the second pass loaded holds the
# one loaded before it: libcrc32c holds crc32c_generic).
for m in $($bb tac /loaded); do
  $bb rmmod $m || echo "km rmmod-failed $m"
done
echo "km left $($bb grep -c . /proc/modules)"
echo "kernel-check: modules end"
$bb dmesg | $bb sed 's/^/kmsg /'
$bb reboot -f

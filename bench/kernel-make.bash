# Sourced by bench/kernel-build-time and bench/kernel-relink-time: one timed `make` of a kernel
# build folder, the C tool's side or the per-link recipe's, and the medians of such makes.
# The caller sets: root (this checkout), out (its output folder), jobs, identity (make's
# KBUILD_BUILD_* variables).

# The per-link side finds this checkout's mcountkit-recordmcount first on PATH.
kernel_make_init() {
  mkdir -p "$out/bin"
  ln -sf "$root/bin/mcountkit-recordmcount" "$out/bin/mcountkit-recordmcount"
  "$root/bin/mcountkit" --version >/dev/null # builds the jar first, outside the timing
}

# timed_make SIDE TREE DIR NAME: `make -jJOBS` of TREE into DIR under /usr/bin/time, output in
# OUT/NAME.log, figures in OUT/NAME.time; prints one line and appends it to OUT/times.txt. Each
# make has a runtime folder of its own, so the build server starts cold, as in the first build
# after a boot, and is stopped after the make.
timed_make() {
  local side=$1 tree=$2 dir=$3 name=$4 runtime load state port client pid status=0
  runtime=$(mktemp -d)
  load=$(cut -d' ' -f1 /proc/loadavg)
  PATH="$out/bin:$PATH" XDG_RUNTIME_DIR=$runtime /usr/bin/time -f '%e %U %S' -o "$out/$name.time" \
    make -C "$tree" O="$dir" "${identity[@]}" -j"$jobs" >"$out/$name.log" 2>&1 || status=$?
  for state in "$runtime"/mcountkit/server*; do
    [[ -f $state && ! $state == *.lock ]] || continue
    read -r port call answer pid start <"$state" && kill "$pid" 2>/dev/null || true
  done
  rm -rf "$runtime"
  [ "$status" = 0 ] || { echo "$name: make failed: $out/$name.log" >&2; exit 1; }
  # grep reads all of readelf's output: with -q, an early exit would fail the pipe (pipefail).
  if [ "$side" = per-link ] && ! readelf -S -W "$dir/vmlinux.o" | grep ' __mcount_loc ' >/dev/null; then
    echo "$dir/vmlinux.o: no __mcount_loc: mcountkit-recordmcount did not record it" >&2
    exit 1
  fi
  local wall user sys
  read -r wall user sys <"$out/$name.time"
  printf '%-18s wall %7.1f s  cpu %7.1f s  load before %s\n' "$name" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$load" | tee -a "$out/times.txt"
}

# print_medians NAME...: the median wall and CPU time of OUT/NAME.*.time for each NAME.
print_medians() {
  local name wall cpu
  for name; do
    wall=$(cat "$out/$name".*.time | awk '{ print $1 }' | median)
    cpu=$(cat "$out/$name".*.time | awk '{ print $2 + $3 }' | median)
    printf '%-18s median wall %7.1f s  cpu %7.1f s\n' "$name" "$wall" "$cpu" | tee -a "$out/times.txt"
  done
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

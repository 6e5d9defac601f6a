#!/usr/bin/env bash
# Rebuilds the sample objects in samples/obj, and the linked program in samples/bin, from
# samples/src with Debian's compilers.
# Needs: gcc, gcc-i686-linux-gnu, gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p obj
flags=(-O2 -fno-PIE -fno-pic -fno-asynchronous-unwind-tables -fno-stack-protector -c)

build() { # compiler output hook source extra-flags...
  local cc=$1 out=$2 hook=$3 src=$4
  shift 4
  "$cc" "${flags[@]}" -DHOOK_SYMBOL="$hook" "$@" "src/$src" -o "obj/$out"
}

build gcc                x86_64-fentry.o        __fentry__ kernel_like.c -pg -mfentry
build gcc                x86_64-pg.o            mcount     kernel_like.c -pg
build gcc                x86_64-untraced.o      __fentry__ untraced.c    -pg -mfentry
build gcc                x86_64-weak-only.o     __fentry__ weak_only.c   -pg -mfentry -ffunction-sections
build i686-linux-gnu-gcc i386-fentry.o          __fentry__ kernel_like.c -pg -mfentry
build i686-linux-gnu-gcc i386-pg.o              mcount     kernel_like.c -pg
build aarch64-linux-gnu-gcc aarch64-pg.o        _mcount    kernel_like.c -pg
build aarch64-linux-gnu-gcc aarch64_be-pg.o     _mcount    kernel_like.c -pg -mbig-endian
build aarch64-linux-gnu-gcc aarch64-pfe.o       _mcount    kernel_like.c -fpatchable-function-entry=2
build riscv64-linux-gnu-gcc riscv64-pg.o        _mcount    kernel_like.c -pg
build riscv64-linux-gnu-gcc riscv64-pfe.o       _mcount    kernel_like.c -fpatchable-function-entry=4
# A linked x86_64 program whose __mcount_loc gcc wrote (-mrecord-mcount), for the post-link
# examples (table, verify, patch). Linked without -pg, so no gmon start-up code comes in.
mkdir -p bin
tmp=$(mktemp -d)
gcc -O2 -fno-PIE -pg -mfentry -mrecord-mcount -c src/prog.c -o "$tmp/prog.o"
gcc -c src/fentry_stub.S -o "$tmp/fentry_stub.o"
gcc -no-pie "$tmp/prog.o" "$tmp/fentry_stub.o" -o bin/x86_64-prog
rm -rf "$tmp"
echo "samples rebuilt in $(pwd)/obj and $(pwd)/bin"

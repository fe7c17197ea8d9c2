#!/usr/bin/env bash
# Assemble and link the guest programs into ../assets/guest/*.elf.
#
# Needs Debian's binutils-riscv64-linux-gnu. The output is reproducible byte for
# byte: we run from this directory with relative paths, map the directory out of
# the DWARF, and link without a build id. `cargo test` re-runs this into a
# temporary directory and compares (tests/kernel/guest_build.rs).
#
#   guest-asm/build.sh [OUTDIR [INITDIR]]   (defaults: ../assets/guest, ../assets/init)
#
# Programs:
#   minikernel/*.S  -> minikernel.elf     (firmware + S-mode kernel + user program)
#                   -> minikernel-sv39.elf  (the same, assembled with SV39 defined:
#                                          the kernel turns on Sv39 before user mode)
#   init/NAME.S     -> INITDIR/NAME.elf   (Linux riscv64 static /init programs for
#                                          `trapscope snapshot`, linked with init.ld)
#   tests/NAME.S    -> tests/NAME.elf     (bare-metal self-tests, one file each)
#   bad/NAME.S      -> bad/NAME.elf       (guests that go wrong on purpose)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
out="${1:-../assets/guest}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
initout="${2:-../assets/init}"
mkdir -p "$initout"
initout="$(cd "$initout" && pwd)"

AS="${RISCV_AS:-riscv64-linux-gnu-as}"
LD="${RISCV_LD:-riscv64-linux-gnu-ld}"
command -v "$AS" >/dev/null || { echo "build.sh: $AS not found (apt-get install binutils-riscv64-linux-gnu)" >&2; exit 127; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

asm() { # asm SRC OBJ [AS OPTIONS...]
  local src="$1" obj="$2"; shift 2
  "$AS" -march=rv64gc -mabi=lp64d -g --strip-local-absolute --debug-prefix-map="$PWD"=. -I include "$@" -o "$obj" "$src"
}
link() { # link OUT OBJS...
  local o="$1"; shift
  "$LD" -T trapscope.ld --build-id=none -nostdlib -static -o "$o" "$@"
}

# The minikernel, twice. Its user region goes into RAM at 0x8040_0000
# (trapscope.ld's __user_base), so that it boots in QEMU virt as well.
for build in plain sv39; do
  objs=()
  for s in minikernel/*.S; do
    o="$tmp/$build-$(basename "${s%.S}").o"
    if [ "$build" = sv39 ]; then asm "$s" "$o" --defsym SV39=1; else asm "$s" "$o"; fi
    objs+=("$o")
  done
  name=minikernel; [ "$build" = sv39 ] && name=minikernel-sv39
  link "$out/$name.elf" --defsym=__user_base=0x80400000 "${objs[@]}"
done

# trapscope's own /init programs for real Linux kernels (init.ld: user space).
for s in init/*.S; do
  [ -e "$s" ] || continue
  n="$(basename "${s%.S}")"
  asm "$s" "$tmp/init-$n.o"
  "$LD" -T init.ld --build-id=none -nostdlib -static -o "$initout/$n.elf" "$tmp/init-$n.o"
done

# Self-tests and the deliberately bad guests (for the error-path tests).
for dir in tests bad; do
  mkdir -p "$out/$dir"
  for s in "$dir"/*.S; do
    [ -e "$s" ] || continue
    n="$(basename "${s%.S}")"
    asm "$s" "$tmp/$dir-$n.o"
    link "$out/$dir/$n.elf" "$tmp/$dir-$n.o"
  done
done
echo "build.sh: wrote $(find "$out" -name '*.elf' | wc -l) ELF(s) to $out, $(find "$initout" -name '*.elf' | wc -l) to $initout"

#!/usr/bin/env bash
# Assemble and link the guest programs into ../assets/guest/*.elf.
#
# Needs Debian's binutils-riscv64-linux-gnu. The output is reproducible byte for
# byte: we run from this directory with relative paths, map the directory out of
# the DWARF, and link without a build id. `cargo test` re-runs this into a
# temporary directory and compares (tests/guest_build.rs).
#
#   guest-asm/build.sh [OUTDIR]      (default: ../assets/guest)
#
# Programs:
#   minikernel/*.S  -> minikernel.elf     (firmware + S-mode kernel + user program)
#   tests/NAME.S    -> tests/NAME.elf     (bare-metal self-tests, one file each)
#   bad/NAME.S      -> bad/NAME.elf       (guests that go wrong on purpose)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
out="${1:-../assets/guest}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

AS="${RISCV_AS:-riscv64-linux-gnu-as}"
LD="${RISCV_LD:-riscv64-linux-gnu-ld}"
command -v "$AS" >/dev/null || { echo "build.sh: $AS not found (apt-get install binutils-riscv64-linux-gnu)" >&2; exit 127; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

asm() { # asm SRC OBJ
  "$AS" -march=rv64gc -mabi=lp64d -g --strip-local-absolute --debug-prefix-map="$PWD"=. -I include -o "$2" "$1"
}
link() { # link OUT OBJS...
  local o="$1"; shift
  "$LD" -T trapscope.ld --build-id=none -nostdlib -static -o "$o" "$@"
}

objs=()
for s in minikernel/*.S; do
  o="$tmp/$(basename "${s%.S}").o"; asm "$s" "$o"; objs+=("$o")
done
link "$out/minikernel.elf" "${objs[@]}"

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
echo "build.sh: wrote $(find "$out" -name '*.elf' | wc -l) ELF(s) to $out"

#!/bin/sh
# Builds the example init as the README says, with the build directory
# mapped to "." in its DWARF so that the ELF is the same wherever the
# repository is cloned (tests/snapshot/own_init.rs rebuilds it and compares).
set -eu
cd "$(dirname "$0")"
riscv64-linux-gnu-gcc -static -nostdlib -ffreestanding -fno-builtin \
  -O2 -march=rv64imac_zicsr -mabi=lp64 -g \
  -fdebug-prefix-map="$PWD"=. -Wl,--build-id=none \
  -o "${1:-getppid-c.elf}" getppid-c.c

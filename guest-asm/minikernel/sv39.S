# sv39.S: the minikernel-sv39.elf build only (assembled with --defsym SV39=1;
# in minikernel.elf this file is empty, so that build's bytes do not change).
#
# kernel_start calls sv39_enable just before its sret to the user program, so
# the whole syscall loop runs with translation on (satp MODE = Sv39, priv spec
# §4.4). The map is the identity, in three 2 MiB megapages (level-1 leaves) of
# the gigabyte at 0x8000_0000, each R+W+X with A and D set (so no A/D update
# is ever needed):
#   0x8000_0000  firmware region   U=0 (M-mode runs Bare; mapped for
#                                       completeness, S never touches it)
#   0x8020_0000  kernel region     U=0
#   0x8040_0000  user region       U=1 (text, data, bss and stack)
# Nothing else is mapped: the kernel touches no device (the firmware, in
# M-mode, does), so any other S or U access is a page fault. With
# knob_pagefault_bench, sv39_enable then hands over to pagefault_setup
# (zz-pagefault.S), which links a page-table page of 4 KiB leaves for its
# user area under the root; its faults fill them in.
#
# The regions are found from symbols in them (_start, kernel_start,
# user_start), so the map follows the linker script; the three must share
# one gigabyte, which a boot check enforces (sv39_bad_layout).

.ifdef SV39
	.include "minikernel-defs.inc"
	.include "sv39.inc"

.equ SV39_LEAF,	PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D

	.section .kernel.text, "ax", @progbits

# MEGAPAGE sym, flags: the level-1 leaf for the 2 MiB page holding `sym`,
# identity-mapped, at its index in sv39_l1. Clobbers t0-t2; t3 holds the
# gigabyte index of the first region, checked against every later one.
	.macro MEGAPAGE sym, flags
	la	t0, \sym
	srli	t1, t0, 30
	bne	t1, t3, sv39_bad_layout
	srli	t0, t0, 21			# megapage number
	andi	t1, t0, 511			# VPN[1]
	slli	t1, t1, 3
	la	t2, sv39_l1
	add	t2, t2, t1
	slli	t0, t0, 19			# PPN = megapage << 9, PTE.PPN at bit 10
	ori	t0, t0, \flags
	sd	t0, 0(t2)
	.endm

# sv39_enable(): build the map above and turn translation on (SV39_ON:
# satp, then sfence.vma). The caller runs on identity-mapped memory, so the
# next fetch after the csrw translates to the same address.
	.globl sv39_enable
	.type sv39_enable, @function
sv39_enable:
	la	t0, _start
	srli	t3, t0, 30			# VPN[2] of all three regions
	MEGAPAGE _start, SV39_LEAF
	MEGAPAGE kernel_start, SV39_LEAF
	MEGAPAGE user_start, SV39_LEAF | PTE_U
	# The root's entry for that gigabyte points at sv39_l1 (a non-leaf:
	# V only, priv spec §4.3.2 step 4).
	la	t0, sv39_l1
	srli	t0, t0, 12
	slli	t0, t0, 10
	ori	t0, t0, PTE_V
	la	t2, sv39_root
	slli	t1, t3, 3
	add	t2, t2, t1
	sd	t0, 0(t2)
	SV39_ON sv39_root
	# The page-fault benchmark (zz-pagefault.S), if a scenario asks for it:
	# its area's page tables and its program. It returns to our caller.
	ld	t0, knob_pagefault_bench
	beqz	t0, 1f
	tail	pagefault_setup
1:
	ret
	.size sv39_enable, .-sv39_enable

# The regions do not share a gigabyte: end the run (system failure, code 3).
	.type sv39_bad_layout, @function
sv39_bad_layout:
	li	a0, 0
	li	a1, 1
	li	a2, 3
	call	sbi_system_reset
1:	j	1b
	.size sv39_bad_layout, .-sv39_bad_layout

	.section .kernel.bss, "aw", @nobits
	.balign 4096
	.globl sv39_root
	.type sv39_root, @object
sv39_root:
	.skip 4096
	.size sv39_root, .-sv39_root
	.globl sv39_l1
	.type sv39_l1, @object
sv39_l1:
	.skip 4096
	.size sv39_l1, .-sv39_l1
.endif

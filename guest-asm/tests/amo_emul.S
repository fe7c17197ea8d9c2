# amo_emul.S: every AMO.W/.D (9 operations x 2 widths x 4 orderings), from
# S-mode and then from U-mode, with the minikernel's firmware
# (minikernel/zalrsc-fw.S) installed the way fw.S installs it. On a core with
# native AMOs (`trapscope elf`) the AMOs run as they are; on one whose AMOs
# trap (the P8700 profile, tests/machine/amo_emulation.rs) the firmware emulates each
# one. Both runs must give the results the unprivileged spec's "A" chapter
# defines, written out below by hand for one pair of operands:
#   .d: mem = A = 0xfffffffffffffff0 (-16), rs2 = B = 0x0000000123456789
#     add 0x0000000123456779, swap B, xor 0xfffffffedcba9879,
#     or 0xfffffffffffffff9, and 0x0000000123456780, min A (signed -16 < B),
#     max B, minu B (unsigned B < A), maxu A; rd = A
#   .w: mem = 0xfffffff0 (-16 as s32), rs2 low word 0x23456789
#     add 0x23456779, swap 0x23456789, xor 0xdcba9879, or 0xfffffff9,
#     and 0x23456780, min 0xfffffff0, max 0x23456789, minu 0x23456789,
#     maxu 0xfffffff0; rd = 0xfffffffffffffff0 (sign-extended); the word
#     after it is untouched
# Every AMO uses rd = a0, rs1 = a1, rs2 = a2, and s5 holds a sentinel that
# must survive the trap. Then: amoadd.w with rd = x0 (only memory changes),
# a misaligned amoadd.w (store/AMO misaligned, cause 6, tval = the address)
# and an amoadd.d to no memory (store/AMO access fault, cause 7, tval = the
# address), and from S with Sv39 on an amoadd.w through an invalid PTE
# (store/AMO page fault, cause 15), which reach S (delegated, or redirected
# by the firmware) where amo_s_trap records them and skips the AMO.
# Exit: 0 pass; a failing check stores (n << 1) | 1 in tohost: n = the check
# number (variant index * 4 + 1..3 in S, + 300 in U; 290.. the extra cases);
# 250 + cause for a trap fw_trap_entry did not expect.

	.include "minikernel/zalrsc-fw.S"
	.option norvc
	.option norelax

.equ VAL_A,      0xfffffffffffffff0
.equ VAL_B,      0x0000000123456789
.equ SENTINEL,   0x5a5a5a5a12345678
.equ NO_MEMORY,  0x1000
.equ UNMAPPED_VA, 0x40000000		# root entry 1: invalid
# Root entry 2: VA 0x8000_0000 -> PA 0x8000_0000, a 1 GiB leaf, V R W X A D.
.equ PTE_GIGA_RWX, ((0x80000000 >> 12) << 10) | 0xcf
.equ PMPCFG_RWX_NAPOT, 0x1f

	# A section of its own, so that relaxing zalrsc-fw.S's code cannot
	# move this code (assembled without relaxation) off its alignment.
	.section .fw.text.amo_emul, "ax", @progbits
	.balign 4
	.globl _start
_start:
	la	sp, fw_stack_top
	csrw	mscratch, sp
	la	t0, fw_trap_entry
	csrw	mtvec, t0
	jal	t0, fw_amo_emulation_setup
	li	t0, -1
	csrw	pmpaddr0, t0
	li	t0, PMPCFG_RWX_NAPOT
	csrw	pmpcfg0, t0
	# The two faults go to S: delegated when the AMO is native, redirected
	# by the firmware when it is emulated.
	li	t0, (1 << CAUSE_MISALIGNED_STORE) | (1 << CAUSE_STORE_ACCESS) | (1 << CAUSE_STORE_PAGE_FAULT)
	csrw	medeleg, t0
	la	t0, amo_s_trap
	csrw	stvec, t0
	li	t0, SR_MPP
	csrc	mstatus, t0
	li	t0, SR_MPP_S
	csrs	mstatus, t0
	la	t0, amo_checks
	csrw	mepc, t0
	li	s11, 0				# the check number offset: S
	mret

# fw_trap_entry: what zalrsc-fw.S passes on, and every trap to M on a core
# with native AMOs. An ecall from S starts the U pass, one from U ends the
# test; anything else fails.
	.balign 4
	.globl fw_trap_entry
fw_trap_entry:
	csrr	t0, mcause
	li	t1, CAUSE_SUPERVISOR_ECALL
	beq	t0, t1, 1f
	li	t1, CAUSE_USER_ECALL
	beq	t0, t1, 2f
	addi	t0, t0, 250
	la	t1, fail_code
	jr	t1
1:	# S done: the same checks from U.
	li	t0, SR_MPP
	csrc	mstatus, t0
	la	t0, amo_checks
	csrw	mepc, t0
	li	s11, 300
	mret
2:	# U done: pass.
	li	t0, 1
	la	t1, tohost
	sd	t0, 0(t1)
9:	j	9b


# CHECK_EQ reg, value, n: fail with check n + s11 unless reg == value.
.macro CHECK_EQ reg, value, n
	li	t1, \value
	beq	\reg, t1, 8f
	li	t0, \n
	add	t0, t0, s11
	j	fail_code
8:
.endm

# AMO_CASE n, insn, width, expected memory: mem = A, rs2 = B, one AMO, then
# rd, memory (and, for .w, the word after it) and the sentinel.
.macro AMO_CASE n, insn, w, expect
	la	a1, amo_word
	li	t0, VAL_A
	sd	t0, 0(a1)
	li	t0, 0x0123456789abcdef
	sd	t0, 8(a1)
	li	a2, VAL_B
	li	s5, SENTINEL
	li	a0, 0
	\insn	a0, a2, (a1)
  .ifc \w, w
	CHECK_EQ a0, VAL_A, \n * 4 + 1
	lwu	t2, 0(a1)
	CHECK_EQ t2, \expect, \n * 4 + 2
	ld	t2, 4(a1)
	li	t1, 0x89abcdef00000000
	srli	t2, t2, 32
	slli	t2, t2, 32
	CHECK_EQ t2, 0x89abcdef00000000, \n * 4 + 3
  .else
	CHECK_EQ a0, VAL_A, \n * 4 + 1
	ld	t2, 0(a1)
	CHECK_EQ t2, \expect, \n * 4 + 2
  .endif
	CHECK_EQ s5, SENTINEL, \n * 4 + 4
.endm

.macro AMO_ORDERINGS base, op, w, expect
	AMO_CASE \base + 0, amo\op\().\w, \w, \expect
	AMO_CASE \base + 1, amo\op\().\w\().rl, \w, \expect
	AMO_CASE \base + 2, amo\op\().\w\().aq, \w, \expect
	AMO_CASE \base + 3, amo\op\().\w\().aqrl, \w, \expect
.endm

	.section .kernel.text, "ax", @progbits
# amo_s_trap: stvec. Records scause and stval of a faulting AMO and steps
# over it (sepc + 4), from S or U.
	.balign 4
amo_s_trap:
	la	t1, fault_seen
	csrr	t0, scause
	sd	t0, 0(t1)
	csrr	t0, stval
	sd	t0, 8(t1)
	csrr	t0, sepc
	addi	t0, t0, 4
	csrw	sepc, t0
	sret

	.globl amo_checks
amo_checks:
	AMO_ORDERINGS 0, add, d, 0x0000000123456779
	AMO_ORDERINGS 4, swap, d, VAL_B
	AMO_ORDERINGS 8, xor, d, 0xfffffffedcba9879
	AMO_ORDERINGS 12, or, d, 0xfffffffffffffff9
	AMO_ORDERINGS 16, and, d, 0x0000000123456780
	AMO_ORDERINGS 20, min, d, VAL_A
	AMO_ORDERINGS 24, max, d, VAL_B
	AMO_ORDERINGS 28, minu, d, VAL_B
	AMO_ORDERINGS 32, maxu, d, VAL_A
	AMO_ORDERINGS 36, add, w, 0x23456779
	AMO_ORDERINGS 40, swap, w, 0x23456789
	AMO_ORDERINGS 44, xor, w, 0xdcba9879
	AMO_ORDERINGS 48, or, w, 0xfffffff9
	AMO_ORDERINGS 52, and, w, 0x23456780
	AMO_ORDERINGS 56, min, w, 0xfffffff0
	AMO_ORDERINGS 60, max, w, 0x23456789
	AMO_ORDERINGS 64, minu, w, 0x23456789
	AMO_ORDERINGS 68, maxu, w, 0xfffffff0

	# rd = x0: memory only.
	la	a1, amo_word
	li	t0, 40
	sd	t0, 0(a1)
	li	a2, 2
	amoadd.w zero, a2, (a1)
	ld	t2, 0(a1)
	CHECK_EQ t2, 42, 290
	# Misaligned: cause 6, tval = the address, memory untouched.
	la	a1, fault_seen
	sd	zero, 0(a1)
	sd	zero, 8(a1)
	la	a1, amo_word + 2
	amoadd.w a0, a2, (a1)
	la	t2, fault_seen
	ld	t3, 0(t2)
	CHECK_EQ t3, CAUSE_MISALIGNED_STORE, 291
	ld	t3, 8(t2)
	la	t1, amo_word + 2
	beq	t3, t1, 1f
	li	t0, 292
	add	t0, t0, s11
	j	fail_code
1:
	ld	t2, amo_word
	CHECK_EQ t2, 42, 293
	# No memory there: cause 7, tval = the address.
	li	a1, NO_MEMORY
	amoadd.d a0, a2, (a1)
	la	t2, fault_seen
	ld	t3, 0(t2)
	CHECK_EQ t3, CAUSE_STORE_ACCESS, 294
	ld	t3, 8(t2)
	CHECK_EQ t3, NO_MEMORY, 295
	# From S only: with Sv39 on, an amoadd.w through an invalid PTE is a
	# store/AMO page fault (cause 15, tval = the virtual address; priv spec
	# §4.3.2). Emulated, the firmware's LR takes a load page fault under
	# MPRV, which it turns into 15.
	bnez	s11, 2f
	la	t0, amo_root
	srli	t0, t0, 12
	li	t1, 8 << 60
	or	t0, t0, t1
	csrw	satp, t0
	sfence.vma
	li	a1, UNMAPPED_VA
	amoadd.w a0, a2, (a1)
	csrw	satp, zero
	sfence.vma
	la	t2, fault_seen
	ld	t3, 0(t2)
	CHECK_EQ t3, CAUSE_STORE_PAGE_FAULT, 296
	ld	t3, 8(t2)
	CHECK_EQ t3, UNMAPPED_VA, 297
2:
	ecall

# fail_code: t0 = the check number.
fail_code:
	slli	t0, t0, 1
	ori	t0, t0, 1
	la	t1, tohost
	sd	t0, 0(t1)
9:	j	9b

	.section .kernel.data, "aw", @progbits
	.balign 16
amo_word:
	.dword	0, 0
fault_seen:
	.dword	0, 0				# cause, tval

# amo_root: the Sv39 root table of the page-fault case (priv spec §4.3.1).
	.balign 4096
amo_root:
	.dword	0, 0, PTE_GIGA_RWX
	.skip	4096 - 3 * 8

	.section .tohost, "aw", @progbits
	.balign 8
	.globl tohost
tohost:
	.dword 0

	.section .fw.bss, "aw", @nobits
	.balign 16
fw_stack:
	.skip 4096
	.globl fw_stack_top
fw_stack_top:
	.skip FW_SCRATCH_SIZE

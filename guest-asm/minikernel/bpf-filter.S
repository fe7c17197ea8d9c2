# bpf-filter.S: classic BPF in the kernel, as seccomp uses it: the checks
# and the conversion to eBPF of net/core/filter.c (bpf_check_classic,
# check_load_and_stores, bpf_convert_filter, bpf_migrate_filter,
# bpf_prepare_filter, bpf_prog_create_from_user), bpf_prog_select_runtime
# (kernel/bpf/core.c: no JIT, so an interpreter of bpf.S), the static slots
# that stand in for bpf_prog_alloc, and copy_from_user_sum. All of it runs
# inside seccomp(2), outside any timed window.
#
# Same compiled-C shape as syscall.S (frame pointers, current in tp).
#
# What the minikernel leaves out: the skb loads of socket filters (LD ABS /
# IND of packet data, LDX MSH, the skb length: seccomp_check_filter refuses
# or rewrites all of them, so they never reach the converter here, which
# fails on them with -EINVAL) and the classic JIT (bpf_jit_compile: riscv
# has none).
#
# No allocator: bpf_prog_alloc hands out one of SECCOMP_MAX_FILTERS static
# slots, each with room for SECCOMP_SLOT_EBPF eBPF instructions (the
# classic program is copied into the same insns, as Linux's insns/insnsi
# union is) and the saved original program of SECCOMP_SLOT_CBPF classic
# ones. A program that does not fit fails with -ENOMEM.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "cbpf.inc"
	.include "minikernel-seccomp.inc"

# A prog slot: header, insns, the saved sock_fprog_kern and its filter copy.
.equ BP_SLOT_FPK,     BP_INSNSI + SECCOMP_SLOT_EBPF * BPF_INSN_SIZE
.equ BP_SLOT_ORIG,    BP_SLOT_FPK + FPK_SIZE
.equ BP_SLOT_SIZE,    BP_SLOT_ORIG + SECCOMP_SLOT_CBPF * SOCK_FILTER_SIZE

# Highest user address + 1 (Sv39: TASK_SIZE_64 = 1 << 38), for access_ok.
.equ TASK_SIZE,       1 << 38

.equ SKF_AD_OFF,      0xfffff000       # -0x1000: ancillary data loads

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# User access
# ---------------------------------------------------------------------------

# copy_from_user_sum(void *to, const void __user *from, unsigned long n) ->
# bytes not copied (0 on success), as copy_from_user: access_ok (the range
# lies below TASK_SIZE), then the bytes with sstatus.SUM set so that S-mode
# may read user pages, and SUM cleared again. The minikernel has no
# exception fixup: a fault inside is a kernel fault.
	.globl copy_from_user_sum
	.type copy_from_user_sum, @function
copy_from_user_sum:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, TASK_SIZE
	bgtu	a2, a5, 3f			# access_ok(from, n)
	sub	a5, a5, a2
	bgtu	a1, a5, 3f
	li	a5, SR_SUM
	csrs	sstatus, a5			# __enable_user_access()
	add	a4, a1, a2
	j	2f
1:
	lbu	a3, 0(a1)
	sb	a3, 0(a0)
	addi	a1, a1, 1
	addi	a0, a0, 1
2:
	bltu	a1, a4, 1b
	csrc	sstatus, a5			# __disable_user_access()
	li	a2, 0
3:
	mv	a0, a2
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size copy_from_user_sum, .-copy_from_user_sum

# ---------------------------------------------------------------------------
# bpf_prog_alloc / __bpf_prog_free: the static slots
# ---------------------------------------------------------------------------

# bpf_prog_alloc(unsigned int insns) -> struct bpf_prog * or NULL: a free
# slot, its header zeroed, if the classic program fits.
	.globl bpf_prog_alloc
	.type bpf_prog_alloc, @function
bpf_prog_alloc:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, SECCOMP_SLOT_CBPF
	bgtu	a0, a5, 3f
	la	a4, bpf_prog_slot_used
	li	a3, 0
1:
	add	a2, a4, a3
	lbu	a1, 0(a2)
	beqz	a1, 2f
	addi	a3, a3, 1
	li	a5, SECCOMP_MAX_FILTERS
	blt	a3, a5, 1b
	j	3f
2:
	li	a1, 1
	sb	a1, 0(a2)
	li	a5, BP_SLOT_SIZE
	mul	a3, a3, a5
	la	a0, bpf_prog_slots
	add	a0, a0, a3
	sd	zero, 0(a0)			# len, stack_depth
	sd	zero, BP_BPF_FUNC(a0)
	sd	zero, BP_ORIG_PROG(a0)
	sd	zero, BP_STATS(a0)
	j	4f
3:
	li	a0, 0
4:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size bpf_prog_alloc, .-bpf_prog_alloc

# __bpf_prog_free(struct bpf_prog *fp): give the slot back.
	.globl __bpf_prog_free
	.type __bpf_prog_free, @function
__bpf_prog_free:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, bpf_prog_slots
	sub	a0, a0, a5
	li	a5, BP_SLOT_SIZE
	divu	a0, a0, a5
	la	a5, bpf_prog_slot_used
	add	a5, a5, a0
	sb	zero, 0(a5)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size __bpf_prog_free, .-__bpf_prog_free

# ---------------------------------------------------------------------------
# bpf_check_classic and check_load_and_stores (net/core/filter.c)
# ---------------------------------------------------------------------------

# bpf_check_classic(const struct sock_filter *filter, unsigned int flen)
# -> 0 or -EINVAL: every opcode in chk_code_allowed's table; no division
# by a constant 0, no constant shift of 32 or more, scratch-memory indexes
# below BPF_MEMWORDS; every jump lands inside the program; an ancillary
# load (k >= SKF_AD_OFF) is refused (seccomp would refuse it next anyway);
# the last instruction is a RET; and check_load_and_stores passes.
#   s1 = filter, s2 = flen, s3 = pc, s4 = ftest
	.globl bpf_check_classic
	.type bpf_check_classic, @function
bpf_check_classic:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	sd	s4, 0(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	li	s3, 0
	mv	s4, a0
1:
	bgeu	s3, s2, 20f
	lhu	a5, 0(s4)			# code
	lwu	a4, 4(s4)			# k
	li	a3, 256				# chk_code_allowed(code)
	bgeu	a5, a3, 90f
	la	a3, bpf_classic_codes
	add	a3, a3, a5
	lbu	a3, 0(a3)
	beqz	a3, 90f
	li	a3, BPF_ALU | BPF_DIV | BPF_K
	beq	a5, a3, 10f
	li	a3, BPF_ALU | BPF_MOD | BPF_K
	beq	a5, a3, 10f
	li	a3, BPF_ALU | BPF_LSH | BPF_K
	beq	a5, a3, 11f
	li	a3, BPF_ALU | BPF_RSH | BPF_K
	beq	a5, a3, 11f
	li	a3, BPF_LD | BPF_MEM
	beq	a5, a3, 12f
	li	a3, BPF_LDX | BPF_MEM
	beq	a5, a3, 12f
	li	a3, BPF_ST
	beq	a5, a3, 12f
	li	a3, BPF_STX
	beq	a5, a3, 12f
	li	a3, BPF_JMP | BPF_JA
	beq	a5, a3, 13f
	andi	a3, a5, 7
	li	a2, BPF_JMP
	beq	a3, a2, 14f			# the conditional jumps (JA is above)
	li	a3, BPF_LD | BPF_W | BPF_ABS
	beq	a5, a3, 15f
	li	a3, BPF_LD | BPF_H | BPF_ABS
	beq	a5, a3, 15f
	li	a3, BPF_LD | BPF_B | BPF_ABS
	beq	a5, a3, 15f
	j	19f
10:	beqz	a4, 90f				# division by zero
	j	19f
11:	li	a3, 32
	bgeu	a4, a3, 90f
	j	19f
12:	li	a3, BPF_MEMWORDS
	bgeu	a4, a3, 90f
	j	19f
13:	sub	a3, s2, s3			# k >= flen - pc - 1
	addi	a3, a3, -1
	bgeu	a4, a3, 90f
	j	19f
14:	lbu	a3, 2(s4)			# pc + jt + 1 >= flen
	add	a3, a3, s3
	addi	a3, a3, 1
	bgeu	a3, s2, 90f
	lbu	a3, 3(s4)			# pc + jf + 1 >= flen
	add	a3, a3, s3
	addi	a3, a3, 1
	bgeu	a3, s2, 90f
	j	19f
15:	li	a3, SKF_AD_OFF
	bgeu	a4, a3, 90f
19:
	addi	s3, s3, 1
	addi	s4, s4, SOCK_FILTER_SIZE
	j	1b
20:
	beqz	s2, 90f
	addi	a5, s2, -1			# the last instruction is a RET
	slli	a5, a5, 3
	add	a5, s1, a5
	lhu	a5, 0(a5)
	li	a4, BPF_RET | BPF_K
	beq	a5, a4, 21f
	li	a4, BPF_RET | BPF_A
	bne	a5, a4, 90f
21:
	mv	a0, s1
	mv	a1, s2
	call	check_load_and_stores
	j	99f
90:
	li	a0, -EINVAL
99:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	ld	s4, 0(sp)
	addi	sp, sp, 48
	ret
	.size bpf_check_classic, .-bpf_check_classic

# check_load_and_stores(filter, flen) -> 0 or -EINVAL: a scratch cell is
# loaded only after a store to it on every path. masks[pc] is the set of
# cells valid at pc over the jumps that reach it (a static u16 array: flen
# is at most SECCOMP_SLOT_CBPF here, the slot's bound).
	.type check_load_and_stores, @function
check_load_and_stores:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	t0, bpf_check_masks
	li	a5, 0
	li	a4, -1
1:	bgeu	a5, a1, 2f			# memset(masks, 0xff, ...)
	slli	a3, a5, 1
	add	a3, t0, a3
	sh	a4, 0(a3)
	addi	a5, a5, 1
	j	1b
2:
	li	t1, 0xffff
	li	t2, 0				# memvalid
	li	a5, 0				# pc
3:
	bgeu	a5, a1, 8f
	slli	a3, a5, 1
	add	a3, t0, a3
	lhu	a3, 0(a3)
	and	t2, t2, a3			# memvalid &= masks[pc]
	slli	a6, a5, 3
	add	a6, a0, a6
	lhu	a2, 0(a6)			# code
	lwu	a7, 4(a6)			# k
	li	a3, BPF_ST
	beq	a2, a3, 4f
	li	a3, BPF_STX
	beq	a2, a3, 4f
	li	a3, BPF_LD | BPF_MEM
	beq	a2, a3, 5f
	li	a3, BPF_LDX | BPF_MEM
	beq	a2, a3, 5f
	li	a3, BPF_JMP | BPF_JA
	beq	a2, a3, 6f
	andi	a3, a2, 7
	li	a4, BPF_JMP
	beq	a3, a4, 7f
	j	9f
4:	li	a3, 1				# memvalid |= 1 << k
	sll	a3, a3, a7
	or	t2, t2, a3
	j	9f
5:	srl	a3, t2, a7			# a load of an unwritten cell
	andi	a3, a3, 1
	beqz	a3, 91f
	j	9f
6:	add	a3, a5, a7			# masks[pc + 1 + k] &= memvalid
	addi	a3, a3, 1
	slli	a3, a3, 1
	add	a3, t0, a3
	lhu	a4, 0(a3)
	and	a4, a4, t2
	sh	a4, 0(a3)
	mv	t2, t1
	j	9f
7:	lbu	a3, 2(a6)			# masks[pc + 1 + jt] &= memvalid
	add	a3, a5, a3
	addi	a3, a3, 1
	slli	a3, a3, 1
	add	a3, t0, a3
	lhu	a4, 0(a3)
	and	a4, a4, t2
	sh	a4, 0(a3)
	lbu	a3, 3(a6)			# masks[pc + 1 + jf] &= memvalid
	add	a3, a5, a3
	addi	a3, a3, 1
	slli	a3, a3, 1
	add	a3, t0, a3
	lhu	a4, 0(a3)
	and	a4, a4, t2
	sh	a4, 0(a3)
	mv	t2, t1
9:
	addi	a5, a5, 1
	j	3b
8:
	li	a0, 0
	j	99f
91:
	li	a0, -EINVAL
99:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size check_load_and_stores, .-check_load_and_stores

# ---------------------------------------------------------------------------
# bpf_convert_filter (net/core/filter.c)
# ---------------------------------------------------------------------------

# EMIT code, regs, off, imm: *insn++ = (struct bpf_insn){...}; insn in t3.
# Each operand is a register.
.macro EMIT code, regs, off, imm
	sb	\code, BPF_INSN_CODE(t3)
	sb	\regs, BPF_INSN_REGS(t3)
	sh	\off, BPF_INSN_OFF(t3)
	sw	\imm, BPF_INSN_IMM(t3)
	addi	t3, t3, BPF_INSN_SIZE
.endm

# bpf_convert_filter(struct sock_filter *prog, int len, struct bpf_prog
# *new_prog, int *new_len) -> 0 or -EINVAL. Without new_prog it only
# counts the eBPF instructions into *new_len; with it, it emits them into
# new_prog->insnsi in two passes (the first learns each classic
# instruction's eBPF address in addrs[], the second uses them for the jump
# offsets), after the prologue that clears A and X and moves the context
# into BPF_REG_CTX. The rules, for the opcodes seccomp lets through:
#   ALU (all, K and X) as they are, on A and X; DIV/MOD X first test X for
#     0 (then the program returns 0)
#   JA with its offset; JEQ/JGT/JGE/JSET: one jump when jf = 0, one
#     inverted jump (JNE/JLE/JLT) when jt = 0 (not for JSET), else a jump
#     and a JA; a K operand with its top bit set goes through BPF_REG_TMP
#   RET K: MOV32 R0, k and EXIT; RET A: EXIT
#   ST/STX, LD/LDX MEM: the stack below FP (stack_depth grows with ST)
#   LD/LDX IMM: MOV32; TAX/TXA: MOV64; LDX W ABS (seccomp's rewrite of a
#     seccomp_data load): LDX_MEM W A, CTX, k
# No ld_abs is ever seen (seccomp_check_filter rewrote them), so the
# prologue is always three instructions.
#   s1 prog, s2 len, s3 new_prog, s4 new_len, s5 pass, s6 new_flen,
#   s7 fp, s8 i, s9 new_insn, s10 first_insn, s11 addrs; tmp_insns on
#   the stack at 0(sp); t3 = insn (into tmp_insns)
	.globl bpf_convert_filter
	.type bpf_convert_filter, @function
bpf_convert_filter:
	addi	sp, sp, -176
	sd	ra, 168(sp)
	sd	s0, 160(sp)
	sd	s1, 152(sp)
	sd	s2, 144(sp)
	sd	s3, 136(sp)
	sd	s4, 128(sp)
	sd	s5, 120(sp)
	sd	s6, 112(sp)
	sd	s7, 104(sp)
	sd	s8, 96(sp)
	sd	s9, 88(sp)
	sd	s10, 80(sp)
	sd	s11, 72(sp)
	addi	s0, sp, 176
	mv	s1, a0
	mv	s2, a1
	mv	s3, a2
	mv	s4, a3
	li	s5, 0
	li	s6, 0
	li	s10, 0
	li	s11, 0
	blez	s2, 90f
	li	a5, BPF_MAXINSNS
	bgt	s2, a5, 90f
	beqz	s3, 1f
	addi	s10, s3, BP_INSNSI		# first_insn = new_prog->insnsi
	la	s11, bpf_convert_addrs		# addrs = kcalloc(len, ...)
	li	a5, 0
0:	slli	a4, a5, 2
	add	a4, s11, a4
	sw	zero, 0(a4)
	addi	a5, a5, 1
	blt	a5, s2, 0b
1:
.Ldo_pass:
	mv	s9, s10
	mv	s7, s1
	beqz	s3, 2f
	mv	t3, s9				# the classic prologue
	li	a4, BPF_ALU | BPF_XOR | BPF_X
	li	a5, BPF_REG_A | BPF_REG_A << 4
	EMIT	a4, a5, zero, zero		# A ^= A (32-bit)
	li	a5, BPF_REG_X | BPF_REG_X << 4
	EMIT	a4, a5, zero, zero		# X ^= X
	li	a4, EBPF_ALU64 | EBPF_MOV | BPF_X
	li	a5, BPF_REG_CTX | BPF_REG_ARG1 << 4
	EMIT	a4, a5, zero, zero		# CTX = ARG1
	mv	s9, t3
	j	3f
2:	addi	s9, s9, 3 * BPF_INSN_SIZE
3:
	li	s8, 0
4:	# for (i = 0; i < len; fp++, i++)
	bge	s8, s2, 60f
	addi	t3, sp, 0			# insn = tmp_insns
	beqz	s11, 5f
	sub	a5, s9, s10			# addrs[i] = new_insn - first_insn
	srai	a5, a5, 3
	slli	a4, s8, 2
	add	a4, s11, a4
	sw	a5, 0(a4)
5:
	lhu	t0, 0(s7)			# code
	lbu	t2, 2(s7)			# jt
	lbu	t4, 3(s7)			# jf
	lwu	t1, 4(s7)			# k
	andi	a5, t0, 7
	li	a4, BPF_ALU
	beq	a5, a4, 10f
	li	a4, BPF_JMP
	beq	a5, a4, 20f
	li	a4, BPF_RET
	beq	a5, a4, 30f
	li	a4, BPF_ST
	beq	t0, a4, 31f
	li	a4, BPF_STX
	beq	t0, a4, 31f
	li	a4, BPF_LD | BPF_MEM
	beq	t0, a4, 32f
	li	a4, BPF_LDX | BPF_MEM
	beq	t0, a4, 32f
	li	a4, BPF_LD | BPF_IMM
	beq	t0, a4, 33f
	li	a4, BPF_LDX | BPF_IMM
	beq	t0, a4, 33f
	li	a4, BPF_MISC | BPF_TAX
	beq	t0, a4, 34f
	li	a4, BPF_MISC | BPF_TXA
	beq	t0, a4, 35f
	li	a4, BPF_LDX | BPF_W | BPF_ABS
	beq	t0, a4, 36f
	j	90f				# skb loads and anything unknown

10:	# ALU: mapped as it is, on A and X
	li	a4, 0xff
	bgtu	t0, a4, 90f
	li	a4, BPF_ALU | BPF_DIV | BPF_X
	beq	t0, a4, 11f
	li	a4, BPF_ALU | BPF_MOD | BPF_X
	bne	t0, a4, 12f
11:	li	a4, BPF_ALU | EBPF_MOV | BPF_X	# X = (u32) X
	li	a5, BPF_REG_X | BPF_REG_X << 4
	EMIT	a4, a5, zero, zero
	li	a4, BPF_JMP | EBPF_JNE | BPF_K	# if (X != 0) skip 2
	li	a5, BPF_REG_X
	li	a6, 2
	EMIT	a4, a5, a6, zero
	li	a4, BPF_ALU | BPF_XOR | BPF_X	# A ^= A
	EMIT	a4, zero, zero, zero
	li	a4, BPF_JMP | EBPF_EXIT		# return 0
	EMIT	a4, zero, zero, zero
12:	li	a5, BPF_REG_A | BPF_REG_X << 4
	EMIT	t0, a5, zero, t1
	j	50f

20:	# JMP
	li	a4, BPF_JMP | BPF_JA
	bne	t0, a4, 21f
	add	a0, s8, t1			# target = i + k + 1
	addi	a0, a0, 1
	call	.Lemit_jmp_off			# -> a0 = off, or a1 != 0: err
	bnez	a1, 90f
	li	a4, BPF_JMP | BPF_JA
	EMIT	a4, zero, a0, zero
	j	50f
21:	andi	a4, t0, 0xf0			# BPF_OP
	li	a5, BPF_JEQ
	beq	a4, a5, 22f
	li	a5, BPF_JGT
	beq	a4, a5, 22f
	li	a5, BPF_JGE
	beq	a4, a5, 22f
	li	a5, BPF_JSET
	bne	a4, a5, 90f
22:	andi	t5, t0, BPF_X			# bpf_src
	li	t6, BPF_REG_A			# regs byte: dst A
	mv	a7, t1				# imm
	bnez	t5, 23f
	sext.w	a5, t1
	bgez	a5, 24f
	li	a4, BPF_ALU | EBPF_MOV | BPF_K	# TMP = k (zero-extended)
	li	a5, BPF_REG_TMP
	EMIT	a4, a5, zero, t1
	li	t6, BPF_REG_A | BPF_REG_TMP << 4
	li	t5, BPF_X
	li	a7, 0
	j	24f
23:	li	t6, BPF_REG_A | BPF_REG_X << 4
24:	andi	t0, t0, 0xf0			# t0 = BPF_OP from here on
	bnez	t4, 25f
	add	a0, s8, t2			# jf == 0: one jump to i + jt + 1
	addi	a0, a0, 1
	call	.Lemit_jmp_off
	bnez	a1, 90f
	or	a4, t0, t5
	ori	a4, a4, BPF_JMP
	EMIT	a4, t6, a0, a7
	j	50f
25:	bnez	t2, 27f
	li	a5, BPF_JEQ			# jt == 0: invert, jump to i + jf + 1
	li	a4, EBPF_JNE
	beq	t0, a5, 26f
	li	a5, BPF_JGT
	li	a4, EBPF_JLE
	beq	t0, a5, 26f
	li	a5, BPF_JGE
	li	a4, EBPF_JLT
	bne	t0, a5, 27f
26:	mv	t0, a4
	add	a0, s8, t4
	addi	a0, a0, 1
	call	.Lemit_jmp_off
	bnez	a1, 90f
	or	a4, t0, t5
	ori	a4, a4, BPF_JMP
	EMIT	a4, t6, a0, a7
	j	50f
27:	add	a0, s8, t2			# jump to i + jt + 1, then JA to i + jf + 1
	addi	a0, a0, 1
	call	.Lemit_jmp_off
	bnez	a1, 90f
	or	a4, t0, t5
	ori	a4, a4, BPF_JMP
	EMIT	a4, t6, a0, a7
	add	a0, s8, t4
	addi	a0, a0, 1
	call	.Lemit_jmp_off
	bnez	a1, 90f
	li	a4, BPF_JMP | BPF_JA
	EMIT	a4, zero, a0, zero
	j	50f

30:	# RET K: R0 = k, exit; RET A: exit
	andi	a4, t0, 0x18			# BPF_RVAL
	bnez	a4, 29f
	li	a4, BPF_ALU | EBPF_MOV | BPF_K
	EMIT	a4, zero, zero, t1
29:	li	a4, BPF_JMP | EBPF_EXIT
	EMIT	a4, zero, zero, zero
	j	50f

31:	# ST / STX: *(u32 *)(FP - (k * 4 + 4)) = A / X
	slli	a6, t1, 2
	addi	a6, a6, 4			# stack_off
	li	a5, BPF_REG_FP | BPF_REG_A << 4
	li	a4, BPF_ST
	beq	t0, a4, 1f
	li	a5, BPF_REG_FP | BPF_REG_X << 4
1:	neg	a3, a6
	li	a4, BPF_STX | BPF_MEM | BPF_W
	EMIT	a4, a5, a3, zero
	beqz	s3, 50f
	lwu	a4, BP_STACK_DEPTH(s3)
	bgeu	a4, a6, 50f
	sw	a6, BP_STACK_DEPTH(s3)
	j	50f

32:	# LD / LDX MEM: A / X = *(u32 *)(FP - (k * 4 + 4))
	slli	a6, t1, 2
	addi	a6, a6, 4
	neg	a6, a6
	li	a5, BPF_REG_A | BPF_REG_FP << 4
	li	a4, BPF_LD | BPF_MEM
	beq	t0, a4, 1f
	li	a5, BPF_REG_X | BPF_REG_FP << 4
1:	li	a4, BPF_LDX | BPF_MEM | BPF_W
	EMIT	a4, a5, a6, zero
	j	50f

33:	# LD / LDX IMM: A / X = (u32) k
	li	a5, BPF_REG_A
	li	a4, BPF_LD | BPF_IMM
	beq	t0, a4, 1f
	li	a5, BPF_REG_X
1:	li	a4, BPF_ALU | EBPF_MOV | BPF_K
	EMIT	a4, a5, zero, t1
	j	50f

34:	# TAX: X = A
	li	a4, EBPF_ALU64 | EBPF_MOV | BPF_X
	li	a5, BPF_REG_X | BPF_REG_A << 4
	EMIT	a4, a5, zero, zero
	j	50f
35:	# TXA: A = X
	li	a4, EBPF_ALU64 | EBPF_MOV | BPF_X
	li	a5, BPF_REG_A | BPF_REG_X << 4
	EMIT	a4, a5, zero, zero
	j	50f
36:	# LDX W ABS (a seccomp_data field): A = *(u32 *)(CTX + k)
	li	a4, BPF_LDX | BPF_MEM | BPF_W
	li	a5, BPF_REG_A | BPF_REG_CTX << 4
	EMIT	a4, a5, t1, zero

50:	# copy tmp_insns into the program (when emitting), advance new_insn
	addi	a5, sp, 0
	sub	a6, t3, a5			# bytes emitted
	beqz	s3, 52f
	mv	a4, s9
51:	bgeu	a5, t3, 52f
	ld	a3, 0(a5)
	sd	a3, 0(a4)
	addi	a5, a5, 8
	addi	a4, a4, 8
	j	51b
52:	add	s9, s9, a6
	addi	s7, s7, SOCK_FILTER_SIZE
	addi	s8, s8, 1
	j	4b

60:	sub	a5, s9, s10
	srai	a5, a5, 3			# new_insn - first_insn
	bnez	s3, 61f
	sw	a5, 0(s4)			# only counting
	li	a0, 0
	j	99f
61:	addi	s5, s5, 1			# pass++
	beq	s6, a5, 62f
	mv	s6, a5
	li	a4, 2
	bgt	s5, a4, 90f
	j	.Ldo_pass
62:	lw	a4, 0(s4)
	bne	a4, s6, 91f			# BUG_ON(*new_len != new_flen)
	li	a0, 0
	j	99f
90:
	li	a0, -EINVAL
99:
	ld	ra, 168(sp)
	ld	s0, 160(sp)
	ld	s1, 152(sp)
	ld	s2, 144(sp)
	ld	s3, 136(sp)
	ld	s4, 128(sp)
	ld	s5, 120(sp)
	ld	s6, 112(sp)
	ld	s7, 104(sp)
	ld	s8, 96(sp)
	ld	s9, 88(sp)
	ld	s10, 80(sp)
	ld	s11, 72(sp)
	addi	sp, sp, 176
	ret
91:
	ebreak					# BUG()

# BPF_EMIT_JMP's offset: a0 = target -> a0 = addrs[target] - addrs[i] - 1
# - (insn - tmp_insns), or 0 when not emitting; a1 = 0, or 1 when target is
# outside the program or the offset does not fit in 16 bits. A local
# helper of bpf_convert_filter (t3, s8, s2, s11 and sp are its).
.Lemit_jmp_off:
	li	a1, 1
	bltz	a0, 2f
	bge	a0, s2, 2f
	li	a1, 0
	beqz	s11, 1f
	slli	a0, a0, 2
	add	a0, s11, a0
	lw	a0, 0(a0)
	slli	a2, s8, 2
	add	a2, s11, a2
	lw	a2, 0(a2)
	sub	a0, a0, a2
	addi	a0, a0, -1
	sub	a2, t3, sp			# insn - tmp_insns (the caller's
	srai	a2, a2, 3			# frame: tmp_insns is at 0(sp))
	sub	a0, a0, a2
	li	a2, -32768
	blt	a0, a2, 3f
	li	a2, 32767
	bgt	a0, a2, 3f
	ret
1:	li	a0, 0
	ret
3:	li	a1, 1
2:	ret
	.size bpf_convert_filter, .-bpf_convert_filter

# ---------------------------------------------------------------------------
# bpf_migrate_filter, bpf_prepare_filter, bpf_prog_create_from_user
# ---------------------------------------------------------------------------

# bpf_migrate_filter(struct bpf_prog *fp) -> fp or ERR_PTR: copy the checked
# classic program aside (old_prog), count its eBPF length, "realloc" (the
# slot must hold it, else -ENOMEM), convert into fp->insnsi and pick the
# runtime. On error the prog is released.
#   s1 = fp, s2 = old_len, s3 = err; new_len at 0(sp)
	.type bpf_migrate_filter, @function
bpf_migrate_filter:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	lwu	s2, BP_LEN(a0)
	la	a0, bpf_migrate_old_prog	# old_prog = kmemdup_array(fp->insns, ...)
	addi	a1, s1, BP_INSNSI
	slli	a2, s2, 3
	add	a2, a1, a2
1:	bgeu	a1, a2, 2f
	ld	a3, 0(a1)
	sd	a3, 0(a0)
	addi	a1, a1, 8
	addi	a0, a0, 8
	j	1b
2:
	la	a0, bpf_migrate_old_prog	# 1st pass: the new length
	mv	a1, s2
	li	a2, 0
	mv	a3, sp
	call	bpf_convert_filter
	mv	s3, a0
	bnez	a0, 8f
	lw	a5, 0(sp)
	li	a4, SECCOMP_SLOT_EBPF		# bpf_prog_realloc(fp, bpf_prog_size(new_len))
	li	s3, -ENOMEM
	bgtu	a5, a4, 8f
	sw	a5, BP_LEN(s1)
	la	a0, bpf_migrate_old_prog	# 2nd pass: remap
	mv	a1, s2
	mv	a2, s1
	mv	a3, sp
	call	bpf_convert_filter
	mv	s3, a0
	bnez	a0, 8f
	mv	a0, s1
	call	bpf_prog_select_runtime
	j	9f
8:
	mv	a0, s1				# __bpf_prog_release(fp)
	call	__bpf_prog_free
	mv	a0, s3
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size bpf_migrate_filter, .-bpf_migrate_filter

# bpf_prog_select_runtime(struct bpf_prog *fp) -> fp: no JIT
# (CONFIG_BPF_JIT=n), so bpf_prog_select_interpreter: interpreters[
# round_up(max(stack_depth, 1), 32) / 32 - 1]. A classic program uses at
# most BPF_MEMWORDS * 4 = 64 bytes of stack, so the first two suffice.
	.globl bpf_prog_select_runtime
	.type bpf_prog_select_runtime, @function
bpf_prog_select_runtime:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lwu	a5, BP_STACK_DEPTH(a0)
	bnez	a5, 1f
	li	a5, 1
1:	addi	a5, a5, 31
	srli	a5, a5, 5
	addi	a5, a5, -1			# idx
	slli	a5, a5, 3
	la	a4, interpreters
	add	a5, a4, a5
	ld	a5, 0(a5)
	sd	a5, BP_BPF_FUNC(a0)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size bpf_prog_select_runtime, .-bpf_prog_select_runtime

# bpf_prepare_filter(struct bpf_prog *fp, int (*trans)(struct sock_filter *,
# unsigned int)) -> fp or ERR_PTR: bpf_check_classic, then the caller's
# extra check and rewrite (seccomp_check_filter), then (no classic JIT)
# bpf_migrate_filter.
	.type bpf_prepare_filter, @function
bpf_prepare_filter:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	sd	zero, BP_BPF_FUNC(a0)
	addi	a0, s1, BP_INSNSI
	lwu	a1, BP_LEN(s1)
	call	bpf_check_classic
	bnez	a0, 8f
	beqz	s2, 1f
	addi	a0, s1, BP_INSNSI
	lwu	a1, BP_LEN(s1)
	jalr	s2				# trans(fp->insns, fp->len)
	bnez	a0, 8f
1:	mv	a0, s1
	call	bpf_migrate_filter
	j	9f
8:
	mv	s2, a0
	mv	a0, s1
	call	__bpf_prog_free
	mv	a0, s2
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size bpf_prepare_filter, .-bpf_prepare_filter

# bpf_prog_create_from_user(struct bpf_prog **pfp, struct sock_fprog
# *fprog, trans, bool save_orig) -> 0 or -errno: the program must exist
# and have 1..BPF_MAXINSNS instructions (bpf_check_basics_ok); it is
# copied from user memory into a new prog's insns, saved as it is in
# orig_prog when asked (seccomp asks: its action cache emulates the
# original), then prepared.
#   s1 = pfp, s2 = fprog, s3 = trans, s4 = save_orig, s5 = fp, s6 = len
	.globl bpf_prog_create_from_user
	.type bpf_prog_create_from_user, @function
bpf_prog_create_from_user:
	addi	sp, sp, -64
	sd	ra, 56(sp)
	sd	s0, 48(sp)
	sd	s1, 40(sp)
	sd	s2, 32(sp)
	sd	s3, 24(sp)
	sd	s4, 16(sp)
	sd	s5, 8(sp)
	sd	s6, 0(sp)
	addi	s0, sp, 64
	mv	s1, a0
	mv	s2, a1
	mv	s3, a2
	mv	s4, a3
	ld	a5, SOCK_FPROG_FILTER(s2)	# bpf_check_basics_ok
	beqz	a5, 90f
	lhu	s6, SOCK_FPROG_LEN(s2)
	beqz	s6, 90f
	li	a5, BPF_MAXINSNS
	bgtu	s6, a5, 90f
	mv	a0, s6
	call	bpf_prog_alloc
	mv	s5, a0
	li	a0, -ENOMEM
	beqz	s5, 99f
	addi	a0, s5, BP_INSNSI		# copy_from_user(fp->insns, filter, fsize)
	ld	a1, SOCK_FPROG_FILTER(s2)
	slli	a2, s6, 3
	call	copy_from_user_sum
	bnez	a0, 80f
	sw	s6, BP_LEN(s5)
	sd	zero, BP_ORIG_PROG(s5)
	beqz	s4, 1f
	li	a5, BP_SLOT_FPK			# bpf_prog_store_orig_filter
	add	a5, s5, a5
	sd	a5, BP_ORIG_PROG(s5)
	sh	s6, FPK_LEN(a5)
	li	a4, BP_SLOT_ORIG
	add	a4, s5, a4
	sd	a4, FPK_FILTER(a5)
	addi	a3, s5, BP_INSNSI		# kmemdup(fp->insns, fsize)
	slli	a2, s6, 3
	add	a2, a3, a2
2:	bgeu	a3, a2, 1f
	ld	a1, 0(a3)
	sd	a1, 0(a4)
	addi	a3, a3, 8
	addi	a4, a4, 8
	j	2b
1:
	mv	a0, s5
	mv	a1, s3
	call	bpf_prepare_filter
	li	a5, -MAX_ERRNO			# IS_ERR(fp)
	bgeu	a0, a5, 99f
	sd	a0, 0(s1)
	li	a0, 0
	j	99f
80:
	mv	a0, s5
	call	__bpf_prog_free
	li	a0, -EFAULT
	j	99f
90:
	li	a0, -EINVAL
99:
	ld	ra, 56(sp)
	ld	s0, 48(sp)
	ld	s1, 40(sp)
	ld	s2, 32(sp)
	ld	s3, 24(sp)
	ld	s4, 16(sp)
	ld	s5, 8(sp)
	ld	s6, 0(sp)
	addi	sp, sp, 64
	ret
	.size bpf_prog_create_from_user, .-bpf_prog_create_from_user

	.section .kernel.rodata, "a", @progbits
# chk_code_allowed's table: 1 for each classic opcode bpf_check_classic takes.
	.type bpf_classic_codes, @object
bpf_classic_codes:
.macro OK code
	.rept \code - (. - bpf_classic_codes)
	.byte	0
	.endr
	.byte	1
.endm
	OK BPF_LD | BPF_W | BPF_IMM		# 0x00 (BPF_LD|BPF_IMM)
	OK BPF_LDX | BPF_W | BPF_IMM		# 0x01
	OK BPF_ST				# 0x02
	OK BPF_STX				# 0x03
	OK BPF_ALU | BPF_ADD | BPF_K		# 0x04
	OK BPF_JMP | BPF_JA			# 0x05
	OK BPF_RET | BPF_K			# 0x06
	OK BPF_MISC | BPF_TAX			# 0x07
	OK BPF_ALU | BPF_ADD | BPF_X		# 0x0c
	OK BPF_ALU | BPF_SUB | BPF_K		# 0x14
	OK BPF_JMP | BPF_JEQ | BPF_K		# 0x15
	OK BPF_RET | BPF_A			# 0x16
	OK BPF_ALU | BPF_SUB | BPF_X		# 0x1c
	OK BPF_JMP | BPF_JEQ | BPF_X		# 0x1d
	OK BPF_LD | BPF_W | BPF_ABS		# 0x20
	OK BPF_ALU | BPF_MUL | BPF_K		# 0x24
	OK BPF_JMP | BPF_JGT | BPF_K		# 0x25
	OK BPF_LD | BPF_H | BPF_ABS		# 0x28
	OK BPF_ALU | BPF_MUL | BPF_X		# 0x2c
	OK BPF_JMP | BPF_JGT | BPF_X		# 0x2d
	OK BPF_LD | BPF_B | BPF_ABS		# 0x30
	OK BPF_ALU | BPF_DIV | BPF_K		# 0x34
	OK BPF_JMP | BPF_JGE | BPF_K		# 0x35
	OK BPF_ALU | BPF_DIV | BPF_X		# 0x3c
	OK BPF_JMP | BPF_JGE | BPF_X		# 0x3d
	OK BPF_LD | BPF_W | BPF_IND		# 0x40
	OK BPF_ALU | BPF_OR | BPF_K		# 0x44
	OK BPF_JMP | BPF_JSET | BPF_K		# 0x45
	OK BPF_LD | BPF_H | BPF_IND		# 0x48
	OK BPF_ALU | BPF_OR | BPF_X		# 0x4c
	OK BPF_JMP | BPF_JSET | BPF_X		# 0x4d
	OK BPF_LD | BPF_B | BPF_IND		# 0x50
	OK BPF_ALU | BPF_AND | BPF_K		# 0x54
	OK BPF_ALU | BPF_AND | BPF_X		# 0x5c
	OK BPF_LD | BPF_MEM			# 0x60
	OK BPF_LDX | BPF_MEM			# 0x61
	OK BPF_ALU | BPF_LSH | BPF_K		# 0x64
	OK BPF_ALU | BPF_LSH | BPF_X		# 0x6c
	OK BPF_ALU | BPF_RSH | BPF_K		# 0x74
	OK BPF_ALU | BPF_RSH | BPF_X		# 0x7c
	OK BPF_LD | BPF_W | BPF_LEN		# 0x80
	OK BPF_LDX | BPF_W | BPF_LEN		# 0x81
	OK BPF_ALU | BPF_NEG			# 0x84
	OK BPF_MISC | BPF_TXA			# 0x87
	OK BPF_ALU | BPF_MOD | BPF_K		# 0x94
	OK BPF_ALU | BPF_MOD | BPF_X		# 0x9c
	OK BPF_ALU | BPF_XOR | BPF_K		# 0xa4
	OK BPF_ALU | BPF_XOR | BPF_X		# 0xac
	OK BPF_LDX | BPF_B | BPF_MSH		# 0xb1
	.rept 256 - (. - bpf_classic_codes)
	.byte	0
	.endr
	.size bpf_classic_codes, .-bpf_classic_codes

	.section .kernel.bss, "aw", @nobits
	.balign 8
	.globl bpf_prog_slots
	.type bpf_prog_slots, @object
bpf_prog_slots:
	.skip	SECCOMP_MAX_FILTERS * BP_SLOT_SIZE
	.size bpf_prog_slots, .-bpf_prog_slots
	.type bpf_prog_slot_used, @object
bpf_prog_slot_used:
	.skip	SECCOMP_MAX_FILTERS
	.size bpf_prog_slot_used, .-bpf_prog_slot_used
	.balign 8
	.type bpf_migrate_old_prog, @object
bpf_migrate_old_prog:
	.skip	SECCOMP_SLOT_CBPF * SOCK_FILTER_SIZE
	.size bpf_migrate_old_prog, .-bpf_migrate_old_prog
	.type bpf_convert_addrs, @object
bpf_convert_addrs:
	.skip	SECCOMP_SLOT_CBPF * 4
	.size bpf_convert_addrs, .-bpf_convert_addrs
	.type bpf_check_masks, @object
bpf_check_masks:
	.skip	SECCOMP_SLOT_CBPF * 2
	.size bpf_check_masks, .-bpf_check_masks

# bpf.S: the eBPF interpreter of kernel/bpf/core.c, which runs every
# seccomp filter: __bpf_prog_run32 / __bpf_prog_run64 (DEFINE_BPF_PROG_RUN)
# and ___bpf_prog_run with its jump table, and the bpf_stats_enabled_key
# that bpf_prog_run tests. The classic side (checks, conversion) is in
# bpf-filter.S.
#
# Linux 6.12's riscv64 build in /work/kernel/work13 has CONFIG_BPF_JIT off,
# so bpf_prog_select_runtime picks an interpreter and seccomp filters run in
# ___bpf_prog_run, one jump-table dispatch per eBPF instruction (the
# computed-goto interpreter). That is what this file models. The riscv64
# JIT is out of scope.
#
# Written as GCC compiles the computed goto: the dispatch (load
# insn->code, index the table, jump) is duplicated at the end of every
# handler, and regs, insn and the table's address live in s1, s2, s3.
# Every eBPF opcode the classic converter never emits (64-bit ALU, calls,
# atomics, ...) has its jump-table entry at default_label, which is BUG()
# (ebreak) as in Linux.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "cbpf.inc"
	.include "minikernel-seccomp.inc"

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# The interpreter (kernel/bpf/core.c)
# ---------------------------------------------------------------------------

# __bpf_prog_run32 / __bpf_prog_run64(const void *ctx, const struct
# bpf_insn *insn) -> unsigned int: DEFINE_BPF_PROG_RUN(stack_size): the
# program's stack and its registers on this frame, regs[] zeroed
# (MAX_BPF_EXT_REG of them), FP = the top of the stack, ARG1 = ctx, then
# ___bpf_prog_run(regs, insn). The u64 result is returned as unsigned int
# (sign-extended from 32 bits, as the psABI keeps 32-bit values).
# Frame: regs[12] at 0(sp), stack[] above them, ra and s0 on top.
.macro DEFINE_BPF_PROG_RUN stack_size
	.type __bpf_prog_run\stack_size, @function
__bpf_prog_run\stack_size:
	addi	sp, sp, -(MAX_BPF_EXT_REG * 8 + \stack_size + 16)
	sd	ra, MAX_BPF_EXT_REG * 8 + \stack_size + 8(sp)
	sd	s0, MAX_BPF_EXT_REG * 8 + \stack_size(sp)
	addi	s0, sp, MAX_BPF_EXT_REG * 8 + \stack_size + 16
	.set .Lr, 0
	.rept MAX_BPF_EXT_REG
	sd	zero, .Lr * 8(sp)		# u64 regs[MAX_BPF_EXT_REG] = {}
	.set .Lr, .Lr + 1
	.endr
	addi	a5, sp, MAX_BPF_EXT_REG * 8 + \stack_size
	sd	a5, BPF_REG_FP * 8(sp)		# FP = &stack[ARRAY_SIZE(stack)]
	sd	a0, BPF_REG_ARG1 * 8(sp)	# ARG1 = ctx
	mv	a0, sp
	call	___bpf_prog_run			# (regs, insn)
	sext.w	a0, a0
	ld	ra, MAX_BPF_EXT_REG * 8 + \stack_size + 8(sp)
	ld	s0, MAX_BPF_EXT_REG * 8 + \stack_size(sp)
	addi	sp, sp, MAX_BPF_EXT_REG * 8 + \stack_size + 16
	ret
	.size __bpf_prog_run\stack_size, .-__bpf_prog_run\stack_size
.endm
	DEFINE_BPF_PROG_RUN 32
	DEFINE_BPF_PROG_RUN 64

# ___bpf_prog_run(u64 *regs, const struct bpf_insn *insn) -> R0 at EXIT:
# decode and run eBPF instructions, each through jumptable[insn->code].
# s1 = regs, s2 = insn, s3 = jumptable.
#
# Per-handler instruction counts (each includes the 6 of CONT):
#   ALU32 reg (ADD SUB MUL AND OR XOR LSH RSH)        19
#   ALU32 imm (the same ops)                          16
#   DIV32 reg 22, imm 19 (OFF test; they also set AX); NEG 15
#   MOV32 imm 12; MOV32 reg 19; MOV64 reg 17
#   LDX_MEM_W 18; STX_MEM_W 18
#   JMP imm (JEQ JNE JGT JGE JLT JLE) 13 not taken, 16 taken; JSET +1
#   JMP reg: 16 not taken, 19 taken; JSET +1
#   JA 9; EXIT 8 (ld R0 + epilogue 7)
#   entry: prologue 7, mv, mv, la (2), first dispatch 5: 16

# CONT: insn++ and the computed goto, duplicated into every handler.
.macro CONT
	addi	s2, s2, BPF_INSN_SIZE
	lbu	a5, BPF_INSN_CODE(s2)
	slli	a5, a5, 3
	add	a5, s3, a5
	ld	a5, 0(a5)
	jr	a5
.endm
# a3 = &DST
.macro DST_ADDR
	lbu	a3, BPF_INSN_REGS(s2)
	andi	a3, a3, 15
	slli	a3, a3, 3
	add	a3, s1, a3
.endm
# a3 = &DST, a4 = &SRC
.macro DST_SRC_ADDR
	lbu	a4, BPF_INSN_REGS(s2)
	andi	a3, a4, 15
	srli	a4, a4, 4
	slli	a3, a3, 3
	slli	a4, a4, 3
	add	a3, s1, a3
	add	a4, s1, a4
.endm
# DST = (u32) DST op (u32) SRC
.macro ALU32_X op
	DST_SRC_ADDR
	ld	a2, 0(a3)
	ld	a4, 0(a4)
	\op	a2, a2, a4
	slli	a2, a2, 32
	srli	a2, a2, 32
	sd	a2, 0(a3)
	CONT
.endm
# DST = (u32) DST op (u32) IMM
.macro ALU32_K op
	DST_ADDR
	ld	a2, 0(a3)
	lw	a4, BPF_INSN_IMM(s2)
	\op	a2, a2, a4
	slli	a2, a2, 32
	srli	a2, a2, 32
	sd	a2, 0(a3)
	CONT
.endm
# if (DST cmp (u64)(s64) IMM) insn += off; the branch skips the jump
# when the comparison fails (its inverse is given).
.macro JMP_K notbr, swap=0
	DST_ADDR
	ld	a4, 0(a3)
	lw	a5, BPF_INSN_IMM(s2)
	.if \swap
	\notbr	a5, a4, 1f
	.else
	\notbr	a4, a5, 1f
	.endif
	lh	a5, BPF_INSN_OFF(s2)
	slli	a5, a5, 3
	add	s2, s2, a5
1:	CONT
.endm
.macro JMP_X notbr, swap=0
	DST_SRC_ADDR
	ld	a3, 0(a3)
	ld	a4, 0(a4)
	.if \swap
	\notbr	a4, a3, 1f
	.else
	\notbr	a3, a4, 1f
	.endif
	lh	a5, BPF_INSN_OFF(s2)
	slli	a5, a5, 3
	add	s2, s2, a5
1:	CONT
.endm

	.type ___bpf_prog_run, @function
___bpf_prog_run:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	la	s3, ___bpf_prog_run_jumptable
	# select_insn: goto *jumptable[insn->code]
	lbu	a5, BPF_INSN_CODE(s2)
	slli	a5, a5, 3
	add	a5, s3, a5
	ld	a5, 0(a5)
	jr	a5

.LALU_ADD_X:	ALU32_X addw
.LALU_ADD_K:	ALU32_K addw
.LALU_SUB_X:	ALU32_X subw
.LALU_SUB_K:	ALU32_K subw
.LALU_AND_X:	ALU32_X and
.LALU_AND_K:	ALU32_K and
.LALU_OR_X:	ALU32_X or
.LALU_OR_K:	ALU32_K or
.LALU_XOR_X:	ALU32_X xor
.LALU_XOR_K:	ALU32_K xor
.LALU_MUL_X:	ALU32_X mulw
.LALU_MUL_K:	ALU32_K mulw
.LALU_LSH_X:	ALU32_X sllw
.LALU_LSH_K:	ALU32_K sllw
.LALU_RSH_X:	ALU32_X srlw
.LALU_RSH_K:	ALU32_K srlw
.LALU_NEG:	# DST = (u32) -DST
	DST_ADDR
	ld	a2, 0(a3)
	negw	a2, a2
	slli	a2, a2, 32
	srli	a2, a2, 32
	sd	a2, 0(a3)
	CONT
.LALU_DIV_X:	# OFF 0: AX = (u32) DST; do_div(AX, (u32) SRC); DST = (u32) AX
	lh	a5, BPF_INSN_OFF(s2)		# OFF 1 (signed) is never emitted
	bnez	a5, .Ldefault_label		# by the classic converter
	DST_SRC_ADDR
	ld	a2, 0(a3)
	ld	a4, 0(a4)
	divuw	a2, a2, a4
	slli	a2, a2, 32
	srli	a2, a2, 32
	sd	a2, 11 * 8(s1)			# AX
	sd	a2, 0(a3)
	CONT
.LALU_DIV_K:
	lh	a5, BPF_INSN_OFF(s2)
	bnez	a5, .Ldefault_label
	DST_ADDR
	ld	a2, 0(a3)
	lw	a4, BPF_INSN_IMM(s2)
	divuw	a2, a2, a4
	slli	a2, a2, 32
	srli	a2, a2, 32
	sd	a2, 11 * 8(s1)
	sd	a2, 0(a3)
	CONT
.LALU_MOV_K:	# DST = (u32) IMM
	DST_ADDR
	lwu	a4, BPF_INSN_IMM(s2)
	sd	a4, 0(a3)
	CONT
.LALU_MOV_X:	# switch (OFF): 0: DST = (u32) SRC; 8, 16: from (s8), (s16) SRC
	lh	a5, BPF_INSN_OFF(s2)
	DST_SRC_ADDR
	ld	a4, 0(a4)
	bnez	a5, 1f
	slli	a4, a4, 32
	srli	a4, a4, 32
	sd	a4, 0(a3)
	CONT
1:	li	a2, 8
	bne	a5, a2, 2f
	slli	a4, a4, 56
	srai	a4, a4, 56
	j	3f
2:	li	a2, 16
	bne	a5, a2, 4f
	slli	a4, a4, 48
	srai	a4, a4, 48
3:	slli	a4, a4, 32
	srli	a4, a4, 32
	sd	a4, 0(a3)
4:	CONT
.LALU64_MOV_X:	# switch (OFF): 0: DST = SRC; 8, 16, 32: sign-extended
	lh	a5, BPF_INSN_OFF(s2)
	DST_SRC_ADDR
	ld	a4, 0(a4)
	bnez	a5, 1f
	sd	a4, 0(a3)
	CONT
1:	li	a2, 8
	bne	a5, a2, 2f
	slli	a4, a4, 56
	srai	a4, a4, 56
	j	5f
2:	li	a2, 16
	bne	a5, a2, 3f
	slli	a4, a4, 48
	srai	a4, a4, 48
	j	5f
3:	li	a2, 32
	bne	a5, a2, 4f
	sext.w	a4, a4
5:	sd	a4, 0(a3)
4:	CONT
.LLDX_MEM_W:	# DST = *(u32 *)(SRC + off)
	DST_SRC_ADDR
	ld	a4, 0(a4)
	lh	a5, BPF_INSN_OFF(s2)
	add	a4, a4, a5
	lwu	a4, 0(a4)
	sd	a4, 0(a3)
	CONT
.LSTX_MEM_W:	# *(u32 *)(DST + off) = SRC
	DST_SRC_ADDR
	ld	a3, 0(a3)
	ld	a4, 0(a4)
	lh	a5, BPF_INSN_OFF(s2)
	add	a3, a3, a5
	sw	a4, 0(a3)
	CONT
.LJMP_JA:	# insn += off
	lh	a5, BPF_INSN_OFF(s2)
	slli	a5, a5, 3
	add	s2, s2, a5
	CONT
.LJMP_JEQ_K:	JMP_K bne
.LJMP_JEQ_X:	JMP_X bne
.LJMP_JNE_K:	JMP_K beq
.LJMP_JNE_X:	JMP_X beq
.LJMP_JGT_K:	JMP_K bgeu, 1			# not (DST > IMM): IMM >= DST
.LJMP_JGT_X:	JMP_X bgeu, 1
.LJMP_JGE_K:	JMP_K bltu
.LJMP_JGE_X:	JMP_X bltu
.LJMP_JLT_K:	JMP_K bgeu
.LJMP_JLT_X:	JMP_X bgeu
.LJMP_JLE_K:	JMP_K bltu, 1			# not (DST <= IMM): IMM < DST
.LJMP_JLE_X:	JMP_X bltu, 1
.LJMP_JSET_K:	# if (DST & IMM) insn += off
	DST_ADDR
	ld	a4, 0(a3)
	lw	a5, BPF_INSN_IMM(s2)
	and	a4, a4, a5
	beqz	a4, 1f
	lh	a5, BPF_INSN_OFF(s2)
	slli	a5, a5, 3
	add	s2, s2, a5
1:	CONT
.LJMP_JSET_X:
	DST_SRC_ADDR
	ld	a3, 0(a3)
	ld	a4, 0(a4)
	and	a3, a3, a4
	beqz	a3, 1f
	lh	a5, BPF_INSN_OFF(s2)
	slli	a5, a5, 3
	add	s2, s2, a5
1:	CONT
.LJMP_EXIT:	# return BPF_R0
	ld	a0, 0(s1)
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
.Ldefault_label:	# an opcode the table does not know: BUG()
	ebreak
	j	.Ldefault_label
	.size ___bpf_prog_run, .-___bpf_prog_run

# ---------------------------------------------------------------------------
	.section .kernel.rodata, "a", @progbits
	.balign 8
# jumptable[256]: every opcode the classic converter emits, in code order;
# the rest go to default_label.
	.type ___bpf_prog_run_jumptable, @object
___bpf_prog_run_jumptable:
.macro JT code, label
	.rept (\code * 8 - (. - ___bpf_prog_run_jumptable)) / 8
	.dword	.Ldefault_label
	.endr
	.dword	\label
.endm
	JT 0x04, .LALU_ADD_K
	JT 0x05, .LJMP_JA
	JT 0x0c, .LALU_ADD_X
	JT 0x14, .LALU_SUB_K
	JT 0x15, .LJMP_JEQ_K
	JT 0x1c, .LALU_SUB_X
	JT 0x1d, .LJMP_JEQ_X
	JT 0x24, .LALU_MUL_K
	JT 0x25, .LJMP_JGT_K
	JT 0x2c, .LALU_MUL_X
	JT 0x2d, .LJMP_JGT_X
	JT 0x34, .LALU_DIV_K
	JT 0x35, .LJMP_JGE_K
	JT 0x3c, .LALU_DIV_X
	JT 0x3d, .LJMP_JGE_X
	JT 0x44, .LALU_OR_K
	JT 0x45, .LJMP_JSET_K
	JT 0x4c, .LALU_OR_X
	JT 0x4d, .LJMP_JSET_X
	JT 0x54, .LALU_AND_K
	JT 0x55, .LJMP_JNE_K
	JT 0x5c, .LALU_AND_X
	JT 0x5d, .LJMP_JNE_X
	JT 0x61, .LLDX_MEM_W
	JT 0x63, .LSTX_MEM_W
	JT 0x64, .LALU_LSH_K
	JT 0x6c, .LALU_LSH_X
	JT 0x74, .LALU_RSH_K
	JT 0x7c, .LALU_RSH_X
	JT 0x84, .LALU_NEG
	JT 0x95, .LJMP_EXIT
	JT 0xa4, .LALU_XOR_K
	JT 0xa5, .LJMP_JLT_K
	JT 0xac, .LALU_XOR_X
	JT 0xad, .LJMP_JLT_X
	JT 0xb4, .LALU_MOV_K
	JT 0xb5, .LJMP_JLE_K
	JT 0xbc, .LALU_MOV_X
	JT 0xbd, .LJMP_JLE_X
	JT 0xbf, .LALU64_MOV_X
	.rept (256 * 8 - (. - ___bpf_prog_run_jumptable)) / 8
	.dword	.Ldefault_label
	.endr
	.size ___bpf_prog_run_jumptable, .-___bpf_prog_run_jumptable

# interpreters[]: by round_up(stack_depth, 32) / 32 - 1.
	.globl interpreters
	.type interpreters, @object
interpreters:
	.dword	__bpf_prog_run32
	.dword	__bpf_prog_run64
	.size interpreters, .-interpreters

	.section .kernel.data, "aw", @progbits
	.balign 8
# The bpf_stats_enabled_key static key. Without CONFIG_JUMP_LABEL,
# static_branch_unlikely() reads its count; nothing enables it here (the
# bpf_stats_enabled sysctl belongs to CONFIG_BPF_SYSCALL, which is off).
	.globl bpf_stats_enabled_key
	.type bpf_stats_enabled_key, @object
bpf_stats_enabled_key:
	.word	0
	.size bpf_stats_enabled_key, .-bpf_stats_enabled_key


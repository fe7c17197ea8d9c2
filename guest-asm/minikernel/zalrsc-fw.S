# zalrsc-fw.S: the firmware's AMO emulation, for cores that trap AMO
# instructions to M-mode (MIPS P8700, seed 004: "traps every AMO instruction
# into M-mode and emulates it there").
#
# Modelled on what OpenSBI does for such a core: its trap entry saves every
# register into a frame (struct sbi_trap_regs), sbi_trap_handler routes an
# illegal instruction to sbi_illegal_insn_handler, which counts the
# SBI_PMU_FW_ILLEGAL_INSN firmware event (the mail's fw_illegal_insn) and
# dispatches on the major opcode; for AMO (0x2f) sbi_illegal_atomic decodes
# the instruction and redoes it as an LR/SC loop of the same width, with the
# loads and stores made under mstatus.MPRV, then writes rd and steps mepc
# over the instruction. The code here is the minikernel's own, in the same
# shape: fw_trap_entry_full (save and dispatch), fw_illegal_insn (event
# count, opcode), fw_emulate_amo (decode, operands, rd, mepc),
# fw_amo_stubs (one LR/SC loop per operation, width and ordering),
# fw_trap_exit_full (restore, mret).
#
# Selected at boot, so that a core with native AMOs runs exactly the trap
# path it ran before this file existed: _start calls fw_amo_emulation_setup,
# which points mtvec at fw_trap_entry_full only if the hart cannot execute
# an AMO itself. Knob (8 bytes, firmware data):
#   knob_fw_emulate_amo  default 0: probe; 1: always install the emulating
#       entry; 2: never (an AMO on such a core then reaches the kernel as an
#       illegal instruction: the mail's "absent" row, a kernel oops 0x202
#       or, from U-mode, 0x102).
# The probe runs one amoadd.w in M-mode on a firmware word with mtvec on a
# landing pad; if it traps, AMOs are emulated from then on. This assumes the
# core traps AMOs in M-mode as well (the P8700 profile traps every AMO); a
# profile that trapped only S/U AMOs would need knob_fw_emulate_amo = 1.
# Result: fw_amo_emulation = 1 when the emulating entry is installed.
#
# Memory access: the LR/SC loop runs with mstatus.MPRV = 1, so the accesses
# are made with the privilege in MPP (the trapping S or U mode), as OpenSBI
# does. The minikernel leaves satp Bare and PMP entry 0 opens all memory,
# so the address is the physical one either way; MPRV only makes the
# privilege of the access the trapping mode's, and costs two CSR writes.
# (OpenSBI sets and clears MPRV, and swaps mtvec for a fault catcher,
# around each of the LR and the SC; this firmware sets MPRV once around the
# whole loop and has no fault catcher: a bad address would trap to its own
# handler, which the minikernel's atomics never give it.)
#
# Ordering: the aq/rl bits of the AMO carry over to the loop: none -> lr,
# sc; rl -> lr, sc.rl; aq -> lr.aq, sc; aq+rl -> lr.aqrl, sc.aqrl.
# A misaligned AMO is passed to the kernel as the store/AMO address-
# misaligned exception (cause 6, tval = the address) that a core with
# native AMOs would raise; anything that is not an AMO.W/.D (lr, sc, Zacas,
# Zabha, a truly illegal encoding) or a trap that is not an illegal
# instruction goes to fw_trap_entry with every register as it was at the
# trap, and is handled as before.
#
# Instructions per emulated AMO, uncontended (the SC succeeds first time),
# from S- or U-mode, counting from fw_trap_entry_full to its mret (the
# trapping AMO itself counts in the kernel's or user's symbol):
#   fw_trap_entry_full                                             51
#     csrrw, addi; 30 x sd; csrr mscratch, sd, sd zero; csrr mepc, sd;
#     csrr mstatus, sd; csrr mcause, li, bne; srli, andi, li, beq;
#     csrr mtval, mv, call; bnez, j
#   fw_illegal_insn: la (2), ld, addi, sd; andi, li, bne; tail        9
#   fw_emulate_amo, .w with rd != x0                                 55
#     addi, sd ra; srliw, andi, beqz, srli (swap: + 3, 58);
#     srli, andi, addi, li, bgeu; rs1 5; rs2 5; slli, ori, and, bnez;
#     bnez, sext.w (.d: bnez only, 54); slli, or, srli, andi, slli,
#     or, slli; la (2), add; li, csrs; jalr; csrc; rd 6 (rd = x0: 3);
#     ld, addi, sd (mepc); li; j; ld ra, addi, ret
#   fw_amo_stubs: add/xor/or/and 5 (lr, op, sc, bnez, ret); swap 4;
#     min/max/minu/maxu 6 or 7 (lr, mv, branch, [mv], sc, bnez, ret)
#   fw_trap_exit_full: ld, csrw mepc; ld, csrw mstatus; addi, csrw
#     mscratch; 31 x ld; mret                                        38
#   amoadd.w with rd != x0, the kernel's usual case: 51 + 9 + 55 + 5 + 38
#     = 158; amoadd.w zero (arch_atomic_add): 155; amoor.d.aqrl with rd
#     (test_and_set_bit): 157; amoswap.d.aqrl with rd (xchg): 159;
#     amoand.d.rl zero (clear_bit_unlock): 154.
# Each SC that fails adds 4 (lr, op, sc, bnez), 3 for swap, 5..6 for
# min/max. (Checked under QEMU with every AMO turned into an illegal-
# instruction trap through gdb; the emulated results of all 72 variants,
# from S and from U, matched the native ones.)
# Traps that are not emulated pay for the full save and restore before
# fw_trap_entry sees them: 42 in fw_trap_entry_full up to the cause test
# and 34 in fw_trap_pass (addi, csrw, 31 x ld, j) for any other cause (the
# final SBI call); 60 + 34 for an illegal instruction that is not an AMO
# (the cause, MPP and opcode tests, fw_illegal_insn's event count).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-atomics.inc"

# The register frame on the M stack: slot n holds xn (slot 0 is zero, so a
# register number indexes it directly), then mepc and mstatus.
.equ FWR_MEPC,          32 * 8
.equ FWR_MSTATUS,       33 * 8
.equ FWR_SIZE,          34 * 8
.if FWR_SIZE % 16
	.error "the M-mode frame must keep sp 16-byte aligned"
.endif
.if AMO_STUB_SIZE != 32
	.error "fw_emulate_amo scales the stub index by shifting left 5"
.endif

	.section .fw.text, "ax", @progbits

# fw_amo_emulation_setup: called once from _start with `jal t0` and returns
# with `jr t0`; uses t1 and t2 and leaves them zero, so no firmware address
# is left behind in a register the kernel receives.
	.globl fw_amo_emulation_setup
	.type fw_amo_emulation_setup, @function
fw_amo_emulation_setup:
	ld	t1, knob_fw_emulate_amo
	li	t2, 1
	beq	t1, t2, 2f			# 1: always
	bnez	t1, 3f				# 2: never
	# 0: can this hart execute an AMO? Try one with mtvec on the landing
	# pad below; the firmware's own AMOs trap to M-mode like any other.
	la	t1, 1f
	csrrw	t1, mtvec, t1			# t1 = fw_trap_entry
	la	t2, fw_amo_probe_word
	amoadd.w zero, zero, (t2)
	csrw	mtvec, t1			# it ran: native AMOs, keep fw_trap_entry
	j	3f
	.balign 4
1:	# It trapped (illegal instruction): emulate AMOs from now on. The trap
	# left mepc/mcause/mtval/MPP behind; _start sets what mret needs.
2:
	la	t1, fw_trap_entry_full
	csrw	mtvec, t1
	li	t2, 1
	sd	t2, fw_amo_emulation, t1
3:
	li	t1, 0
	li	t2, 0
	jr	t0
	.size fw_amo_emulation_setup, .-fw_amo_emulation_setup

# fw_trap_entry_full: mtvec on a core whose AMOs trap. Saves all registers,
# emulates an AMO from S- or U-mode, and sends everything else to
# fw_trap_entry unchanged.
	.balign 4
	.globl fw_trap_entry_full
	.type fw_trap_entry_full, @function
fw_trap_entry_full:
	csrrw	sp, mscratch, sp		# sp = M stack, mscratch = trapped sp
	addi	sp, sp, -FWR_SIZE
	sd	ra, 1 * 8(sp)
	sd	gp, 3 * 8(sp)
	sd	tp, 4 * 8(sp)
	sd	t0, 5 * 8(sp)
	sd	t1, 6 * 8(sp)
	sd	t2, 7 * 8(sp)
	sd	s0, 8 * 8(sp)
	sd	s1, 9 * 8(sp)
	sd	a0, 10 * 8(sp)
	sd	a1, 11 * 8(sp)
	sd	a2, 12 * 8(sp)
	sd	a3, 13 * 8(sp)
	sd	a4, 14 * 8(sp)
	sd	a5, 15 * 8(sp)
	sd	a6, 16 * 8(sp)
	sd	a7, 17 * 8(sp)
	sd	s2, 18 * 8(sp)
	sd	s3, 19 * 8(sp)
	sd	s4, 20 * 8(sp)
	sd	s5, 21 * 8(sp)
	sd	s6, 22 * 8(sp)
	sd	s7, 23 * 8(sp)
	sd	s8, 24 * 8(sp)
	sd	s9, 25 * 8(sp)
	sd	s10, 26 * 8(sp)
	sd	s11, 27 * 8(sp)
	sd	t3, 28 * 8(sp)
	sd	t4, 29 * 8(sp)
	sd	t5, 30 * 8(sp)
	sd	t6, 31 * 8(sp)
	csrr	t0, mscratch
	sd	t0, 2 * 8(sp)			# the trapped sp
	sd	zero, 0(sp)			# "x0"
	csrr	t0, mepc
	sd	t0, FWR_MEPC(sp)
	csrr	t1, mstatus
	sd	t1, FWR_MSTATUS(sp)

	csrr	t2, mcause
	li	t3, CAUSE_ILLEGAL_INSTRUCTION
	bne	t2, t3, fw_trap_pass
	# An illegal instruction in M-mode is the firmware's own bug:
	# fw_trap_entry ends the run for it.
	srli	t3, t1, SR_MPP_SHIFT
	andi	t3, t3, 3
	li	t4, 3
	beq	t3, t4, fw_trap_pass
	csrr	a0, mtval			# the encoding (this machine always gives it)
	mv	a1, sp
	call	fw_illegal_insn			# (insn, regs) -> 0: emulated
	bnez	a0, fw_trap_pass
	j	fw_trap_exit_full
	.size fw_trap_entry_full, .-fw_trap_entry_full

# fw_illegal_insn(insn, regs) -> 0 if emulated: count the firmware event,
# then dispatch on the major opcode. Only AMO is emulated here.
	.globl fw_illegal_insn
	.type fw_illegal_insn, @function
fw_illegal_insn:
	la	t0, fw_stat_illegal_insn
	ld	t1, 0(t0)
	addi	t1, t1, 1
	sd	t1, 0(t0)
	andi	t0, a0, INSN_OPCODE_MASK
	li	t1, OPCODE_AMO
	bne	t0, t1, 1f
	tail	fw_emulate_amo
1:
	li	a0, 1
	ret
	.size fw_illegal_insn, .-fw_illegal_insn

# fw_emulate_amo(insn, regs) -> 0 if emulated. Decodes funct5 (the
# operation), funct3 (.w/.d), aq/rl, rs1, rs2 and rd; reads rs1 and rs2 from
# the frame, runs the matching stub under MPRV, writes the old value to rd's
# slot and steps the saved mepc over the AMO (4 bytes: AMOs have no
# compressed form).
	.globl fw_emulate_amo
	.type fw_emulate_amo, @function
fw_emulate_amo:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	srliw	t0, a0, INSN_FUNCT5_SHIFT	# funct5
	andi	t1, t0, 3
	beqz	t1, 1f
	li	t1, AMO_FUNCT5_SWAP
	bne	t0, t1, 9f			# lr, sc, or no AMO at all
	li	t0, AMO_NR_OPS - 1		# swap: the last row of stubs
	j	2f
1:
	srli	t0, t0, 2			# add xor or and min max minu maxu: 0..7
2:
	srli	t1, a0, INSN_FUNCT3_SHIFT
	andi	t1, t1, 7
	addi	t1, t1, -AMO_FUNCT3_W		# 0: .w, 1: .d
	li	t2, 2
	bgeu	t1, t2, 9f			# .b/.h (Zabha) or reserved
	srli	t2, a0, INSN_RS1_SHIFT		# a4 = x[rs1], the address
	andi	t2, t2, INSN_REG_MASK
	slli	t2, t2, 3
	add	t2, a1, t2
	ld	a4, 0(t2)
	srli	t2, a0, INSN_RS2_SHIFT		# a5 = x[rs2], the operand
	andi	t2, t2, INSN_REG_MASK
	slli	t2, t2, 3
	add	t2, a1, t2
	ld	a5, 0(t2)
	slli	t2, t1, 2
	ori	t2, t2, 3			# 3 (.w) or 7 (.d)
	and	t2, a4, t2
	bnez	t2, 8f				# misaligned
	bnez	t1, 3f
	sext.w	a5, a5				# .w works on the low 32 bits, signed
3:
	# stub = fw_amo_stubs + ((op * 2 + width) * 4 + aqrl) * 32
	slli	t0, t0, 1
	or	t0, t0, t1
	srli	t2, a0, INSN_AQRL_SHIFT
	andi	t2, t2, 3
	slli	t0, t0, 2
	or	t0, t0, t2
	slli	t0, t0, 5
	la	t2, fw_amo_stubs
	add	t2, t2, t0
	li	a2, SR_MPRV
	csrs	mstatus, a2			# loads/stores now as MPP (S or U)
	jalr	t2				# (a4 addr, a5 operand) -> a6 old value
	csrc	mstatus, a2
	srli	t2, a0, INSN_RD_SHIFT
	andi	t2, t2, INSN_REG_MASK
	beqz	t2, 4f				# rd = x0: nothing to write
	slli	t2, t2, 3
	add	t2, a1, t2
	sd	a6, 0(t2)
4:
	ld	t2, FWR_MEPC(a1)
	addi	t2, t2, 4
	sd	t2, FWR_MEPC(a1)
	li	a0, 0
	j	10f
8:
	# What a core with native AMOs raises instead: store/AMO address
	# misaligned, tval = the address. fw_trap_entry redirects it to S.
	csrw	mtval, a4
	li	t0, CAUSE_MISALIGNED_STORE
	csrw	mcause, t0
9:
	li	a0, 1
10:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
	.size fw_emulate_amo, .-fw_emulate_amo

# fw_trap_exit_full: back to the trapped context through the frame at sp
# (with the emulated AMO's rd and the advanced mepc in it).
	.globl fw_trap_exit_full
	.type fw_trap_exit_full, @function
fw_trap_exit_full:
	ld	t0, FWR_MEPC(sp)
	csrw	mepc, t0
	ld	t0, FWR_MSTATUS(sp)
	csrw	mstatus, t0
	addi	t0, sp, FWR_SIZE
	csrw	mscratch, t0			# the M stack again, for the next trap
	ld	ra, 1 * 8(sp)
	ld	gp, 3 * 8(sp)
	ld	tp, 4 * 8(sp)
	ld	t0, 5 * 8(sp)
	ld	t1, 6 * 8(sp)
	ld	t2, 7 * 8(sp)
	ld	s0, 8 * 8(sp)
	ld	s1, 9 * 8(sp)
	ld	a0, 10 * 8(sp)
	ld	a1, 11 * 8(sp)
	ld	a2, 12 * 8(sp)
	ld	a3, 13 * 8(sp)
	ld	a4, 14 * 8(sp)
	ld	a5, 15 * 8(sp)
	ld	a6, 16 * 8(sp)
	ld	a7, 17 * 8(sp)
	ld	s2, 18 * 8(sp)
	ld	s3, 19 * 8(sp)
	ld	s4, 20 * 8(sp)
	ld	s5, 21 * 8(sp)
	ld	s6, 22 * 8(sp)
	ld	s7, 23 * 8(sp)
	ld	s8, 24 * 8(sp)
	ld	s9, 25 * 8(sp)
	ld	s10, 26 * 8(sp)
	ld	s11, 27 * 8(sp)
	ld	t3, 28 * 8(sp)
	ld	t4, 29 * 8(sp)
	ld	t5, 30 * 8(sp)
	ld	t6, 31 * 8(sp)
	ld	sp, 2 * 8(sp)
	mret
	.size fw_trap_exit_full, .-fw_trap_exit_full

# fw_trap_pass: not an AMO to emulate. Restore every register (mepc,
# mstatus, mcause and mtval were not touched, except that a misaligned AMO
# rewrote mcause/mtval on purpose) and enter fw_trap_entry as if the trap
# had gone there directly.
	.globl fw_trap_pass
	.type fw_trap_pass, @function
fw_trap_pass:
	addi	t0, sp, FWR_SIZE
	csrw	mscratch, t0
	ld	ra, 1 * 8(sp)
	ld	gp, 3 * 8(sp)
	ld	tp, 4 * 8(sp)
	ld	t0, 5 * 8(sp)
	ld	t1, 6 * 8(sp)
	ld	t2, 7 * 8(sp)
	ld	s0, 8 * 8(sp)
	ld	s1, 9 * 8(sp)
	ld	a0, 10 * 8(sp)
	ld	a1, 11 * 8(sp)
	ld	a2, 12 * 8(sp)
	ld	a3, 13 * 8(sp)
	ld	a4, 14 * 8(sp)
	ld	a5, 15 * 8(sp)
	ld	a6, 16 * 8(sp)
	ld	a7, 17 * 8(sp)
	ld	s2, 18 * 8(sp)
	ld	s3, 19 * 8(sp)
	ld	s4, 20 * 8(sp)
	ld	s5, 21 * 8(sp)
	ld	s6, 22 * 8(sp)
	ld	s7, 23 * 8(sp)
	ld	s8, 24 * 8(sp)
	ld	s9, 25 * 8(sp)
	ld	s10, 26 * 8(sp)
	ld	s11, 27 * 8(sp)
	ld	t3, 28 * 8(sp)
	ld	t4, 29 * 8(sp)
	ld	t5, 30 * 8(sp)
	ld	t6, 31 * 8(sp)
	ld	sp, 2 * 8(sp)
	j	fw_trap_entry
	.size fw_trap_pass, .-fw_trap_pass

# fw_amo_stubs: 9 operations x 2 widths x 4 orderings, AMO_STUB_SIZE bytes
# each (uncompressed, padded). In: a4 = address, a5 = operand (sign-extended
# for .w). Out: a6 = the old value (lr.w sign-extends, as the AMO's rd
# would). Uses a7 and t0.
.macro FW_LR w, aqrl
  .if \aqrl == 2
	lr.\w\().aq	a6, (a4)
  .elseif \aqrl == 3
	lr.\w\().aqrl	a6, (a4)
  .else
	lr.\w	a6, (a4)
  .endif
.endm
.macro FW_SC w, aqrl, src
  .if \aqrl == 1
	sc.\w\().rl	t0, \src, (a4)
  .elseif \aqrl == 3
	sc.\w\().aqrl	t0, \src, (a4)
  .else
	sc.\w	t0, \src, (a4)
  .endif
.endm
.macro FW_AMO_STUB op, w, aqrl
	.balign AMO_STUB_SIZE
1:
	FW_LR	\w, \aqrl
  .ifc \op, swap
	FW_SC	\w, \aqrl, a5
  .else
    .ifc \op, add
	add	a7, a6, a5
    .endif
    .ifc \op, xor
	xor	a7, a6, a5
    .endif
    .ifc \op, or
	or	a7, a6, a5
    .endif
    .ifc \op, and
	and	a7, a6, a5
    .endif
    .ifc \op, min
	mv	a7, a6
	bge	a5, a6, 2f			# keep old if old <= operand
	mv	a7, a5
    .endif
    .ifc \op, max
	mv	a7, a6
	bge	a6, a5, 2f			# keep old if old >= operand
	mv	a7, a5
    .endif
    .ifc \op, minu
	mv	a7, a6
	bgeu	a5, a6, 2f
	mv	a7, a5
    .endif
    .ifc \op, maxu
	mv	a7, a6
	bgeu	a6, a5, 2f
	mv	a7, a5
    .endif
2:
	FW_SC	\w, \aqrl, a7
  .endif
	bnez	t0, 1b
	ret
.endm

	.option push
	.option norvc
	.balign AMO_STUB_SIZE
	.globl fw_amo_stubs
	.type fw_amo_stubs, @function
fw_amo_stubs:
	.irp op, add, xor, or, and, min, max, minu, maxu, swap
	  .irp w, w, d
	    .irp o, 0, 1, 2, 3
		FW_AMO_STUB \op, \w, \o
	    .endr
	  .endr
	.endr
	.balign AMO_STUB_SIZE
	.option pop
	.size fw_amo_stubs, .-fw_amo_stubs
# (The longest stub, min/max, is 7 instructions = 28 bytes.)


	.section .fw.data, "aw", @progbits
	.balign 8
	.globl knob_fw_emulate_amo
	.type knob_fw_emulate_amo, @object
knob_fw_emulate_amo:
	.dword 0				# 0 probe, 1 always, 2 never
	.size knob_fw_emulate_amo, .-knob_fw_emulate_amo
	.globl fw_amo_emulation
	.type fw_amo_emulation, @object
fw_amo_emulation:
	.dword 0				# 1: fw_trap_entry_full is mtvec
	.size fw_amo_emulation, .-fw_amo_emulation
	.globl fw_stat_illegal_insn
	.type fw_stat_illegal_insn, @object
fw_stat_illegal_insn:
	.dword 0				# illegal-instruction traps from S/U seen
	.size fw_stat_illegal_insn, .-fw_stat_illegal_insn
	.type fw_amo_probe_word, @object
fw_amo_probe_word:
	.word 0
	.size fw_amo_probe_word, .-fw_amo_probe_word

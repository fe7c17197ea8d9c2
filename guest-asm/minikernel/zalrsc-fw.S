# zalrsc-fw.S: the firmware's AMO emulation, for cores that trap AMO
# instructions to M-mode (MIPS P8700, seed 004: "traps every AMO instruction
# into M-mode and emulates it there").
#
# The path has the shape of OpenSBI's (v1.9, lib/sbi/sbi_illegal_atomic.c,
# added in 2025 for this core), one function here per function there; the
# code is the minikernel's own:
#   fw_trap_entry_full       _trap_handler (firmware/fw_base.S): choose the
#                            stack (the M stack, or the current one for a
#                            trap from M), save every register and mepc,
#                            mstatus, mstatusH (0 on RV64) and the trap info
#                            (mcause, mtval, tval2, tinst, gva) into a
#                            context on the stack, clear mstatus.MDT, call
#                            the C handler, restore, mret
#   fw_trap_handler          sbi_trap_handler: link the context into the
#                            scratch area, dispatch on mcause through a
#                            table, then sbi_sse_process_pending_events for
#                            a trap from S/U, unlink
#   fw_illegal_insn_handler  sbi_illegal_insn_handler: the firmware event
#                            count (sbi_pmu_ctr_incr_fw), the encoding from
#                            mtval or, when mtval does not hold a 32-bit
#                            encoding, fetched through MPRV (sbi_get_insn),
#                            then a table indexed by opcode[6:2]
#   fw_illegal_atomic        sbi_illegal_atomic: a table by funct5
#   fw_amo<op>_insn          amoadd_insn ...: a table by funct3 and aq/rl
#   fw_atomic_<op>_<w><o>    atomic_add_w ...: rs1 and rs2 from the context,
#                            then until the SC succeeds: the LR, then the
#                            SC, each on its own through MPRV with mtvec
#                            swapped to a trap catcher and both restored
#                            (csrrw mtvec, csrrs mstatus, the access, csrw
#                            mstatus, csrw mtvec: four CSR accesses each),
#                            then rd and mepc + 4 in the context
#   fw_expected_trap         __sbi_expected_trap: the catcher, which records
#                            mcause and mtval and skips the access
# Each function has the prologue and epilogue gcc -O2 gives OpenSBI's C
# (OpenSBI builds with -fno-omit-frame-pointer, so s0 is set up in each),
# and saves the registers gcc saves there, even where this code needs fewer
# (the arms it does not take use them in OpenSBI). The functions off the
# emulated path (fw_get_insn, fw_trap_redirect, fw_amo_redirect,
# fw_truly_illegal_insn) are plain leaves without a frame.
#
# What differs from OpenSBI, on purpose:
# - Everything this firmware does not emulate is handed, with every register
#   as it was at the trap, to fw.S's fw_trap_entry (interrupts, ecalls,
#   faults, illegal instructions other than an AMO.W/.D: lr, sc, Zacas,
#   Zabha, a truly illegal encoding) instead of being handled in C:
#   fw_trap_handler returns a1 != 0 and fw_trap_pass restores and jumps.
# - An illegal instruction from M-mode is the firmware's own bug and goes to
#   fw_trap_entry, which ends the run (OpenSBI would emulate an AMO there).
# - A fault the catcher caught on the LR or the SC is redirected to S
#   (fw_trap_redirect, as sbi_trap_redirect does) as a native AMO would
#   raise it: store/AMO misaligned (6), access fault (7) or page fault
#   (15), tval = the address. OpenSBI redirects the LR's own cause (4, 5,
#   13). A misaligned AMO therefore still reaches the kernel as cause 6,
#   as before; it now traps once more, on the LR, to get there, and no
#   longer passes through fw_trap_entry.
# - The firmware event counter (fw_stat_illegal_insn) is always counting;
#   in OpenSBI it counts only while S-mode has started it, and
#   sbi_pmu_ctr_incr_fw returns after 16 instructions otherwise.
# - SSE: the hart's state says masked (no events, as with a kernel that
#   never unmasks them), so fw_sse_process_pending returns at once.
#
# Selected at boot, so that a core with native AMOs runs exactly the trap
# path it ran before this file existed: _start calls fw_amo_emulation_setup,
# which points mtvec at fw_trap_entry_full only if the hart cannot execute
# an AMO itself. Knob (8 bytes, firmware data):
#   knob_fw_emulate_amo  default 0: probe; 1: always install the emulating
#       entry; 2: never (an AMO on such a core then reaches the kernel as an
#       illegal instruction: the mail's "absent" row, a kernel oops 0x202
#       or, from U-mode, 0x102); 3: always, with the entry of a hart that
#       leaves mtval 0 on an illegal instruction (priv spec §3.1.16 allows
#       it): fw_trap_entry_notval saves tval 0, and the handler fetches the
#       encoding through MPRV (the path OpenSBI takes on such harts).
# The probe runs one amoadd.w in M-mode on a firmware word with mtvec on a
# landing pad; if it traps, AMOs are emulated from then on. This assumes the
# core traps AMOs in M-mode as well (the P8700 profile traps every AMO); a
# profile that trapped only S/U AMOs would need knob_fw_emulate_amo = 1.
# Result: fw_amo_emulation = 1 when an emulating entry is installed.
#
# Memory access: mstatus.MPRV = 1 makes the LR and the SC use the privilege
# in MPP (the trapping S or U mode) and its translation (priv spec §3.1.6.3,
# "Memory Privilege in mstatus"); the minikernel-sv39 build's user AMOs go
# through its page table this way. Ordering: the aq/rl bits of the AMO carry
# over to both the LR and the SC, as OpenSBI's lr_<type><aqrl> and
# sc_<type><aqrl> do (lr.w.aq with sc.w.aq, and so on).
#
# Instructions per emulated AMO, uncontended (the SC succeeds first time),
# from S- or U-mode, counting from fw_trap_entry_full to its mret (the
# trapping AMO itself counts in the kernel's or user's symbol), by hand
# from the code below (a `call` is one jal after linker relaxation, `la`
# and `ld sym` are two, `li t0, 1 << 42` is li + slli):
#   fw_trap_entry_full                                             101
#     stack choice 16 (csrrw tp, sd t0, csrr mstatus, srli, andi, slti,
#     addi, xor, and, xor, xor, sd sp, addi sp, ld t0, sd t0, csrrw tp);
#     mepc, mstatus, mstatusH 5 (csrr, sd, csrr, sd, sd zero); 30 x sd
#     (x0 and every GPR but sp and t0); trap info 8 (csrr mcause, sd,
#     csrr mtval, sd, sd zero x2, li, sd); clear MDT 3 (li, slli, csrc);
#     mv a0, call 2; bnez a1 1; restore 36 (29 x ld, ld + csrw mstatus,
#     ld + csrw mepc, ld t0, ld a0, mret)
#   fw_trap_handler                                                 57
#     prologue 10 (addi, 8 x sd, addi s0); ld cause, mv, csrr mscratch,
#     ld, sd, sd (context linked) 6; bltz, li, bltu 3; la 2, slli, add,
#     lw, add, jr 7; illegal arm: MPP test 5 (ld, srli, andi, li, beq),
#     mv, call, j 3; trap_done: mv, bnez 2; MPP test 5 (ld, li, srli,
#     andi, beq); mv, call 2; ld, sd (unlinked), mv, mv 4; epilogue 10
#   fw_sse_process_pending: prologue 8; csrr mscratch, ld, lbu, beqz 4;
#     epilogue 8                                                    20
#   fw_illegal_insn_handler: prologue 8; ld tval, mv, li, call 4; li,
#     andi, bne 3; slli, andi, la 2, add, ld, mv, mv, jalr 9;
#     epilogue 8                                                    32
#   fw_pmu_ctr_incr_fw: addi, sd, addi 3; csrr, ld, beqz, ld, srl, andi,
#     beqz 7; slli, add, ld, addi, sd 5; li, ld, addi, ret 4          19
#   fw_illegal_atomic: prologue 4; srliw, la 2, slli, add, ld, jalr 7;
#     epilogue 4                                                    15
#   fw_amo<op>_insn: srli, srli, andi, andi, or 5; prologue 4; la 2,
#     slli, add, ld, jalr 6; epilogue 4                               19
#   fw_atomic_<op>_<w><o>: set-up 18 (addi sp, srli x2, sd x2, addi s0,
#     andi x2, add x2, ld rs1, ld rs2, mv x2, la 2, addi, li) [+ sext.w of
#     the operand for min/max .w]; the LR 10 (ld the catcher, sd zero
#     cause, li, mv, csrrw mtvec, csrrs mstatus, lr, csrw mstatus, csrw
#     mtvec, ld cause); the operation (add/xor/or/and 1; min/max 2 when
#     the old value is kept: mv, branch; else 3; swap 0) [+ sext.w of the
#     old value for .w]; li, bnez 2; the SC 10 (ld, mv, csrrw, csrrs, sc,
#     csrw, csrw, ld cause, bnez cause, bnez retry) [+ sext.w for .w]; rd
#     4 (srli, andi, add, sd: x0's slot when rd is zero, never restored);
#     mepc 3 (ld, addi, sd); epilogue 4
#       add/xor/or/and: .w 54, .d 52; swap: .w 53, .d 51;
#       min/max/minu/maxu: .w 56 (old kept) or 57, .d 53 or 54
#   Without the atomic function: 101 + 57 + 20 + 32 + 19 + 15 + 19 = 263.
#   amoadd.w (any rd, any ordering): 263 + 54 = 317; amoadd.d, amoor.d,
#   amoand.d: 315; amoswap.d: 314; amoswap.w: 316.
# CSR instructions on that path: 21 and the mret, as on OpenSBI's: the
#   entry 8 (csrrw tp, csrr mstatus, csrrw tp, csrr mepc, csrr mstatus,
#   csrr mcause, csrr mtval, csrc MDT); csrr mscratch in fw_trap_handler,
#   fw_sse_process_pending and fw_pmu_ctr_incr_fw 3; the LR 4 and the SC 4
#   (csrrw mtvec, csrrs MPRV, csrw mstatus, csrw mtvec each); the restore
#   2 (csrw mstatus, csrw mepc). mstatus is written 6 times, mtvec 4.
# With knob_fw_emulate_amo = 3 (mtval 0) the encoding is fetched: the
#   entry is still 101 (li t0, 0 for csrr mtval); fw_illegal_insn_handler
#   adds 9 (ld mepc, addi, mv, call, ld cause, mv, bnez, andi, beq) and
#   fw_get_insn runs 24 (mv, sd, ld 2, li, li, mv, csrrw, csrrs, lhu, andi,
#   addi, bnez, lhu, slli, add, csrw, csrw, ld, li, beq, li, beq, ret):
#   33 more per AMO, amoadd.w 350.
# Each SC that fails runs the loop again from the LR (the LR 10, the
# operation, its sext.w, li, bnez, the SC 10 or 11): 25 for add/xor/or/and
# .w (23 .d), 24 for swap .w (22 .d), 26..27 for min/max .w (24..25 .d).
# A fault on the LR ends the loop there. For amoadd.w: 263 as above, then
# in fw_atomic_add_w the set-up 18, the LR's first 7 (counting the lr that
# traps), fw_expected_trap 13, 9 more up to the call (csrw, csrw, ld,
# addw, sext.w, li, bnez, mv, call), fw_amo_redirect 6 for a misaligned
# address (ld, li, beq, addi, sd, tail; 8 for an access fault, 10 for a
# page fault), fw_trap_redirect 29 (the MPP test 5, stval, sepc, scause 6,
# stvec 3, mstatus 13 with its two 2-instruction li, li, ret) and the
# epilogue 4: 349.
# Traps that are not emulated pay for the entry before fw_trap_entry sees
# them: fw_trap_entry_full up to its call 64; fw_trap_handler 43 for an
# exception it does not handle (prologue 10, 6, 3, the table 7, li,
# mv, bnez, unlink 4, epilogue 10; 34 for an interrupt, which leaves at
# the bltz); the bnez a1; fw_trap_pass 36 (ld + csrw mstatus, ld + csrw
# mepc, 29 x ld, ld t0, ld a0, j): 144 for an ecall from S (the final SBI
# call). An illegal instruction from S/U that is not emulated: 64 + 50 in
# fw_trap_handler (its illegal arm, then trap_done without SSE) + 32 + 19
# + 3 (fw_truly_illegal_insn) + 1 + 36 = 205; 220 for lr, sc or amocas
# (fw_illegal_atomic's table, 15), 239 for an AMO.B/.H (then fw_amoadd_insn
# ...'s, 19).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-atomics.inc"

# struct sbi_trap_info: what the entry and the catcher record.
.equ TI_CAUSE,          0
.equ TI_TVAL,           8
.equ TI_TVAL2,          16
.equ TI_TINST,          24
.equ TI_GVA,            32
.equ TI_SIZE,           40
# The trap context (OpenSBI's struct sbi_trap_context: struct sbi_trap_regs,
# then struct sbi_trap_info, then the previous context). Slot n of the
# registers holds xn (slot 0 is zero, so a register number indexes it).
.equ FWR_MEPC,          32 * 8
.equ FWR_MSTATUS,       33 * 8
.equ FWR_MSTATUSH,      34 * 8
.equ FWR_REGS_SIZE,     35 * 8
.equ FWT_CAUSE,         FWR_REGS_SIZE + TI_CAUSE
.equ FWT_TVAL,          FWR_REGS_SIZE + TI_TVAL
.equ FWT_TVAL2,         FWR_REGS_SIZE + TI_TVAL2
.equ FWT_TINST,         FWR_REGS_SIZE + TI_TINST
.equ FWT_GVA,           FWR_REGS_SIZE + TI_GVA
.equ FWT_PREV,          FWR_REGS_SIZE + TI_SIZE
.equ FWT_SIZE,          (FWT_PREV + 8 + 15) & ~15
.if FWT_SIZE % 16
	.error "the M-mode context must keep sp 16-byte aligned"
.endif

# mstatus bits the path touches besides MPRV (priv spec §3.1.6): MXR lets
# the instruction fetch read execute-only pages; MDT (Smdbltrp, bit 42 on
# RV64) is cleared once the context is saved, as OpenSBI does. This hart
# has no MDT, so the write changes nothing, but it is made.
.equ SR_MXR,            1 << 19
.equ SR_MDT_BIT,        42

# SBI PMU firmware event (SBI spec, "Performance Monitoring Unit Extension",
# firmware event codes): SBI_PMU_FW_ILLEGAL_INSN.
.equ SBI_PMU_FW_ILLEGAL_INSN, 4
.equ SBI_PMU_FW_MAX,    22
# This hart's PMU state (fw_pmu_state): which firmware events count (a bit
# per event code), then one counter per event code.
.equ PMU_STARTED,       0
.equ PMU_COUNTERS,      8
# This hart's SSE state (fw_sse_state): masked (a byte), the event list.
.equ SSE_MASKED,        0
.equ SSE_LIST,          8

# The trap causes fw_trap_handler dispatches on; the others are "default".
.equ FW_NR_CAUSES,      16

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
	bnez	t1, 6f				# 2: never, 3: mtval left 0
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
	j	5f
6:
	li	t2, 3
	bne	t1, t2, 3f			# 2: never
	la	t1, fw_trap_entry_notval
5:
	csrw	mtvec, t1
	# The scratch area at the top of the M stack (mscratch) points at this
	# hart's PMU and SSE state, as OpenSBI's scratch space does.
	la	t1, fw_pmu_state
	sd	t1, fw_stack_top + FW_SCRATCH_PMU, t2
	la	t1, fw_sse_state
	sd	t1, fw_stack_top + FW_SCRATCH_SSE, t2
	li	t2, 1
	sd	t2, fw_amo_emulation, t1
3:
	li	t1, 0
	li	t2, 0
	jr	t0
	.size fw_amo_emulation_setup, .-fw_amo_emulation_setup

# FW_TRAP_ENTRY: the body of fw_trap_entry_full (and of its mtval-0 twin).
# mscratch holds the scratch area, which is also the top of the M stack,
# and keeps holding it: tp is swapped with it for the few instructions that
# need a free register, as _trap_handler does.
.macro FW_TRAP_ENTRY have_tval
	csrrw	tp, mscratch, tp		# tp = scratch, mscratch = trapped tp
	sd	t0, FW_SCRATCH_TMP0(tp)
	# The stack: the M stack for a trap from S/U, the current sp for a
	# trap from M (came_from_m = (MPP < M) - 1; t0 = tp ^ (came_from_m &
	# (sp ^ tp)), computed without a branch).
	csrr	t0, mstatus
	srli	t0, t0, SR_MPP_SHIFT
	andi	t0, t0, 3
	slti	t0, t0, 3
	addi	t0, t0, -1
	xor	sp, sp, tp
	and	t0, t0, sp
	xor	sp, sp, tp
	xor	t0, tp, t0
	sd	sp, (2 * 8 - FWT_SIZE)(t0)	# the trapped sp, in its slot
	addi	sp, t0, -FWT_SIZE
	ld	t0, FW_SCRATCH_TMP0(tp)
	sd	t0, 5 * 8(sp)
	csrrw	tp, mscratch, tp		# tp back, mscratch = scratch again

	csrr	t0, mepc
	sd	t0, FWR_MEPC(sp)
	csrr	t0, mstatus
	sd	t0, FWR_MSTATUS(sp)
	sd	zero, FWR_MSTATUSH(sp)		# RV64: no mstatush

	sd	zero, 0(sp)			# "x0"
	sd	ra, 1 * 8(sp)
	sd	gp, 3 * 8(sp)
	sd	tp, 4 * 8(sp)
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

	# The trap info (no H extension: tval2, tinst and gva are 0).
	csrr	t0, mcause
	sd	t0, FWT_CAUSE(sp)
  .if \have_tval
	csrr	t0, mtval
  .else
	li	t0, 0				# this hart leaves mtval 0
  .endif
	sd	t0, FWT_TVAL(sp)
	sd	zero, FWT_TVAL2(sp)
	sd	zero, FWT_TINST(sp)
	li	t0, 0
	sd	t0, FWT_GVA(sp)
	# Ready for another trap: clear mstatus.MDT.
	li	t0, 1
	slli	t0, t0, SR_MDT_BIT
	csrc	mstatus, t0

	mv	a0, sp
	call	fw_trap_handler			# (context) -> a0 context, a1 != 0: pass
	bnez	a1, fw_trap_pass

	ld	ra, 1 * 8(a0)
	ld	sp, 2 * 8(a0)
	ld	gp, 3 * 8(a0)
	ld	tp, 4 * 8(a0)
	ld	t1, 6 * 8(a0)
	ld	t2, 7 * 8(a0)
	ld	s0, 8 * 8(a0)
	ld	s1, 9 * 8(a0)
	ld	a1, 11 * 8(a0)
	ld	a2, 12 * 8(a0)
	ld	a3, 13 * 8(a0)
	ld	a4, 14 * 8(a0)
	ld	a5, 15 * 8(a0)
	ld	a6, 16 * 8(a0)
	ld	a7, 17 * 8(a0)
	ld	s2, 18 * 8(a0)
	ld	s3, 19 * 8(a0)
	ld	s4, 20 * 8(a0)
	ld	s5, 21 * 8(a0)
	ld	s6, 22 * 8(a0)
	ld	s7, 23 * 8(a0)
	ld	s8, 24 * 8(a0)
	ld	s9, 25 * 8(a0)
	ld	s10, 26 * 8(a0)
	ld	s11, 27 * 8(a0)
	ld	t3, 28 * 8(a0)
	ld	t4, 29 * 8(a0)
	ld	t5, 30 * 8(a0)
	ld	t6, 31 * 8(a0)
	# mstatus before mepc, as OpenSBI restores them.
	ld	t0, FWR_MSTATUS(a0)
	csrw	mstatus, t0
	ld	t0, FWR_MEPC(a0)
	csrw	mepc, t0
	ld	t0, 5 * 8(a0)
	ld	a0, 10 * 8(a0)
	mret
.endm

# fw_trap_entry_full: mtvec on a core whose AMOs trap (_trap_handler).
# Emulates an AMO from S- or U-mode and sends everything else to
# fw_trap_entry unchanged.
	.balign 4
	.globl fw_trap_entry_full
	.type fw_trap_entry_full, @function
fw_trap_entry_full:
	FW_TRAP_ENTRY 1
	.size fw_trap_entry_full, .-fw_trap_entry_full

# fw_trap_entry_notval: the same, as on a hart that writes mtval = 0 on an
# illegal instruction (knob_fw_emulate_amo = 3).
	.balign 4
	.globl fw_trap_entry_notval
	.type fw_trap_entry_notval, @function
fw_trap_entry_notval:
	FW_TRAP_ENTRY 0
	.size fw_trap_entry_notval, .-fw_trap_entry_notval

# fw_trap_pass: not an AMO to emulate (a0 = the context). Restore every
# register, mstatus and mepc and enter fw_trap_entry as if the trap had
# gone there directly (mcause and mtval are the trap's).
	.globl fw_trap_pass
	.type fw_trap_pass, @function
fw_trap_pass:
	ld	t0, FWR_MSTATUS(a0)
	csrw	mstatus, t0
	ld	t0, FWR_MEPC(a0)
	csrw	mepc, t0
	ld	ra, 1 * 8(a0)
	ld	sp, 2 * 8(a0)
	ld	gp, 3 * 8(a0)
	ld	tp, 4 * 8(a0)
	ld	t1, 6 * 8(a0)
	ld	t2, 7 * 8(a0)
	ld	s0, 8 * 8(a0)
	ld	s1, 9 * 8(a0)
	ld	a1, 11 * 8(a0)
	ld	a2, 12 * 8(a0)
	ld	a3, 13 * 8(a0)
	ld	a4, 14 * 8(a0)
	ld	a5, 15 * 8(a0)
	ld	a6, 16 * 8(a0)
	ld	a7, 17 * 8(a0)
	ld	s2, 18 * 8(a0)
	ld	s3, 19 * 8(a0)
	ld	s4, 20 * 8(a0)
	ld	s5, 21 * 8(a0)
	ld	s6, 22 * 8(a0)
	ld	s7, 23 * 8(a0)
	ld	s8, 24 * 8(a0)
	ld	s9, 25 * 8(a0)
	ld	s10, 26 * 8(a0)
	ld	s11, 27 * 8(a0)
	ld	t3, 28 * 8(a0)
	ld	t4, 29 * 8(a0)
	ld	t5, 30 * 8(a0)
	ld	t6, 31 * 8(a0)
	ld	t0, 5 * 8(a0)
	ld	a0, 10 * 8(a0)
	j	fw_trap_entry
	.size fw_trap_pass, .-fw_trap_pass

# fw_trap_handler(context) -> a0 = context, a1 = 0 handled, else pass it to
# fw_trap_entry (sbi_trap_handler). s1 = mcause, s2 = the context, s3 = the
# scratch area, s4 = the result; s5 and s6 are saved as gcc saves them for
# sbi_trap_handler's interrupt arms.
	.globl fw_trap_handler
	.type fw_trap_handler, @function
fw_trap_handler:
	addi	sp, sp, -64
	sd	s0, 48(sp)
	sd	s2, 32(sp)
	sd	s3, 24(sp)
	sd	ra, 56(sp)
	sd	s1, 40(sp)
	sd	s4, 16(sp)
	sd	s5, 8(sp)
	sd	s6, 0(sp)
	addi	s0, sp, 64
	ld	s1, FWT_CAUSE(a0)
	mv	s2, a0
	csrr	s3, mscratch			# sbi_scratch_thishart_ptr()
	ld	a5, FW_SCRATCH_CONTEXT(s3)	# the context of an outer trap, if any
	sd	a5, FWT_PREV(s2)
	sd	s2, FW_SCRATCH_CONTEXT(s3)
	bltz	s1, .Lfw_trap_handler_default	# an interrupt: not handled here
	li	a5, FW_NR_CAUSES - 1
	bltu	a5, s1, .Lfw_trap_handler_default
	la	a4, fw_trap_cause_table
	slli	s1, s1, 2
	add	s1, s1, a4
	lw	a5, 0(s1)
	add	a5, a5, a4
	jr	a5
.Lfw_trap_handler_illegal:	# CAUSE_ILLEGAL_INSTRUCTION. From M-mode: the firmware's own bug.
	ld	a5, FWR_MSTATUS(s2)
	srli	a5, a5, SR_MPP_SHIFT
	andi	a5, a5, 3
	li	a4, 3
	beq	a5, a4, .Lfw_trap_handler_default
	mv	a0, s2
	call	fw_illegal_insn_handler
	j	7f
.Lfw_trap_handler_default:	# every other cause: fw_trap_entry's
	li	a0, 1
7:	# trap_done
	mv	s4, a0
	bnez	s4, 6f
	ld	a5, FWR_MSTATUS(s2)
	li	a4, 3
	srli	a5, a5, SR_MPP_SHIFT
	andi	a5, a5, 3
	beq	a5, a4, 6f
	mv	a0, s2
	call	fw_sse_process_pending
6:
	ld	a5, FWT_PREV(s2)		# unlink
	sd	a5, FW_SCRATCH_CONTEXT(s3)
	mv	a1, s4
	mv	a0, s2
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
	.size fw_trap_handler, .-fw_trap_handler

# fw_sse_process_pending(regs) (sbi_sse_process_pending_events): nothing to
# inject while this hart's SSE state is masked; unmasked, it would walk the
# enabled events, and this firmware has none (the list is empty).
	.globl fw_sse_process_pending
	.type fw_sse_process_pending, @function
fw_sse_process_pending:
	addi	sp, sp, -48
	sd	s0, 32(sp)
	sd	ra, 40(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	sd	s4, 0(sp)
	addi	s0, sp, 48
	csrr	a4, mscratch
	ld	s3, FW_SCRATCH_SSE(a4)
	lbu	a5, SSE_MASKED(s3)
	beqz	a5, 2f
1:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	ld	s4, 0(sp)
	addi	sp, sp, 48
	ret
2:
	ld	a5, SSE_LIST(s3)		# the enabled events: none
	j	1b
	.size fw_sse_process_pending, .-fw_sse_process_pending

# fw_pmu_ctr_incr_fw(event) (sbi_pmu_ctr_incr_fw): count a firmware event
# if it has been started. Returns 0.
	.globl fw_pmu_ctr_incr_fw
	.type fw_pmu_ctr_incr_fw, @function
fw_pmu_ctr_incr_fw:
	addi	sp, sp, -16
	sd	s0, 8(sp)
	addi	s0, sp, 16
	csrr	a4, mscratch
	ld	a2, FW_SCRATCH_PMU(a4)		# this hart's PMU state
	beqz	a2, 1f
	ld	a1, PMU_STARTED(a2)
	srl	a5, a1, a0
	andi	a5, a5, 1
	beqz	a5, 1f
	slli	a5, a0, 3
	add	a5, a5, a2
	ld	a3, PMU_COUNTERS(a5)
	addi	a3, a3, 1
	sd	a3, PMU_COUNTERS(a5)
1:
	li	a0, 0
	ld	s0, 8(sp)
	addi	sp, sp, 16
	ret
	.size fw_pmu_ctr_incr_fw, .-fw_pmu_ctr_incr_fw

# fw_illegal_insn_handler(context) -> 0 emulated, else pass
# (sbi_illegal_insn_handler). s1 = the context, s2 = the encoding, s3 = 3,
# s4 = the trap info of the fetch (on this function's stack).
	.globl fw_illegal_insn_handler
	.type fw_illegal_insn_handler, @function
fw_illegal_insn_handler:
	addi	sp, sp, -128
	sd	s0, 112(sp)
	sd	s1, 104(sp)
	sd	s3, 88(sp)
	sd	ra, 120(sp)
	sd	s2, 96(sp)
	sd	s4, 80(sp)
	addi	s0, sp, 128
	ld	s2, FWT_TVAL(a0)		# the encoding, if mtval gave it
	mv	s1, a0
	li	a0, SBI_PMU_FW_ILLEGAL_INSN
	call	fw_pmu_ctr_incr_fw
	li	s3, 3
	andi	a5, s2, 3
	bne	a5, s3, 5f			# 0 or 16 bits: fetch it
2:
	slli	a4, s2, 1
	andi	a4, a4, 0xf8			# opcode[6:2] * 8
	la	a5, fw_illegal_insn_table
	add	a5, a5, a4
	ld	a5, 0(a5)
	mv	a1, s1
	mv	a0, s2
	jalr	a5				# (insn, regs) -> 0 emulated
3:
	ld	ra, 120(sp)
	ld	s0, 112(sp)
	ld	s1, 104(sp)
	ld	s2, 96(sp)
	ld	s3, 88(sp)
	ld	s4, 80(sp)
	addi	sp, sp, 128
	ret
5:	# sbi_get_insn: read the instruction at mepc as the trapping mode.
	ld	a0, FWR_MEPC(s1)
	addi	s4, s0, -128
	mv	a1, s4
	call	fw_get_insn
	ld	a5, TI_CAUSE(s4)
	mv	s2, a0
	bnez	a5, 6f
	andi	a5, a0, 3
	beq	a5, s3, 2b
	mv	a1, s1				# a 16-bit encoding: not ours
	call	fw_truly_illegal_insn
	j	3b
6:	# The fetch faulted: that fault goes to S.
	mv	a1, s4
	mv	a0, s1
	call	fw_trap_redirect
	j	3b
	.size fw_illegal_insn_handler, .-fw_illegal_insn_handler

# fw_truly_illegal_insn(insn, regs) (truly_illegal_insn): not emulated; the
# illegal instruction goes to fw_trap_entry, which redirects it to S, with
# tval = the encoding (which mtval may not have held). Returns 1 (pass).
	.globl fw_truly_illegal_insn
	.type fw_truly_illegal_insn, @function
fw_truly_illegal_insn:
	csrw	mtval, a0
	li	a0, 1
	ret
	.size fw_truly_illegal_insn, .-fw_truly_illegal_insn

# fw_trap_redirect(regs, trap) -> 0 (sbi_trap_redirect, without H): the
# trap in `trap` goes to S as if it had been delegated (priv spec §3.1.6.1
# and §4.1.1: SPP from MPP, SPIE from SIE, SIE cleared; sepc, scause,
# stval; the handler at stvec's base), by rewriting the context so that
# the restore and mret land there. A trap from M cannot be redirected:
# returns 1, and fw_trap_entry ends the run.
	.globl fw_trap_redirect
	.type fw_trap_redirect, @function
fw_trap_redirect:
	ld	a5, FWR_MSTATUS(a0)
	srli	a4, a5, SR_MPP_SHIFT
	andi	a4, a4, 3			# the previous mode
	li	a3, 3
	beq	a4, a3, 1f
	ld	a3, TI_TVAL(a1)
	csrw	stval, a3
	ld	a3, FWR_MEPC(a0)
	csrw	sepc, a3
	ld	a3, TI_CAUSE(a1)
	csrw	scause, a3
	csrr	a3, stvec
	andi	a3, a3, -4			# exceptions use the base
	sd	a3, FWR_MEPC(a0)
	li	a3, SR_MPP | SR_SPP | SR_SPIE | SR_SIE
	not	a3, a3
	and	a3, a5, a3
	li	a2, SR_MPP_S			# mret goes to S
	or	a3, a3, a2
	slli	a4, a4, SR_SPP_SHIFT		# SPP = 1 if it came from S
	or	a3, a3, a4
	andi	a5, a5, SR_SIE
	slli	a5, a5, 4			# SIE (bit 1) -> SPIE (bit 5)
	or	a3, a3, a5
	sd	a3, FWR_MSTATUS(a0)
	li	a0, 0
	ret
1:
	li	a0, 1
	ret
	.size fw_trap_redirect, .-fw_trap_redirect

# fw_amo_redirect(regs, trap) -> 0: a fault on the emulation's LR or SC,
# made the store/AMO fault a native AMO raises (a load cause becomes its
# store/AMO twin: 4 -> 6, 5 -> 7, 13 -> 15), then fw_trap_redirect.
	.globl fw_amo_redirect
	.type fw_amo_redirect, @function
fw_amo_redirect:
	ld	a5, TI_CAUSE(a1)
	li	a4, CAUSE_MISALIGNED_LOAD
	beq	a5, a4, 1f
	li	a4, CAUSE_LOAD_ACCESS
	beq	a5, a4, 1f
	li	a4, CAUSE_LOAD_PAGE_FAULT
	bne	a5, a4, 2f
1:
	addi	a5, a5, 2
	sd	a5, TI_CAUSE(a1)
2:
	tail	fw_trap_redirect
	.size fw_amo_redirect, .-fw_amo_redirect

# fw_get_insn(mepc, trap) -> the encoding at mepc, read with the trapping
# mode's privilege and translation, MXR set (sbi_get_insn); a fault lands
# in fw_expected_trap and is reported in `trap` as the fetch fault it
# stands for (load access -> fetch access, load page -> fetch page).
	.globl fw_get_insn
	.type fw_get_insn, @function
fw_get_insn:
	mv	a3, a1				# the catcher's trap info
	sd	zero, TI_CAUSE(a3)
	ld	a5, fw_expected_trap_ptr
	li	a2, SR_MPRV | SR_MXR
	li	a7, 0
	mv	a6, a0
	csrrw	a5, mtvec, a5
	csrrs	a7, mstatus, a2
	.option push
	.option norvc
	lhu	a0, 0(a6)
	andi	a4, a0, 3
	addi	a4, a4, -3
	bnez	a4, 1f				# 16 bits
	lhu	a4, 2(a6)
	slli	a4, a4, 16
	add	a0, a0, a4
1:
	.option pop
	csrw	mstatus, a7
	csrw	mtvec, a5
	ld	a4, TI_CAUSE(a3)
	li	a5, CAUSE_LOAD_ACCESS
	beq	a4, a5, 2f
	li	a5, CAUSE_LOAD_PAGE_FAULT
	beq	a4, a5, 3f
	ret
2:
	li	a4, CAUSE_FETCH_ACCESS
	sd	a4, TI_CAUSE(a3)
	ret
3:
	li	a4, CAUSE_FETCH_PAGE_FAULT
	sd	a4, TI_CAUSE(a3)
	ret
	.size fw_get_insn, .-fw_get_insn

# fw_expected_trap (__sbi_expected_trap): mtvec while the emulation makes an
# access under MPRV. a3 = the trap info to fill; a4 is free. Records mcause
# and mtval (no H extension: the rest is 0), steps mepc over the 4-byte
# access and returns to the code after it in M-mode.
	.balign 8
	.globl fw_expected_trap
	.type fw_expected_trap, @function
fw_expected_trap:
	li	a4, SR_MPRV
	csrc	mstatus, a4
	csrr	a4, mcause
	sd	a4, TI_CAUSE(a3)
	csrr	a4, mtval
	sd	a4, TI_TVAL(a3)
	sd	zero, TI_TVAL2(a3)
	sd	zero, TI_TINST(a3)
	sd	zero, TI_GVA(a3)
	csrr	a4, mepc
	addi	a4, a4, 4
	csrw	mepc, a4
	mret
	.size fw_expected_trap, .-fw_expected_trap

# fw_illegal_atomic(insn, regs) (sbi_illegal_atomic): dispatch on funct5.
	.globl fw_illegal_atomic
	.type fw_illegal_atomic, @function
fw_illegal_atomic:
	addi	sp, sp, -16
	sd	s0, 0(sp)
	sd	ra, 8(sp)
	addi	s0, sp, 16
	srliw	a5, a0, INSN_FUNCT5_SHIFT
	la	a4, fw_amo_insn_table
	slli	a5, a5, 3
	add	a5, a5, a4
	ld	a5, 0(a5)
	jalr	a5
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size fw_illegal_atomic, .-fw_illegal_atomic

# fw_amo_code: every function below, the second-level dispatchers and the
# 72 emulations (one symbol for the scenario's phase list).
	.balign 4
	.globl fw_amo_code
	.type fw_amo_code, @function
fw_amo_code:

# fw_amo<op>_insn(insn, regs) (amoadd_insn ...): dispatch on
# (funct3 << 2) | aq << 1 | rl, through the operation's table.
.macro FW_AMO_INSN op
	.globl fw_amo\op\()_insn
	.type fw_amo\op\()_insn, @function
fw_amo\op\()_insn:
	srli	a4, a0, INSN_FUNCT3_SHIFT - 2
	srli	a5, a0, INSN_AQRL_SHIFT
	andi	a4, a4, 7 << 2
	andi	a5, a5, 3
	or	a5, a5, a4
	addi	sp, sp, -16
	sd	s0, 0(sp)
	sd	ra, 8(sp)
	addi	s0, sp, 16
	la	a4, fw_amo\op\()_table
	slli	a5, a5, 3
	add	a5, a5, a4
	ld	a5, 0(a5)
	jalr	a5
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size fw_amo\op\()_insn, .-fw_amo\op\()_insn
.endm

	.irp op, add, swap, xor, or, and, min, max, minu, maxu
	FW_AMO_INSN \op
	.endr

# fw_atomic_<op>_<w><o>(insn, regs) -> 0 emulated, else pass (atomic_add_w
# ...): the AMO as an LR/SC loop, each access made by itself through MPRV
# with the catcher in mtvec (lr_<type><aqrl> and sc_<type><aqrl>, inlined as
# gcc inlines them). Registers: a6 = the address (x[rs1]), t5 = the operand
# (x[rs2], sign-extended for min/max .w), t3 = the old value (lr.w
# sign-extends, as the AMO's rd must be), t1 = the new one, t0 = regs,
# t6 = insn, t4 = &fw_expected_trap_ptr, a1 = the trap info (-56(s0)),
# a2 = MPRV. The catcher writes a4, and the trap info through a3.
.macro FW_LR w, o
  .if \o == 0
	lr.\w	t3, (a6)
  .elseif \o == 1
	lr.\w\().rl	t3, (a6)
  .elseif \o == 2
	lr.\w\().aq	t3, (a6)
  .else
	lr.\w\().aqrl	t3, (a6)
  .endif
.endm
.macro FW_SC w, o, src
  .if \o == 0
	sc.\w	a0, \src, (a6)
  .elseif \o == 1
	sc.\w\().rl	a0, \src, (a6)
  .elseif \o == 2
	sc.\w\().aq	a0, \src, (a6)
  .else
	sc.\w\().aqrl	a0, \src, (a6)
  .endif
.endm
# \o: 0 none, 1 rl, 2 aq, 3 aqrl (the table index's low two bits).
.macro FW_ATOMIC op, w, o, sfx
	.type fw_atomic_\op\()_\w\sfx, @function
fw_atomic_\op\()_\w\sfx:
	addi	sp, sp, -64
	srli	a4, a0, INSN_RS1_SHIFT - 3
	srli	a5, a0, INSN_RS2_SHIFT - 3
	sd	s0, 48(sp)
	sd	ra, 56(sp)
	addi	s0, sp, 64
	andi	a4, a4, 0xf8
	andi	a5, a5, 0xf8
	add	a4, a4, a1
	add	a5, a5, a1
	ld	a6, 0(a4)
	ld	t5, 0(a5)
	mv	t0, a1
	mv	t6, a0
	la	t4, fw_expected_trap_ptr
	addi	a1, s0, -56
	li	a2, SR_MPRV
  .ifc \w, w
    .ifnc \op, add
    .ifnc \op, xor
    .ifnc \op, or
    .ifnc \op, and
    .ifnc \op, swap
	sext.w	t5, t5				# min/max compare the low 32 bits
    .endif
    .endif
    .endif
    .endif
    .endif
  .endif
1:
	ld	a5, 0(t4)
	sd	zero, -56(s0)			# trap.cause = 0
	li	a7, 0
	mv	a3, a1
	csrrw	a5, mtvec, a5
	csrrs	a7, mstatus, a2
	.option push
	.option norvc
	FW_LR	\w, \o
	.option pop
	csrw	mstatus, a7
	csrw	mtvec, a5
	ld	a5, -56(s0)
  .ifc \op, add
    .ifc \w, w
	addw	t1, t3, t5
    .else
	add	t1, t3, t5
    .endif
  .endif
  .ifc \op, xor
	xor	t1, t3, t5
  .endif
  .ifc \op, or
	or	t1, t3, t5
  .endif
  .ifc \op, and
	and	t1, t3, t5
  .endif
  .ifc \op, min
	mv	t1, t3
	blt	t3, t5, 2f			# keep the old value if it is less
	mv	t1, t5
  .endif
  .ifc \op, max
	mv	t1, t3
	blt	t5, t3, 2f
	mv	t1, t5
  .endif
  .ifc \op, minu
	mv	t1, t3
	bltu	t3, t5, 2f
	mv	t1, t5
  .endif
  .ifc \op, maxu
	mv	t1, t3
	bltu	t5, t3, 2f
	mv	t1, t5
  .endif
2:
  .ifc \w, w
	sext.w	t3, t3
  .endif
	li	a7, 0
	bnez	a5, 9f				# the LR faulted
	ld	a5, 0(t4)
	mv	a3, a1
	csrrw	a5, mtvec, a5
	csrrs	a7, mstatus, a2
	.option push
	.option norvc
  .ifc \op, swap
	FW_SC	\w, \o, t5
  .else
	FW_SC	\w, \o, t1
  .endif
	.option pop
	csrw	mstatus, a7
	csrw	mtvec, a5
	ld	a5, -56(s0)
  .ifc \w, w
	sext.w	a0, a0
  .endif
	bnez	a5, 9f				# the SC faulted
	bnez	a0, 1b				# the SC failed: again
	srli	a5, t6, INSN_RD_SHIFT - 3
	andi	a5, a5, 0xf8
	add	a5, a5, t0
	sd	t3, 0(a5)			# rd (x0's slot is never restored)
	ld	a5, FWR_MEPC(t0)
	addi	a5, a5, 4			# AMOs have no compressed form
	sd	a5, FWR_MEPC(t0)
	ld	ra, 56(sp)			# a0 = 0, from the SC
	ld	s0, 48(sp)
	addi	sp, sp, 64
	ret
9:
	mv	a0, t0
	call	fw_amo_redirect			# (regs, &trap) -> 0: to S
	ld	ra, 56(sp)
	ld	s0, 48(sp)
	addi	sp, sp, 64
	ret
	.size fw_atomic_\op\()_\w\sfx, .-fw_atomic_\op\()_\w\sfx
.endm

	.irp op, add, swap, xor, or, and, min, max, minu, maxu
	  .irp w, w, d
		FW_ATOMIC \op, \w, 0,
		FW_ATOMIC \op, \w, 1, _rl
		FW_ATOMIC \op, \w, 2, _aq
		FW_ATOMIC \op, \w, 3, _aqrl
	  .endr
	.endr
	.size fw_amo_code, .-fw_amo_code

	.section .fw.data, "aw", @progbits
	.balign 8
# fw_trap_cause_table: fw_trap_handler's switch on mcause, laid out as gcc
# lays out a switch: 32-bit offsets of the arms from the table.
fw_trap_cause_table:
	.rept CAUSE_ILLEGAL_INSTRUCTION
	.word	.Lfw_trap_handler_default - fw_trap_cause_table
	.endr
	.word	.Lfw_trap_handler_illegal - fw_trap_cause_table
	.rept FW_NR_CAUSES - CAUSE_ILLEGAL_INSTRUCTION - 1
	.word	.Lfw_trap_handler_default - fw_trap_cause_table
	.endr

# fw_illegal_insn_table: by opcode[6:2] (illegal_insn_table). AMO (0x2f)
# is entry 11; OpenSBI also emulates fence.tso (3) and CSRs (28), which this
# hart never traps.
	.balign 8
fw_illegal_insn_table:
	.rept 11
	.dword	fw_truly_illegal_insn
	.endr
	.dword	fw_illegal_atomic
	.rept 32 - 12
	.dword	fw_truly_illegal_insn
	.endr

# fw_amo_insn_table: by funct5 (amo_insn_table): add 0, swap 1, xor 4,
# or 8, and 12, min 16, max 20, minu 24, maxu 28; lr (2), sc (3), amocas
# (5) and the rest are not emulated.
fw_amo_insn_table:
	.dword	fw_amoadd_insn, fw_amoswap_insn
	.dword	fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amoxor_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amoor_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amoand_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amomin_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amomax_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amominu_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn
	.dword	fw_amomaxu_insn, fw_truly_illegal_insn, fw_truly_illegal_insn, fw_truly_illegal_insn

# fw_amo<op>_table: by (funct3 << 2) | aq << 1 | rl (amoadd_table ...):
# .w at 8..11, .d at 12..15 (none, rl, aq, aqrl); .b/.h (Zabha, 0..7) and
# the reserved widths are not emulated.
.macro FW_AMO_TABLE op
fw_amo\op\()_table:
	.rept 8
	.dword	fw_truly_illegal_insn
	.endr
	.dword	fw_atomic_\op\()_w, fw_atomic_\op\()_w_rl, fw_atomic_\op\()_w_aq, fw_atomic_\op\()_w_aqrl
	.dword	fw_atomic_\op\()_d, fw_atomic_\op\()_d_rl, fw_atomic_\op\()_d_aq, fw_atomic_\op\()_d_aqrl
	.rept 16
	.dword	fw_truly_illegal_insn
	.endr
.endm
	.irp op, add, swap, xor, or, and, min, max, minu, maxu
	FW_AMO_TABLE \op
	.endr

# fw_expected_trap_ptr: the catcher the accesses install
# (sbi_hart_expected_trap, a pointer because OpenSBI picks the H-extension
# catcher at boot on harts that have it).
fw_expected_trap_ptr:
	.dword	fw_expected_trap

# fw_pmu_state: this hart's PMU state. The illegal-instruction event is
# started at boot and never stopped; its counter is fw_stat_illegal_insn.
	.globl fw_pmu_state
	.type fw_pmu_state, @object
fw_pmu_state:
	.dword	1 << SBI_PMU_FW_ILLEGAL_INSN	# started
	.rept SBI_PMU_FW_ILLEGAL_INSN
	.dword	0
	.endr
	.globl fw_stat_illegal_insn
	.type fw_stat_illegal_insn, @object
fw_stat_illegal_insn:
	.dword 0				# illegal-instruction traps from S/U seen
	.size fw_stat_illegal_insn, .-fw_stat_illegal_insn
	.rept SBI_PMU_FW_MAX - SBI_PMU_FW_ILLEGAL_INSN - 1
	.dword	0
	.endr
	.size fw_pmu_state, .-fw_pmu_state

# fw_sse_state: this hart's SSE state: masked, no enabled events.
	.type fw_sse_state, @object
fw_sse_state:
	.byte	1				# masked
	.balign 8
	.dword	0				# the enabled events: none
	.size fw_sse_state, .-fw_sse_state

	.globl knob_fw_emulate_amo
	.type knob_fw_emulate_amo, @object
knob_fw_emulate_amo:
	.dword 0				# 0 probe, 1 always, 2 never, 3 mtval 0
	.size knob_fw_emulate_amo, .-knob_fw_emulate_amo
	.globl fw_amo_emulation
	.type fw_amo_emulation, @object
fw_amo_emulation:
	.dword 0				# 1: an emulating entry is mtvec
	.size fw_amo_emulation, .-fw_amo_emulation
	.type fw_amo_probe_word, @object
fw_amo_probe_word:
	.word 0
	.size fw_amo_probe_word, .-fw_amo_probe_word

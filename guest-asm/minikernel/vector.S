# vector.S: the user vector state (V extension 1.0) of a kernel built with
# vector support: boot-time setup, the first-use trap, discard/save/restore
# and the context-switch hand-over. The syscall-path copies that use these
# are in vector-syscall.S.
#
# Functions modelled (Linux arch/riscv, by name; the code is the minikernel's
# own): riscv_v_setup_vsize and the has_vector() decision (riscv_v_setup),
# riscv_v_first_use_handler with insn_is_vector and riscv_v_thread_zalloc,
# riscv_v_vstate_discard / __riscv_v_vstate_discard (with the sysctl of seed
# 000), riscv_v_vstate_save / __riscv_v_vstate_save, riscv_v_vstate_restore /
# __riscv_v_vstate_restore, riscv_v_vstate_set_restore,
# arch_exit_to_user_mode_prepare, __switch_to_vector, and the v3 series of
# seed 001 ("riscv: optimize Vector context restore") with its
# __riscv_v_vstate_check_gt fix. __riscv_v_vstate_null is the minikernel's
# name for the nulling sequence itself (see below).
#
# Linux inlines all of this into its callers. Here the tests on pt_regs and
# the flag updates are inline in the callers too (vector-syscall.S), written
# as GCC would compile them, while each piece that runs vector instructions
# is an out-of-line leaf with its own symbol, so that trapscope can put its
# cost on a name: entered with jal, left with ret or a tail call, no frame.
# That costs one or two instructions more than inline code would, and it is
# in the counts.
#
# ---------------------------------------------------------------------------
# Knobs (kernel.S defines them; 8 bytes each)
# ---------------------------------------------------------------------------
#   knob_has_vector       default 0. 0: the kernel is built without vector
#                         support and runs the original path, instruction for
#                         instruction. 1: the hart has V; at boot riscv_v_setup
#                         reads vlenb and installs the vector-enabled copies
#                         (vector-syscall.S says how and why). 1 on a core
#                         without V ends the run with 0x202, the oops of an
#                         illegal instruction (reading vlenb) in S-mode;
#                         VLEN above 512 ends it with 0x301.
#   knob_riscv_v_vstate_discard_ctl
#                         default 1. The sysctl abi.riscv_v_vstate_discard of
#                         seed 000, tested where the seed tests it, at the top
#                         of __riscv_v_vstate_discard. 1: the mainline entry
#                         nulls the registers (what every kernel did before
#                         seed 000; the seed's Kconfig default would start at
#                         0). 0: it returns at once; riscv_v_vstate_discard
#                         still marks the state Dirty. v3 calls
#                         __riscv_v_vstate_discard from the exit instead of
#                         the entry, so under v3 the same test decides whether
#                         the exit nulls.
#   knob_vstate_v3        default 0. 0: mainline; 1: seed 001 v3; 2: v3 + the
#                         __riscv_v_vstate_check_gt(regs->status, INITIAL) fix.
#                         Other values end the run with 0x302.
#
# ---------------------------------------------------------------------------
# The three kernels, as modelled
# ---------------------------------------------------------------------------
# mainline   syscall entry, riscv_v_vstate_discard: if VS != Off, null the
#            registers (sysctl permitting) and set VS = Dirty.
#            set_restore(task): if VS != Off, flag the task and set VS =
#            Initial. Exit with the flag: riscv_v_vstate_restore: if VS !=
#            Off, load the save area, VS = Clean.
# v3         syscall entry, riscv_v_vstate_discard: if VS != Off
#            (riscv_v_vstate_query), riscv_v_vstate_set_restore(current) and
#            riscv_v_vstate_init (VS = Initial); no vector instruction.
#            set_restore only flags the task: Initial now means "the
#            registers must be reset before the return", so it must not be
#            written over Clean state. Exit with the flag,
#            riscv_v_vstate_restore_v3: Clean -> load the save area (stays
#            Clean); Initial -> __riscv_v_vstate_discard, the mainline entry's
#            nulling moved to the exit (sysctl test included, since the
#            function itself moved), VS stays Initial; anything else ->
#            nothing. The first-use trap sets VS = Clean (not Initial), so
#            that its exit loads the zeroed save area instead of nulling.
# v3 + fix   as v3, but the entry acts only if VS > Initial
#            (__riscv_v_vstate_check_gt(regs->status, INITIAL)).
# All three: riscv_v_vstate_save stores only Dirty state and leaves it Clean;
# __switch_to_vector saves prev and set_restore()s next. Mainline's first-use
# trap sets VS = Initial and flags the task.
# Sources for v3 (none of its code is in the repo; read, then written here
# in the minikernel's own assembly):
#   - [PATCH v3 2/4] "riscv: clarify vector state semantics on syscall and
#     context switch" (daichengrong, with Andy Chiu; linux-riscv, 21 May
#     2026): its description and changelog, which say: the entry sets
#     Initial; a switch saves only Dirty state; a restore of Initial state
#     overwrites the registers with known values instead of loading them;
#     the first-use trap marks the context Clean so that it returns zeroed
#     registers; "__vstate_discard" is deferred to
#     exit_to_user_mode_prepare. The archive copy available to us stops
#     before the diff.
#   - Seed 001 (Andy Chiu's reply to Olof Johansson, same thread): the v3
#     riscv_v_vstate_discard(regs) is "if query: set_restore(current, regs);
#     init(regs)", and the check_gt fix replaces its test.
#   - Linux 6.12 arch/riscv/include/asm/vector.h and entry-common.h: what
#     __riscv_v_vstate_discard, __riscv_v_vstate_restore,
#     riscv_v_vstate_set_restore and arch_exit_to_user_mode_prepare execute.
# Guesses (the diff is not available): the order of the two tests in
# riscv_v_vstate_restore_v3 (Clean first, after the RFC's "_vstate_check
# for CLEAN on the restore path"); that a Clean restore leaves no extra
# Clean mark; that the sysctl of seed 000 is in the base kernel at all.
# A 7.1 kernel's macros also test has_xtheadvector() (a patched static
# branch, one jump or nop per test); the 6.12 headers have no such test and
# the minikernel has none.
#
# ---------------------------------------------------------------------------
# VS per getppid call (one task; VS seen at the ecall -> what the kernel does
# -> VS returned to U). "V=1": the program ran vector instructions once
# before its loop (knob_use_vector or knob_vsetvli) and never in the loop.
# "V=0": it never did.
# ---------------------------------------------------------------------------
#   mainline, V=1   every call: Dirty -> entry nulls, Dirty -> Dirty.
#                   (discard_ctl 0: Dirty -> no nulling, Dirty -> Dirty; the
#                   VS test, the call and the Dirty mark remain.)
#   mainline, V=0   every call: Off -> nothing -> Off (only the VS test).
#   v3, V=1         call 1: Dirty -> entry sets Initial and the flag, exit
#                   clears the flag and nulls -> Initial.
#                   every later call: Initial -> the same -> Initial. The
#                   entry sets Initial and the exit nulls on every call.
#   v3, V=0         every call: Off -> nothing -> Off (only the VS test).
#   v3+fix, V=1     call 1: Dirty -> as v3 (Initial, flag, exit nulls) ->
#                   Initial. From the second call on: Initial is not >
#                   Initial, so the entry does nothing and the exit does not
#                   null: Initial -> Initial.
#   v3+fix, V=0     every call: Off -> nothing -> Off (only the check_gt test).
# Before call 1 (every kernel, V=1): the first vector instruction traps with
# VS Off; riscv_v_first_use_handler flags the task and sets Initial
# (mainline) or Clean (v3); the trap's exit loads the zeroed save area ->
# Clean; the instruction runs again and makes VS Dirty.
# (Observed under QEMU 7.2 with V 1.0, VLEN 512, from sstatus at each ecall
# and each return to U; the v3 first-use line, new with the Clean mark, was
# checked the same way for knob_vstate_v3 = 1, at each sret.)
#
# With two tasks yielding to each other (knob_ctx_switches, V=1), per yield:
#   mainline        entry nulls, VS Dirty; the switch saves prev (Dirty ->
#                   Clean) and flags next (-> Initial); next's exit loads its
#                   registers (-> Clean). Null + save + load on every switch.
#   mainline, discard_ctl 0: no nulling, but the entry still marks Dirty:
#                   save + load on every switch.
#   v3              entry: Initial + flag; the switch saves nothing (not
#                   Dirty) and flags next; next's exit nulls. Only nulling.
#   v3+fix          entry does nothing (already Initial); the switch flags
#                   next; next's exit nulls. One nulling per switch.
#
# Calling convention of the vector-instruction leaves: __riscv_v_vstate_
# discard/null/save/restore stand for Linux's inline asm and clobber only
# t0-t2; their callers keep values in a0-a7 across them, as compiled code
# keeps them across an asm statement.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# riscv_v_setup(): boot, only when knob_has_vector is set (kernel_start).
# riscv_v_setup_vsize(): vlenb, like every vector CSR, can only be read with
# VS on. Then the boot-time choice of code (alternatives, in Linux's terms):
# the ecall slot of excp_vect_table, the exit a new task takes, and the
# switch-time vector hook all name the copies for knob_vstate_v3.
	.globl riscv_v_setup
	.type riscv_v_setup, @function
riscv_v_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	t0, SR_VS
	csrs	sstatus, t0
	.option push
	.option arch, +v
	csrr	t1, vlenb
	.option pop
	csrc	sstatus, t0
	slli	t1, t1, 5			# riscv_v_vsize = 32 * vlenb
	li	t2, RISCV_V_MAX_VSIZE
	li	a2, EXIT_VLEN_TOO_LONG
	bgtu	t1, t2, 9f			# the static save areas are too small
	sd	t1, riscv_v_vsize, t2
	ld	t0, knob_vstate_v3
	li	t2, 2
	li	a2, EXIT_BAD_KNOB
	bgtu	t0, t2, 9f
	la	t1, do_trap_ecall_u_v
	la	t3, syscall_exit_to_user_mode_v
	la	t4, __switch_to_vector
	beqz	t0, 1f
	la	t1, do_trap_ecall_u_v3
	la	t3, syscall_exit_to_user_mode_v3
	la	t4, __switch_to_vector_v3
	li	t2, 1
	beq	t0, t2, 1f
	la	t1, do_trap_ecall_u_v3fix
1:
	la	t2, excp_vect_table
	sd	t1, CAUSE_USER_ECALL * RISCV_SZPTR(t2)
	sd	t3, syscall_exit_fn, t2
	sd	t4, riscv_v_switch_hook, t2
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
9:
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	li	a1, SBI_SRST_REASON_FAILURE
	call	sbi_system_reset		# a2 = the exit code
2:	j	2b
	.size riscv_v_setup, .-riscv_v_setup

# riscv_v_first_use_handler(regs) -> handled: called by do_trap_insn_illegal
# for a trap from U. A program's first vector instruction traps because
# start_thread left its VS Off. If the kernel has V, the task's VS is still
# Off and the trapping instruction is a vector one, give the task its vector
# context: a zeroed save area (riscv_v_thread_zalloc), VS = Initial
# (riscv_v_vstate_on; under v3, Clean: v3 would null Initial state at the
# exit, and a first use must see zeros) and the deferred-restore flag
# (riscv_v_vstate_set_restore), so the exit loads the zeroed area. This
# runs once per task, so it reads knob_vstate_v3 itself. sepc is not
# advanced: the instruction runs again after the sret, now with VS on.
	.globl riscv_v_first_use_handler
	.type riscv_v_first_use_handler, @function
riscv_v_first_use_handler:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	li	a0, 0
	ld	a5, knob_has_vector		# has_vector()
	beqz	a5, 9f
	ld	a5, PT_STATUS(s1)
	andi	a5, a5, SR_VS
	bnez	a5, 9f				# V already on: a real illegal instruction
	ld	a0, PT_BADADDR(s1)		# the encoding, if the trap gave it
	bnez	a0, 1f
	ld	a5, PT_EPC(s1)
	lwu	a0, 0(a5)			# else fetch it (no MMU: cannot fault)
1:
	call	insn_is_vector
	beqz	a0, 9f
	ld	a5, TASK_V_BUFFER(tp)		# riscv_v_thread_zalloc()
	sd	a5, TASK_VSTATE_DATAP(tp)
	ld	a4, riscv_v_vsize
	add	a3, a5, a4
2:
	sd	zero, 0(a5)
	addi	a5, a5, 8
	bltu	a5, a3, 2b
	sd	zero, TASK_VSTATE + VSTATE_VSTART(tp)
	sd	zero, TASK_VSTATE + VSTATE_VL(tp)
	sd	zero, TASK_VSTATE + VSTATE_VTYPE(tp)
	sd	zero, TASK_VSTATE + VSTATE_VCSR(tp)
	srli	a4, a4, 5
	sd	a4, TASK_VSTATE + VSTATE_VLENB(tp)
	ld	a5, PT_STATUS(s1)
	andi	a5, a5, ~SR_VS
	ld	a4, knob_vstate_v3
	li	a3, SR_VS_INITIAL		# mainline: riscv_v_vstate_on(regs)
	beqz	a4, 3f
	li	a3, SR_VS_CLEAN			# v3: Clean, so the exit loads zeros
3:
	or	a5, a5, a3
	sd	a5, PT_STATUS(s1)
	li	a5, _TIF_RISCV_V_DEFER_RESTORE	# riscv_v_vstate_set_restore():
	amoor.d	zero, a5, (tp)			# VS is on now, so flag the task
	la	a5, stat_v_first_use
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	li	a0, 1
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size riscv_v_first_use_handler, .-riscv_v_first_use_handler

# insn_is_vector(insn) -> bool: does this 32-bit encoding belong to V?
#   OP-V (0x57): arithmetic and vset{i}vl{i};
#   LOAD-FP / STORE-FP with width 0, 5, 6 or 7: vector loads and stores
#     (widths 1-4 are scalar h/w/d/q);
#   SYSTEM, a Zicsr instruction (funct3 not 0 or 4) on vstart, vxsat, vxrm,
#     vcsr, vl, vtype or vlenb.
	.globl insn_is_vector
	.type insn_is_vector, @function
insn_is_vector:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	andi	a5, a0, 0x7f			# major opcode
	li	a4, OPCODE_OP_V
	beq	a5, a4, 7f
	li	a4, OPCODE_LOAD_FP
	beq	a5, a4, 1f
	li	a4, OPCODE_STORE_FP
	beq	a5, a4, 1f
	li	a4, OPCODE_SYSTEM
	beq	a5, a4, 2f
	j	8f
1:
	srli	a5, a0, 12
	andi	a5, a5, 7			# width
	beqz	a5, 7f
	li	a4, 5
	bgeu	a5, a4, 7f
	j	8f
2:
	srli	a5, a0, 12
	andi	a5, a5, 3			# funct3 0 or 4: not a CSR access
	beqz	a5, 8f
	srliw	a5, a0, 20			# the CSR number
	li	a3, 3
	addi	a4, a5, -CSR_VSTART
	bltu	a4, a3, 7f			# vstart, vxsat, vxrm
	li	a4, CSR_VCSR
	beq	a5, a4, 7f
	li	a4, CSR_VL
	sub	a4, a5, a4
	bltu	a4, a3, 7f			# vl, vtype, vlenb
8:
	li	a0, 0
	j	9f
7:
	li	a0, 1
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size insn_is_vector, .-insn_is_vector

# __riscv_v_vstate_discard(): seed 000's sysctl test, then the nulling. With
# knob_riscv_v_vstate_discard_ctl = 0 nothing is clobbered. Mainline calls it
# from the syscall entry, v3 from the exit (riscv_v_vstate_restore_v3). (In
# Linux the test sits at the top of the inline __riscv_v_vstate_discard; the
# minikernel splits the function at that point so that the nulling has a
# symbol of its own.) Clobbers t0-t2 only.
	.globl __riscv_v_vstate_discard
	.type __riscv_v_vstate_discard, @function
__riscv_v_vstate_discard:
	ld	t1, knob_riscv_v_vstate_discard_ctl	# READ_ONCE(the sysctl)
	bnez	t1, __riscv_v_vstate_null
	ret
	.size __riscv_v_vstate_discard, .-__riscv_v_vstate_discard

# __riscv_v_vstate_null(): make the user's vector registers unusable, which
# the syscall ABI allows (they are unspecified after a syscall): with the
# unit enabled, vsetvli e8/m8 so that one vmv.v.i covers eight registers,
# all ones into v0-v7, v8-v15, v16-v23 and v24-v31, then vsetvl with only
# vtype.vill set (vl becomes 0), and the unit off again. These are also the
# constants v3 gives Initial state. Clobbers t0-t2 only.
	.globl __riscv_v_vstate_null
	.type __riscv_v_vstate_null, @function
__riscv_v_vstate_null:
	li	t0, SR_VS
	csrs	sstatus, t0			# riscv_v_enable()
	.option push
	.option arch, +v
	vsetvli	t1, zero, e8, m8, ta, ma
	vmv.v.i	v0, -1
	vmv.v.i	v8, -1
	vmv.v.i	v16, -1
	vmv.v.i	v24, -1
	li	t2, -1
	slli	t2, t2, 63			# vtype: vill alone
	vsetvl	t1, zero, t2
	.option pop
	csrc	sstatus, t0			# riscv_v_disable()
	ret
	.size __riscv_v_vstate_null, .-__riscv_v_vstate_null

# __riscv_v_vstate_save(vstate): the CSRs first (nothing below changes
# them), then v0-v31 as four whole-register groups of eight, each
# 8 * vlenb bytes, into vstate->datap. Clobbers t0-t2.
	.globl __riscv_v_vstate_save
	.type __riscv_v_vstate_save, @function
__riscv_v_vstate_save:
	li	t0, SR_VS
	csrs	sstatus, t0			# riscv_v_enable()
	.option push
	.option arch, +v
	csrr	t1, vstart
	sd	t1, VSTATE_VSTART(a0)
	csrr	t1, vtype
	sd	t1, VSTATE_VTYPE(a0)
	csrr	t1, vl
	sd	t1, VSTATE_VL(a0)
	csrr	t1, vcsr
	sd	t1, VSTATE_VCSR(a0)
	csrr	t1, vlenb
	sd	t1, VSTATE_VLENB(a0)
	ld	t2, VSTATE_DATAP(a0)
	slli	t1, t1, 3			# bytes in eight registers
	vs8r.v	v0, (t2)
	add	t2, t2, t1
	vs8r.v	v8, (t2)
	add	t2, t2, t1
	vs8r.v	v16, (t2)
	add	t2, t2, t1
	vs8r.v	v24, (t2)
	.option pop
	csrc	sstatus, t0			# riscv_v_disable()
	ret
	.size __riscv_v_vstate_save, .-__riscv_v_vstate_save

# __riscv_v_vstate_restore(vstate): v0-v31 from vstate->datap as four
# whole-register groups, then vl and vtype with one vsetvl (the saved vl as
# AVL gives back the same vl), then vstart and vcsr. Clobbers t0-t2.
	.globl __riscv_v_vstate_restore
	.type __riscv_v_vstate_restore, @function
__riscv_v_vstate_restore:
	li	t0, SR_VS
	csrs	sstatus, t0			# riscv_v_enable()
	.option push
	.option arch, +v
	csrr	t1, vlenb
	ld	t2, VSTATE_DATAP(a0)
	slli	t1, t1, 3
	vl8re8.v v0, (t2)
	add	t2, t2, t1
	vl8re8.v v8, (t2)
	add	t2, t2, t1
	vl8re8.v v16, (t2)
	add	t2, t2, t1
	vl8re8.v v24, (t2)
	ld	t1, VSTATE_VL(a0)
	ld	t2, VSTATE_VTYPE(a0)
	vsetvl	zero, t1, t2
	ld	t1, VSTATE_VSTART(a0)
	csrw	vstart, t1
	ld	t1, VSTATE_VCSR(a0)
	csrw	vcsr, t1
	.option pop
	csrc	sstatus, t0			# riscv_v_disable()
	ret
	.size __riscv_v_vstate_restore, .-__riscv_v_vstate_restore

# riscv_v_vstate_restore(regs), mainline: with any vector state at all
# (VS != Off; the switch and the first-use trap leave it Initial), load the
# save area and call the state Clean. Out of line (Linux inlines it into
# arch_exit_to_user_mode_prepare) so that the work has its own symbol; the
# loading is a tail call, so the whole costs one extra jal. The pt_regs
# status is marked Clean before the load instead of after it: nothing
# reads it in between.
	.globl riscv_v_vstate_restore
	.type riscv_v_vstate_restore, @function
riscv_v_vstate_restore:
	ld	a5, PT_STATUS(a0)
	andi	a4, a5, SR_VS
	beqz	a4, 1f				# riscv_v_vstate_query(): Off
	andi	a5, a5, ~SR_VS
	ori	a5, a5, SR_VS_CLEAN		# __riscv_v_vstate_clean(regs)
	sd	a5, PT_STATUS(a0)
	addi	a0, tp, TASK_VSTATE
	tail	__riscv_v_vstate_restore	# (&current->thread.vstate)
1:
	ret
	.size riscv_v_vstate_restore, .-riscv_v_vstate_restore

# riscv_v_vstate_restore_v3(regs), seed 001 v3 (called from
# arch_exit_to_user_mode_prepare when the flag is set): Clean state is
# loaded from the save area, as in mainline, and stays Clean. Initial state
# is not loaded: the registers get their known values from
# __riscv_v_vstate_discard, the same call the mainline entry makes, now on
# the way out (v3's changelog: the discard is deferred to
# exit_to_user_mode_prepare); VS stays Initial, which is why v3 repeats this
# on every call until the check_gt fix. Off (and Dirty, which the flag never
# meets here) does nothing. The test order is a guess; see the header.
	.globl riscv_v_vstate_restore_v3
	.type riscv_v_vstate_restore_v3, @function
riscv_v_vstate_restore_v3:
	ld	a5, PT_STATUS(a0)
	andi	a4, a5, SR_VS
	li	a3, SR_VS_CLEAN
	beq	a4, a3, 2f			# __riscv_v_vstate_check(status, CLEAN)
	li	a3, SR_VS_INITIAL
	bne	a4, a3, 1f			# not Initial either: nothing to do
	tail	__riscv_v_vstate_discard	# Initial: the deferred discard
2:
	addi	a0, tp, TASK_VSTATE
	tail	__riscv_v_vstate_restore	# (&current->thread.vstate)
1:
	ret
	.size riscv_v_vstate_restore_v3, .-riscv_v_vstate_restore_v3

# __switch_to_vector(prev, next), mainline. Called by schedule() before
# __switch_to, through riscv_v_switch_hook. Both tasks are in the kernel, so
# their user state is described by the pt_regs at the top of their kernel
# stacks (task_pt_regs).
#   riscv_v_vstate_save(&prev->thread.vstate, task_pt_regs(prev)):
#     only Dirty state is written back; it is Clean afterwards.
#   riscv_v_vstate_set_restore(next, task_pt_regs(next)): if next has vector
#     state, flag it for its exit and (mainline) set its VS to Initial.
	.globl __switch_to_vector
	.type __switch_to_vector, @function
__switch_to_vector:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a1
	ld	a5, TASK_STACK(a0)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	s2, a5, a4			# task_pt_regs(prev)
	ld	a5, PT_STATUS(s2)
	andi	a5, a5, SR_VS
	li	a4, SR_VS_DIRTY
	bne	a5, a4, 1f
	addi	a0, a0, TASK_VSTATE
	call	__riscv_v_vstate_save		# (&prev->thread.vstate)
	ld	a5, PT_STATUS(s2)
	andi	a5, a5, ~SR_VS
	ori	a5, a5, SR_VS_CLEAN		# __riscv_v_vstate_clean(regs)
	sd	a5, PT_STATUS(s2)
1:
	ld	a5, TASK_STACK(s1)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	a5, a5, a4			# task_pt_regs(next)
	ld	a4, PT_STATUS(a5)
	andi	a4, a4, SR_VS
	beqz	a4, 2f
	li	a3, _TIF_RISCV_V_DEFER_RESTORE
	amoor.d	zero, a3, (s1)			# set_tsk_thread_flag(next)
	ld	a4, PT_STATUS(a5)		# riscv_v_vstate_on(regs)
	andi	a4, a4, ~SR_VS
	ori	a4, a4, SR_VS_INITIAL
	sd	a4, PT_STATUS(a5)
2:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size __switch_to_vector, .-__switch_to_vector

# __switch_to_vector_v3(prev, next): as above, except that set_restore only
# flags next. Its VS stays what it is (Initial, Clean), which is what tells
# riscv_v_vstate_restore_v3 whether to reset or to load.
	.globl __switch_to_vector_v3
	.type __switch_to_vector_v3, @function
__switch_to_vector_v3:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a1
	ld	a5, TASK_STACK(a0)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	s2, a5, a4			# task_pt_regs(prev)
	ld	a5, PT_STATUS(s2)
	andi	a5, a5, SR_VS
	li	a4, SR_VS_DIRTY
	bne	a5, a4, 1f
	addi	a0, a0, TASK_VSTATE
	call	__riscv_v_vstate_save		# (&prev->thread.vstate)
	ld	a5, PT_STATUS(s2)
	andi	a5, a5, ~SR_VS
	ori	a5, a5, SR_VS_CLEAN		# __riscv_v_vstate_clean(regs)
	sd	a5, PT_STATUS(s2)
1:
	ld	a5, TASK_STACK(s1)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	a5, a5, a4			# task_pt_regs(next)
	ld	a4, PT_STATUS(a5)
	andi	a4, a4, SR_VS
	beqz	a4, 2f
	li	a3, _TIF_RISCV_V_DEFER_RESTORE
	amoor.d	zero, a3, (s1)			# set_tsk_thread_flag(next)
2:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size __switch_to_vector_v3, .-__switch_to_vector_v3

# irqentry_exit_to_user_mode(regs): the way back to U after a trap that is
# not a syscall (here only the first-use trap): the exit work loop, then
# arch_exit_to_user_mode_prepare(). This path runs once per task, so it asks
# knob_vstate_v3 which restore applies instead of having a copy per kernel.
	.globl irqentry_exit_to_user_mode
	.type irqentry_exit_to_user_mode, @function
irqentry_exit_to_user_mode:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	csrci	sstatus, SR_SIE
	ld	a1, TASK_TI_FLAGS(tp)
	andi	a5, a1, EXIT_TO_USER_MODE_WORK
	beqz	a5, 1f
	mv	a0, s1
	call	exit_to_user_mode_loop		# (regs, ti_work) -> ti_work
	mv	a1, a0
1:
	andi	a5, a1, _TIF_RISCV_V_DEFER_RESTORE
	beqz	a5, 3f
	li	a5, ~_TIF_RISCV_V_DEFER_RESTORE
	amoand.d zero, a5, (tp)			# clear_thread_flag()
	mv	a0, s1
	ld	a5, knob_vstate_v3
	bnez	a5, 2f
	call	riscv_v_vstate_restore
	j	3f
2:
	call	riscv_v_vstate_restore_v3
3:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size irqentry_exit_to_user_mode, .-irqentry_exit_to_user_mode

	.section .kernel.data, "aw", @progbits
	.balign 8
# riscv_v_vsize: bytes of one register image, 32 * vlenb (riscv_v_setup).
	.globl riscv_v_vsize
	.type riscv_v_vsize, @object
riscv_v_vsize:
	.dword 0
	.size riscv_v_vsize, .-riscv_v_vsize
# riscv_v_switch_hook: 0, or the __switch_to_vector copy schedule() calls.
	.globl riscv_v_switch_hook
	.type riscv_v_switch_hook, @object
riscv_v_switch_hook:
	.dword 0
	.size riscv_v_switch_hook, .-riscv_v_switch_hook

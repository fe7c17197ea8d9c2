# entry-arch.S: RISC-V's own syscall entry as it was before the conversion
# to generic entry (Guo Ren, "riscv: entry: Convert to generic entry",
# posted from 2022, commit f0bddf50586d). With knob_arch_entry = 1,
# kernel_start puts handle_exception_arch in stvec instead of
# handle_exception, so the same getppid loop runs through either entry.
# Files: this one (entry.S's assembly), work-arch.S (the C half:
# do_syscall_trace_enter/exit, do_notify_resume), syscall-arch.S
# (sys_call_table_arch and its handlers), include/minikernel-arch-entry.inc
# (the TIF masks and entry.S's CSR names).
#
# Modelled, label by label, on arch/riscv/kernel/entry.S and
# arch/riscv/kernel/ptrace.c and signal.c as they were from 5.15 to 6.1 (a
# late-2022 fix then moved work_pending's loop into C, do_work_pending; the
# syscall path did not change), in a production configuration: no
# CONFIG_TRACE_IRQFLAGS, CONTEXT_TRACKING_USER, PREEMPTION, COMPAT,
# DEBUG_RSEQ or VMAP_STACK, and RISC-V with an MMU (S-mode). Every Linux
# label has its counterpart with an _arch suffix (handle_exception and
# ret_from_exception already name the generic ones):
#
#   handle_exception_arch      save pt_regs; interrupt or exception; turn
#                              interrupts back on (as sstatus.SPIE says);
#                              ecall from U -> handle_syscall_arch
#   handle_syscall_arch        orig_a0, epc += 4, the _TIF_SYSCALL_WORK test,
#     check_syscall_nr_arch    the bounds check, the call through
#     ret_from_syscall_arch    sys_call_table_arch with the arguments still in
#                              a0..a7, and the store of the result
#   ret_from_syscall_rejected_arch
#                              the same work test on the way out
#   ret_from_exception_arch    interrupts off; to U: the _TIF_WORK_MASK test
#     resume_userspace_arch    (work_pending_arch), then restore_all_arch:
#     restore_all_arch         the registers and sret
#   work_pending_arch          schedule, or do_notify_resume (signals,
#                              notify-resume), then ret_from_exception_arch
#                              again: the 5.x loop runs through the flags
#                              test once per piece of work
#   handle_syscall_trace_enter_arch, handle_syscall_trace_exit_arch
#                              the slow paths around do_syscall_trace_enter
#                              and do_syscall_trace_exit (ptrace.c)
#
# What is shared with the generic entry (include/minikernel-entry.inc and
# ret_from_exception in entry.S), as Linux shared it across the conversion:
# the sscratch swap, the pt_regs layout, the 29 + 6 stores, the kernel gp,
# the reservation-clearing sc.d and the 30 + 1 loads before sret. Where 5.x
# differed: sstatus loses SUM and FS only (no vector support yet, so one
# `lui` instead of lui+addiw); a0 is not pointed at pt_regs on the syscall
# path (a0..a7 go to the syscall as they are); the exception path turns
# interrupts on itself; ret_from_exception turns them off itself.
#
# Not a syscall: interrupts and the other exceptions go to the generic
# handlers (do_irq, excp_vect_table) and return through the generic
# ret_from_exception, with interrupts off as those handlers expect (so for
# them this entry turns interrupts back off after the 5.x test: not 5.x).
#
# Syscall work (see include/minikernel-arch-entry.inc): 5.x tested TIF bits
# in thread_info.flags; this entry tests the same four hooks in
# thread_info.syscall_work, generic entry's word, which costs the same. It
# calls the same work helpers as the generic path (ptrace_report_syscall_*,
# __secure_computing, trace_sys_*, __audit_syscall_*) in 5.x's order.
# Syscall user dispatch came with generic entry: this entry ignores its
# bit, and prctl(PR_SET_SYSCALL_USER_DISPATCH) fails with -EINVAL here, as
# on a 5.x kernel.
#
# Syscalls: 5.x called sys_* with the arguments in registers. The table
# holds register-ABI handlers for the calls the getppid loop makes (getppid
# and sched_yield take no argument, so the minikernel's handlers serve as
# they are; exit has its own, sys_exit_arch) and sends every other
# implemented call through sys_ptregs_shim to the minikernel's pt_regs-ABI
# handler in sys_call_table (7 instructions of glue that 5.x did not have).
#
# Instructions per getppid call (timed loop, every knob 0 but arch_entry;
# same counting rules as kernel.S's "Hand count per getppid call": `la` is
# auipc+addi, `call`/`tail` one jal/j, a 12-bit `li` one instruction):
#
#                                   arch entry   generic entry (before, 0)
#   user                                  16          16
#   entry   handle_exception_arch         60          64
#     shared save, up to `la gp`          50          51 (+ move a0, sp: 52)
#       csrrw tp; bnez                     2
#       sd user_sp; ld kernel_sp; addi     3
#       29 x sd                           29
#       li SR_SUM|SR_FS (1: lui); ld user_sp; csrrc sstatus
#                                          3  (generic: li is lui+addiw, 4)
#       csrr sepc, stval, scause, sscratch 4
#       6 x sd                             6
#       csrw sscratch; la gp (2)           3
#     dispatch: bgez; andi SPIE; beqz; li; beq (breakpoint); csrsi SIE;
#       la ra (2); li; beq -> handle_syscall_arch
#                                         10  (generic: 12, la ra, table)
#   syscall                               27          58
#     handle_syscall_arch                 17
#       sd orig_a0; addi epc; sd epc       3
#       ld work; andi; bnez                3
#       li NR; la sys_ni (2); bgeu; la table (2); slli; add; ld; jalr
#                                         10
#       sd a0 (ret_from_syscall)           1
#     sys_getppid (the same function)     10          10
#     (generic: do_trap_ecall_u 35 and syscall_enter_from_user_mode 13)
#   exit                                  50          61
#     ret_from_syscall_rejected_arch: ld work; andi; bnez
#                                          3
#     ret_from_exception_arch             47
#       ld status; csrci SIE; andi SPP; bnez
#                                          4
#       resume_userspace: ld flags; andi; bnez
#                                          3
#       addi; sd kernel_sp; csrw sscratch  3
#       restore_all: ld status; ld epc; sc.d; csrw sstatus; csrw sepc
#                                          5
#       30 x ld; ld sp; sret              32
#     (generic: syscall_exit_to_user_mode 18 and ret_from_exception 43)
#   total                                153         199
#
# Where the 46 go, generic (before) minus arch:
#   entry  +4: VS in the sstatus mask (+1), move a0, sp (+1), the dispatch
#          (+2: generic's la ra and table lookup, 12, against 5.x's
#          interrupt enable and cause tests, 10, whose csrsi SIE generic
#          entry runs in syscall_enter_from_user_mode instead);
#   syscall +31: do_trap_ecall_u's and syscall_enter_from_user_mode's
#          frames (prologues and epilogues, 18), the user_mode test (3),
#          reading epc, a0 and a7 back from pt_regs (3; 5.x still has them
#          in registers), a0 = -ENOSYS (2: li, sd), the moves around the
#          pt_regs argument (4: mv s1, a0; mv a0, s1 twice; mv a0, a1), the
#          calls of the out-of-line entry and exit (2) and the interrupt
#          enable (1, here in entry): 33, less 5.x's `la sys_ni_syscall`
#          (2), which generic entry's bounds check does without;
#   exit  +11: syscall_exit_to_user_mode's frame (10) and its mv s1, a0
#          (1); the work tests (syscall work, thread flags) and the
#          interrupt disable are in both.
#
# With knob_syscall_work = SYSCALL_WORK_SYSCALL_TRACE (4) and no tracer
# (the work helpers counted apart: they are the generic path's own):
#   syscall +40 = 67: bnez taken (same count), handle_syscall_trace_enter_arch
#     13 (mv a0, sp; jal; mv t0, a0; 8 x ld a0..a7; bnez; j), do_syscall_trace_enter
#     25 (prologue 5; mv s1, a0; TRACE test 3; jal; bnez; SECCOMP test 3;
#     TRACEPOINT test 3; audit_context test 2; li a0, 0; epilogue 5),
#     check_syscall_nr_arch again from the top (bounds, call, store: no
#     change); + ptrace_report_syscall_entry's own
#   exit +27 = 77: ret_from_syscall_rejected_arch 3 (its bnez now taken),
#     handle_syscall_trace_exit_arch 3 (mv a0, sp; jal; j), do_syscall_trace_exit
#     22 (prologue 5; mv s1, a0; audit_context test 2; TRACE test 3; mv a0,
#     s1; li a1, 0; jal; TRACEPOINT test 3; epilogue 5), then
#     ret_from_exception_arch 47; + ptrace_report_syscall_exit's own
#   (generic, same work: syscall +44, exit +40 beside kernel.S's counts; its
#   syscall_trace_enter and syscall_exit_work also count themselves in
#   stat_syscall_trace_enter/exit, 5 instructions each, which 5.x's
#   functions have no counterpart of and this entry does not do.)
# With SYSCALL_WORK_SECCOMP alone the 5.x exit also runs
# do_syscall_trace_exit (its _TIF_SYSCALL_WORK test includes TIF_SECCOMP);
# generic entry's SYSCALL_WORK_EXIT leaves seccomp out. With
# SYSCALL_WORK_SYSCALL_USER_DISPATCH alone this entry takes the fast path.
#
# Exit work (thread flags; work_pending_arch and do_notify_resume): each
# piece of work returns to ret_from_exception_arch, which tests the flags
# again (+7: ld status, csrci, andi, bnez, ld flags, andi, bnez). A
# reschedule: work_pending_arch 5 (la ra 2; andi; bnez; j schedule).
# Signals or notify-resume: work_pending_arch 8 (la ra 2; andi; bnez;
# csrsi; 2 x mv; j do_notify_resume), do_notify_resume 21 with both flags
# (prologue 6; 2 x mv; andi, beqz, jal; andi, beqz, mv, jal; epilogue 6).
# Both at once take two passes: schedule first, then the rest.

# These figures were checked by tracing every executed pc under QEMU 7.2
# (-singlestep -d exec,nochain, the knobs written into a copy of the ELF):
# 153 per timed iteration by the same symbols, 220 with knob_syscall_work
# = 4 and trace.S's stubs (2 instructions each) as they are now.
#
# Suggested phases (trapscope attributes each pc to its symbol; unlisted
# callees inherit their caller's phase):
#   entry    handle_exception_arch
#   syscall  handle_syscall_arch, handle_syscall_trace_enter_arch,
#            do_syscall_trace_enter, sys_exit_arch, sys_prctl_arch,
#            sys_ptregs_shim (with sys_getppid, sys_ni_syscall as before)
#   exit     ret_from_syscall_rejected_arch, ret_from_exception_arch,
#            work_pending_arch, do_notify_resume,
#            handle_syscall_trace_exit_arch, do_syscall_trace_exit

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-arch-entry.inc"

	.section .kernel.text, "ax", @progbits

# handle_exception_arch: stvec (direct mode) with knob_arch_entry = 1.
	.balign 4
	.globl handle_exception_arch
	.type handle_exception_arch, @function
handle_exception_arch:
	# sscratch: current while in U-mode, 0 in the kernel. One swap fetches
	# the task and tells where the trap came from.
	csrrw	tp, CSR_SCRATCH, tp
	bnez	tp, 1f
	# From S-mode: tp was right already; keep the current kernel stack.
	csrr	tp, CSR_SCRATCH
	sd	sp, TASK_TI_KERNEL_SP(tp)
1:
	# _save_context: park sp, take the kernel stack, open pt_regs.
	sd	sp, TASK_TI_USER_SP(tp)
	ld	sp, TASK_TI_KERNEL_SP(tp)
	addi	sp, sp, -PT_SIZE_ON_STACK
	sd	ra,  PT_RA(sp)
	sd	gp,  PT_GP(sp)
	sd	t0,  PT_T0(sp)
	sd	t1,  PT_T1(sp)
	sd	t2,  PT_T2(sp)
	sd	s0,  PT_S0(sp)
	sd	s1,  PT_S1(sp)
	sd	a0,  PT_A0(sp)
	sd	a1,  PT_A1(sp)
	sd	a2,  PT_A2(sp)
	sd	a3,  PT_A3(sp)
	sd	a4,  PT_A4(sp)
	sd	a5,  PT_A5(sp)
	sd	a6,  PT_A6(sp)
	sd	a7,  PT_A7(sp)
	sd	s2,  PT_S2(sp)
	sd	s3,  PT_S3(sp)
	sd	s4,  PT_S4(sp)
	sd	s5,  PT_S5(sp)
	sd	s6,  PT_S6(sp)
	sd	s7,  PT_S7(sp)
	sd	s8,  PT_S8(sp)
	sd	s9,  PT_S9(sp)
	sd	s10, PT_S10(sp)
	sd	s11, PT_S11(sp)
	sd	t3,  PT_T3(sp)
	sd	t4,  PT_T4(sp)
	sd	t5,  PT_T5(sp)
	sd	t6,  PT_T6(sp)

	# No SUM and FS Off in the kernel; 5.x had no VS to turn off.
	li	t0, ARCH_SR_SUM_FS
	ld	s0, TASK_TI_USER_SP(tp)
	csrrc	s1, CSR_STATUS, t0
	csrr	s2, CSR_EPC
	csrr	s3, CSR_TVAL
	csrr	s4, CSR_CAUSE
	csrr	s5, CSR_SCRATCH			# the interrupted tp
	sd	s0, PT_SP(sp)
	sd	s1, PT_STATUS(sp)
	sd	s2, PT_EPC(sp)
	sd	s3, PT_BADADDR(sp)
	sd	s4, PT_CAUSE(sp)
	sd	s5, PT_TP(sp)
	csrw	CSR_SCRATCH, zero		# a nested trap came from the kernel

	.option push
	.option norelax
	la	gp, kernel_gp
	.option pop

	# scause MSB set: an interrupt (privileged spec, "Supervisor Cause").
	bgez	s4, 2f
	# Interrupts: the generic handler and the generic way out.
	la	ra, ret_from_exception
	move	a0, sp
	tail	do_irq
2:
	# Exceptions run with interrupts on if the trapped context had them
	# (sstatus.SPIE), except a breakpoint (kprobes want them off). The
	# breakpoint test is in the last trees before the conversion; a
	# 5.11-era entry.S lacks it (2 instructions fewer), and I could not
	# confirm the release that added it.
	andi	t0, s1, SR_SPIE
	beqz	t0, 3f
	li	t0, CAUSE_BREAKPOINT
	beq	s4, t0, 3f
	csrsi	CSR_STATUS, SR_SIE
3:
	la	ra, ret_from_exception_arch
	li	t0, CAUSE_USER_ECALL
	beq	s4, t0, handle_syscall_arch

	# Any other exception: the generic handlers, entered with interrupts
	# off and returning to the generic ret_from_exception (not 5.x: there
	# the same handle_exception dispatched these through its own table).
	csrci	CSR_STATUS, SR_SIE
	la	ra, ret_from_exception
	move	a0, sp
	slli	t0, s4, RISCV_LGPTR
	la	t1, excp_vect_table
	la	t2, excp_vect_table_end
	add	t0, t1, t0
	bgeu	t0, t2, 4f
	ld	t0, 0(t0)
	jr	t0
4:
	tail	do_trap_unknown
	.size handle_exception_arch, .-handle_exception_arch

# handle_syscall_arch: an ecall from U. a0..a7 still hold the caller's
# arguments and number; s2 is sepc, sp the pt_regs.
	.globl handle_syscall_arch
	.type handle_syscall_arch, @function
handle_syscall_arch:
	sd	a0, PT_ORIG_A0(sp)		# a0 becomes the result
	addi	s2, s2, 4			# resume after the ecall
	sd	s2, PT_EPC(sp)
	ld	t0, TASK_TI_SYSCALL_WORK(tp)	# 5.x: TASK_TI_FLAGS & _TIF_SYSCALL_WORK
	andi	t0, t0, ARCH_TIF_SYSCALL_WORK
	bnez	t0, handle_syscall_trace_enter_arch
	.globl check_syscall_nr_arch
check_syscall_nr_arch:
	# A number past the table (-1 from a tracer included) calls
	# sys_ni_syscall, which answers -ENOSYS.
	li	t0, NR_syscalls
	la	s0, sys_ni_syscall
	bgeu	a7, t0, 1f
	la	s0, sys_call_table_arch
	slli	t0, a7, RISCV_LGPTR
	add	s0, s0, t0
	ld	s0, 0(s0)
1:
	jalr	s0				# sys_*(a0, ..., a5): RAS push
	.globl ret_from_syscall_arch
ret_from_syscall_arch:
	sd	a0, PT_A0(sp)
	.size handle_syscall_arch, .-handle_syscall_arch

# ret_from_syscall_rejected_arch: also where a call the tracer or seccomp
# refused comes back (pt_regs->a0 then holds what they put there).
	.globl ret_from_syscall_rejected_arch
	.type ret_from_syscall_rejected_arch, @function
ret_from_syscall_rejected_arch:
	ld	t0, TASK_TI_SYSCALL_WORK(tp)
	andi	t0, t0, ARCH_TIF_SYSCALL_WORK
	bnez	t0, handle_syscall_trace_exit_arch
	.size ret_from_syscall_rejected_arch, .-ret_from_syscall_rejected_arch

# ret_from_exception_arch(sp = pt_regs): falls in from above; schedule and
# do_notify_resume return here (work_pending_arch sets ra), so each pass
# tests the flags again with interrupts off.
	.globl ret_from_exception_arch
	.type ret_from_exception_arch, @function
ret_from_exception_arch:
	ld	s0, PT_STATUS(sp)
	csrci	CSR_STATUS, SR_SIE		# flags are tested with interrupts off
	andi	s0, s0, SR_SPP
	bnez	s0, restore_all_arch		# resume_kernel: no PREEMPTION
	.globl resume_userspace_arch
resume_userspace_arch:
	ld	s0, TASK_TI_FLAGS(tp)
	andi	s1, s0, ARCH_TIF_WORK_MASK
	bnez	s1, work_pending_arch
	# The next trap from U finds an empty kernel stack and current in
	# sscratch.
	addi	s0, sp, PT_SIZE_ON_STACK
	sd	s0, TASK_TI_KERNEL_SP(tp)
	csrw	CSR_SCRATCH, tp
	.globl restore_all_arch
restore_all_arch:
	ld	a0, PT_STATUS(sp)
	ld	a2, PT_EPC(sp)
	# Drop any reservation before another context runs (an SC of epc onto
	# itself; see ret_from_exception in entry.S).
.if PT_EPC != 0
	.error "sc.d below needs pt_regs->epc at offset 0"
.endif
	sc.d	zero, a2, (sp)
	csrw	CSR_STATUS, a0
	csrw	CSR_EPC, a2
	ld	ra,  PT_RA(sp)
	ld	gp,  PT_GP(sp)
	ld	tp,  PT_TP(sp)
	ld	t0,  PT_T0(sp)
	ld	t1,  PT_T1(sp)
	ld	t2,  PT_T2(sp)
	ld	s0,  PT_S0(sp)
	ld	s1,  PT_S1(sp)
	ld	a0,  PT_A0(sp)
	ld	a1,  PT_A1(sp)
	ld	a2,  PT_A2(sp)
	ld	a3,  PT_A3(sp)
	ld	a4,  PT_A4(sp)
	ld	a5,  PT_A5(sp)
	ld	a6,  PT_A6(sp)
	ld	a7,  PT_A7(sp)
	ld	s2,  PT_S2(sp)
	ld	s3,  PT_S3(sp)
	ld	s4,  PT_S4(sp)
	ld	s5,  PT_S5(sp)
	ld	s6,  PT_S6(sp)
	ld	s7,  PT_S7(sp)
	ld	s8,  PT_S8(sp)
	ld	s9,  PT_S9(sp)
	ld	s10, PT_S10(sp)
	ld	s11, PT_S11(sp)
	ld	t3,  PT_T3(sp)
	ld	t4,  PT_T4(sp)
	ld	t5,  PT_T5(sp)
	ld	t6,  PT_T6(sp)
	ld	sp,  PT_SP(sp)
	sret
	.size ret_from_exception_arch, .-ret_from_exception_arch

# work_pending_arch(s0 = thread flags): one piece of work, then back to
# ret_from_exception_arch. A reschedule goes first and alone; otherwise
# do_notify_resume, with interrupts on.
	.globl work_pending_arch
	.type work_pending_arch, @function
work_pending_arch:
	la	ra, ret_from_exception_arch
	andi	s1, s0, _TIF_NEED_RESCHED
	bnez	s1, 1f
	csrsi	CSR_STATUS, SR_SIE		# work_notifysig
	move	a0, sp
	move	a1, s0
	tail	do_notify_resume
1:
	tail	schedule			# work_resched
	.size work_pending_arch, .-work_pending_arch

# handle_syscall_trace_enter_arch: the entry work, then the call with the
# arguments as the work left them in pt_regs (a tracer may rewrite them), or
# none if it said so.
	.globl handle_syscall_trace_enter_arch
	.type handle_syscall_trace_enter_arch, @function
handle_syscall_trace_enter_arch:
	move	a0, sp
	call	do_syscall_trace_enter		# -> 0 run it, -1 skip it
	move	t0, a0
	ld	a0, PT_A0(sp)
	ld	a1, PT_A1(sp)
	ld	a2, PT_A2(sp)
	ld	a3, PT_A3(sp)
	ld	a4, PT_A4(sp)
	ld	a5, PT_A5(sp)
	ld	a6, PT_A6(sp)
	ld	a7, PT_A7(sp)
	bnez	t0, ret_from_syscall_rejected_arch
	j	check_syscall_nr_arch
	.size handle_syscall_trace_enter_arch, .-handle_syscall_trace_enter_arch

# handle_syscall_trace_exit_arch: the exit work, then out.
	.globl handle_syscall_trace_exit_arch
	.type handle_syscall_trace_exit_arch, @function
handle_syscall_trace_exit_arch:
	move	a0, sp
	call	do_syscall_trace_exit
	j	ret_from_exception_arch
	.size handle_syscall_trace_exit_arch, .-handle_syscall_trace_exit_arch

# exit.S: the way back to user mode after a syscall (phase "exit", together
# with ret_from_exception in entry.S): generic entry's
# syscall_exit_to_user_mode and the work it may have to do first.
#
# Same compiled-C shape as syscall.S (frame pointers, current in tp). The
# work helpers stand in for the scheduler, signal delivery and
# resume_user_mode_work: each counts itself and clears its flag.
#
# Thread flags are cleared with an AMO, as clear_thread_flag() does (another
# hart may set flags concurrently). On a core profile that traps AMOs to
# M-mode the firmware emulates each of them (zalrsc-fw.S). These stay AMOs
# with knob_zaamo = 0 too: that knob switches the atomics of seed 004's
# benchmark (zalrsc-atomics.S), not the flag updates on this path.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

.if TASK_TI_FLAGS != 0
	.error "the AMOs below address thread_info.flags as 0(tp)"
.endif

	.section .kernel.text, "ax", @progbits

# syscall_exit_to_user_mode(regs):
#   work = current->syscall_work; if (work & SYSCALL_WORK_EXIT) syscall_exit_work
#   local_irq_disable();
#   ti = current->flags; if (ti & EXIT_TO_USER_MODE_WORK) exit_to_user_mode_loop
	.globl syscall_exit_to_user_mode
	.type syscall_exit_to_user_mode, @function
syscall_exit_to_user_mode:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	a1, TASK_TI_SYSCALL_WORK(tp)
	andi	a5, a1, SYSCALL_WORK_EXIT
	bnez	a5, 3f
1:
	# Interrupts stay off from the last flags check to sret, so no new work
	# can slip in unseen (local_irq_disable_exit_to_user()).
	csrci	sstatus, SR_SIE
	ld	a1, TASK_TI_FLAGS(tp)
	andi	a5, a1, EXIT_TO_USER_MODE_WORK
	bnez	a5, 4f
2:
	# arch_exit_to_user_mode_prepare() would go here; a kernel built
	# without vector support has nothing to do. The vector-enabled copies
	# (syscall_exit_to_user_mode_v*, vector-syscall.S) test
	# _TIF_RISCV_V_DEFER_RESTORE at this point.
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
3:
	mv	a0, s1
	call	syscall_exit_work		# (regs, work)
	j	1b
4:
	mv	a0, s1
	call	exit_to_user_mode_loop		# (regs, ti_work)
	j	2b
	.size syscall_exit_to_user_mode, .-syscall_exit_to_user_mode

# syscall_exit_work(regs, work): the exit half of the syscall work, in
# kernel/entry/common.c's order. A call that syscall user dispatch turned
# into SIGSYS reports nothing (sud.S's on_dispatch). Then audit
# (audit_syscall_exit, inline in Linux: tests current->audit_context), the
# sys_exit tracepoint and the ptrace report (trace.S); report_single_step()
# is work & EXIT_TRAP unless EMU.
#   s1 = regs, s2 = work
	.globl syscall_exit_work
	.type syscall_exit_work, @function
syscall_exit_work:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	la	a5, stat_syscall_trace_exit
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	andi	a5, s2, SYSCALL_WORK_SYSCALL_USER_DISPATCH
	beqz	a5, 1f
	lbu	a5, TASK_SUD_ON_DISPATCH(tp)
	beqz	a5, 1f
	sb	zero, TASK_SUD_ON_DISPATCH(tp)	# on_dispatch = false; no reports
	j	9f
1:
	ld	a5, TASK_AUDIT_CONTEXT(tp)	# audit_syscall_exit(regs)
	beqz	a5, 2f
	ld	a1, PT_A0(s1)			# return_code = regs->a0
	li	a5, -MAX_ERRNO
	sltu	a0, a1, a5			# success = !IS_ERR_VALUE(ret)
	call	__audit_syscall_exit		# (success, return_code)
2:
	andi	a5, s2, SYSCALL_WORK_SYSCALL_TRACEPOINT
	beqz	a5, 3f
	mv	a0, s1
	ld	a1, PT_A0(s1)			# syscall_get_return_value()
	call	trace_sys_exit			# (regs, ret)
3:
	andi	a5, s2, SYSCALL_WORK_SYSCALL_EMU	# report_single_step()
	li	a1, 0
	bnez	a5, 4f
	andi	a1, s2, SYSCALL_WORK_SYSCALL_EXIT_TRAP
	snez	a1, a1
4:
	bnez	a1, 5f
	andi	a5, s2, SYSCALL_WORK_SYSCALL_TRACE
	beqz	a5, 9f
5:
	mv	a0, s1
	call	ptrace_report_syscall_exit	# (regs, step)
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size syscall_exit_work, .-syscall_exit_work

# exit_to_user_mode_loop(regs, ti_work) -> ti_work: handle every pending
# piece of work with interrupts on, then re-read the flags with interrupts
# off; repeat until none is left.
	.globl exit_to_user_mode_loop
	.type exit_to_user_mode_loop, @function
exit_to_user_mode_loop:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
1:
	csrsi	sstatus, SR_SIE
	andi	a5, s2, _TIF_NEED_RESCHED
	beqz	a5, 2f
	call	schedule
2:
	andi	a5, s2, _TIF_SIGPENDING
	beqz	a5, 3f
	mv	a0, s1
	call	arch_do_signal_or_restart
3:
	andi	a5, s2, _TIF_NOTIFY_RESUME
	beqz	a5, 4f
	mv	a0, s1
	call	resume_user_mode_work
4:
	csrci	sstatus, SR_SIE
	ld	s2, TASK_TI_FLAGS(tp)
	andi	a5, s2, EXIT_TO_USER_MODE_WORK
	bnez	a5, 1b
	mv	a0, s2
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size exit_to_user_mode_loop, .-exit_to_user_mode_loop

# schedule(): clear need-resched and pick the next task: a round robin over
# the ring of runnable tasks (TASK_RQ_NEXT). A task alone on the ring comes
# straight back. Otherwise this is context_switch(): hand the vector unit
# over (only on a kernel that found V at boot) and __switch_to, which
# returns here only when a later schedule() switches back to this task.
	.globl schedule
	.type schedule, @function
schedule:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	li	a5, ~_TIF_NEED_RESCHED
	amoand.d zero, a5, (tp)			# clear_thread_flag()
	la	a5, stat_schedule
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	ld	s1, TASK_RQ_NEXT(tp)		# pick_next_task()
	beq	s1, tp, 1f			# nobody else wants the hart
	la	a5, stat_context_switch		# (the run queue's nr_switches)
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	mv	a0, tp				# prepare_task_switch(): rseq_preempt(prev)
	call	rseq_preempt			#   (rseq.S)
	mv	a0, tp				# Linux's has_fpu() half: the lazy
	mv	a1, s1				# FP save/restore (zz-fpu.S)
	call	__switch_to_fpu
	# switch_to(prev, next). Linux tests has_vector() with a static branch;
	# here riscv_v_switch_hook is 0 (no V) or the __switch_to_vector
	# variant that riscv_v_setup chose at boot.
	ld	a5, riscv_v_switch_hook
	beqz	a5, 2f
	mv	a0, tp
	mv	a1, s1
	jalr	a5				# __switch_to_vector*(prev, next)
2:
	mv	a0, tp
	mv	a1, s1
	call	__switch_to			# (prev, next): tp becomes next
1:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size schedule, .-schedule


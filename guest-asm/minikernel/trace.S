# trace.S: the ptrace syscall reports (SYSCALL_WORK_SYSCALL_TRACE) and the
# sys_enter / sys_exit tracepoints (SYSCALL_WORK_SYSCALL_TRACEPOINT) of
# generic entry's syscall work, modelled on Linux 6.12 (include/linux/
# ptrace.h, kernel/signal.c, include/linux/tracepoint.h, kernel/trace/
# trace_syscalls.c, kernel/trace/ring_buffer.c, arch/riscv/kernel/
# jump_label.c). Same compiled-C shape as syscall.S: every C function keeps
# a frame (ra, s0), current is tp.
#
# What the minikernel's kernel is, where it matters here: one hart, a
# PREEMPT_NONE kernel without a preempt count (preempt_disable() and
# rcu_read_lock() are compiler barriers), no cgroups, no pid or user
# namespaces and no credentials (every task is root: uids are 0), no
# task_work. Spinlocks are a test-and-set AMO standing in for the
# uncontended qspinlock fast path. Paths Linux has but the minikernel never
# takes (group stops, a tracer that asks for a signal, triggers, a full
# ring-buffer page) end in NOT_MODELLED: an illegal instruction in S-mode,
# so the run stops as a kernel fault instead of going on half-modelled.
#
# ptrace: entry-side cost only: up to the stop, without the switch to the
# tracer and back. ptrace_stop runs up to its schedule() (state TASK_TRACED,
# last_siginfo, exit_code, the parent notified); there the tracee would
# sleep until its tracer's PTRACE_SYSCALL. Instead the minikernel's "tracer"
# (ptrace_tracer_resume_now) resumes it at once, leaving what ptrace_resume
# and the wake-up would, and the tracee goes on with ptrace_stop's tail.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-work.inc"

.macro NOT_MODELLED
	unimp
.endm

	.section .kernel.text, "ax", @progbits

# --- ptrace ------------------------------------------------------------------

# ptrace_report_syscall_entry(regs) -> nonzero: skip the call. Linux's is an
# inline around ptrace_report_syscall(PTRACE_EVENTMSG_SYSCALL_ENTRY); the
# minikernel keeps one out-of-line copy of ptrace_report_syscall, so each
# wrapper is li + tail.
	.globl ptrace_report_syscall_entry
	.type ptrace_report_syscall_entry, @function
ptrace_report_syscall_entry:
	li	a1, PTRACE_EVENTMSG_SYSCALL_ENTRY
	tail	ptrace_report_syscall
	.size ptrace_report_syscall_entry, .-ptrace_report_syscall_entry

# ptrace_report_syscall_exit(regs, step): step would be
# user_single_step_report (SYSCALL_WORK_SYSCALL_EXIT_TRAP), never set here.
	.globl ptrace_report_syscall_exit
	.type ptrace_report_syscall_exit, @function
ptrace_report_syscall_exit:
	bnez	a1, 1f
	li	a1, PTRACE_EVENTMSG_SYSCALL_EXIT
	tail	ptrace_report_syscall
1:	NOT_MODELLED				# user_single_step_report()
	.size ptrace_report_syscall_exit, .-ptrace_report_syscall_exit

# ptrace_report_syscall(regs, message) -> fatal_signal_pending(current):
#   if (!(current->ptrace & PT_PTRACED)) return 0;
#   signr = ptrace_notify(SIGTRAP | (PT_TRACESYSGOOD ? 0x80 : 0), message);
#   if (signr) send_sig(signr, current, 1);
#   return fatal_signal_pending(current);
# fatal_signal_pending is signal_pending() (TIF_SIGPENDING) and SIGKILL in
# the pending set; the minikernel never queues SIGKILL, so only the first
# half is run.
	.type ptrace_report_syscall, @function
ptrace_report_syscall:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lw	a5, TASK_PTRACE(tp)
	andi	a4, a5, PT_PTRACED
	beqz	a4, 8f
	andi	a5, a5, PT_TRACESYSGOOD
	snez	a5, a5
	slli	a5, a5, 7
	ori	a0, a5, SIGTRAP			# exit_code
	call	ptrace_notify			# (exit_code, message) -> signr
	bnez	a0, 7f
	ld	a5, TASK_TI_FLAGS(tp)		# signal_pending(current)
	andi	a5, a5, _TIF_SIGPENDING
	bnez	a5, 8f				# (SIGKILL is never pending)
8:
	li	a0, 0
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED				# send_sig(): the tracer resumes with 0
	.size ptrace_report_syscall, .-ptrace_report_syscall

# ptrace_notify(exit_code, message) -> the signal the tracer resumed with.
# ptrace_do_notify, static with this one caller, is inlined: the SIGTRAP
# siginfo lives on this frame.
#   s1 = exit_code, s2 = message; the siginfo at 0(sp)
	.globl ptrace_notify
	.type ptrace_notify, @function
ptrace_notify:
	addi	sp, sp, -80
	sd	ra, 72(sp)
	sd	s0, 64(sp)
	sd	s1, 56(sp)
	sd	s2, 48(sp)
	addi	s0, sp, 80
	mv	s1, a0
	mv	s2, a1
	li	a5, 0x7f | ~0xffff		# BUG_ON((exit_code & (0x7f |
	and	a5, a0, a5			#   ~0xffff)) != SIGTRAP)
	li	a4, SIGTRAP
	bne	a5, a4, 7f
	ld	a5, TASK_TRACE_EXT(tp)		# task_work_pending(current)
	ld	a4, EXT_TASK_WORKS(a5)
	bnez	a4, 7f
	addi	a0, a5, EXT_SIGLOCK		# spin_lock_irq(&sighand->siglock)
	call	_raw_spin_lock_irq
	# ptrace_do_notify(SIGTRAP, exit_code, CLD_TRAPPED, message)
	sd	zero, 0(sp)			# clear_siginfo(&info)
	sd	zero, 8(sp)
	sd	zero, 16(sp)
	sd	zero, 24(sp)
	sd	zero, 32(sp)
	sd	zero, 40(sp)
	li	a5, SIGTRAP
	sw	a5, SI_SIGNO(sp)
	sw	s1, SI_CODE(sp)
	lw	a5, TASK_PID(tp)		# task_pid_vnr(current)
	sw	a5, SI_PID(sp)
	sw	zero, SI_UID(sp)		# from_kuid_munged(): root
	mv	a0, s1
	li	a1, CLD_TRAPPED
	mv	a2, s2
	mv	a3, sp
	call	ptrace_stop			# "Let the debugger run."
	mv	s1, a0
	ld	a5, TASK_TRACE_EXT(tp)		# spin_unlock_irq(&sighand->siglock)
	addi	a0, a5, EXT_SIGLOCK
	call	_raw_spin_unlock_irq
	mv	a0, s1
	ld	ra, 72(sp)
	ld	s0, 64(sp)
	ld	s1, 56(sp)
	ld	s2, 48(sp)
	addi	sp, sp, 80
	ret
7:	NOT_MODELLED				# task_work_run() (none is ever queued), or the BUG
	.size ptrace_notify, .-ptrace_notify

# ptrace_stop(exit_code, why, message, info) -> exit_code, called with
# siglock held: the stop, kernel/signal.c's order. arch_ptrace_stop_needed()
# is false on RISC-V. __fatal_signal_pending() (SIGKILL pending) is always
# false here and not tested. The group-stop bookkeeping (why == CLD_STOPPED)
# is not on a syscall report's path. cgroup_enter_frozen() and
# cgroup_leave_frozen() are empty without cgroups. Where Linux calls
# schedule() the minikernel's tracer resumes the task at once.
# recalc_sigpending_tsk() tests jobctl here; its two PENDING() tests of the
# signal sets belong to signal.S's block and are left out.
#   s1 = exit_code, s2 = why, s3 = message, s4 = info
	.globl ptrace_stop
	.type ptrace_stop, @function
ptrace_stop:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	sd	s4, 0(sp)
	addi	s0, sp, 48
	mv	s1, a0
	lw	a5, TASK_PTRACE(tp)		# !current->ptrace: no tracer left
	beqz	a5, 9f
	mv	s2, a1
	mv	s3, a2
	mv	s4, a3
	# set_special_state(TASK_TRACED): under current->pi_lock
	ld	a5, TASK_TRACE_EXT(tp)
	addi	a0, a5, EXT_PI_LOCK
	call	_raw_spin_lock_irqsave
	mv	a1, a0
	li	a5, TASK_TRACED
	sw	a5, TASK_STATE(tp)
	ld	a5, TASK_TRACE_EXT(tp)
	addi	a0, a5, EXT_PI_LOCK
	call	_raw_spin_unlock_irqrestore
	lw	a5, TASK_JOBCTL(tp)		# current->jobctl |= JOBCTL_TRACED
	li	a4, JOBCTL_TRACED
	or	a5, a5, a4
	sw	a5, TASK_JOBCTL(tp)
	fence	w, w				# smp_wmb()
	sd	s3, TASK_PTRACE_MESSAGE(tp)
	sd	s4, TASK_LAST_SIGINFO(tp)
	sw	s1, TASK_EXIT_CODE(tp)
	li	a5, CLD_STOPPED
	beq	s2, a5, 7f			# group stop: not on this path
	# task_clear_jobctl_pending(current, JOBCTL_TRAP_STOP), inlined
	lw	a5, TASK_JOBCTL(tp)
	li	a4, ~JOBCTL_TRAP_STOP
	and	a5, a5, a4
	sw	a5, TASK_JOBCTL(tp)
	li	a4, JOBCTL_PENDING_MASK
	and	a4, a5, a4
	bnez	a4, 1f
	li	a4, JOBCTL_TRAPPING		# task_clear_jobctl_trapping()
	and	a4, a5, a4
	bnez	a4, 7f				# (nobody is attaching)
1:
	lw	a5, SI_CODE(s4)			# a PTRACE_EVENT_STOP trap?
	sraiw	a5, a5, 8
	li	a4, PTRACE_EVENT_STOP
	beq	a5, a4, 7f
	lw	a5, TASK_JOBCTL(tp)		# task_clear_jobctl_trapping()
	li	a4, JOBCTL_TRAPPING
	and	a5, a5, a4
	bnez	a5, 7f
	ld	a5, TASK_TRACE_EXT(tp)		# spin_unlock_irq(&sighand->siglock)
	addi	a0, a5, EXT_SIGLOCK
	call	_raw_spin_unlock_irq
	la	a0, tasklist_lock		# read_lock(&tasklist_lock)
	call	_raw_read_lock
	lw	a5, TASK_PTRACE(tp)		# notify the ptracer of the stop
	beqz	a5, 2f
	mv	a0, tp
	li	a1, 1				# for_ptracer
	mv	a2, s2
	call	do_notify_parent_cldstop
2:
	la	a0, tasklist_lock		# read_unlock(&tasklist_lock)
	call	_raw_read_unlock
	# schedule(): the stop. Entry-side cost only: the switch to the tracer
	# and back is not modelled; the tracer resumes the task here at once.
	mv	a0, tp
	call	ptrace_tracer_resume_now
	ld	a5, TASK_TRACE_EXT(tp)		# spin_lock_irq(&sighand->siglock)
	addi	a0, a5, EXT_SIGLOCK
	call	_raw_spin_lock_irq
	lw	s1, TASK_EXIT_CODE(tp)		# what the tracer resumed with
	sd	zero, TASK_LAST_SIGINFO(tp)
	sd	zero, TASK_PTRACE_MESSAGE(tp)
	sw	zero, TASK_EXIT_CODE(tp)
	lw	a5, TASK_JOBCTL(tp)
	li	a4, ~(JOBCTL_LISTENING | JOBCTL_PTRACE_FROZEN)
	and	a5, a5, a4
	sw	a5, TASK_JOBCTL(tp)
	li	a4, JOBCTL_PENDING_MASK | JOBCTL_TRAP_FREEZE	# recalc_sigpending_tsk()
	and	a5, a5, a4
	beqz	a5, 9f
	li	a5, _TIF_SIGPENDING		# set_tsk_thread_flag()
	amoor.d	zero, a5, (tp)
9:
	mv	a0, s1
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	ld	s4, 0(sp)
	addi	sp, sp, 48
	ret
7:	NOT_MODELLED
	.size ptrace_stop, .-ptrace_stop


# ptrace_tracer_resume_now(task): the minikernel's tracer. Not Linux code:
# what a tracer's ptrace(PTRACE_SYSCALL, pid, 0, 0) leaves in the tracee
# (ptrace_resume: exit_code = data = 0; the wake-up: JOBCTL_TRACED cleared,
# TASK_RUNNING), done at once, without the two context switches.
	.globl ptrace_tracer_resume_now
	.type ptrace_tracer_resume_now, @function
ptrace_tracer_resume_now:
	sw	zero, TASK_EXIT_CODE(a0)
	lw	a5, TASK_JOBCTL(a0)
	li	a4, ~JOBCTL_TRACED
	and	a5, a5, a4
	sw	a5, TASK_JOBCTL(a0)
	sw	zero, TASK_STATE(a0)		# TASK_RUNNING
	ret
	.size ptrace_tracer_resume_now, .-ptrace_tracer_resume_now

# do_notify_parent_cldstop(tsk, for_ptracer, why): the SIGCHLD siginfo for
# the tracer (for_ptracer: tsk->parent), sent unless its SIGCHLD is ignored
# or SA_NOCLDSTOP, then the wake-up of a parent waiting in wait4(). The
# minikernel's tracer ignores SIGCHLD (SIG_IGN), so send_signal_locked is
# not called, and it never sleeps in wait4, so the wait queue is empty: the
# wake-up walks an empty list (a tracer asleep there would be woken: that is
# part of the switch to the tracer, not modelled).
#   s1 = tsk, s2 = parent, s3 = why, then the irq flags; info at 0(sp)
	.globl do_notify_parent_cldstop
	.type do_notify_parent_cldstop, @function
do_notify_parent_cldstop:
	addi	sp, sp, -96
	sd	ra, 88(sp)
	sd	s0, 80(sp)
	sd	s1, 72(sp)
	sd	s2, 64(sp)
	sd	s3, 56(sp)
	addi	s0, sp, 96
	mv	s1, a0
	mv	s3, a2
	beqz	a1, 7f				# the real parent: not on this path
	ld	s2, TASK_PARENT(s1)
	sd	zero, 0(sp)			# clear_siginfo(&info)
	sd	zero, 8(sp)
	sd	zero, 16(sp)
	sd	zero, 24(sp)
	sd	zero, 32(sp)
	sd	zero, 40(sp)
	li	a5, SIGCHLD
	sw	a5, SI_SIGNO(sp)
	lw	a5, TASK_PID(s1)		# task_pid_nr_ns(tsk, parent's ns)
	sw	a5, SI_PID(sp)
	sw	zero, SI_UID(sp)		# from_kuid_munged(): root
	ld	a5, TASK_TRACE_EXT(s1)		# task_cputime(tsk, &utime, &stime)
	ld	a4, EXT_UTIME(a5)
	ld	a3, EXT_STIME(a5)
	# nsec_to_clock_t(): ns / 10^7, as GCC divides by a constant:
	# (ns >> 7) / 78125 by a multiply with its reciprocal, 2^80 / 78125
	# rounded up, keeping the high half, then >> 16.
	ld	a2, nsec_div_magic		# (GCC keeps it in .rodata)
	srli	a4, a4, 7
	mulhu	a4, a4, a2
	srli	a4, a4, 16
	sd	a4, SI_UTIME(sp)
	srli	a3, a3, 7
	mulhu	a3, a3, a2
	srli	a3, a3, 16
	sd	a3, SI_STIME(sp)
	sw	s3, SI_CODE(sp)
	li	a5, CLD_TRAPPED			# switch (why)
	bne	s3, a5, 7f
	lw	a5, TASK_EXIT_CODE(s1)
	andi	a5, a5, 0x7f
	sw	a5, SI_STATUS(sp)
	ld	a5, TASK_TRACE_EXT(s2)		# spin_lock_irqsave(&sighand->siglock)
	addi	a0, a5, EXT_SIGLOCK
	call	_raw_spin_lock_irqsave
	mv	s3, a0
	ld	a5, TASK_TRACE_EXT(s2)
	ld	a4, EXT_SIGCHLD_HANDLER(a5)
	li	a3, SIG_IGN
	beq	a4, a3, 1f
	ld	a4, EXT_SIGCHLD_FLAGS(a5)
	andi	a4, a4, SA_NOCLDSTOP
	beqz	a4, 7f				# send_signal_locked(SIGCHLD, ...)
1:
	mv	a0, s1				# __wake_up_parent(tsk, parent)
	mv	a1, s2
	call	__wake_up_parent
	ld	a5, TASK_TRACE_EXT(s2)		# spin_unlock_irqrestore()
	addi	a0, a5, EXT_SIGLOCK
	mv	a1, s3
	call	_raw_spin_unlock_irqrestore
	ld	ra, 88(sp)
	ld	s0, 80(sp)
	ld	s1, 72(sp)
	ld	s2, 64(sp)
	ld	s3, 56(sp)
	addi	sp, sp, 96
	ret
7:	NOT_MODELLED
	.size do_notify_parent_cldstop, .-do_notify_parent_cldstop

# __wake_up_parent(p, parent): __wake_up_sync_key(&parent->signal->
# wait_chldexit, TASK_INTERRUPTIBLE, p), which is __wake_up_common_lock:
# the queue's lock, a walk over its entries, the unlock.
	.globl __wake_up_parent
	.type __wake_up_parent, @function
__wake_up_parent:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	ld	a5, TASK_TRACE_EXT(a1)
	addi	s1, a5, EXT_WAIT_LOCK		# wq_head
	mv	a0, s1
	call	_raw_spin_lock_irqsave
	mv	a1, a0
	ld	a5, EXT_WAIT_HEAD - EXT_WAIT_LOCK(s1)	# __wake_up_common: first entry
	addi	a4, s1, EXT_WAIT_HEAD - EXT_WAIT_LOCK
	bne	a5, a4, 7f			# a sleeping waiter: try_to_wake_up()
	mv	a0, s1
	call	_raw_spin_unlock_irqrestore
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
7:	NOT_MODELLED
	.size __wake_up_parent, .-__wake_up_parent

# --- locks: kernel/locking/spinlock.c's out-of-line entry points, each an
# uncontended AMO (see the top of the file). No preempt count to bump.
	.globl _raw_spin_lock_irq
	.type _raw_spin_lock_irq, @function
_raw_spin_lock_irq:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	csrci	sstatus, SR_SIE			# local_irq_disable()
	li	a5, 1
1:	amoswap.w.aq a4, a5, (a0)
	bnez	a4, 1b
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size _raw_spin_lock_irq, .-_raw_spin_lock_irq

	.globl _raw_spin_unlock_irq
	.type _raw_spin_unlock_irq, @function
_raw_spin_unlock_irq:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	amoswap.w.rl zero, zero, (a0)
	csrsi	sstatus, SR_SIE			# local_irq_enable()
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size _raw_spin_unlock_irq, .-_raw_spin_unlock_irq

# _raw_spin_lock_irqsave(lock) -> flags (sstatus.SIE as it was)
	.globl _raw_spin_lock_irqsave
	.type _raw_spin_lock_irqsave, @function
_raw_spin_lock_irqsave:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	csrrci	a3, sstatus, SR_SIE		# arch_local_irq_save()
	andi	a3, a3, SR_SIE
	li	a5, 1
1:	amoswap.w.aq a4, a5, (a0)
	bnez	a4, 1b
	mv	a0, a3
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size _raw_spin_lock_irqsave, .-_raw_spin_lock_irqsave

	.globl _raw_spin_unlock_irqrestore
	.type _raw_spin_unlock_irqrestore, @function
_raw_spin_unlock_irqrestore:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	amoswap.w.rl zero, zero, (a0)
	csrs	sstatus, a1			# arch_local_irq_restore(flags)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size _raw_spin_unlock_irqrestore, .-_raw_spin_unlock_irqrestore

# qrwlock's reader fast path: add a reader bias; a writer (the low 9 bits)
# would send it to queued_read_lock_slowpath.
.equ QR_BIAS, 1 << 9
.equ QW_WMASK, 0x1ff
	.globl _raw_read_lock
	.type _raw_read_lock, @function
_raw_read_lock:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, QR_BIAS
	amoadd.w.aq a4, a5, (a0)
	andi	a4, a4, QW_WMASK
	bnez	a4, 7f
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED				# queued_read_lock_slowpath()
	.size _raw_read_lock, .-_raw_read_lock

	.globl _raw_read_unlock
	.type _raw_read_unlock, @function
_raw_read_unlock:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, -QR_BIAS
	amoadd.w.rl zero, a5, (a0)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size _raw_read_unlock, .-_raw_read_unlock

# trace_boot(): trace.S's part of syscall_work_boot (audit.S), once at boot.
# SYSCALL_WORK_SYSCALL_TRACE: init attaches to the benchmark as a tracer
# would (PTRACE_ATTACH with PTRACE_O_TRACESYSGOOD, then PTRACE_SYSCALL):
# ptrace = PT_PTRACED | PT_TRACESYSGOOD, parent = init. Both tasks get their
# trace_task_ext. SYSCALL_WORK_SYSCALL_TRACEPOINT: the tracepoints get their
# probe and their static keys are switched on (tracepoint.S).
	.globl trace_boot
	.type trace_boot, @function
trace_boot:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	ld	s1, TASK_TI_SYSCALL_WORK(tp)
	andi	a5, s1, SYSCALL_WORK_SYSCALL_TRACE
	beqz	a5, 1f
	la	a5, task_init
	la	a4, init_trace_ext
	sd	a4, TASK_TRACE_EXT(a5)
	la	a4, bench_trace_ext
	sd	a4, TASK_TRACE_EXT(tp)
	sd	a5, TASK_PARENT(tp)		# the tracer
	li	a4, PT_PTRACED | PT_TRACESYSGOOD
	sw	a4, TASK_PTRACE(tp)
1:
	andi	a5, s1, SYSCALL_WORK_SYSCALL_TRACEPOINT
	beqz	a5, 2f
	call	tracepoint_boot
2:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size trace_boot, .-trace_boot

	.section .kernel.data, "aw", @progbits
	.balign 8
	.globl tasklist_lock
	.type tasklist_lock, @object
tasklist_lock:
	.dword 0				# rwlock_t (qrwlock's cnts in the low word)
	.size tasklist_lock, .-tasklist_lock

# TRACE_EXT name, sigchld_handler: a struct trace_task_ext; the wait queue
# starts empty (its list head points at itself).
.macro TRACE_EXT name, handler
	.balign 8
	.globl \name
	.type \name, @object
\name:
	.word 0					# pi_lock
	.word 0
	.dword 0				# task_works
	.dword 0				# utime
	.dword 0				# stime
	.word 0					# siglock
	.word 0
	.dword \handler				# SIGCHLD sa_handler
	.dword 0				# SIGCHLD sa_flags
	.word 0					# wait_chldexit.lock
	.word 0
	.dword \name + EXT_WAIT_HEAD		# wait_chldexit.head.next
	.dword \name + EXT_WAIT_HEAD		# .prev
	.org \name + EXT_SIZE
	.size \name, .-\name
.endm
	# init, the tracer, ignores SIGCHLD (see do_notify_parent_cldstop)
	TRACE_EXT init_trace_ext, SIG_IGN
	TRACE_EXT bench_trace_ext, 0

	.section .kernel.rodata, "a", @progbits
	.balign 8
nsec_div_magic:
	.dword 0xd6bf94d5e57a42bd

# signal.S: signals, the generic half (seed 002), as far as a forced
# SIGSYS needs them: queueing (force_sig_info and friends), the mask,
# dequeueing (get_signal, which also kills the process for a fatal default
# action), what follows a delivery (signal_setup_done) and the per-process
# actions (rt_sigaction). Modelled by function on Linux 6.12's
# kernel/signal.c; the code is the minikernel's own, shaped as GCC compiles
# C with frame pointers (as syscall.S). The RISC-V half -- the frame on the
# user stack and rt_sigreturn -- is signal-riscv.S.
#
# What the minikernel leaves out, and why it changes nothing here: the
# siglock itself (one hart; the irq save/restore around it is kept), the
# shared (process-wide) pending set and posix timers, job control (a stop
# signal is not acted on), ptrace's signal stops, core dumps (a fatal
# SIGSYS ends the run at once), sigsuspend's saved mask and restart blocks.
# The sigqueue has one entry per task: a second signal forced while one
# siginfo is queued is still made pending, with no siginfo of its own
# (Linux's "queue overflow" case).
#
# Every task of the minikernel belongs to the one process, so there is one
# sighand_struct, sighand_bench (Linux: current->sighand, shared by
# CLONE_SIGHAND); pending and blocked are per task (task_struct block
# 640.., minikernel-signal.inc).
#
#   force_sig_info(info)                         -> 0
#   force_exit_sig(sig), force_sig(sig)          (SI_KERNEL siginfo)
#   get_signal(ksig) -> bool                     arch_do_signal_or_restart
#   sys_rt_sigaction(regs)                       134
#
# Hand counts of what runs per signal: sud.S.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-signal.inc"

.if TASK_SIG_PENDING != TASK_SIGNAL
	.error "signal.S's block starts at TASK_SIGNAL"
.endif
.if TASK_SIG_BLOCK_END > TASK_STRUCT_SIZE
	.error "signal.S's block overflows task_struct"
.endif
.if TASK_TI_FLAGS != 0
	.error "the AMOs below address thread_info.flags as 0(tp)"
.endif
.if SIGSYS_NR != SIGSYS
	.error "SIGSYS differs between the include files"
.endif

# KA_ADDR dst, idx, tmp: dst = &sighand_bench.action[idx] (24 bytes each).
.macro KA_ADDR dst, idx, tmp
	la	\dst, sighand_bench
	slli	\tmp, \idx, 1
	add	\tmp, \tmp, \idx
	slli	\tmp, \tmp, 3
	add	\dst, \dst, \tmp
.endm

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# Sending
# ---------------------------------------------------------------------------

# force_sig_info(info) -> 0: force_sig_info_to_task(info, current,
# HANDLER_CURRENT), a tail call.
	.globl force_sig_info
	.type force_sig_info, @function
force_sig_info:
	mv	a1, tp
	li	a2, HANDLER_CURRENT
	tail	force_sig_info_to_task
	.size force_sig_info, .-force_sig_info

# force_sig_info_to_task(info, t, handler) -> 0: a signal the task cannot
# block or ignore. A blocked or ignored one, or any with a handler other
# than HANDLER_CURRENT, first gets its action reset to SIG_DFL (and is
# unblocked); then send_signal_locked queues it (__send_signal_locked:
# legacy_queue(), the sigqueue entry, sigaddset, complete_signal's
# signal_wake_up: TIF_SIGPENDING with an AMO, as set_tsk_thread_flag does).
# SA_IMMUTABLE (HANDLER_EXIT) only matters to a later sigaction, and the
# process dies before it could make one.
#   s1 = info, s2 = t, s3 = the saved sstatus.SIE
	.globl force_sig_info_to_task
	.type force_sig_info_to_task, @function
force_sig_info_to_task:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	lw	a5, SI_SIGNO(s1)		# sig
	csrrci	s3, sstatus, SR_SIE		# spin_lock_irqsave(&siglock)
	addi	a3, a5, -1
	KA_ADDR	a4, a3, a0			# action = &sighand->action[sig-1]
	li	a0, 1
	sll	a0, a0, a3			# sigmask(sig)
	ld	a1, TASK_SIG_BLOCKED(s2)
	and	a1, a1, a0			# blocked
	ld	a3, KA_HANDLER(a4)
	addi	a3, a3, -SIG_IGN		# 0: ignored
	bnez	a1, 1f
	beqz	a3, 1f
	beqz	a2, 2f				# HANDLER_CURRENT, neither: keep it
1:
	sd	zero, KA_HANDLER(a4)		# SIG_DFL
	beqz	a1, 2f
	ld	a3, TASK_SIG_BLOCKED(s2)
	not	a1, a0
	and	a3, a3, a1
	sd	a3, TASK_SIG_BLOCKED(s2)	# sigdelset(&t->blocked, sig)
2:
	# send_signal_locked(sig, info, t, PIDTYPE_PID)
	ld	a3, TASK_SIG_PENDING(s2)
	li	a1, 31				# legacy_queue(): a non-realtime
	bgt	a5, a1, 3f			# signal already pending is not
	and	a1, a3, a0			# queued twice
	bnez	a1, 5f
3:
	lw	a1, TASK_SIG_QUEUED(s2)		# the sigqueue entry
	bnez	a1, 4f				# taken: pending, no siginfo
	ld	a1, 0(s1)			# copy_siginfo(&q->info, info)
	sd	a1, TASK_SIG_QUEUE_INFO + 0(s2)
	ld	a1, 8(s1)
	sd	a1, TASK_SIG_QUEUE_INFO + 8(s2)
	ld	a1, 16(s1)
	sd	a1, TASK_SIG_QUEUE_INFO + 16(s2)
	ld	a1, 24(s1)
	sd	a1, TASK_SIG_QUEUE_INFO + 24(s2)
	ld	a1, 32(s1)
	sd	a1, TASK_SIG_QUEUE_INFO + 32(s2)
	ld	a1, 40(s1)
	sd	a1, TASK_SIG_QUEUE_INFO + 40(s2)
	sw	a5, TASK_SIG_QUEUED(s2)
4:
	or	a3, a3, a0
	sd	a3, TASK_SIG_PENDING(s2)	# sigaddset(&pending->signal, sig)
	li	a1, _TIF_SIGPENDING		# complete_signal() ->
	amoor.d	zero, a1, (s2)			#   signal_wake_up(t)
5:
	ld	a1, TASK_TI_FLAGS(s2)		# !task_sigpending(t):
	andi	a1, a1, _TIF_SIGPENDING		#   signal_wake_up(t, 0)
	bnez	a1, 6f
	li	a1, _TIF_SIGPENDING
	amoor.d	zero, a1, (s2)
6:
	andi	s3, s3, SR_SIE			# spin_unlock_irqrestore()
	csrs	sstatus, s3
	li	a0, 0
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size force_sig_info_to_task, .-force_sig_info_to_task

# __force_sig_kernel(sig, handler): the siginfo force_sig, force_fatal_sig
# and force_exit_sig each build (SI_KERNEL, no pid or uid), forced on
# current with the given enum sig_handler.
	.type __force_sig_kernel, @function
__force_sig_kernel:
	addi	sp, sp, -64
	sd	ra, 56(sp)
	sd	s0, 48(sp)
	addi	s0, sp, 64
	sd	zero, 0(sp)			# clear_siginfo(&info)
	sd	zero, 8(sp)
	sd	zero, 16(sp)
	sd	zero, 24(sp)
	sd	zero, 32(sp)
	sd	zero, 40(sp)
	sw	a0, SI_SIGNO(sp)
	li	a5, SI_KERNEL
	sw	a5, SI_CODE(sp)
	mv	a2, a1
	mv	a0, sp
	mv	a1, tp
	call	force_sig_info_to_task
	ld	ra, 56(sp)
	ld	s0, 48(sp)
	addi	sp, sp, 64
	ret
	.size __force_sig_kernel, .-__force_sig_kernel

# force_exit_sig(sig): a signal that kills whatever the action says
# (HANDLER_EXIT), as syscall user dispatch uses for a bad selector.
	.globl force_exit_sig
	.type force_exit_sig, @function
force_exit_sig:
	li	a1, HANDLER_EXIT
	tail	__force_sig_kernel
	.size force_exit_sig, .-force_exit_sig

# force_sig(sig): a forced signal the task's handler may still catch.
	.globl force_sig
	.type force_sig, @function
force_sig:
	li	a1, HANDLER_CURRENT
	tail	__force_sig_kernel
	.size force_sig, .-force_sig

# recalc_sigpending(): TIF_SIGPENDING set (set_tsk_thread_flag, an AMO) if
# an unblocked signal is pending (recalc_sigpending_tsk), else cleared
# (clear_thread_flag, an AMO). This is exit_to_user_mode_loop's contract:
# the flag is off once nothing deliverable is left.
	.globl recalc_sigpending
	.type recalc_sigpending, @function
recalc_sigpending:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_SIG_PENDING(tp)
	ld	a4, TASK_SIG_BLOCKED(tp)
	not	a4, a4
	and	a5, a5, a4
	beqz	a5, 1f
	li	a5, _TIF_SIGPENDING
	amoor.d	zero, a5, (tp)
	j	2f
1:
	li	a5, ~_TIF_SIGPENDING
	amoand.d zero, a5, (tp)
2:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size recalc_sigpending, .-recalc_sigpending

# set_current_blocked(newset): SIGKILL and SIGSTOP can never be blocked;
# __set_current_blocked does nothing if the mask is unchanged, else sets it
# under the siglock and recalculates TIF_SIGPENDING.
	.globl set_current_blocked
	.type set_current_blocked, @function
set_current_blocked:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, 0(a0)
	li	a4, ~SIG_KERNEL_ONLY_MASK
	and	a5, a5, a4			# sigdelsetmask(KILL | STOP)
	ld	a4, TASK_SIG_BLOCKED(tp)
	beq	a4, a5, 1f			# sigequalsets(): nothing to do
	csrci	sstatus, SR_SIE			# spin_lock_irq(&siglock)
	sd	a5, TASK_SIG_BLOCKED(tp)	# __set_task_blocked()
	call	recalc_sigpending
	csrsi	sstatus, SR_SIE			# spin_unlock_irq()
1:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size set_current_blocked, .-set_current_blocked

# ---------------------------------------------------------------------------
# Dequeueing (get_signal and its helpers)
# ---------------------------------------------------------------------------

# dequeue_synchronous_signal(info) -> sig or 0: a fault-like signal
# (SYNCHRONOUS_MASK, si_code > SI_USER) goes first, taken straight from the
# queue: its pending bit cleared, TIF_SIGPENDING recalculated, its siginfo
# copied out and the entry freed.
#   s1 = info
	.type dequeue_synchronous_signal, @function
dequeue_synchronous_signal:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	a5, TASK_SIG_PENDING(tp)
	ld	a4, TASK_SIG_BLOCKED(tp)
	not	a4, a4
	and	a4, a5, a4
	li	a3, SYNCHRONOUS_MASK
	and	a4, a4, a3
	beqz	a4, 8f				# none can be in the queue
	lw	a2, TASK_SIG_QUEUED(tp)		# the first (only) queued entry
	beqz	a2, 8f
	lw	a1, TASK_SIG_QUEUE_INFO + SI_CODE(tp)
	blez	a1, 8f				# si_code > SI_USER
	addi	a2, a2, -1
	li	a1, 1
	sll	a1, a1, a2			# sigmask(si_signo)
	and	a2, a1, a3
	beqz	a2, 8f				# not a synchronous signal
	not	a1, a1
	and	a5, a5, a1
	sd	a5, TASK_SIG_PENDING(tp)	# sigdelset(&pending->signal)
	call	recalc_sigpending
	ld	a5, TASK_SIG_QUEUE_INFO + 0(tp)	# copy_siginfo(info, &sync->info)
	sd	a5, 0(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 8(tp)
	sd	a5, 8(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 16(tp)
	sd	a5, 16(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 24(tp)
	sd	a5, 24(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 32(tp)
	sd	a5, 32(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 40(tp)
	sd	a5, 40(s1)
	sw	zero, TASK_SIG_QUEUED(tp)	# __sigqueue_free()
	lw	a0, SI_SIGNO(s1)
	j	9f
8:
	li	a0, 0
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size dequeue_synchronous_signal, .-dequeue_synchronous_signal

# dequeue_signal(info) -> sig or 0: next_signal() (synchronous signals
# first, then the lowest number; without Zbb a shift loop finds the bit)
# and collect_signal() (the queued siginfo, or an SI_USER one if none was
# queued); TIF_SIGPENDING is recalculated either way.
#   s1 = info, s2 = sig
	.type dequeue_signal, @function
dequeue_signal:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	li	s2, 0
	ld	a5, TASK_SIG_PENDING(tp)
	ld	a4, TASK_SIG_BLOCKED(tp)
	not	a4, a4
	and	a5, a5, a4
	beqz	a5, 5f				# nothing deliverable
	li	a3, SYNCHRONOUS_MASK
	and	a4, a5, a3
	beqz	a4, 1f
	mv	a5, a4
1:
	li	s2, 1
2:
	andi	a4, a5, 1
	bnez	a4, 3f
	srli	a5, a5, 1
	addi	s2, s2, 1
	j	2b
3:
	lw	a4, TASK_SIG_QUEUED(tp)		# collect_signal()
	bne	a4, s2, 4f
	ld	a5, TASK_SIG_QUEUE_INFO + 0(tp)
	sd	a5, 0(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 8(tp)
	sd	a5, 8(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 16(tp)
	sd	a5, 16(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 24(tp)
	sd	a5, 24(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 32(tp)
	sd	a5, 32(s1)
	ld	a5, TASK_SIG_QUEUE_INFO + 40(tp)
	sd	a5, 40(s1)
	sw	zero, TASK_SIG_QUEUED(tp)
	j	6f
4:
	sd	zero, 0(s1)			# no entry: clear_siginfo(),
	sd	zero, 8(s1)			# si_code SI_USER
	sd	zero, 16(s1)
	sd	zero, 24(s1)
	sd	zero, 32(s1)
	sd	zero, 40(s1)
	sw	s2, SI_SIGNO(s1)
6:
	addi	a4, s2, -1
	li	a3, 1
	sll	a3, a3, a4
	not	a3, a3
	ld	a5, TASK_SIG_PENDING(tp)
	and	a5, a5, a3
	sd	a5, TASK_SIG_PENDING(tp)	# sigdelset()
5:
	call	recalc_sigpending
	mv	a0, s2
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size dequeue_signal, .-dequeue_signal

# get_signal(ksig) -> bool: take signals until one has a handler (copied
# into ksig, reset first if SA_RESETHAND), or a default action kills the
# process (do_group_exit, which does not return). Ignored signals, and
# those whose default is to be ignored or to stop (no job control), are
# dropped.
#   s1 = ksig, s2 = signr
	.globl get_signal
	.type get_signal, @function
get_signal:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	csrci	sstatus, SR_SIE			# spin_lock_irq(&siglock)
1:
	addi	a0, s1, KSIG_INFO
	call	dequeue_synchronous_signal
	mv	s2, a0
	bnez	a0, 2f
	addi	a0, s1, KSIG_INFO
	call	dequeue_signal
	mv	s2, a0
	beqz	a0, 8f				# nothing left
2:
	addi	a4, s2, -1
	KA_ADDR	a5, a4, a3			# ka = &sighand->action[signr-1]
	ld	a4, KA_HANDLER(a5)
	li	a3, SIG_IGN
	beq	a4, a3, 1b			# ignored
	beqz	a4, 4f				# SIG_DFL
	sd	a4, KSIG_KA + KA_HANDLER(s1)	# ksig->ka = *ka
	ld	a3, KA_FLAGS(a5)
	sd	a3, KSIG_KA + KA_FLAGS(s1)
	ld	a2, KA_MASK(a5)
	sd	a2, KSIG_KA + KA_MASK(s1)
	slli	a3, a3, 32			# SA_ONESHOT (bit 31)
	bgez	a3, 8f
	sd	zero, KA_HANDLER(a5)		# ka->sa.sa_handler = SIG_DFL
	j	8f
4:
	addi	a4, s2, -1
	li	a3, SIG_KERNEL_IGNORE_MASK
	srl	a3, a3, a4
	andi	a3, a3, 1
	bnez	a3, 1b				# sig_kernel_ignore()
	li	a3, SIG_KERNEL_STOP_MASK
	srl	a3, a3, a4
	andi	a3, a3, 1
	bnez	a3, 1b				# sig_kernel_stop(): no job control
	# Anything else kills the process (sig_kernel_coredump() would dump
	# core first: there is nowhere to write one).
	csrsi	sstatus, SR_SIE			# spin_unlock_irq()
	mv	a0, s2
	call	do_group_exit			# does not return
8:
	csrsi	sstatus, SR_SIE			# spin_unlock_irq()
	sw	s2, KSIG_SIG(s1)
	sgtz	a0, s2
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size get_signal, .-get_signal

# do_group_exit(exit_code): the only process dies, so the machine powers
# off through sbi_system_reset as sys_exit does. exit_code is Linux's wait
# status: a signal in bits 0..6, else the exit status in bits 8..15. The
# run's exit code is what a shell would show: the status, or 128 + the
# signal.
	.globl do_group_exit
	.type do_group_exit, @function
do_group_exit:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	andi	a2, a0, 0x7f
	beqz	a2, 1f
	addi	a2, a2, 128			# killed by a signal
	j	2f
1:
	srli	a2, a0, 8
	andi	a2, a2, 0xff
2:
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	snez	a1, a2				# nonzero: reason "failure"
	call	sbi_system_reset
3:	j	3b				# does not return
	.size do_group_exit, .-do_group_exit

# ---------------------------------------------------------------------------
# After delivery, and rt_sigaction
# ---------------------------------------------------------------------------

# signal_setup_done(failed, ksig, stepping): a frame that could not be
# written is a SIGSEGV (force_sigsegv: fatal if it was SIGSEGV already);
# otherwise signal_delivered(): the handler runs with its sa_mask blocked,
# and its own signal unless SA_NODEFER.
	.globl signal_setup_done
	.type signal_setup_done, @function
signal_setup_done:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	addi	s0, sp, 32
	bnez	a0, 1f
	ld	a5, TASK_SIG_BLOCKED(tp)
	ld	a4, KSIG_KA + KA_MASK(a1)
	or	a5, a5, a4			# sigorsets(&blocked, ..., &sa_mask)
	ld	a4, KSIG_KA + KA_FLAGS(a1)
	slli	a4, a4, 33			# SA_NODEFER (bit 30)
	bltz	a4, 2f
	lw	a4, KSIG_SIG(a1)
	addi	a4, a4, -1
	li	a3, 1
	sll	a3, a3, a4
	or	a5, a5, a3			# sigaddset(&blocked, sig)
2:
	sd	a5, 8(sp)
	addi	a0, sp, 8
	call	set_current_blocked
	j	9f
1:
	lw	a5, KSIG_SIG(a1)		# force_sigsegv(sig)
	li	a0, SIGSEGV_NR
	li	a1, HANDLER_CURRENT
	bne	a5, a0, 3f
	li	a1, HANDLER_SIG_DFL		# force_fatal_sig(SIGSEGV)
3:
	call	__force_sig_kernel
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	addi	sp, sp, 32
	ret
	.size signal_setup_done, .-signal_setup_done

# sys_rt_sigaction(regs) -> 0 or -errno: rt_sigaction(sig, act, oact,
# sigsetsize). do_sigaction inline: sig 1..64, SIGKILL and SIGSTOP keep
# their actions, the old action copied out, the new one in (never blocking
# SIGKILL or SIGSTOP). (Setting SIG_IGN does not flush a pending signal
# here: nothing in the minikernel leaves one pending across a syscall.)
#   s1 = regs, s2 = sig, s3 = act; new_ka at 0(sp), old_ka at 24(sp)
	.globl sys_rt_sigaction
	.type sys_rt_sigaction, @function
sys_rt_sigaction:
	addi	sp, sp, -96
	sd	ra, 88(sp)
	sd	s0, 80(sp)
	sd	s1, 72(sp)
	sd	s2, 64(sp)
	sd	s3, 56(sp)
	addi	s0, sp, 96
	mv	s1, a0
	lw	s2, PT_ORIG_A0(s1)		# sig
	ld	a5, PT_A3(s1)
	li	a4, SIGSET_SIZE
	bne	a5, a4, 7f			# sigsetsize != sizeof(sigset_t)
	ld	s3, PT_A1(s1)			# act
	beqz	s3, 1f
	li	a5, TASK_SIZE - SIGACTION_SIZE
	bgtu	s3, a5, 6f			# copy_from_user: access_ok()
	mv	a0, sp
	mv	a1, s3
	li	a2, SIGACTION_SIZE
	call	__asm_copy_to_user		# __copy_from_user(&new_ka.sa, act)
1:
	addi	a5, s2, -1
	li	a4, NSIG - 1
	bgtu	a5, a4, 7f			# !valid_signal(sig) || sig < 1
	beqz	s3, 2f
	li	a4, SIG_KERNEL_ONLY_MASK
	srl	a4, a4, a5
	andi	a4, a4, 1
	bnez	a4, 7f				# act && sig_kernel_only(sig)
2:
	KA_ADDR	a4, a5, a3			# k = &sighand->action[sig-1]
	csrci	sstatus, SR_SIE			# spin_lock_irq(&siglock)
	ld	a2, PT_A2(s1)			# oact
	beqz	a2, 3f
	ld	a3, KA_HANDLER(a4)		# *oact = *k
	sd	a3, 24 + KA_HANDLER(sp)
	ld	a3, KA_FLAGS(a4)
	sd	a3, 24 + KA_FLAGS(sp)
	ld	a3, KA_MASK(a4)
	sd	a3, 24 + KA_MASK(sp)
3:
	beqz	s3, 4f
	ld	a3, SIGACTION_MASK(sp)
	li	a2, ~SIG_KERNEL_ONLY_MASK
	and	a3, a3, a2
	sd	a3, KA_MASK(a4)			# *k = *act
	ld	a3, SIGACTION_HANDLER(sp)
	sd	a3, KA_HANDLER(a4)
	ld	a3, SIGACTION_FLAGS(sp)
	sd	a3, KA_FLAGS(a4)
4:
	csrsi	sstatus, SR_SIE			# spin_unlock_irq()
	ld	a0, PT_A2(s1)
	beqz	a0, 5f
	li	a5, TASK_SIZE - SIGACTION_SIZE
	bgtu	a0, a5, 6f			# copy_to_user: access_ok()
	addi	a1, sp, 24
	li	a2, SIGACTION_SIZE
	call	__asm_copy_to_user
5:
	li	a0, 0
	j	9f
6:
	li	a0, -EFAULT
	j	9f
7:
	li	a0, -EINVAL
9:
	ld	ra, 88(sp)
	ld	s0, 80(sp)
	ld	s1, 72(sp)
	ld	s2, 64(sp)
	ld	s3, 56(sp)
	addi	sp, sp, 96
	ret
	.size sys_rt_sigaction, .-sys_rt_sigaction

# ---------------------------------------------------------------------------
	.section .kernel.bss, "aw", @nobits
	.balign 8
# The process's struct sighand_struct: action[NSIG], all SIG_DFL at boot.
	.globl sighand_bench
	.type sighand_bench, @object
sighand_bench:
	.skip NSIG * KA_SIZE
	.size sighand_bench, .-sighand_bench

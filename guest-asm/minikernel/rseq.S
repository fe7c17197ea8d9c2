# rseq.S: restartable sequences (issue 13: to be written; stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# resume_user_mode_work(regs): clears notify-resume first, then would run
# queued task_work (rseq fixups, deferred accounting, ...).
	.globl resume_user_mode_work
	.type resume_user_mode_work, @function
resume_user_mode_work:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, ~_TIF_NOTIFY_RESUME
	amoand.d zero, a5, (tp)			# clear_thread_flag()
	la	a5, stat_notify_resume
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size resume_user_mode_work, .-resume_user_mode_work
# sys_rseq(regs) (stub).
	.globl sys_rseq
	.type sys_rseq, @function
sys_rseq:
	li	a0, -ENOSYS
	ret
	.size sys_rseq, .-sys_rseq

# rseq_signal_deliver(ksig, regs): signal.S's setup_rt_frame calls it, as
# Linux's does (stub).
	.globl rseq_signal_deliver
	.type rseq_signal_deliver, @function
rseq_signal_deliver:
	ret
	.size rseq_signal_deliver, .-rseq_signal_deliver

# signal.S: signal delivery (issue 13: to be written; stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# arch_do_signal_or_restart(regs): would build a signal frame on the user
# stack and point regs->epc at the handler; here it acknowledges the signal.
	.globl arch_do_signal_or_restart
	.type arch_do_signal_or_restart, @function
arch_do_signal_or_restart:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, ~_TIF_SIGPENDING
	amoand.d zero, a5, (tp)			# clear_thread_flag()
	la	a5, stat_signal
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size arch_do_signal_or_restart, .-arch_do_signal_or_restart

# force_sig_info(info): queue a forced signal (stub).
	.globl force_sig_info
	.type force_sig_info, @function
force_sig_info:
	li	a0, 0
	ret
	.size force_sig_info, .-force_sig_info

# sys_rt_sigaction(regs) (stub).
	.globl sys_rt_sigaction
	.type sys_rt_sigaction, @function
sys_rt_sigaction:
	li	a0, -ENOSYS
	ret
	.size sys_rt_sigaction, .-sys_rt_sigaction

# sys_rt_sigreturn(regs) (stub).
	.globl sys_rt_sigreturn
	.type sys_rt_sigreturn, @function
sys_rt_sigreturn:
	li	a0, -ENOSYS
	ret
	.size sys_rt_sigreturn, .-sys_rt_sigreturn


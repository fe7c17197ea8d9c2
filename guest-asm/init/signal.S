# init/signal.S: trapscope's /init program "signal" (include/init-path.inc):
# SIGUSR1 sent to itself once per iteration, lmbench lat_sig's "catch" shape.
# Once: rt_sigaction(SIGUSR1, {handler, flags 0, mask empty}, NULL, 8) and
# getpid. Per iteration: kill(pid, SIGUSR1). On the way out of that syscall
# the kernel finds the signal pending (arch_do_signal_or_restart ->
# handle_signal -> setup_rt_frame: a signal frame on the user stack, sepc at
# the handler, ra at the vDSO's rt_sigreturn), the handler counts it and
# returns into the vDSO, whose rt_sigreturn ecall restores the frame, and the
# loop resumes after its kill. With flags 0 the signal is blocked while the
# handler runs and unblocked by rt_sigreturn.
#
# User side per iteration, by hand: mv, li, li, ecall (the marker), bnez,
# ld, addi, bne, j: 9 in the loop; the handler's la (2: auipc, addi), ld,
# addi, sd, ret: 6; the vDSO's rt_sigreturn: li a7, ecall: 2. 17 in all.
#
# struct sigaction on riscv64 (asm-generic/signal.h, no SA_RESTORER):
# sa_handler at 0, sa_flags at 8, sa_mask at 16; 24 bytes.

	.equ SIGUSR1,		10
	.equ SIGSET_BYTES,	8

.macro init_banner_text
	.ascii "trapscope-init: signal loop (kill(getpid(), SIGUSR1) caught per iteration)\n"
.endm
	.include "init-path.inc"

	init_msg init_msg_sigaction, "rt_sigaction(SIGUSR1) failed\n"
	init_msg init_msg_kill, "kill(getpid(), SIGUSR1) failed\n"
	init_msg init_msg_count, "the handler did not run once per kill\n"

	.data
	.balign 8
init_sigaction:
	.dword	init_handler			# sa_handler
	.dword	0				# sa_flags
	.dword	0				# sa_mask: nothing blocked

	.bss
	.balign 8
	.globl init_caught
init_caught:					# signals the handler has counted
	.skip 8

	.text
	.globl init_main
	.type init_main, @function
init_main:
	li	a0, SIGUSR1
	la	a1, init_sigaction
	li	a2, 0
	li	a3, SIGSET_BYTES
	li	a7, SYS_rt_sigaction
	ecall
	bnez	a0, 7f
	li	a7, SYS_getpid
	ecall
	mv	s2, a0				# our pid (1)
	li	s1, 0				# finished iterations (x9)
	la	s3, init_caught
	.globl init_loop
init_loop:					# 9 user instructions + handler
	mv	a0, s2
	li	a1, SIGUSR1
	li	a7, SYS_kill
	.globl init_ecall
init_ecall:
	ecall					# the handler runs on the way out
	bnez	a0, 8f
	ld	t0, 0(s3)
	addi	s1, s1, 1
	bne	t0, s1, 9f			# one signal caught per kill
	j	init_loop
7:	init_die init_msg_sigaction, a0
8:	init_die init_msg_kill, a0
9:	init_die init_msg_count, zero
	.size init_main, .-init_main

# The SIGUSR1 handler: counts, and returns to the vDSO's rt_sigreturn (ra).
	.globl init_handler
	.type init_handler, @function
init_handler:
	la	t0, init_caught
	ld	t1, 0(t0)
	addi	t1, t1, 1
	sd	t1, 0(t0)
	ret
	.size init_handler, .-init_handler

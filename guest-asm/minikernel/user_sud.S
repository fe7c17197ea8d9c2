# user_sud.S: the user side of syscall user dispatch (seed 002): what a
# program that emulates some of its own system calls (Wine's way) does.
#
# knob_sud (user data, default 0):
#   0  nothing: the process never calls prctl
#   1  SUD on, selector ALLOW: every call still runs, after the kernel has
#      read the selector byte (the cost of having SUD on)
#   2  a SIGSYS handler (rt_sigaction, SA_SIGINFO), then SUD on with the
#      selector BLOCK: every call from outside the dispatcher range becomes
#      a SIGSYS. The handler emulates getppid() (the parent is init,
#      EXPECTED_PPID) and makes any other call itself from inside the range
#      (the final exit). Each getppid() costs two kernel entries: the
#      blocked call and the handler's rt_sigreturn
#   3  the same handler, then the selector set to 2, neither ALLOW nor
#      BLOCK: the first dispatched call (the first warm-up getppid) kills
#      the process with SIGSYS, whatever the handler (exit code 159)
#   other values: sud_setup returns -EINVAL (main exits with status 2)
#
# knob_sud_handler (user data, default 0), with knob_sud = 2:
#   1  sud_setup puts 1.0 in fs0 (FS Dirty); the handler checks that the
#      interrupted context's fs0 is 1.0 both live and in the frame's FP
#      state, then clobbers it (fs0 = 0.0): rt_sigreturn must bring 1.0
#      back, or the next signal's check fails the benchmark (answer
#      -EFAULT, exit status 1)
#   2  the handler writes 2 into the frame's reserved word
#      (sc_extdesc.reserved): rt_sigreturn must refuse the frame, which is
#      a SIGSEGV with no handler: exit code 128 + 11 = 139
#
# The dispatcher range [sud_dispatcher_start, sud_dispatcher_end) holds the
# rt_sigreturn trampoline (Linux's is the vdso's __vdso_rt_sigreturn; the
# kernel points the handler's ra at this one) and sud_do_syscall. It must
# hold the instruction after each of their ecalls (the kernel tests the pc
# after the ecall), and the trampoline must be in it, since RISC-V has no
# vdso-sigreturn exception to dispatch.

	.include "minikernel-abi.inc"
	.include "minikernel-signal.inc"

	.section .user.text, "ax", @progbits

# sud_setup() -> 0 or a negative errno.
	.globl sud_setup
	.type sud_setup, @function
sud_setup:
	ld	a5, knob_sud
	beqz	a5, 8f
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	mv	s0, a5
	li	a4, 3
	bgtu	a5, a4, 6f			# no such setting
	li	a4, 2
	blt	a5, a4, 1f
	li	a0, SYS_rt_sigaction		# rt_sigaction(SIGSYS, &act, NULL,
	li	a1, SIGSYS_NR			#   sizeof(sigset_t))
	la	a2, sud_sigsys_action
	li	a3, 0
	li	a4, SIGSET_SIZE
	call	syscall
	bnez	a0, 7f
	ld	a5, knob_sud_handler
	li	a4, 1
	bne	a5, a4, 1f
	fcvt.d.l fs0, a5			# 1.0: FP state the handler must not lose
1:
	li	a0, SYS_prctl			# prctl(PR_SET_SYSCALL_USER_DISPATCH,
	li	a1, PR_SET_SYSCALL_USER_DISPATCH #  ON, start, len, &selector)
	li	a2, PR_SYS_DISPATCH_ON
	la	a3, sud_dispatcher_start
	la	a4, sud_dispatcher_end
	sub	a4, a4, a3
	la	a5, sud_selector
	call	syscall
	bnez	a0, 7f
	addi	a5, s0, -1			# 1 ALLOW, 2 BLOCK, 3 invalid (2)
	sb	a5, sud_selector, a4
	li	a0, 0
	j	9f
6:
	li	a0, -EINVAL
	j	9f
7:
	lw	a0, errno			# -errno
	neg	a0, a0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
8:
	li	a0, 0
	ret
	.size sud_setup, .-sud_setup

# sud_sigsys_handler(sig, info, uc): an SA_SIGINFO handler. The frame's pc
# is already past the ecall (the kernel advanced it before dispatching):
# it must be the siginfo's call address and follow an ecall, else the
# answer is -EFAULT (and the benchmark's check fails). getppid() is
# answered here; any other call is made from the dispatcher range with the
# arguments the frame holds (a0 is the first argument again: the kernel
# rolled it back), and its result goes into the frame's a0.
	.globl sud_sigsys_handler
	.type sud_sigsys_handler, @function
sud_sigsys_handler:
	ld	a5, knob_sud_handler
	beqz	a5, 3f
	li	a4, 2
	beq	a5, a4, 4f
	fcvt.d.l ft0, a5			# 1.0
	feq.d	a4, fs0, ft0			# live: delivery left it alone
	beqz	a4, 2f
	fld	ft1, UC_MCONTEXT + SC_FPREGS + 8 * 8(a2)
	feq.d	a4, ft1, ft0			# saved in the frame
	beqz	a4, 2f
	fmv.d.x	fs0, zero			# clobbered: rt_sigreturn restores it
	j	3f
4:
	sw	a4, UC_MCONTEXT + SC_RESERVED(a2)	# a frame rt_sigreturn refuses
3:
	ld	a5, UC_PC(a2)
	ld	a4, SIGINFO_CALL_ADDR(a1)
	bne	a5, a4, 2f
	lw	a4, -4(a5)
	li	a3, INSN_ECALL
	bne	a4, a3, 2f
	lw	a4, SIGINFO_SYSCALL(a1)
	li	a3, SYS_getppid
	bne	a4, a3, 1f
	li	a5, EXPECTED_PPID		# emulated getppid(): init
	sd	a5, UC_A0(a2)
	ret
1:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	mv	s0, a2
	mv	a7, a4
	ld	a0, UC_A0(s0)
	ld	a1, UC_A1(s0)
	ld	a2, UC_A2(s0)
	ld	a3, UC_A3(s0)
	ld	a4, UC_A4(s0)
	ld	a5, UC_A5(s0)
	call	sud_do_syscall
	sd	a0, UC_A0(s0)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
2:
	li	a5, -EFAULT
	sd	a5, UC_A0(a2)
	ret
	.size sud_sigsys_handler, .-sud_sigsys_handler

# The dispatcher range: system calls made from here always run.
	.balign 4
	.globl sud_dispatcher_start
sud_dispatcher_start:
# __vdso_rt_sigreturn: where a handler returns to (setup_rt_frame's ra);
# sp is the frame.
	.globl __vdso_rt_sigreturn
	.type __vdso_rt_sigreturn, @function
__vdso_rt_sigreturn:
	li	a7, SYS_rt_sigreturn
	ecall
	.size __vdso_rt_sigreturn, .-__vdso_rt_sigreturn
# sud_do_syscall(a0..a5; nr in a7) -> the raw result.
	.globl sud_do_syscall
	.type sud_do_syscall, @function
sud_do_syscall:
	ecall
	ret
	.size sud_do_syscall, .-sud_do_syscall
	.globl sud_dispatcher_end
sud_dispatcher_end:

	.section .user.data, "aw", @progbits
	.balign 8
	.globl knob_sud
	.type knob_sud, @object
knob_sud:
	.dword 0
	.size knob_sud, .-knob_sud
	.globl knob_sud_handler
	.type knob_sud_handler, @object
knob_sud_handler:
	.dword 0
	.size knob_sud_handler, .-knob_sud_handler
# struct sigaction for SIGSYS: the handler, SA_SIGINFO, nothing else
# blocked while it runs (SIGSYS itself is, as SA_NODEFER is not set).
	.type sud_sigsys_action, @object
sud_sigsys_action:
	.dword sud_sigsys_handler
	.dword SA_SIGINFO
	.dword 0
	.size sud_sigsys_action, .-sud_sigsys_action
	.globl sud_selector
	.type sud_selector, @object
sud_selector:
	.byte SYSCALL_DISPATCH_FILTER_ALLOW
	.size sud_selector, .-sud_selector

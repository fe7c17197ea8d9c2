# init/sud.S: trapscope's /init program "sud" (include/init.inc): Syscall
# User Dispatch on, before the getppid loop:
#   prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &selector)
# with no exempt range (offset 0, length 0) and the selector byte
# SYSCALL_DISPATCH_FILTER_ALLOW, so every syscall pays the selector read
# (syscall_user_dispatch's __get_user) and then runs as usual.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
.macro init_banner_text
	.ascii "trapscope-init: sud loop (syscall user dispatch on, selector ALLOW; then getppid)\n"
.endm
	.include "init.inc"

	.equ SYS_prctl,				167
	.equ PR_SET_SYSCALL_USER_DISPATCH,	59	# uapi/linux/prctl.h
	.equ PR_SYS_DISPATCH_ON,		1
	.equ SYSCALL_DISPATCH_FILTER_ALLOW,	0
	.equ EINVAL,				22

	.data
	.globl init_sud_selector
init_sud_selector:
	.byte	SYSCALL_DISPATCH_FILTER_ALLOW

	.section .rodata, "a", @progbits
init_msg_inval:
	.ascii "prctl(PR_SET_SYSCALL_USER_DISPATCH) refused (EINVAL): a kernel with CONFIG_GENERIC_ENTRY (RISC-V since its 2022 conversion to generic entry) has it\n"
init_msg_inval_end:
init_msg_other:
	.ascii "prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON) failed\n"
init_msg_other_end:
	.balign 8
init_msg_lens:
	.dword init_msg_inval_end - init_msg_inval
	.dword init_msg_other_end - init_msg_other

	.text
	.globl init_setup
	.type init_setup, @function
init_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	li	a0, PR_SET_SYSCALL_USER_DISPATCH
	li	a1, PR_SYS_DISPATCH_ON
	li	a2, 0				# offset
	li	a3, 0				# len: no exempt range
	la	a4, init_sud_selector
	li	a7, SYS_prctl
	.globl init_sud_ecall
init_sud_ecall:
	ecall
	bnez	a0, 8f
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
8:
	mv	a2, a0
	la	t0, init_msg_lens
	li	t2, -EINVAL
	la	a0, init_msg_inval
	ld	a1, 0(t0)
	beq	a2, t2, 9f
	la	a0, init_msg_other
	ld	a1, 8(t0)
9:	call	init_fail
	.size init_setup, .-init_setup

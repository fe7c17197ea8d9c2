# sud.S: syscall user dispatch (issue 13: to be written; stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# syscall_user_dispatch(regs) -> bool (stub).
	.globl syscall_user_dispatch
	.type syscall_user_dispatch, @function
syscall_user_dispatch:
	li	a0, 0
	ret
	.size syscall_user_dispatch, .-syscall_user_dispatch

# sys_prctl(regs) (stub).
	.globl sys_prctl
	.type sys_prctl, @function
sys_prctl:
	li	a0, -EINVAL
	ret
	.size sys_prctl, .-sys_prctl


# seccomp.S: seccomp filters (issue 13: stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# __secure_computing(sd) -> 0 or -1 (stub).
	.globl __secure_computing
	.type __secure_computing, @function
__secure_computing:
	li	a0, 0
	ret
	.size __secure_computing, .-__secure_computing

# sys_seccomp(regs) (stub).
	.globl sys_seccomp
	.type sys_seccomp, @function
sys_seccomp:
	li	a0, -ENOSYS
	ret
	.size sys_seccomp, .-sys_seccomp


# user_sud.S: the user side of syscall user dispatch (issue 13: stubs).

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

# sud_setup() -> 0 or a negative errno (stub).
	.globl sud_setup
	.type sud_setup, @function
sud_setup:
	li	a0, 0
	ret
	.size sud_setup, .-sud_setup


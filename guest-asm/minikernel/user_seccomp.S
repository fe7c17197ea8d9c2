# user_seccomp.S: the user side of seccomp (issue 13: stubs).

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

# seccomp_setup() -> 0 or a negative errno: filters installed before the warm-up (stub).
	.globl seccomp_setup
	.type seccomp_setup, @function
seccomp_setup:
	li	a0, 0
	ret
	.size seccomp_setup, .-seccomp_setup

# seccomp_setup_timed() -> 0 or a negative errno: filters installed after the warm-up, e.g. one that kills (stub).
	.globl seccomp_setup_timed
	.type seccomp_setup_timed, @function
seccomp_setup_timed:
	li	a0, 0
	ret
	.size seccomp_setup_timed, .-seccomp_setup_timed


# user_rseq.S: the user side of rseq registration (issue 13: stubs).

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

# rseq_setup() -> 0 or a negative errno (stub).
	.globl rseq_setup
	.type rseq_setup, @function
rseq_setup:
	li	a0, 0
	ret
	.size rseq_setup, .-rseq_setup


# entry-arch.S: RISC-V's own syscall entry before the 2022 generic-entry
# conversion (issue 13: a stub for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

	.globl handle_exception_arch
	.type handle_exception_arch, @function
handle_exception_arch:
	j	handle_exception
	.size handle_exception_arch, .-handle_exception_arch

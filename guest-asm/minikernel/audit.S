# audit.S: syscall auditing (issue 13: stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# __audit_syscall_entry(major, a1, a2, a3, a4) (stub).
	.globl __audit_syscall_entry
	.type __audit_syscall_entry, @function
__audit_syscall_entry:
	li	a0, 0
	ret
	.size __audit_syscall_entry, .-__audit_syscall_entry

# __audit_syscall_exit(success, code) (stub).
	.globl __audit_syscall_exit
	.type __audit_syscall_exit, @function
__audit_syscall_exit:
	li	a0, 0
	ret
	.size __audit_syscall_exit, .-__audit_syscall_exit

# syscall_work_boot(): the boot-time half of the kernel-side work (stub).
	.globl syscall_work_boot
	.type syscall_work_boot, @function
syscall_work_boot:
	ret
	.size syscall_work_boot, .-syscall_work_boot

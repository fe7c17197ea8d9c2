# trace.S: ptrace reports and the syscall tracepoints (issue 13: stubs for now).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# ptrace_report_syscall_entry(regs) -> int (stub).
	.globl ptrace_report_syscall_entry
	.type ptrace_report_syscall_entry, @function
ptrace_report_syscall_entry:
	li	a0, 0
	ret
	.size ptrace_report_syscall_entry, .-ptrace_report_syscall_entry

# ptrace_report_syscall_exit(regs, step) (stub).
	.globl ptrace_report_syscall_exit
	.type ptrace_report_syscall_exit, @function
ptrace_report_syscall_exit:
	li	a0, 0
	ret
	.size ptrace_report_syscall_exit, .-ptrace_report_syscall_exit

# trace_sys_enter(regs, nr) (stub).
	.globl trace_sys_enter
	.type trace_sys_enter, @function
trace_sys_enter:
	li	a0, 0
	ret
	.size trace_sys_enter, .-trace_sys_enter

# trace_sys_exit(regs, ret) (stub).
	.globl trace_sys_exit
	.type trace_sys_exit, @function
trace_sys_exit:
	li	a0, 0
	ret
	.size trace_sys_exit, .-trace_sys_exit


# work-arch.S: the C half of RISC-V's syscall entry before generic entry
# (entry-arch.S): 5.x's do_syscall_trace_enter and do_syscall_trace_exit
# (arch/riscv/kernel/ptrace.c) and do_notify_resume (arch/riscv/kernel/
# signal.c), calling the same work helpers as generic entry's
# syscall_trace_enter, syscall_exit_work and exit_to_user_mode_loop.
# Instruction counts: entry-arch.S's comment block.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-arch-entry.inc"

	.section .kernel.text, "ax", @progbits

# The C half (arch/riscv/kernel/ptrace.c, signal.c of 5.x), in the compiled
# shape of syscall.S: frame pointers, values across calls in s1.., current
# in tp. Each hook is tested the way test_thread_flag() tests it, with a
# fresh load of the flags word.

# do_syscall_trace_enter(regs) -> 0, or -1 to skip the call. 5.x's order:
# the ptrace report, seccomp (secure_computing(), whose inline flag test is
# here), the sys_enter tracepoint, audit (audit_syscall_entry(), whose
# inline audit_context() test is here, with regs->a0 as the first argument:
# 5.x did not overwrite it with -ENOSYS on the way in). No syscall user
# dispatch and no PTRACE_SYSEMU before generic entry.
#   s1 = regs
	.globl do_syscall_trace_enter
	.type do_syscall_trace_enter, @function
do_syscall_trace_enter:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	a5, TASK_TI_SYSCALL_WORK(tp)	# TIF_SYSCALL_TRACE
	andi	a5, a5, SYSCALL_WORK_SYSCALL_TRACE
	beqz	a5, 1f
	call	ptrace_report_syscall_entry	# (regs) -> nonzero: skip
	bnez	a0, 8f
1:
	ld	a5, TASK_TI_SYSCALL_WORK(tp)	# TIF_SECCOMP
	andi	a5, a5, SYSCALL_WORK_SECCOMP
	beqz	a5, 2f
	li	a0, 0
	call	__secure_computing		# (NULL) -> 0 run, -1 skip
	li	a5, -1
	beq	a0, a5, 8f
2:
	ld	a5, TASK_TI_SYSCALL_WORK(tp)	# TIF_SYSCALL_TRACEPOINT
	andi	a5, a5, SYSCALL_WORK_SYSCALL_TRACEPOINT
	beqz	a5, 3f
	mv	a0, s1
	ld	a1, PT_A7(s1)			# syscall_get_nr()
	call	trace_sys_enter			# (regs, nr)
3:
	ld	a5, TASK_AUDIT_CONTEXT(tp)	# audit_context()
	beqz	a5, 4f
	ld	a0, PT_A7(s1)			# major
	ld	a1, PT_A0(s1)
	ld	a2, PT_A1(s1)
	ld	a3, PT_A2(s1)
	ld	a4, PT_A3(s1)
	call	__audit_syscall_entry
4:
	li	a0, 0
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
8:
	li	a0, -1
	j	9b
	.size do_syscall_trace_enter, .-do_syscall_trace_enter

# do_syscall_trace_exit(regs): 5.x's order, which is not generic entry's:
# audit (audit_syscall_exit(), inline), the ptrace report (step 0: RISC-V
# had no single step), then the sys_exit tracepoint.
#   s1 = regs
	.globl do_syscall_trace_exit
	.type do_syscall_trace_exit, @function
do_syscall_trace_exit:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	a5, TASK_AUDIT_CONTEXT(tp)	# audit_context()
	beqz	a5, 1f
	ld	a1, PT_A0(s1)			# regs_return_value()
	li	a5, -MAX_ERRNO
	sltu	a0, a1, a5			# is_syscall_success()
	call	__audit_syscall_exit		# (success, return_code)
1:
	ld	a5, TASK_TI_SYSCALL_WORK(tp)	# TIF_SYSCALL_TRACE
	andi	a5, a5, SYSCALL_WORK_SYSCALL_TRACE
	beqz	a5, 2f
	mv	a0, s1
	li	a1, 0
	call	ptrace_report_syscall_exit	# (regs, step = 0)
2:
	ld	a5, TASK_TI_SYSCALL_WORK(tp)	# TIF_SYSCALL_TRACEPOINT
	andi	a5, a5, SYSCALL_WORK_SYSCALL_TRACEPOINT
	beqz	a5, 3f
	mv	a0, s1
	ld	a1, PT_A0(s1)			# regs_return_value()
	call	trace_sys_exit			# (regs, ret)
3:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size do_syscall_trace_exit, .-do_syscall_trace_exit

# do_notify_resume(regs, thread_info_flags): signal delivery (5.x's
# do_signal, which the conversion renamed arch_do_signal_or_restart), then
# notify-resume work (5.15's tracehook_notify_resume, 5.18's
# resume_user_mode_work). Reached by a tail call with ra pointing at
# ret_from_exception_arch, so its return tests the flags again.
#   s1 = regs, s2 = flags
	.globl do_notify_resume
	.type do_notify_resume, @function
do_notify_resume:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	andi	a5, s2, _TIF_SIGPENDING
	beqz	a5, 1f
	call	arch_do_signal_or_restart	# (regs)
1:
	andi	a5, s2, _TIF_NOTIFY_RESUME
	beqz	a5, 2f
	mv	a0, s1
	call	resume_user_mode_work		# (regs)
2:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size do_notify_resume, .-do_notify_resume

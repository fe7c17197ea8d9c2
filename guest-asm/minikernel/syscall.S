# syscall.S: the system call path between the entry and the exit (phase
# "syscall"): do_trap_ecall_u, syscall_enter_from_user_mode and its slow path,
# the sys_call_table dispatch and the system calls themselves.
#
# Written as GCC would compile the kernel's C for rv64gc with frame pointers
# (CONFIG_FRAME_POINTER): each function saves ra and s0 and points s0 at its
# frame; values that live across calls sit in s1.., and current is tp.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# do_trap_ecall_u(struct pt_regs *regs): excp_vect_table[8], ecall from U.
#   if (!user_mode(regs)) -> fatal
#   nr = regs->a7; regs->epc += 4; regs->orig_a0 = regs->a0;
#   regs->a0 = -ENOSYS;
#   nr = syscall_enter_from_user_mode(regs, nr);
#   if ((unsigned long)nr < NR_syscalls) regs->a0 = sys_call_table[nr](regs);
#   syscall_exit_to_user_mode(regs);
	.globl do_trap_ecall_u
	.type do_trap_ecall_u, @function
do_trap_ecall_u:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	ld	a5, PT_STATUS(a0)
	andi	a5, a5, SR_SPP
	bnez	a5, 2f				# SPP set: "ecall from U" while in S?
	ld	a4, PT_EPC(a0)
	ld	a3, PT_A0(a0)
	ld	a1, PT_A7(a0)			# syscall number
	mv	s1, a0
	addi	a4, a4, 4			# resume after the ecall
	li	a5, -ENOSYS			# the answer if nobody handles nr
	sd	a4, PT_EPC(a0)
	sd	a3, PT_ORIG_A0(a0)		# a0 is both 1st argument and result
	sd	a5, PT_A0(a0)
	# riscv_v_vstate_discard(regs) would go here; a kernel built without
	# vector support has nothing to discard. The vector-enabled copies of
	# this function (do_trap_ecall_u_v*, vector-syscall.S) do it at this point.
	call	syscall_enter_from_user_mode	# may change nr (tracer)
	li	a5, NR_syscalls - 1
	bgtu	a0, a5, 1f			# also catches nr = -1 (skip)
	slli	a0, a0, RISCV_LGPTR
	la	a5, sys_call_table
	add	a0, a5, a0
	ld	a5, 0(a0)
	mv	a0, s1
	jalr	a5				# sys_*(regs): a real call, RAS push
	sd	a0, PT_A0(s1)
1:
	mv	a0, s1
	call	syscall_exit_to_user_mode
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
2:
	j	do_trap_unknown			# Linux: die("ecall from U-mode")
	.size do_trap_ecall_u, .-do_trap_ecall_u

# syscall_enter_from_user_mode(regs, nr) -> nr: generic entry's out-of-line
# syscall entry. Interrupts go back on; context tracking and lockdep compile
# to nothing in a production config. Per-task syscall work (tracing,
# auditing) takes the slow path, which may rewrite nr.
	.globl syscall_enter_from_user_mode
	.type syscall_enter_from_user_mode, @function
syscall_enter_from_user_mode:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	csrsi	sstatus, SR_SIE			# local_irq_enable()
	ld	a2, TASK_TI_SYSCALL_WORK(tp)
	andi	a5, a2, SYSCALL_WORK_ENTER
	bnez	a5, 1f
	mv	a0, a1
2:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
1:
	call	syscall_trace_enter		# (regs, nr, work) -> nr
	j	2b
	.size syscall_enter_from_user_mode, .-syscall_enter_from_user_mode

# syscall_trace_enter(regs, nr, work) -> nr, or -1 to skip the call: the
# slow path, in kernel/entry/common.c's order. Each piece of work has its
# own file: syscall user dispatch first (sud.S; its ABI may not be Linux's),
# then the ptrace report (trace.S), seccomp after ptrace so that it sees a
# tracer's changes (seccomp.S), then the number is read again, the
# sys_enter tracepoint (trace.S), and audit (audit.S; syscall_enter_audit,
# inline in Linux, tests current->audit_context here).
#   s1 = regs, s2 = work, s3 = ret
	.globl syscall_trace_enter
	.type syscall_trace_enter, @function
syscall_trace_enter:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a2
	li	s3, 0
	la	a5, stat_syscall_trace_enter
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	andi	a5, s2, SYSCALL_WORK_SYSCALL_USER_DISPATCH
	beqz	a5, 1f
	mv	a0, s1
	call	syscall_user_dispatch		# -> true: SIGSYS is on its way
	bnez	a0, 8f
1:
	andi	a5, s2, SYSCALL_WORK_SYSCALL_TRACE | SYSCALL_WORK_SYSCALL_EMU
	beqz	a5, 2f
	mv	a0, s1
	call	ptrace_report_syscall_entry	# -> nonzero: the tracer said skip
	mv	s3, a0
	bnez	a0, 8f
	andi	a5, s2, SYSCALL_WORK_SYSCALL_EMU
	bnez	a5, 8f
	ld	s2, TASK_TI_SYSCALL_WORK(tp)	# the tracer may have changed it
2:
	andi	a5, s2, SYSCALL_WORK_SECCOMP
	beqz	a5, 3f
	li	a0, 0				# __secure_computing(NULL)
	call	__secure_computing		# -> 0 run it, -1 skip it
	mv	s3, a0
	li	a5, -1
	beq	a0, a5, 8f
3:
	andi	a5, s2, SYSCALL_WORK_SYSCALL_TRACEPOINT
	beqz	a5, 4f
	ld	a1, PT_A7(s1)			# syscall_get_nr()
	mv	a0, s1
	call	trace_sys_enter			# (regs, nr)
4:
	ld	a0, TASK_AUDIT_CONTEXT(tp)	# syscall_enter_audit():
	beqz	a0, 5f				#   audit_context() != NULL
	ld	a0, PT_A7(s1)			# major = syscall_get_nr()
	ld	a1, PT_ORIG_A0(s1)		# syscall_get_arguments(): a0 is
	ld	a2, PT_A1(s1)			#   orig_a0, a1..a3 as they are
	ld	a3, PT_A2(s1)
	ld	a4, PT_A3(s1)
	call	__audit_syscall_entry		# (major, a1, a2, a3, a4)
5:
	ld	a0, PT_A7(s1)			# syscall_get_nr()
	beqz	s3, 9f				# return ret ? : syscall
	mv	a0, s3
	j	9f
8:
	li	a0, -1
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size syscall_trace_enter, .-syscall_trace_enter

# System calls take struct pt_regs * and unpack their arguments from it, the
# way RISC-V's syscall wrappers do (the first argument from orig_a0, since
# a0 already holds -ENOSYS).

# sys_getppid(regs) -> current->real_parent->tgid
	.globl sys_getppid
	.type sys_getppid, @function
sys_getppid:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_REAL_PARENT(tp)
	lw	a0, TASK_TGID(a5)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_getppid, .-sys_getppid

# sys_exit(regs): the only process is leaving, so the machine shuts down
# with its exit status (the low 8 bits, as a parent's wait() would see).
	.globl sys_exit
	.type sys_exit, @function
sys_exit:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a2, PT_ORIG_A0(a0)
	andi	a2, a2, 0xff
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	snez	a1, a2				# nonzero status: reason "failure"
	call	sbi_system_reset
1:	j	1b				# do_exit() does not return
	.size sys_exit, .-sys_exit

# sys_ni_syscall(regs): every table slot without a handler.
	.globl sys_ni_syscall
	.type sys_ni_syscall, @function
sys_ni_syscall:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a0, -ENOSYS
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_ni_syscall, .-sys_ni_syscall

# sys_sched_yield(regs) -> 0: give the hart to the next runnable task, if
# any (Linux's do_sched_yield() reduced to its schedule() call).
	.globl sys_sched_yield
	.type sys_sched_yield, @function
sys_sched_yield:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	call	schedule
	li	a0, 0
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_sched_yield, .-sys_sched_yield

# sys_clone(regs) -> child pid, or -EAGAIN: start task_ctx as a copy of the
# caller, for the context-switch benchmark. The minikernel has one address
# space and one spare task_struct, so the flags are not looked at and a
# second clone() fails. What copy_process() and copy_thread() would do:
#   - the child's pt_regs, at the top of its kernel stack, are the caller's,
#     except a0 = 0 (clone() returns 0 in the child), sp = newsp (regs->a1;
#     0 keeps the caller's) and VS = Off: a new task has no vector state
#     until its own first vector instruction traps;
#   - its thread_info flags and vector context start empty;
#   - its first __switch_to lands in ret_from_fork on that pt_regs;
#   - wake_up_new_task(): it joins the run queue right after the caller.
	.globl sys_clone
	.type sys_clone, @function
sys_clone:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, task_ctx
	ld	a4, TASK_RQ_NEXT(a5)
	bnez	a4, 3f				# already running
	ld	a3, TASK_STACK(a5)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	a3, a3, a4			# childregs = task_pt_regs(child)
	mv	a2, a0
	mv	a4, a3
	addi	a6, a0, PT_SIZE
1:
	ld	a7, 0(a2)			# *childregs = *regs
	sd	a7, 0(a4)
	addi	a2, a2, 8
	addi	a4, a4, 8
	bltu	a2, a6, 1b
	sd	zero, PT_A0(a3)
	ld	a4, PT_A1(a0)			# newsp
	beqz	a4, 2f
	sd	a4, PT_SP(a3)
2:
	ld	a4, PT_STATUS(a3)
	andi	a4, a4, ~SR_VS			# riscv_v_vstate_off(childregs)
	sd	a4, PT_STATUS(a3)
	la	a4, ret_from_fork
	sd	a4, TASK_THREAD_RA(a5)
	sd	a3, TASK_THREAD_SP(a5)
	sd	zero, TASK_THREAD_S0(a5)	# no caller frame
	sd	zero, TASK_TI_FLAGS(a5)
	sd	zero, TASK_TI_SYSCALL_WORK(a5)
	sd	zero, TASK_VSTATE_DATAP(a5)
	sd	tp, TASK_REAL_PARENT(a5)
	ld	a4, TASK_RQ_NEXT(tp)		# wake_up_new_task()
	sd	a4, TASK_RQ_NEXT(a5)
	sd	a5, TASK_RQ_NEXT(tp)
	lw	a0, TASK_PID(a5)
	j	4f
3:
	li	a0, -EAGAIN
4:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_clone, .-sys_clone

	.section .kernel.rodata, "a", @progbits
	.balign 8
# sys_call_table[nr] -> handler(struct pt_regs *), NR_syscalls entries.
	.globl sys_call_table
	.type sys_call_table, @object
sys_call_table:
	.rept SYS_exit
	.dword sys_ni_syscall
	.endr
	.dword sys_exit				# 93
	.rept SYS_sched_yield - SYS_exit - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_sched_yield			# 124
	.rept SYS_rt_sigaction - SYS_sched_yield - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_rt_sigaction			# 134 (signal.S)
	.rept SYS_rt_sigreturn - SYS_rt_sigaction - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_rt_sigreturn			# 139 (signal.S)
	.rept SYS_prctl - SYS_rt_sigreturn - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_prctl			# 167 (sud.S)
	.rept SYS_getppid - SYS_prctl - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_getppid			# 173
	.rept SYS_clone - SYS_getppid - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_clone			# 220
	.rept SYS_atomics_wake - SYS_clone - 1
	.dword sys_ni_syscall
	.endr
	# seed 004's benchmarks (zalrsc-atomics.S). atomics_setup points 244
	# at sys_atomics_wake_zalrsc for a RISCV_ISA_ZAAMO=n kernel.
	.dword sys_atomics_wake			# 244
	.dword sys_futex_cmpxchg		# 245
	.dword sys_cmpxchg_loop			# 246
	.rept SYS_seccomp - SYS_cmpxchg_loop - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_seccomp			# 277 (seccomp.S)
	.rept SYS_rseq - SYS_seccomp - 1
	.dword sys_ni_syscall
	.endr
	.dword sys_rseq				# 293 (rseq.S)
	.rept NR_syscalls - SYS_rseq - 1
	.dword sys_ni_syscall
	.endr
	.size sys_call_table, .-sys_call_table
.if (. - sys_call_table) != NR_syscalls * RISCV_SZPTR
	.error "sys_call_table must have NR_syscalls entries"
.endif

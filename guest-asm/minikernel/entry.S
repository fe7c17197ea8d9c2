# entry.S: the S-mode trap entry and the return to the interrupted context.
#
# Models Linux's arch/riscv/kernel/entry.S by function: handle_exception
# (phase "entry"), ret_from_exception (phase "exit"), and for the
# context-switch benchmark __switch_to and ret_from_fork. The entry exists in
# the two forms of seed 003 ("riscv: Improve exception and system call
# latency"), both assembled from one template so they differ only in the
# dispatch tail:
#
#   handle_exception      before the patch: ra is pointed at
#                         ret_from_exception and the handler is reached with
#                         `jr t0`. t0 is x5, an alternate link register, so the
#                         RAS hint table (unprivileged spec, JALR) treats the
#                         jump as a return and pops; the handler's own `ret`
#                         then pops again for a call that was never pushed.
#   handle_exception_ras  after the patch: `jalr t1` pushes a genuine return
#                         address, the handler's `ret` pops it, and
#                         `j ret_from_exception` follows.
#
# kernel_start puts one of them in stvec according to knob_ras_friendly_entry.

	.include "minikernel-defs.inc"

	.section .kernel.text, "ax", @progbits

# The two entries: one template (include/minikernel-entry.inc), two copies.
	.set HANDLE_EXCEPTION_RAS, 0
	.include "minikernel-entry.inc"
	.set HANDLE_EXCEPTION_RAS, 1
	.include "minikernel-entry.inc"

# ret_from_exception(regs = sp): leave the kernel through the pt_regs at sp.
# Reached by `ret` from a handler (pre-patch form) or by `j` (patched form).
	.globl ret_from_exception
	.type ret_from_exception, @function
ret_from_exception:
	ld	s0, PT_STATUS(sp)
	andi	s0, s0, SR_SPP
	bnez	s0, 1f
	# Back to U-mode: the next trap from U must find an empty kernel stack
	# (the frame we are about to pop) and the task in sscratch.
	addi	s0, sp, PT_SIZE_ON_STACK
	sd	s0, TASK_TI_KERNEL_SP(tp)
	csrw	sscratch, tp
1:
	ld	a0, PT_STATUS(sp)
	ld	a2, PT_EPC(sp)
	# A reservation cannot be saved with the context, so drop whatever one
	# this hart holds before it runs another context (unprivileged spec,
	# "Load-Reserved/Store-Conditional": an SC may always fail, and any SC
	# clears the reservation). The target is pt_regs->epc rewritten with its
	# own value: harmless whether the SC fails (the usual case) or succeeds.
.if PT_EPC != 0
	.error "sc.d below needs pt_regs->epc at offset 0"
.endif
	sc.d	zero, a2, (sp)
	csrw	sstatus, a0
	csrw	sepc, a2

	# x1, x3..x31 (30 registers), then sp, which addresses the frame.
	ld	ra,  PT_RA(sp)
	ld	gp,  PT_GP(sp)
	ld	tp,  PT_TP(sp)
	ld	t0,  PT_T0(sp)
	ld	t1,  PT_T1(sp)
	ld	t2,  PT_T2(sp)
	ld	s0,  PT_S0(sp)
	ld	s1,  PT_S1(sp)
	ld	a0,  PT_A0(sp)
	ld	a1,  PT_A1(sp)
	ld	a2,  PT_A2(sp)
	ld	a3,  PT_A3(sp)
	ld	a4,  PT_A4(sp)
	ld	a5,  PT_A5(sp)
	ld	a6,  PT_A6(sp)
	ld	a7,  PT_A7(sp)
	ld	s2,  PT_S2(sp)
	ld	s3,  PT_S3(sp)
	ld	s4,  PT_S4(sp)
	ld	s5,  PT_S5(sp)
	ld	s6,  PT_S6(sp)
	ld	s7,  PT_S7(sp)
	ld	s8,  PT_S8(sp)
	ld	s9,  PT_S9(sp)
	ld	s10, PT_S10(sp)
	ld	s11, PT_S11(sp)
	ld	t3,  PT_T3(sp)
	ld	t4,  PT_T4(sp)
	ld	t5,  PT_T5(sp)
	ld	t6,  PT_T6(sp)
	ld	sp,  PT_SP(sp)
	sret
	.size ret_from_exception, .-ret_from_exception

# __switch_to(prev, next) -> prev: park the running task's kernel context in
# prev->thread and take up next's. Only what a C caller expects to survive a
# call needs keeping: ra, sp and s0..s11; the caller-saved registers are dead
# across the call from schedule(). tp, the current task, becomes next, and
# the `ret` goes wherever next last called __switch_to from (schedule()), or
# to ret_from_fork for a task that has never run.
	.globl __switch_to
	.type __switch_to, @function
__switch_to:
	sd	ra, TASK_THREAD_RA(a0)
	sd	sp, TASK_THREAD_SP(a0)
	sd	s0, TASK_THREAD_S0 + 0 * 8(a0)
	sd	s1, TASK_THREAD_S0 + 1 * 8(a0)
	sd	s2, TASK_THREAD_S0 + 2 * 8(a0)
	sd	s3, TASK_THREAD_S0 + 3 * 8(a0)
	sd	s4, TASK_THREAD_S0 + 4 * 8(a0)
	sd	s5, TASK_THREAD_S0 + 5 * 8(a0)
	sd	s6, TASK_THREAD_S0 + 6 * 8(a0)
	sd	s7, TASK_THREAD_S0 + 7 * 8(a0)
	sd	s8, TASK_THREAD_S0 + 8 * 8(a0)
	sd	s9, TASK_THREAD_S0 + 9 * 8(a0)
	sd	s10, TASK_THREAD_S0 + 10 * 8(a0)
	sd	s11, TASK_THREAD_S0 + 11 * 8(a0)
	ld	ra, TASK_THREAD_RA(a1)
	ld	sp, TASK_THREAD_SP(a1)
	ld	s0, TASK_THREAD_S0 + 0 * 8(a1)
	ld	s1, TASK_THREAD_S0 + 1 * 8(a1)
	ld	s2, TASK_THREAD_S0 + 2 * 8(a1)
	ld	s3, TASK_THREAD_S0 + 3 * 8(a1)
	ld	s4, TASK_THREAD_S0 + 4 * 8(a1)
	ld	s5, TASK_THREAD_S0 + 5 * 8(a1)
	ld	s6, TASK_THREAD_S0 + 6 * 8(a1)
	ld	s7, TASK_THREAD_S0 + 7 * 8(a1)
	ld	s8, TASK_THREAD_S0 + 8 * 8(a1)
	ld	s9, TASK_THREAD_S0 + 9 * 8(a1)
	ld	s10, TASK_THREAD_S0 + 10 * 8(a1)
	ld	s11, TASK_THREAD_S0 + 11 * 8(a1)
	mv	tp, a1
	ret
	.size __switch_to, .-__switch_to

# ret_from_fork: a task made by sys_clone starts here, on a kernel stack that
# holds nothing but its pt_regs (a copy of its parent's at the clone() call).
# It leaves that syscall as its parent does: the syscall exit work (through
# syscall_exit_fn, which names the copy of syscall_exit_to_user_mode the boot
# chose), then ret_from_exception.
	.globl ret_from_fork
	.type ret_from_fork, @function
ret_from_fork:
	move	a0, sp
	ld	a5, syscall_exit_fn
	jalr	a5				# syscall_exit_to_user_mode*(regs)
	j	ret_from_exception
	.size ret_from_fork, .-ret_from_fork

	.section .kernel.data, "aw", @progbits
	.balign 8
# The syscall exit a new task takes: riscv_v_setup (vector.S) points it at
# the vector-enabled copy when the hart has V. Read-only after boot.
	.globl syscall_exit_fn
	.type syscall_exit_fn, @object
syscall_exit_fn:
	.dword syscall_exit_to_user_mode
	.size syscall_exit_fn, .-syscall_exit_fn

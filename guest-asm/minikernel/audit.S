# audit.S: syscall auditing (SYSCALL_WORK_SYSCALL_AUDIT) as Linux 6.12's
# kernel/auditsc.c runs it for a kernel booted with audit=1 and no audit
# rules loaded (seed 002's command line has audit=1): every task gets an
# audit context at fork (audit_alloc), and with audit_n_rules == 0 each
# syscall's context is a "dummy" one. __audit_syscall_entry then still
# fills arch, major, argv and ctime (ktime_get_coarse_real_ts64, a read of
# the timekeeper under its seqcount) and marks the context
# AUDIT_CTX_SYSCALL; __audit_syscall_exit sees the dummy context and only
# runs audit_reset_context, which sets it back to AUDIT_CTX_UNUSED and
# stops there (audit_return_fixup and the filters are skipped for a dummy
# context). Paths that need rules (auditd_test_task, the filters,
# audit_log_exit) are NOT_MODELLED: with no rules they cannot be reached.
#
# Also syscall_work_boot(), the boot-time half of all kernel-side work.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-work.inc"

.macro NOT_MODELLED
	unimp
.endm

	.section .kernel.text, "ax", @progbits

# __audit_syscall_entry(major, a1, a2, a3, a4); current->audit_context is
# known to be non-NULL (syscall_enter_audit tested it).
	.globl __audit_syscall_entry
	.type __audit_syscall_entry, @function
__audit_syscall_entry:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_AUDIT_CONTEXT(tp)	# audit_context()
	lw	a6, audit_enabled
	beqz	a6, 9f
	beqz	a5, 9f
	lw	a6, ACTX_CONTEXT(a5)		# still in use, or names left:
	bnez	a6, 7f				#   audit_panic()
	lw	a6, ACTX_NAME_COUNT(a5)
	bnez	a6, 7f
	lw	a7, ACTX_STATE(a5)
	beqz	a7, 9f				# AUDIT_STATE_DISABLED
	lw	a6, audit_n_rules
	seqz	a6, a6
	sw	a6, ACTX_DUMMY(a5)		# dummy = !audit_n_rules
	beqz	a6, 7f				# rules: the prio / auditd test
	li	a6, AUDIT_ARCH_RISCV64 - (1 << 32)	# syscall_get_arch(): as an int
	sw	a6, ACTX_ARCH(a5)
	sw	a0, ACTX_MAJOR(a5)
	sd	a1, ACTX_ARGV + 0(a5)
	sd	a2, ACTX_ARGV + 8(a5)
	sd	a3, ACTX_ARGV + 16(a5)
	sd	a4, ACTX_ARGV + 24(a5)
	li	a6, AUDIT_CTX_SYSCALL
	sw	a6, ACTX_CONTEXT(a5)
	sw	a7, ACTX_CURRENT_STATE(a5)
	addi	a0, a5, ACTX_CTIME
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	tail	ktime_get_coarse_real_ts64	# (&context->ctime)
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED
	.size __audit_syscall_entry, .-__audit_syscall_entry

# __audit_syscall_exit(success, return_code): a dummy context goes straight
# to audit_reset_context (a tail call).
	.globl __audit_syscall_exit
	.type __audit_syscall_exit, @function
__audit_syscall_exit:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_AUDIT_CONTEXT(tp)
	beqz	a5, 8f
	lw	a4, ACTX_DUMMY(a5)
	bnez	a4, 8f
	lw	a4, ACTX_CONTEXT(a5)
	li	a3, AUDIT_CTX_SYSCALL
	beq	a4, a3, 7f			# audit_return_fixup, the filters
8:
	mv	a0, a5
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	tail	audit_reset_context
7:	NOT_MODELLED
	.size __audit_syscall_exit, .-__audit_syscall_exit

# audit_reset_context(ctx): context = AUDIT_CTX_UNUSED; a dummy context
# stops there (the full reset of a real record is not on this path).
	.globl audit_reset_context
	.type audit_reset_context, @function
audit_reset_context:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	beqz	a0, 9f
	sw	zero, ACTX_CONTEXT(a0)
	lw	a5, ACTX_DUMMY(a0)
	beqz	a5, 7f
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED
	.size audit_reset_context, .-audit_reset_context

# ktime_get_coarse_real_ts64(ts): the timekeeper's xtime under tk_core's
# seqcount (read_seqcount_begin waits for an even count, then smp_rmb;
# read_seqcount_retry: smp_rmb, then the count again).
	.globl ktime_get_coarse_real_ts64
	.type ktime_get_coarse_real_ts64, @function
ktime_get_coarse_real_ts64:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a4, tk_core
1:
	lw	a5, TK_SEQ(a4)
	andi	a3, a5, 1
	bnez	a3, 1b				# a writer: cpu_relax() and again
	fence	r, r
	ld	a3, TK_XTIME_SEC(a4)		# tk_xtime(tk)
	ld	a2, TK_XTIME_NSEC(a4)
	lw	a1, TK_SHIFT(a4)
	srl	a2, a2, a1
	sd	a3, 0(a0)
	sd	a2, 8(a0)
	fence	r, r
	lw	a3, TK_SEQ(a4)
	bne	a3, a5, 1b
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size ktime_get_coarse_real_ts64, .-ktime_get_coarse_real_ts64

# audit_alloc(tsk): audit_ever_enabled (audit=1), so the task gets a context
# in the state audit_filter_task gives with no task rules
# (AUDIT_STATE_BUILD), and SYSCALL_WORK_SYSCALL_AUDIT. The context is a
# static object (audit_alloc_context's kzalloc). Only the benchmark task
# has one: the others never make a syscall with this knob.
	.globl audit_alloc
	.type audit_alloc, @function
audit_alloc:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lw	a5, audit_ever_enabled
	beqz	a5, 9f
	la	a5, bench_audit_context
	li	a4, AUDIT_STATE_BUILD
	sw	a4, ACTX_STATE(a5)
	sd	a5, TASK_AUDIT_CONTEXT(a0)	# audit_set_context()
	ld	a4, TASK_TI_SYSCALL_WORK(a0)	# set_task_syscall_work()
	ori	a4, a4, SYSCALL_WORK_SYSCALL_AUDIT
	sd	a4, TASK_TI_SYSCALL_WORK(a0)
9:
	li	a0, 0
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size audit_alloc, .-audit_alloc

# syscall_work_boot(): the kernel-side work, once at boot, per the bits
# kernel_start copied from knob_syscall_work. SYSCALL_WORK_SYSCALL_AUDIT
# stands for audit=1 on the command line (audit_enable: audit_enabled and
# audit_ever_enabled) and the benchmark task's audit_alloc; then trace.S's
# part (ptrace attach, tracepoint probes).
	.globl syscall_work_boot
	.type syscall_work_boot, @function
syscall_work_boot:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_TI_SYSCALL_WORK(tp)
	andi	a5, a5, SYSCALL_WORK_SYSCALL_AUDIT
	beqz	a5, 1f
	li	a5, 1
	sw	a5, audit_enabled, a4
	sw	a5, audit_ever_enabled, a4
	mv	a0, tp
	call	audit_alloc
1:
	call	trace_boot
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size syscall_work_boot, .-syscall_work_boot

	.section .kernel.data, "aw", @progbits
	.balign 8
	.globl audit_enabled
audit_enabled:
	.word 0
	.globl audit_ever_enabled
audit_ever_enabled:
	.word 0
	.globl audit_n_rules
audit_n_rules:
	.word 0					# no rules loaded
	.word 0
# tk_core: the timekeeper's seqcount and xtime. No clock runs in the
# minikernel (no timekeeping tick), so xtime stays at its boot value.
	.balign 8
	.globl tk_core
tk_core:
	.word 0					# seq
	.word 0
	.dword 1700000000			# xtime_sec
	.dword 0				# xtime_nsec << shift
	.word 8					# shift
	.word 0
	.globl bench_audit_context
	.type bench_audit_context, @object
bench_audit_context:
	.skip ACTX_SIZE
	.size bench_audit_context, .-bench_audit_context

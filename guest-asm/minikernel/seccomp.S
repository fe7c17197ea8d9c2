# seccomp.S: seccomp filters as Linux 6.12 runs them (kernel/seccomp.c),
# the per-syscall half: __secure_computing (and force_sig_seccomp of
# kernel/signal.c), which syscall_trace_enter calls for every system call
# of a task with SYSCALL_WORK_SECCOMP: the cache look-up, then each filter
# in the eBPF interpreter (bpf.S's ___bpf_prog_run; CONFIG_BPF_JIT is off in
# the modelled config, and the riscv64 JIT is out of scope), then the
# action. seccomp(2), which checks a classic program, converts it to eBPF
# (bpf-filter.S) and prepares its action cache, is in seccomp-setup.S.
#
# Same compiled-C shape as syscall.S (frame pointers, current in tp), for
# the config in /work/kernel/work13 (no SMP, no preemption, no audit, no
# CHECKPOINT_RESTORE, no JUMP_LABEL, no COMPAT). Static functions that
# GCC would inline are inlined: populate_seccomp_data,
# seccomp_run_filters, seccomp_cache_check_allow and
# bpf_prog_run_pin_on_cpu live inside __seccomp_filter, which stays out of
# line (it calls itself after a tracer's change). What that config makes
# free costs nothing here: smp_rmb(), migrate_disable()/enable() (!SMP),
# cant_migrate(), and seccomp_log(), whose only effect is audit_seccomp()
# (CONFIG_AUDIT off: the whole call folds away). The bpf_stats key is a
# plain load and branch without jump labels.
#
# Differences from Linux, all off the measured path:
#   - no allocator: filters live in SECCOMP_MAX_FILTERS static slots;
#     the classic program is limited to SECCOMP_SLOT_CBPF instructions
#     (-ENOMEM beyond, as a failed allocation);
#   - SECCOMP_SET_MODE_STRICT, SECCOMP_GET_NOTIF_SIZES, user notification
#     (SECCOMP_FILTER_FLAG_NEW_LISTENER, _WAIT_KILLABLE_RECV) are refused
#     with -EINVAL; RET_USER_NOTIF then always finds no listener (-ENOSYS,
#     as Linux without one); RET_TRACE has no tracer event stop: -ENOSYS
#     when no tracer asked for seccomp events, and also when one did;
#   - the caller is root (CAP_SYS_ADMIN), so no no_new_privs check fails;
#   - TSYNC has no other thread to synchronise; KILL_THREAD of the only
#     thread is KILL_PROCESS (signal->live is 1);
#   - force_sig_seccomp builds its SIGSYS siginfo in a static
#     (seccomp_sigsys_info, which tests read) instead of on its stack, and
#     hands it to signal.S's force_sig_info (the coredump flag is lost:
#     the shared interface has no handler argument).
#
# ---------------------------------------------------------------------------
# Hand count per getppid call (instructions, attributed as trapscope does)
# ---------------------------------------------------------------------------
# With knob_seccomp != 0 every call has SYSCALL_WORK_SECCOMP and takes
# syscall_trace_enter (syscall.S). Phases as tests/data/seccomp.toml names
# them: "seccomp" = __secure_computing, __seccomp_filter,
# force_sig_seccomp; "bpf" = __bpf_prog_run32, ___bpf_prog_run. Under
# ras-trap-entry.toml's phases both count as "kernel". Entry 64/63 and
# exit 61 never change (seccomp has no exit work); user is 16, or 20 when
# the call fails (the wrapper's errno path: neg, sw (2), li, ret).
# Rules as kernel.S's count: `li` of a 32-bit constant with bit 31 set is
# lui (+ addi), as GCC loads sign-extended u32 values; `la` is 2.
#
# syscall phase, the call allowed (knobs 1-4): 98
#   do_trap_ecall_u 35, sys_getppid 10 as kernel.S counts them;
#   syscall_enter_from_user_mode 14 (bnez taken, jal, j instead of mv);
#   syscall_trace_enter 39: prologue 7; mv, mv, li 3; counter 5 (la 2, ld,
#   addi, sd); SUD test 2; ptrace test 2; seccomp test 2; li a0, jal,
#   mv s3, li, beq 5; tracepoint test 2; audit test 2; ld nr, beqz 2;
#   epilogue 7
# syscall phase, the call skipped (knobs 5, 6): 75
#   do_trap_ecall_u 27 (35 less the dispatch: slli, la 2, add, ld, mv,
#   jalr, sd a0), syscall_enter_from_user_mode 14, syscall_trace_enter 34
#   (the same up to the beq, taken; li a0 -1; epilogue 7)
#
# seccomp phase:
#   __secure_computing (mode FILTER, sd NULL)                          20
#     prologue 4; lw mode; mv a1; beqz; ld stack, li (2), add, lw nr;
#     li, bne; li a2; jal; epilogue 4
#   __seccomp_filter, common part C up to the cache look-up:           57
#     prologue 10 (addi, 8 sd, addi); mv s1, s6, s2; bnez                14
#     populate_seccomp_data: ld stack, li (2), add; ld a7, sw nr; li
#       arch (2), sw; 6 x (ld, sd) args; ld epc, sd ip; mv s2           24
#     seccomp_run_filters: ld filter; beqz; lui (ret = ALLOW)            3
#     seccomp_cache_check_allow: lw nr; li; bgeu; array_index_nospec
#       (li, sub, or, not, srai, and); test_bit (srli, slli, add, ld,
#       srl, andi); bnez                                                16
#   one filter run F (cache miss): li s5; ld prog; la key (2), lw, bgtz;
#     ld bpf_func, addi insnsi, mv a0, jalr; srliw, slliw, srliw, slliw,
#     bge; ld prev, bnez                                                17
#     (+2 when the verdict is below ALLOW: mv s3, mv s5)
#   the action: data/action D 4 (slli, srli, lui, and); each case test 2
#   the epilogue E: 10 (8 ld, addi, ret)
#   knob 1, cached ALLOW: C + D + ALLOW test 2 + li a0, j 2 + E =         75
#   knobs 2-4, ALLOW: C + F + D + 2 + 2 + E =                            92
#   knob 5, ERRNO: C + F + 2 + D + 2 tests 4 + li MAX_ERRNO (2), bleu,
#     ld stack, li (2), add, neg, sd a0, j = 10; li a0 -1 1; E =         105
#   knob 6, KILL_PROCESS: C + F + 2 + D + 6 tests 12 (ALLOW ERRNO TRAP
#     TRACE USER_NOTIF LOG) + li, sw mode, bnez, ld stack, li (2), add,
#     ld orig_a0, sd a0, mv, mv, li, jal 13; li a0 -1, j 2; E =          117
#   knob 10, TRAP: C + F + 2 + D + 3 tests 6 + ld stack, li (2), add,
#     ld orig_a0, sd a0, mv, mv, li, jal, j 11; li a0 -1; E =             108
#   force_sig_seccomp (knobs 6, 10): prologue 4; la info 2; 6 sd zero; li,
#     sw signo; li, sw code; ld stack, li (2), add, ld epc, sd call_addr;
#     sw errno; li arch (2), sw; sw syscall; mv a0; jal; epilogue 4      33
#     (then signal.S's force_sig_info, "kernel")
#
# bpf phase (knobs 2-6): __bpf_prog_run32 26 (prologue 4, 12 sd zero,
# addi, sd FP, sd ARG1, mv, jal, sext.w, epilogue 4), then
# ___bpf_prog_run: entry 16 plus each eBPF instruction's handler (bpf.S's
# table above ___bpf_prog_run). The converted program, for getppid:
#   bpf_convert_filter's prologue: A ^= A 19, X ^= X 19, CTX = ARG1 17  55
#   arch check: LDX_MEM_W 18, MOV32 TMP imm 12, JEQ reg taken 19        49
#   nr load: LDX_MEM_W                                                  18
#   knobs 2-4: JEQ getppid taken 16, LDX args[0] 18, N x JEQ imm not
#     taken 13 each, MOV32 R0 12, EXIT 8                       54 + 13 N
#   knobs 5, 6, 10: JNE getppid not taken 13, MOV32 R0 12, EXIT 8      33
# ___bpf_prog_run = 16 + 55 + 49 + 18 + 54 + 13 N = 192 + 13 N (knobs
# 2-4: 11 + N eBPF instructions) and 171 (knobs 5, 6, 10: 10
# instructions).
#
# Per call:                         syscall seccomp    bpf  user total
#   0  no filter                         58       0      0   16   199
#   1  allow-list (cached)               98      95      0   16   334
#   2  1 argument test                   98     112    231   16   582
#   3  8 argument tests                  98     112    322   16   673
#   4  64 argument tests                 98     112   1050   16  1401
#   5  ERRNO(EPERM)                      75     125    197   20   542
#   6  KILL_PROCESS                      75     170    197    -     -
#      (one call, which does not return: seccomp = 20 + 117 + 33)
#  10  TRAP                              75     161    197    -     -
#      (one call, then the signal: seccomp = 20 + 108 + 33)
# (totals with entry 64 and exit 61; handle_exception_ras is one less.)
#
# Argument-testing filters: seccomp + bpf = cost(N) = a + b N with
# a = 112 + 218 = 330 and b = 13 (one not-taken JEQ imm in the
# interpreter: DST_ADDR 4, ld, lw, bne, CONT 6); N = 1, 8, 64 give 343,
# 434, 1162. The allow-list costs the cache look-up only: 95 in seccomp,
# nothing in the interpreter.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "cbpf.inc"
	.include "minikernel-seccomp.inc"

.equ TASK_PT_REGS_OFF, THREAD_SIZE - PT_SIZE_ON_STACK	# task_pt_regs()

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# The syscall path
# ---------------------------------------------------------------------------

# __secure_computing(const struct seccomp_data *sd) -> 0 (run the call) or
# -1 (skip it): the mode decides; syscall_trace_enter passes sd = NULL, so
# the number comes from the task's pt_regs (syscall_get_nr: regs->a7).
	.globl __secure_computing
	.type __secure_computing, @function
__secure_computing:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lw	a5, TASK_SECCOMP_MODE(tp)
	mv	a1, a0				# sd
	beqz	a0, 1f
	lw	a0, SD_NR(a0)			# this_syscall = sd->nr
	j	2f
1:	ld	a4, TASK_STACK(tp)		# syscall_get_nr(current, current_pt_regs())
	li	a3, TASK_PT_REGS_OFF
	add	a4, a4, a3
	lw	a0, PT_A7(a4)
2:	li	a4, SECCOMP_MODE_FILTER
	bne	a5, a4, 3f
	li	a2, 0				# recheck_after_trace = false
	call	__seccomp_filter
4:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
3:	li	a4, SECCOMP_MODE_DEAD
	bne	a5, a4, 5f
	# Surviving a KILL must be impossible: do_exit(SIGKILL), which for the
	# only process ends the machine with the status a parent would see.
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	li	a1, SBI_SRST_REASON_FAILURE
	li	a2, 128 + 9
	call	sbi_system_reset
	j	4b
5:	ebreak					# BUG(): mode 0 or STRICT (never set here)
	j	4b
	.size __secure_computing, .-__secure_computing

# __seccomp_filter(int this_syscall, const struct seccomp_data *sd, bool
# recheck_after_trace) -> 0 or -1. The seccomp_data is filled on the stack
# from pt_regs when sd is NULL (populate_seccomp_data), the filters run
# (seccomp_run_filters: the newest filter's cache first), and the action of
# the lowest return value is taken.
#   s1 this_syscall, s2 sd, s3 ret, s4 f then data, s5 match, s6 recheck;
#   sd_local at 0(sp)
	.type __seccomp_filter, @function
__seccomp_filter:
	addi	sp, sp, -144
	sd	ra, 136(sp)
	sd	s0, 128(sp)
	sd	s1, 120(sp)
	sd	s2, 112(sp)
	sd	s3, 104(sp)
	sd	s4, 96(sp)
	sd	s5, 88(sp)
	sd	s6, 80(sp)
	addi	s0, sp, 144
	mv	s1, a0
	mv	s6, a2
	mv	s2, a1
	bnez	a1, 1f
	# populate_seccomp_data(&sd_local)
	ld	a5, TASK_STACK(tp)		# regs = task_pt_regs(current)
	li	a4, TASK_PT_REGS_OFF
	add	a5, a5, a4
	ld	a4, PT_A7(a5)			# syscall_get_nr
	sw	a4, SD_NR(sp)
	li	a4, AUDIT_ARCH_RISCV64_S32	# syscall_get_arch
	sw	a4, SD_ARCH(sp)
	ld	a4, PT_ORIG_A0(a5)		# syscall_get_arguments: orig_a0, a1..a5
	sd	a4, SD_ARGS + 0(sp)
	ld	a4, PT_A1(a5)
	sd	a4, SD_ARGS + 8(sp)
	ld	a4, PT_A2(a5)
	sd	a4, SD_ARGS + 16(sp)
	ld	a4, PT_A3(a5)
	sd	a4, SD_ARGS + 24(sp)
	ld	a4, PT_A4(a5)
	sd	a4, SD_ARGS + 32(sp)
	ld	a4, PT_A5(a5)
	sd	a4, SD_ARGS + 40(sp)
	ld	a4, PT_EPC(a5)			# KSTK_EIP(task)
	sd	a4, SD_IP(sp)
	mv	s2, sp
1:	# seccomp_run_filters(sd, &match)
	ld	s4, TASK_SECCOMP_FILTER(tp)	# READ_ONCE(current->seccomp.filter)
	beqz	s4, 9f				# WARN_ON(f == NULL): fail closed
	li	s3, SECCOMP_RET_ALLOW
	# seccomp_cache_check_allow(f, sd): riscv64 is native-only (no
	# SECCOMP_ARCH_COMPAT), so sd->arch is not looked at.
	lw	a5, SD_NR(s2)
	li	a4, SECCOMP_ARCH_NATIVE_NR
	bgeu	a5, a4, 2f			# nr < 0 || nr >= NR_syscalls
	li	a3, SECCOMP_ARCH_NATIVE_NR - 1	# array_index_nospec(nr, NR_syscalls)
	sub	a3, a3, a5
	or	a3, a3, a5
	not	a3, a3
	srai	a3, a3, 63
	and	a5, a5, a3
	srli	a3, a5, 6			# test_bit(nr, cache.allow_native)
	slli	a3, a3, 3
	add	a3, s4, a3
	ld	a3, SF_CACHE(a3)
	srl	a3, a3, a5
	andi	a3, a3, 1
	bnez	a3, 5f				# cached: ALLOW without a filter run
2:	li	s5, 0				# match = NULL
3:	# for (; f; f = f->prev): bpf_prog_run_pin_on_cpu(f->prog, sd)
	ld	a5, SF_PROG(s4)
	la	a4, bpf_stats_enabled_key	# static_branch_unlikely(): no jump labels
	lw	a4, 0(a4)
	bgtz	a4, 8f
7:	ld	a4, BP_BPF_FUNC(a5)		# bpf_dispatcher_nop_func: bpf_func(ctx, insnsi)
	addi	a1, a5, BP_INSNSI
	mv	a0, s2
	jalr	a4
	srliw	a4, a0, 16			# ACTION_ONLY(cur_ret) < ACTION_ONLY(ret)
	slliw	a4, a4, 16
	srliw	a3, s3, 16
	slliw	a3, a3, 16
	bge	a4, a3, 4f
	mv	s3, a0				# ret = cur_ret; match = f
	mv	s5, s4
4:	ld	s4, SF_PREV(s4)
	bnez	s4, 3b
5:	# data = ret & SECCOMP_RET_DATA; action = ret & SECCOMP_RET_ACTION_FULL
	slli	a5, s3, 48
	srli	s4, a5, 48
	li	a4, SECCOMP_RET_ACTION_FULL_S32
	and	a5, s3, a4
	li	a4, SECCOMP_RET_ALLOW
	beq	a5, a4, 20f
	li	a4, SECCOMP_RET_ERRNO
	beq	a5, a4, 21f
	li	a4, SECCOMP_RET_TRAP
	beq	a5, a4, 22f
	li	a4, SECCOMP_RET_TRACE
	beq	a5, a4, 23f
	li	a4, SECCOMP_RET_USER_NOTIF
	beq	a5, a4, 24f
	li	a4, SECCOMP_RET_LOG
	beq	a5, a4, 20f			# seccomp_log() only: allowed
	# SECCOMP_RET_KILL_THREAD, _KILL_PROCESS and any other value
	li	a4, SECCOMP_MODE_DEAD
	sw	a4, TASK_SECCOMP_MODE(tp)
	bnez	a5, 6f				# KILL_THREAD: the only thread (live == 1)
6:	ld	a4, TASK_STACK(tp)		# syscall_rollback(): a0 = orig_a0
	li	a3, TASK_PT_REGS_OFF
	add	a4, a4, a3
	ld	a3, PT_ORIG_A0(a4)
	sd	a3, PT_A0(a4)
	mv	a0, s1				# force_sig_seccomp(this_syscall, data, true)
	mv	a1, s4
	li	a2, 1
	call	force_sig_seccomp
	li	a0, -1				# skip; straight to signal handling
	j	30f
8:	# bpf stats on: Linux times the run with sched_clock() and adds to
	# prog->stats, which a seccomp prog never has here (no bpf(2)).
	j	7b
9:	li	s3, SECCOMP_RET_KILL_PROCESS_S32
	j	5b
20:	li	a0, 0				# ALLOW (and LOG)
	j	30f
21:	# ERRNO: the low 16 bits, capped at MAX_ERRNO, become -errno
	li	a4, MAX_ERRNO
	bleu	s4, a4, 1f
	mv	s4, a4
1:	ld	a5, TASK_STACK(tp)		# syscall_set_return_value(-data, 0)
	li	a4, TASK_PT_REGS_OFF
	add	a5, a5, a4
	neg	a4, s4
	sd	a4, PT_A0(a5)
	j	29f
22:	# TRAP: original registers for the handler, SIGSYS with the data
	ld	a4, TASK_STACK(tp)
	li	a3, TASK_PT_REGS_OFF
	add	a4, a4, a3
	ld	a3, PT_ORIG_A0(a4)
	sd	a3, PT_A0(a4)
	mv	a0, s1
	mv	a1, s4
	li	a2, 0
	call	force_sig_seccomp
	j	29f
23:	# TRACE: after a tracer's change, run it; else no event stop here
	bnez	s6, 20b
	ld	a4, TASK_PTRACE(tp)		# ptrace_event_enabled(current, SECCOMP):
	andi	a4, a4, PT_TRACE_SECCOMP	# without it -ENOSYS; with it Linux would
	beqz	a4, 25f				# stop for the tracer, which the minikernel
						# does not model: -ENOSYS as well
24:	# USER_NOTIF: no listener can exist here (match->notif is NULL)
25:	ld	a5, TASK_STACK(tp)
	li	a4, TASK_PT_REGS_OFF
	add	a5, a5, a4
	li	a4, -ENOSYS
	sd	a4, PT_A0(a5)
29:	# skip: seccomp_log() folds away without CONFIG_AUDIT
	li	a0, -1
30:
	ld	ra, 136(sp)
	ld	s0, 128(sp)
	ld	s1, 120(sp)
	ld	s2, 112(sp)
	ld	s3, 104(sp)
	ld	s4, 96(sp)
	ld	s5, 88(sp)
	ld	s6, 80(sp)
	addi	sp, sp, 144
	ret
	.size __seccomp_filter, .-__seccomp_filter

# force_sig_seccomp(int syscall, int reason, bool force_coredump) -> int
# (kernel/signal.c): a SIGSYS siginfo with si_code SYS_SECCOMP, the pc after
# the ecall as call_addr, the filter's data as si_errno, the arch and the
# syscall number, forced on current through force_sig_info (signal.S).
	.globl force_sig_seccomp
	.type force_sig_seccomp, @function
force_sig_seccomp:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, seccomp_sigsys_info
	sd	zero, 0(a5)			# clear_siginfo(&info)
	sd	zero, 8(a5)
	sd	zero, 16(a5)
	sd	zero, 24(a5)
	sd	zero, 32(a5)
	sd	zero, 40(a5)
	li	a4, SIGSYS
	sw	a4, SI_SIGNO(a5)
	li	a4, SYS_SECCOMP
	sw	a4, SI_CODE(a5)
	ld	a4, TASK_STACK(tp)		# KSTK_EIP(current)
	li	a3, TASK_PT_REGS_OFF
	add	a4, a4, a3
	ld	a4, PT_EPC(a4)
	sd	a4, SI_CALL_ADDR(a5)
	sw	a1, SI_ERRNO(a5)
	li	a4, AUDIT_ARCH_RISCV64_S32
	sw	a4, SI_ARCH(a5)
	sw	a0, SI_SYSCALL(a5)
	mv	a0, a5
	call	force_sig_info
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size force_sig_seccomp, .-force_sig_seccomp

	.section .kernel.bss, "aw", @nobits
	.balign 8
# The SIGSYS siginfo force_sig_seccomp built last (zero until a KILL or
# TRAP action).
	.globl seccomp_sigsys_info
	.type seccomp_sigsys_info, @object
seccomp_sigsys_info:
	.skip	SI_SIZE
	.size seccomp_sigsys_info, .-seccomp_sigsys_info

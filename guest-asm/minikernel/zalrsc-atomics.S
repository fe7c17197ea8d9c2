# zalrsc-atomics.S: the kernel side of the Zalrsc series (seed 004, "riscv:
# restrict the ISA used for atomics to avoid unsupported or slow AMO").
#
#   - the kernel atomics in two builds, RISCV_ISA_ZAAMO=y (AMOs) and =n
#     (LR/SC loops), from include/minikernel-atomics-build.inc:
#     arch_atomic_add, arch_atomic_fetch_add, arch_test_and_set_bit,
#     arch_test_and_set_bit_lock, arch_clear_bit_unlock, arch_xchg,
#     arch_futex_atomic_op_inuser, sys_atomics_wake (ZAAMO=n copies end in
#     _zalrsc);
#   - what is LR/SC in both builds (here, once): arch_cmpxchg and
#     futex_atomic_cmpxchg_inatomic, the latter bounded to FUTEX_MAX_LOOPS
#     retries with -EAGAIN (v6, "as arm64 does");
#   - the system calls SYS_atomics_wake (244), SYS_futex_cmpxchg (245) and
#     SYS_cmpxchg_loop (246) (minikernel-abi.inc);
#   - patch 6's boot-time AMO speed probe, check_amo_speed;
#   - atomics_setup, the boot-time choices (kernel_start calls it).
# The breakpoint handler that serves probes is in zalrsc-kprobes.S, the
# firmware's AMO emulation in zalrsc-fw.S, the user program in
# zalrsc-user.S. kernel.S's header has the knobs, phases and counts.
#
# With every knob at its default nothing here runs except atomics_setup at
# boot, which changes nothing: the getppid path and the vector paths are
# instruction for instruction what they were.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-atomics.inc"

# AFUNC base / AEND base: open and close base (ZAAMO=y) or base_zalrsc
# (ZAAMO=n) for the build being assembled. ACALL base: call that build's
# copy. Only labels, symbol directives and the one call instruction come
# from these macros.
.macro AFUNC base
  .if ATOMICS_ZAAMO
	.globl \base
	.type \base, @function
\base:
  .else
	.globl \base\()_zalrsc
	.type \base\()_zalrsc, @function
\base\()_zalrsc:
  .endif
.endm

.macro AEND base
  .if ATOMICS_ZAAMO
	.size \base, .-\base
  .else
	.size \base\()_zalrsc, .-\base\()_zalrsc
  .endif
.endm

.macro ACALL base
  .if ATOMICS_ZAAMO
	call	\base
  .else
	call	\base\()_zalrsc
  .endif
.endm

	.section .kernel.text, "ax", @progbits

	.set ATOMICS_ZAAMO, 1
	.include "minikernel-atomics-build.inc"
	.set ATOMICS_ZAAMO, 0
	.include "minikernel-atomics-build.inc"

# arch_cmpxchg(unsigned long *ptr, unsigned long old, unsigned long new) ->
# the value found: fully ordered, LR/SC in both builds (Zacas is not in
# play): lr.d, bne out on a mismatch, sc.d.rl, retry on a failed SC, then
# fence rw,rw. Leaf; uses t0, t1.
#
# cmpxchg_probe_site is the bne between the lr and the sc: the probe-in-
# LR/SC site. A probe there traps on every pass, the trap (and the sret,
# and ret_from_exception's sc.d) drops the reservation, so the sc.d.rl can
# never succeed and the loop never ends: the livelock patch 1 prevents by
# refusing such a probe.
	.globl arch_cmpxchg
	.type arch_cmpxchg, @function
arch_cmpxchg:
1:
	lr.d	t0, (a0)
	.globl cmpxchg_probe_site
cmpxchg_probe_site:
	bne	t0, a1, 2f
	sc.d.rl	t1, a2, (a0)
	bnez	t1, 1b
	fence	rw, rw
2:
	mv	a0, t0
	ret
	.size arch_cmpxchg, .-arch_cmpxchg

# futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr, u32 oldval,
# u32 newval) -> 0 or -EAGAIN; *uval = the value found (the last one read
# when giving up). LR/SC in both builds, fully ordered (v6: lr, sc.rl,
# fence rw,rw) and bounded: after FUTEX_MAX_LOOPS failed SCs it returns
# -EAGAIN instead of spinning. User memory is reached with SUM set.
#
# futex_cmpxchg_probe_site is the bne between its lr.w and sc.w: with a
# probe there every SC fails, and the call returns -EAGAIN after exactly
# FUTEX_MAX_LOOPS (128) probe hits.
	.globl futex_atomic_cmpxchg_inatomic
	.type futex_atomic_cmpxchg_inatomic, @function
futex_atomic_cmpxchg_inatomic:
	sext.w	a2, a2				# lr.w sign-extends what it reads
	li	t3, FUTEX_MAX_LOOPS
	li	t1, SR_SUM
	csrs	sstatus, t1			# __enable_user_access()
1:
	lr.w	t2, (a1)
	.globl futex_cmpxchg_probe_site
futex_cmpxchg_probe_site:
	bne	t2, a2, 3f
	sc.w.rl	t4, a3, (a1)
	beqz	t4, 2f
	addi	t3, t3, -1
	bnez	t3, 1b
	li	a5, -EAGAIN
	j	4f
2:
	fence	rw, rw
3:
	li	a5, 0
4:
	csrc	sstatus, t1			# __disable_user_access()
	sw	t2, 0(a0)
	mv	a0, a5
	ret
	.size futex_atomic_cmpxchg_inatomic, .-futex_atomic_cmpxchg_inatomic

# sys_futex_cmpxchg(regs) -> the value found at uaddr, -EAGAIN, or -EINVAL:
# SYS_futex_cmpxchg(uaddr, oldval, newval). What cmpxchg_futex_value_locked
# does for FUTEX_LOCK_PI / FUTEX_UNLOCK_PI and requeue-PI, without the
# hash-bucket lock: one futex_atomic_cmpxchg_inatomic on the user word.
# Unlike those callers, which retry on -EAGAIN, it hands -EAGAIN to the
# caller, so the bounded loop's way out can be seen (and counted in
# stat_futex_eagain).
	.globl sys_futex_cmpxchg
	.type sys_futex_cmpxchg, @function
sys_futex_cmpxchg:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	addi	s0, sp, 32
	ld	a1, PT_ORIG_A0(a0)		# uaddr
	ld	a2, PT_A1(a0)			# oldval
	ld	a3, PT_A2(a0)			# newval
	andi	a5, a1, 3
	bnez	a5, 8f
	addi	a0, sp, 8			# &curval
	call	futex_atomic_cmpxchg_inatomic
	bnez	a0, 7f
	lwu	a0, 8(sp)			# curval
1:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	addi	sp, sp, 32
	ret
7:
	la	a5, stat_futex_eagain
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	j	1b
8:
	li	a0, -EINVAL
	j	1b
	.size sys_futex_cmpxchg, .-sys_futex_cmpxchg

# sys_cmpxchg_loop(regs) -> 0: SYS_cmpxchg_loop. A kernel counter bumped
# the lock-free way, with a cmpxchg retry loop (what atomic_inc would be on
# a cmpxchg-only architecture, or any try_cmpxchg loop):
#   do old = READ_ONCE(cmpxchg_counter);
#   while (cmpxchg(&cmpxchg_counter, old, old + 1) != old);
	.globl sys_cmpxchg_loop
	.type sys_cmpxchg_loop, @function
sys_cmpxchg_loop:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	la	s1, cmpxchg_counter
1:
	ld	s2, 0(s1)
	mv	a0, s1
	mv	a1, s2
	addi	a2, s2, 1
	call	arch_cmpxchg
	bne	a0, s2, 1b
	li	a0, 0
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size sys_cmpxchg_loop, .-sys_cmpxchg_loop

# check_amo_speed(): patch 6 (arch/riscv/kernel/amo_speed.c, reported as
# RISCV_HWPROBE_KEY_AMO_PERF): is an uncontended AMO faster than the
# equivalent LR/SC sequence on this hart? Times AMO_PROBE_ITERS relaxed
# amoadd.w against as many relaxed lr.w/add/sc.w loops on a private word,
# each method warmed once first, with rdcycle around each batch (the same
# loop overhead in both). AMO cycles <= LR/SC cycles: AMO_PERF_FAST (1),
# else AMO_PERF_SLOW (2), in amo_speed_verdict; the two timings in
# amo_probe_amo_cycles and amo_probe_lrsc_cycles. On a core whose AMOs trap
# to the firmware each amoadd.w is a round trip through M-mode, and the
# verdict is "slow".
	.globl check_amo_speed
	.type check_amo_speed, @function
check_amo_speed:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a0, amo_probe_word
	li	a1, 1
	amoadd.w zero, a1, (a0)			# warm-up, untimed
1:
	lr.w	t0, (a0)
	add	t0, t0, a1
	sc.w	t1, t0, (a0)
	bnez	t1, 1b

	li	a2, AMO_PROBE_ITERS
	rdcycle	a3
2:
	amoadd.w zero, a1, (a0)
	addi	a2, a2, -1
	bnez	a2, 2b
	rdcycle	a4
	sub	a3, a4, a3			# AMO cycles

	li	a2, AMO_PROBE_ITERS
	rdcycle	a5
3:
	lr.w	t0, (a0)
	add	t0, t0, a1
	sc.w	t1, t0, (a0)
	bnez	t1, 3b
	addi	a2, a2, -1
	bnez	a2, 3b
	rdcycle	a4
	sub	a5, a4, a5			# LR/SC cycles

	sd	a3, amo_probe_amo_cycles, t0
	sd	a5, amo_probe_lrsc_cycles, t0
	li	a4, AMO_PERF_FAST
	bleu	a3, a5, 4f
	li	a4, AMO_PERF_SLOW
4:
	sd	a4, amo_speed_verdict, t0
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size check_amo_speed, .-check_amo_speed

# atomics_setup(): kernel_start calls it once, after the trap vector and
# before the sret to the first program. Three boot-time choices:
#   - the atomics build (knob_zaamo): 0 points sys_call_table[
#     SYS_atomics_wake] at sys_atomics_wake_zalrsc, i.e. the kernel was built
#     with RISCV_ISA_ZAAMO=n; otherwise the table keeps sys_atomics_wake;
#   - patch 6's probe (knob_amo_probe): 1 runs check_amo_speed and boots
#     on; 2 runs it and shuts down at once (exit code 0), so a scenario can
#     read the verdict without running the benchmark;
#   - the first program (knob_atomics_bench, knob_probe_bench, the user
#     knobs of zalrsc-user.S): if either is set, sepc becomes
#     atomics_user_start instead of user_start, as init= would name another
#     program. (Those knobs live in user data, where the program reads
#     them; the kernel looks at them once, here.)
	.globl atomics_setup
	.type atomics_setup, @function
atomics_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, knob_zaamo
	bnez	a5, 1f
	la	a4, sys_atomics_wake_zalrsc
	la	a5, sys_call_table
	sd	a4, SYS_atomics_wake * RISCV_SZPTR(a5)
1:
	ld	a5, knob_amo_probe
	beqz	a5, 2f
	call	check_amo_speed
	ld	a5, knob_amo_probe
	li	a4, 2
	bne	a5, a4, 2f
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	li	a1, SBI_SRST_REASON_NONE
	li	a2, 0
	call	sbi_system_reset		# does not return
2:
	ld	a5, knob_atomics_bench
	ld	a4, knob_probe_bench
	or	a5, a5, a4
	beqz	a5, 3f
	la	a5, atomics_user_start
	csrw	sepc, a5
3:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size atomics_setup, .-atomics_setup

	.section .kernel.data, "aw", @progbits
	.balign 8

.macro AKNOB name, default
	.globl \name
	.type \name, @object
\name:
	.dword \default
	.size \name, .-\name
.endm

	# 1: RISCV_ISA_ZAAMO=y (AMOs, the default kernel); 0: =n (LR/SC).
	AKNOB knob_zaamo, 1
	# patch 6's boot-time probe: 0 off, 1 probe and boot on, 2 probe and
	# shut down.
	AKNOB knob_amo_probe, 0

	# Results of check_amo_speed (zero until it runs).
	AKNOB amo_speed_verdict, AMO_PERF_UNKNOWN
	AKNOB amo_probe_amo_cycles, 0
	AKNOB amo_probe_lrsc_cycles, 0

	# Counters: probes served by do_trap_break (zalrsc-kprobes.S), and
	# futex_atomic_cmpxchg_inatomic calls that gave up with -EAGAIN.
	AKNOB stat_probe_hits, 0
	AKNOB stat_futex_eagain, 0

	# SYS_cmpxchg_loop's counter.
	AKNOB cmpxchg_counter, 0

# wake_sim: SYS_atomics_wake's futex hash bucket and its one waiter (layout
# in minikernel-atomics.inc), asleep: state TASK_INTERRUPTIBLE, not queued.
	.balign 8
	.globl wake_sim
	.type wake_sim, @object
wake_sim:
	.word 0					# waiters
	.word 0					# nr_wakeups
	.dword 0				# hb lock word
	.dword 0				# waiter flags
	.dword TASK_INTERRUPTIBLE		# waiter state
	.dword 0				# wake_q next
	.size wake_sim, .-wake_sim
.if (. - wake_sim) != WS_SIZE
	.error "wake_sim does not match the WS_* layout"
.endif

	# check_amo_speed's private word (a line of its own on real hardware).
	.balign 64
	.type amo_probe_word, @object
amo_probe_word:
	.word 0
	.size amo_probe_word, .-amo_probe_word

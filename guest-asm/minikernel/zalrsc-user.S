# zalrsc-user.S: the U-mode program of the atomics benchmarks (seed 004).
# The kernel starts it instead of user.S's program when knob_atomics_bench
# or knob_probe_bench is set (atomics_setup, zalrsc-atomics.S); user.S's
# main and its bench_timed_loop are untouched, so this program has its own
# markers: the window runs from the first atomics_timed_loop to
# atomics_timed_done, one iteration (one system call) per atomics_timed_loop
# pass.
#
#   knob_probe_bench  knob_atomics_bench  each iteration calls
#   0                 1                   atomics_wake(&atomics_futex_word)
#                                         -> 1 (SYS_atomics_wake, 244)
#   1                 any                 cmpxchg_loop() -> 0
#                                         (SYS_cmpxchg_loop, 246)
#   2                 any                 futex_cmpxchg(&atomics_futex_word,
#                                         v, v + 1) -> v, where v is the
#                                         word's value (SYS_futex_cmpxchg, 245)
# knob_warmup untimed calls come first, then knob_iterations timed ones
# (user.S's knobs). For a probe run set knob_warmup = 0, so that the first
# probed call is inside the window.
#
# The C it stands for:
#
#   long atomics_main(void) {
#       long nr = SYS_atomics_wake, want = 1, v = *word, dv = 0, dwant = 0;
#       if (knob_probe_bench == 1) { nr = SYS_cmpxchg_loop; want = 0; }
#       else if (knob_probe_bench) { nr = SYS_futex_cmpxchg; want = v;
#                                    dv = dwant = 1; }
#       for (i = 0; i < knob_warmup; i++) { ONE_CALL; }
#       bench_start_instret = rdinstret(); bench_start_cycle = rdcycle();
#       for (i = 0; i < knob_iterations; i++) { ONE_CALL; }  // timed
#       bench_end_cycle = rdcycle(); bench_end_instret = rdinstret();
#       return 0;
#     ONE_CALL: r = syscall(nr, word, v, v + 1);
#               if (r != want) goto wrong; v += dv; want += dwant;
#     wrong: atomics_last_result = r;
#            return r == -1 ? errno : 1;    // -EAGAIN ends with exit code 11
#   }
# and main's exit(status) through SYS_exit.

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

# atomics_user_start: the process entry point of this program.
	.globl atomics_user_start
	.type atomics_user_start, @function
atomics_user_start:
	la	sp, atomics_user_stack_top
	call	atomics_main
	mv	a1, a0
	li	a0, SYS_exit
	call	syscall
1:	j	1b
	.size atomics_user_start, .-atomics_user_start

	.globl atomics_main
	.type atomics_main, @function
atomics_main:
	addi	sp, sp, -96
	sd	ra, 88(sp)
	sd	s0, 80(sp)
	sd	s1, 72(sp)
	sd	s2, 64(sp)
	sd	s3, 56(sp)
	sd	s4, 48(sp)
	sd	s5, 40(sp)
	sd	s6, 32(sp)
	sd	s7, 24(sp)
	sd	s8, 16(sp)
	sd	s9, 8(sp)
	la	s5, atomics_futex_word		# the futex word (uaddr)
	lwu	s6, 0(s5)			# v
	li	s4, SYS_atomics_wake		# nr
	li	s7, 1				# want
	li	s8, 0				# dv
	li	s9, 0				# dwant
	ld	a5, knob_probe_bench
	beqz	a5, 1f
	li	s4, SYS_cmpxchg_loop
	li	s7, 0
	li	a4, 1
	beq	a5, a4, 1f
	li	s4, SYS_futex_cmpxchg
	mv	s7, s6
	li	s8, 1
	li	s9, 1
1:
	ld	s0, knob_warmup
	li	s1, 0
	blez	s0, 3f
2:
	mv	a0, s4
	mv	a1, s5
	mv	a2, s6
	addi	a3, s6, 1
	call	syscall
	bne	a0, s7, 8f
	add	s6, s6, s8
	add	s7, s7, s9
	addi	s1, s1, 1
	blt	s1, s0, 2b
3:
	ld	s0, knob_iterations
	rdinstret a5
	sd	a5, bench_start_instret, t0
	rdcycle	a5
	sd	a5, bench_start_cycle, t0
	li	s1, 0
	blez	s0, 5f
	.globl atomics_timed_loop
atomics_timed_loop:
4:	# the timed loop: 10 instructions here + the wrapper per call
	mv	a0, s4
	mv	a1, s5
	mv	a2, s6
	addi	a3, s6, 1
	call	syscall
	bne	a0, s7, 8f
	add	s6, s6, s8
	add	s7, s7, s9
	addi	s1, s1, 1
	blt	s1, s0, 4b
	.globl atomics_timed_done
atomics_timed_done:
5:
	rdcycle	a5
	sd	a5, bench_end_cycle, t0
	rdinstret a5
	sd	a5, bench_end_instret, t0
	li	a0, 0
	j	9f
8:
	sd	a0, atomics_last_result, t0
	li	a5, -1
	li	a4, 1
	bne	a0, a5, 7f
	lw	a4, errno			# the kernel's -errno, from the wrapper
7:
	mv	a0, a4
9:
	ld	ra, 88(sp)
	ld	s0, 80(sp)
	ld	s1, 72(sp)
	ld	s2, 64(sp)
	ld	s3, 56(sp)
	ld	s4, 48(sp)
	ld	s5, 40(sp)
	ld	s6, 32(sp)
	ld	s7, 24(sp)
	ld	s8, 16(sp)
	ld	s9, 8(sp)
	addi	sp, sp, 96
	ret
	.size atomics_main, .-atomics_main

	.section .user.data, "aw", @progbits
	.balign 8

.macro AUDWORD name, value
	.globl \name
	.type \name, @object
\name:
	.dword \value
	.size \name, .-\name
.endm

	AUDWORD knob_atomics_bench, 0		# 1: run this program (atomics_wake)
	AUDWORD knob_probe_bench, 0		# 1: cmpxchg_loop, 2: futex_cmpxchg
	AUDWORD atomics_last_result, 0		# the unexpected answer, if any

	.balign 8
	.globl atomics_futex_word
	.type atomics_futex_word, @object
atomics_futex_word:
	.word 0
	.size atomics_futex_word, .-atomics_futex_word

	.section .user.bss, "aw", @nobits
	.balign 16
	.type atomics_user_stack, @object
atomics_user_stack:
	.skip 4096
	.size atomics_user_stack, .-atomics_user_stack
atomics_user_stack_top:

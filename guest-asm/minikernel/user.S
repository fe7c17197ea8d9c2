# user.S: the U-mode program, a null-syscall benchmark shaped like lmbench's
# lat_syscall and the getppid loop in seed 001: main() calls the libc-style
# syscall() wrapper once per iteration, timed with rdcycle/rdinstret.
#
# The C it stands for (compiled for rv64gc at -O2: loop state in s-registers,
# the wrapper a separate function, as in libc):
#
#   long main(void) {
#       long ppid = 0, err;
#       if ((err = work_setup())) goto failed;           (user_work.S)
#       for (long i = 0; i < knob_warmup; i++)
#           if (syscall(SYS_getppid) != bench_expected) goto wrong;
#       if ((err = work_setup_timed())) goto failed;
#       bench_start_instret = rdinstret(); bench_start_cycle = rdcycle();
#       for (long i = 0; i < knob_iterations; i++) {
#           ppid = syscall(SYS_getppid);
#           if (ppid != bench_expected) goto wrong;
#       }
#       bench_end_cycle = rdcycle(); bench_end_instret = rdinstret();
#       bench_last_ppid = ppid;
#       syscall(SYS_exit, 0);
#   wrong:
#       bench_last_ppid = ppid; syscall(SYS_exit, 1);
#   failed:
#       bench_last_ppid = err; syscall(SYS_exit, 2);
#   }
#
# The per-call check is the one addition to the benchmark loop (one
# not-taken branch per iteration); it makes a broken getppid end the run
# with exit code 1 instead of a plausible-looking time.
#
# Before the warm-up main calls vector_touch(), which uses the vector unit
# once if a knob asks for it (seed 001's use_v, seed 000's --vsetvli): the
# loop itself never runs a vector instruction, so the kernel sees a process
# that has vector state but does not keep using it. With knob_ctx_switches
# > 0 main runs the context-switch benchmark of userctx.S instead.

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

# user_start: the process entry point (what crt0's _start would be).
	.globl user_start
	.type user_start, @function
user_start:
	la	sp, user_stack_top
	call	main
	# exit(main()): only reached if main's own exit call came back.
	mv	a1, a0
	li	a0, SYS_exit
	call	syscall
1:	j	1b
	.size user_start, .-user_start

	.globl main
	.type main, @function
main:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	li	s3, EXPECTED_PPID

	ld	a5, knob_ctx_switches
	bnez	a5, 6f				# the lat_ctx-like benchmark instead
	call	vector_touch			# per knob_use_vector / knob_vsetvli
	call	work_setup			# rseq, seccomp, SUD (user_work.S)
	bnez	a0, 7f
	ld	s3, bench_expected		# what getppid() must return now

	# Warm-up: untimed calls, so the timed loop starts warm.
	ld	s0, knob_warmup
	li	s1, 0
	blez	s0, 2f
1:
	li	a0, SYS_getppid
	call	syscall
	bne	a0, s3, 8f
	addi	s1, s1, 1
	blt	s1, s0, 1b
2:
	call	work_setup_timed		# e.g. a filter that kills
	bnez	a0, 7f
	ld	s3, bench_expected
	ld	s0, knob_iterations
	li	s2, 0				# ppid
	rdinstret a5
	sd	a5, bench_start_instret, t0
	rdcycle	a5
	sd	a5, bench_start_cycle, t0
	li	s1, 0
	blez	s0, 4f
	# trapscope's measured window: from the first bench_timed_loop to
	# bench_timed_done; each pass through bench_timed_loop is an iteration.
	.globl bench_timed_loop
bench_timed_loop:
3:	# the timed loop: 5 instructions here + the wrapper per call
	li	a0, SYS_getppid
	call	syscall
	bne	a0, s3, 8f
	addi	s1, s1, 1
	blt	s1, s0, 3b
	.globl bench_timed_done
bench_timed_done:
	mv	s2, s3				# the compiler knows ppid == EXPECTED here
4:
	rdcycle	a5
	sd	a5, bench_end_cycle, t0
	rdinstret a5
	sd	a5, bench_end_instret, t0
	sd	s2, bench_last_ppid, t0
	li	s1, 0				# exit status
	j	9f
6:
	call	lat_ctx_main			# -> exit status
	mv	s1, a0
	j	9f
7:
	sd	a0, bench_last_ppid, t0		# the setup's errno
	li	s1, 2
	j	9f
8:
	sd	a0, bench_last_ppid, t0		# the unexpected ppid
	li	s1, 1
9:
	li	a0, SYS_exit
	mv	a1, s1
	call	syscall				# does not return
	mv	a0, s1
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size main, .-main

# vector_touch(): use the vector unit once, as the knobs say.
#   knob_use_vector = 1: what seed 001's microbenchmark does with use_v = 1,
#       vsetivli x0, 1, e32, m1, ta, ma, then vmv.v.i v0, 1.
#   knob_vsetvli = 1: seed 000's `null_syscall --vsetvli`, which runs a
#       vsetvli once before its getppid loop. The mail does not give the
#       operands; any vsetvli has the same effect on the kernel (the
#       first-use trap, then VS Dirty).
# The first vector instruction of the process traps (VS is Off); the kernel
# turns V on for the process and the instruction runs again.
	.globl vector_touch
	.type vector_touch, @function
vector_touch:
	ld	a5, knob_use_vector
	beqz	a5, 1f
	.option push
	.option arch, +v
	vsetivli zero, 1, e32, m1, ta, ma
	vmv.v.i	v0, 1
	.option pop
1:
	ld	a5, knob_vsetvli
	beqz	a5, 2f
	.option push
	.option arch, +v
	vsetvli	a5, zero, e32, m1, ta, ma
	.option pop
2:
	ret
	.size vector_touch, .-vector_touch

# long syscall(long nr, long a1, ..., long a6): libc's generic wrapper. The
# kernel takes nr in a7 and arguments in a0-a5, so everything shifts down by
# one register. A result in [-4095, -1] is -errno: set errno, return -1.
	.globl syscall
	.type syscall, @function
syscall:
	mv	a7, a0
	mv	a0, a1
	mv	a1, a2
	mv	a2, a3
	mv	a3, a4
	mv	a4, a5
	mv	a5, a6
	# The one ecall of the user loop (every build exports it, for snapshot
	# tools that stop at the N-th user syscall).
	.globl user_syscall_ecall
user_syscall_ecall:
	ecall
	li	a5, -(MAX_ERRNO + 1)
	bltu	a5, a0, 1f			# unsigned a0 > -4096: an error
	ret
1:
	neg	a0, a0
	sw	a0, errno, a5
	li	a0, -1
	ret
	.size syscall, .-syscall

	.section .user.data, "aw", @progbits
	.balign 8

.macro UDWORD name, value
	.globl \name
	.type \name, @object
\name:
	.dword \value
	.size \name, .-\name
.endm

	UDWORD knob_iterations, 100
	UDWORD knob_warmup, 10
	UDWORD knob_use_vector, 0		# seed 001's use_v (vector_touch)
	UDWORD knob_vsetvli, 0			# seed 000's --vsetvli (vector_touch)
	UDWORD knob_ctx_switches, 0		# > 0: userctx.S, yields per task
	UDWORD bench_start_cycle, 0
	UDWORD bench_end_cycle, 0
	UDWORD bench_start_instret, 0
	UDWORD bench_end_instret, 0
	UDWORD bench_last_ppid, 0

	.section .user.bss, "aw", @nobits
	.balign 16
	.globl errno
	.type errno, @object
errno:
	.skip 4
	.size errno, .-errno

	.balign 16
	.type user_stack, @object
user_stack:
	.skip 16384
	.size user_stack, .-user_stack
user_stack_top:					# initial sp (stacks grow down)

# userctx.S: the U-mode context-switch benchmark (knob_ctx_switches > 0),
# shaped like lmbench's lat_ctx with two processes, the test Andy Chiu
# describes in seed 001 (a lat_ctx whose processes touch the vector unit).
# lat_ctx passes a token through pipes; here each task gives the hart to the
# other with sched_yield(), so every call is one trip through the syscall
# path plus one context switch, and no pipe code.
#
# The C it stands for:
#
#   long lat_ctx_main(void) {
#       // raw clone: the child resumes after the ecall with a0 = 0 on its
#       // own stack, so it cannot return through this frame
#       long pid = clone(CLONE_VM | SIGCHLD, ctx_child_stack_top);
#       if (pid == 0) goto ctx_child;        // never returns
#       if (pid < 0) return 2;
#       return ctx_task(1);
#   }
#   ctx_child: ctx_task(0); for (;;) sched_yield();
#   long ctx_task(long parent) {
#       vector_touch();                      // per knob_use_vector/_vsetvli
#       for (long i = 0; i < knob_warmup; i++) {
#           fp_touch();                      // per knob_use_fp
#           if (sched_yield() != 0) goto wrong;
#       }
#       if (parent) { bench_start_instret = rdinstret(); ... rdcycle(); }
#       for (long i = 0; i < knob_ctx_switches; i++) {   // ctx_timed_loop
#           fp_touch();
#           if (sched_yield() != 0) goto wrong;
#       }
#       // ctx_timed_done
#       if (parent) { bench_end_cycle = rdcycle(); ... rdinstret(); }
#       return 0;
#   wrong:
#       bench_last_ppid = the value; return 1;
#   }
#
# The two tasks run the same loop, so each pass through ctx_timed_loop, by
# either task, is one iteration: one sched_yield() and the switch it makes.
# The parent enters its timed loop first and leaves it last (after the
# child's final yield hands the hart back), so the window from the first
# ctx_timed_loop to ctx_timed_done holds 2 * knob_ctx_switches iterations.
# The parent then returns to main, whose exit() ends the run; the child is
# left parked in its yield loop.

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

	.globl lat_ctx_main
	.type lat_ctx_main, @function
lat_ctx_main:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	li	a7, SYS_clone
	li	a0, CLONE_VM | SIGCHLD
	la	a1, ctx_child_stack_top
	li	a2, 0
	li	a3, 0
	li	a4, 0
	ecall
	beqz	a0, ctx_child			# the new task, on its own stack
	bltz	a0, 1f				# -errno: no second task
	li	a0, 1
	call	ctx_task			# the parent's half
	j	2f
1:
	li	a0, 2
2:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size lat_ctx_main, .-lat_ctx_main

# ctx_child: where the cloned task goes (sp = ctx_child_stack_top). It has
# no caller to return to; after its loop it keeps yielding until the parent
# ends the run.
	.globl ctx_child
	.type ctx_child, @function
ctx_child:
	li	a0, 0
	call	ctx_task
1:
	li	a0, SYS_sched_yield
	call	syscall
	j	1b
	.size ctx_child, .-ctx_child

	.globl ctx_task
	.type ctx_task, @function
ctx_task:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	mv	s2, a0				# parent?
	li	s3, 0				# what sched_yield() returns
	call	vector_touch
	mv	a0, s2				# per knob_rseq (user_rseq.S)
	call	rseq_setup_task

	ld	s0, knob_warmup
	li	s1, 0
	blez	s0, 2f
1:
	call	fp_touch			# per knob_use_fp (zz-fpu.S)
	li	a0, SYS_sched_yield
	call	syscall
	bne	a0, s3, 8f
	addi	s1, s1, 1
	blt	s1, s0, 1b
2:
	ld	s0, knob_ctx_switches
	beqz	s2, 3f
	rdinstret a5
	sd	a5, bench_start_instret, t0
	rdcycle	a5
	sd	a5, bench_start_cycle, t0
3:
	li	s1, 0
	blez	s0, 5f
	# The measured window: from the first ctx_timed_loop to ctx_timed_done;
	# each pass through ctx_timed_loop (by either task) is an iteration.
	.globl ctx_timed_loop
ctx_timed_loop:
4:	# 6 instructions here + fp_touch + the wrapper per call
	call	fp_touch			# per knob_use_fp (zz-fpu.S)
	li	a0, SYS_sched_yield
	call	syscall
	bne	a0, s3, 8f
	addi	s1, s1, 1
	blt	s1, s0, 4b
	.globl ctx_timed_done
ctx_timed_done:
5:
	beqz	s2, 6f
	rdcycle	a5
	sd	a5, bench_end_cycle, t0
	rdinstret a5
	sd	a5, bench_end_instret, t0
6:
	li	a0, 0
	j	9f
8:
	sd	a0, bench_last_ppid, t0		# the unexpected return value
	li	a0, 1
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size ctx_task, .-ctx_task

	.section .user.bss, "aw", @nobits
	.balign 16
	.type ctx_child_stack, @object
ctx_child_stack:
	.skip 16384
	.size ctx_child_stack, .-ctx_child_stack
ctx_child_stack_top:				# the child's initial sp

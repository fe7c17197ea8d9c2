# user_work.S: what the benchmark process asks of the kernel before its loop
# (seed 002): each piece of generic entry's syscall work that a process turns
# on for itself, through the system calls a real program would make. The
# knobs say which; each *_setup lives beside its kernel half (user_sud.S,
# user_seccomp.S, user_rseq.S). Kernel-side work (ptrace, audit, the
# tracepoints) comes from knob_syscall_work instead (kernel.S).
#
#   long work_setup(void):        before the warm-up; 0, or the first
#                                 negative errno, which main treats as a
#                                 failed run (exit status 2)
#   long work_setup_timed(void):  after the warm-up, before the timed loop
#
# bench_expected is what every getppid() in the loop must return: the
# parent's pid, unless a setup makes the kernel answer otherwise (a seccomp
# filter that returns ERRNO sets it to -errno).

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

	.globl work_setup
	.type work_setup, @function
work_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	call	rseq_setup
	bnez	a0, 1f
	call	seccomp_setup
	bnez	a0, 1f
	call	sud_setup			# last: it may block what follows
1:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size work_setup, .-work_setup

	.globl work_setup_timed
	.type work_setup_timed, @function
work_setup_timed:
	tail	seccomp_setup_timed
	.size work_setup_timed, .-work_setup_timed

	.section .user.data, "aw", @progbits
	.balign 8
	.globl bench_expected
	.type bench_expected, @object
bench_expected:
	.dword EXPECTED_PPID
	.size bench_expected, .-bench_expected

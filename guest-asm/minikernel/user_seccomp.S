# user_seccomp.S: the user side of seccomp. The benchmark process installs
# one classic BPF filter with seccomp(SECCOMP_SET_MODE_FILTER, 0, &fprog), as
# a sandboxed program would, chosen by the user knob knob_seccomp:
#
#   0  no filter (the default): nothing changes
#   1  an allow-list of the calls the program makes, KILL_PROCESS for the
#      rest; the action cache answers getppid without running the filter
#   2  getppid's args[0] against 1 constant, then ALLOW  } the cache cannot
#   3  ... against 8 constants                          } answer these: the
#   4  ... against 64 constants                         } filter runs
#   5  ERRNO(EPERM) for getppid: every call fails, so bench_expected = -1
#      (what the libc-style wrapper returns for -EPERM, with errno = EPERM)
#   6  KILL_PROCESS for getppid, installed after the warm-up by
#      seccomp_setup_timed, so the first timed call kills the process (run
#      it with knob_iterations = 1)
#   7  a filter seccomp_check_filter refuses (a 16-bit load of
#      seccomp_data, BPF_LD|BPF_H|BPF_ABS)  } seccomp() fails with EINVAL:
#   8  a filter bpf_check_classic refuses    } seccomp_setup returns it and
#      (a jump past its end)                 } main exits with status 2
#   9  a filter that runs every opcode seccomp allows on getppid and
#      allows it only if each result is right (a check of bpf-filter.S's
#      converter and bpf.S's interpreter; see seccomp-filters.inc)
#   10 TRAP for getppid (SIGSYS, si_errno 42), installed after the warm-up
#      as 6 is: without a SIGSYS handler the signal's default action ends
#      the process (run it with knob_iterations = 1)
#   other values: seccomp_setup returns -EINVAL (main exits with status 2)
#
# The filters are in include/seccomp-filters.inc. A real program must first
# set no_new_privs (prctl(PR_SET_NO_NEW_PRIVS, 1)) or hold CAP_SYS_ADMIN,
# or seccomp(2) fails with EACCES; the minikernel's process is root, so it
# may install filters as it is.
#
#   long seccomp_setup(void)        before the warm-up: 0 or -errno
#   long seccomp_setup_timed(void)  after it: 0 or -errno

	.include "minikernel-abi.inc"
	.include "minikernel-defs.inc"
	.include "cbpf.inc"
	.include "minikernel-seccomp.inc"

	.section .user.text, "ax", @progbits

	.globl seccomp_setup
	.type seccomp_setup, @function
seccomp_setup:
	ld	a5, knob_seccomp
	beqz	a5, 1f				# 0: no filter
	li	a4, 10
	bgtu	a5, a4, 2f			# not a knob value
	beq	a5, a4, 1f			# 10: installed after the warm-up
	li	a4, 6
	beq	a5, a4, 1f			# 6: installed after the warm-up
	li	a4, 5
	bne	a5, a4, 3f
	li	a4, -1				# ERRNO(EPERM): syscall() returns -1
	sd	a4, bench_expected, a3
3:
	slli	a5, a5, 3
	la	a4, seccomp_fprog_table
	add	a5, a4, a5
	ld	a0, 0(a5)
	tail	seccomp_install
1:
	li	a0, 0
	ret
2:
	li	a0, -EINVAL
	ret
	.size seccomp_setup, .-seccomp_setup

	.globl seccomp_setup_timed
	.type seccomp_setup_timed, @function
seccomp_setup_timed:
	ld	a5, knob_seccomp
	li	a4, 6
	la	a0, seccomp_fprog_kill
	beq	a5, a4, 2f
	li	a4, 10
	la	a0, seccomp_fprog_trap
	bne	a5, a4, 1f
2:	tail	seccomp_install
1:
	li	a0, 0
	ret
	.size seccomp_setup_timed, .-seccomp_setup_timed

# seccomp_install(const struct sock_fprog *prog) -> 0 or -errno:
#   if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog) < 0) return -errno;
	.type seccomp_install, @function
seccomp_install:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	mv	a3, a0
	li	a2, 0
	li	a1, SECCOMP_SET_MODE_FILTER
	li	a0, SYS_seccomp
	call	syscall
	li	a5, 0
	bgez	a0, 1f
	lw	a5, errno
	neg	a5, a5
1:
	mv	a0, a5
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size seccomp_install, .-seccomp_install

	.section .user.data, "aw", @progbits
	.balign 8
	.globl knob_seccomp
	.type knob_seccomp, @object
knob_seccomp:
	.dword 0
	.size knob_seccomp, .-knob_seccomp

	.include "seccomp-filters.inc"

	.balign 8
	.type seccomp_fprog_table, @object
seccomp_fprog_table:				# by knob value (0 and 6: none here)
	.dword 0
	.dword seccomp_fprog_allowlist
	.dword seccomp_fprog_args1
	.dword seccomp_fprog_args8
	.dword seccomp_fprog_args64
	.dword seccomp_fprog_errno
	.dword 0
	.dword seccomp_fprog_bad_load
	.dword seccomp_fprog_bad_jump
	.dword seccomp_fprog_exerciser
	.size seccomp_fprog_table, .-seccomp_fprog_table

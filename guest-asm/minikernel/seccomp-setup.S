# seccomp-setup.S: seccomp(2) (kernel/seccomp.c): SECCOMP_SET_MODE_FILTER
# (seccomp_set_mode_filter, seccomp_prepare_user_filter with
# seccomp_prepare_filter, seccomp_check_filter, seccomp_attach_filter,
# seccomp_assign_mode) and the action cache's preparation
# (seccomp_cache_prepare: seccomp_cache_prepare_bitmap and
# seccomp_is_const_allow), SECCOMP_GET_ACTION_AVAIL, and the static filter
# slots. Everything here runs once per seccomp() call, outside any timed
# window; the per-syscall path is in seccomp.S (the differences from Linux
# are listed there).
#
# Same compiled-C shape as syscall.S (frame pointers, current in tp).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "cbpf.inc"
	.include "minikernel-seccomp.inc"

.equ TASK_PT_REGS_OFF, THREAD_SIZE - PT_SIZE_ON_STACK	# task_pt_regs()

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# seccomp(2)
# ---------------------------------------------------------------------------

# sys_seccomp(regs): SYSCALL_DEFINE3(seccomp, op, flags, uargs) ->
# do_seccomp(orig_a0, a1, a2).
	.globl sys_seccomp
	.type sys_seccomp, @function
sys_seccomp:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lwu	a5, PT_ORIG_A0(a0)		# unsigned int op
	lwu	a1, PT_A1(a0)			# unsigned int flags
	ld	a2, PT_A2(a0)			# void __user *uargs
	mv	a0, a5
	call	do_seccomp
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_seccomp, .-sys_seccomp

# do_seccomp(op, flags, uargs) -> 0 or -errno
	.type do_seccomp, @function
do_seccomp:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, SECCOMP_SET_MODE_FILTER
	bne	a0, a5, 1f
	mv	a0, a1
	mv	a1, a2
	call	seccomp_set_mode_filter
	j	9f
1:	li	a5, SECCOMP_GET_ACTION_AVAIL
	bne	a0, a5, 2f
	li	a0, -EINVAL
	bnez	a1, 9f
	mv	a0, a2
	call	seccomp_get_action_avail
	j	9f
2:	li	a0, -EINVAL			# STRICT, GET_NOTIF_SIZES: not built
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size do_seccomp, .-do_seccomp

# seccomp_get_action_avail(const u32 __user *uaction) -> 0, -EOPNOTSUPP or
# -EFAULT.
	.type seccomp_get_action_avail, @function
seccomp_get_action_avail:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	addi	s0, sp, 32
	mv	a1, a0
	addi	a0, sp, 0
	li	a2, 4
	call	copy_from_user_sum
	mv	a5, a0
	li	a0, -EFAULT
	bnez	a5, 9f
	lw	a5, 0(sp)
	li	a0, 0
	la	a4, seccomp_actions_avail
	li	a3, 8
1:	lw	a2, 0(a4)
	beq	a2, a5, 9f
	addi	a4, a4, 4
	addi	a3, a3, -1
	bnez	a3, 1b
	li	a0, -EOPNOTSUPP
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	addi	sp, sp, 32
	ret
	.size seccomp_get_action_avail, .-seccomp_get_action_avail

# seccomp_set_mode_filter(unsigned int flags, const char __user *filter) ->
# 0 or -errno: validate the flags, prepare the filter from user memory,
# then with the siglock held (interrupts off) check the mode, attach the
# filter and assign the mode, which sets SYSCALL_WORK_SECCOMP.
#   s1 flags, s2 prepared, s3 ret
	.type seccomp_set_mode_filter, @function
seccomp_set_mode_filter:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	li	a0, -EINVAL
	li	a5, ~SECCOMP_FILTER_FLAG_MASK
	and	a5, s1, a5
	bnez	a5, 9f
	andi	a5, s1, SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
	bnez	a5, 9f				# no user notification here
	mv	a0, a1
	call	seccomp_prepare_user_filter
	li	a5, -MAX_ERRNO			# IS_ERR(prepared)
	bgeu	a0, a5, 9f
	mv	s2, a0
	csrci	sstatus, SR_SIE			# spin_lock_irq(&current->sighand->siglock)
	lw	a5, TASK_SECCOMP_MODE(tp)	# seccomp_may_assign_mode(FILTER)
	li	a0, -EINVAL
	beqz	a5, 1f
	li	a4, SECCOMP_MODE_FILTER
	bne	a5, a4, 8f
1:	mv	a0, s1
	mv	a1, s2
	call	seccomp_attach_filter
	bnez	a0, 8f
	# seccomp_assign_mode(current, SECCOMP_MODE_FILTER, flags)
	li	a5, SECCOMP_MODE_FILTER
	sw	a5, TASK_SECCOMP_MODE(tp)
	li	a5, SYSCALL_WORK_SECCOMP	# set_task_syscall_work(current, SECCOMP)
	addi	a4, tp, TASK_TI_SYSCALL_WORK
	amoor.d	zero, a5, (a4)
	csrsi	sstatus, SR_SIE			# spin_unlock_irq
	li	a0, 0
	j	9f
8:	csrsi	sstatus, SR_SIE
	mv	s1, a0
	mv	a0, s2				# seccomp_filter_free(prepared)
	call	seccomp_filter_free
	mv	a0, s1
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size seccomp_set_mode_filter, .-seccomp_set_mode_filter

# seccomp_prepare_user_filter(const char __user *user_filter) -> filter or
# ERR_PTR: copy the struct sock_fprog in, then seccomp_prepare_filter: a
# length in 1..BPF_MAXINSNS, a filter slot, and bpf_prog_create_from_user
# with seccomp_check_filter as the extra pass, keeping the original
# program for the cache. (no_new_privs or CAP_SYS_ADMIN: the caller is
# root.)  s1 = sfilter; the kernel copy of the sock_fprog at 0(sp)
	.type seccomp_prepare_user_filter, @function
seccomp_prepare_user_filter:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	addi	s0, sp, 48
	mv	a1, a0
	addi	a0, sp, 0
	li	a2, SOCK_FPROG_SIZE
	call	copy_from_user_sum
	mv	a5, a0
	li	a0, -EFAULT
	bnez	a5, 9f
	lhu	a5, SOCK_FPROG_LEN(sp)
	li	a0, -EINVAL
	beqz	a5, 9f
	li	a4, BPF_MAXINSNS
	bgtu	a5, a4, 9f
	call	seccomp_filter_alloc		# kzalloc(sizeof(*sfilter))
	mv	s1, a0
	li	a0, -ENOMEM
	beqz	s1, 9f
	addi	a0, s1, SF_PROG			# &sfilter->prog
	addi	a1, sp, 0
	la	a2, seccomp_check_filter
	li	a3, 1				# save_orig (SECCOMP_ARCH_NATIVE)
	call	bpf_prog_create_from_user
	bgez	a0, 1f
	mv	a5, a0
	mv	a0, s1
	sd	zero, SF_PROG(s1)
	mv	s1, a5
	call	seccomp_filter_release_slot	# kfree(sfilter)
	mv	a0, s1
	j	9f
1:	li	a5, 1
	sw	a5, SF_REFS(s1)
	sw	a5, SF_USERS(s1)
	mv	a0, s1
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	addi	sp, sp, 48
	ret
	.size seccomp_prepare_user_filter, .-seccomp_prepare_user_filter

# seccomp_check_filter(struct sock_filter *filter, unsigned int flen) -> 0
# or -EINVAL: only the opcodes seccomp allows; a 32-bit load from
# seccomp_data (aligned, inside it) becomes BPF_LDX|BPF_W|BPF_ABS, and a
# length load the constant sizeof(struct seccomp_data).
	.type seccomp_check_filter, @function
seccomp_check_filter:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	slli	a1, a1, 3
	add	a1, a0, a1			# end
1:	bgeu	a0, a1, 8f
	lhu	a5, 0(a0)			# code
	lwu	a4, 4(a0)			# k
	li	a3, BPF_LD | BPF_W | BPF_ABS
	bne	a5, a3, 2f
	li	a3, BPF_LDX | BPF_W | BPF_ABS
	sh	a3, 0(a0)
	li	a3, SD_SIZE
	bgeu	a4, a3, 9f
	andi	a3, a4, 3
	bnez	a3, 9f
	j	7f
2:	li	a3, BPF_LD | BPF_W | BPF_LEN
	bne	a5, a3, 3f
	li	a3, BPF_LD | BPF_IMM
	j	4f
3:	li	a3, BPF_LDX | BPF_W | BPF_LEN
	bne	a5, a3, 5f
	li	a3, BPF_LDX | BPF_IMM
4:	sh	a3, 0(a0)
	li	a3, SD_SIZE
	sw	a3, 4(a0)
	j	7f
5:	li	a3, 256				# the explicitly allowed ones
	bgeu	a5, a3, 9f
	la	a3, seccomp_allowed_codes
	add	a3, a3, a5
	lbu	a3, 0(a3)
	beqz	a3, 9f
7:	addi	a0, a0, SOCK_FILTER_SIZE
	j	1b
8:	li	a0, 0
	j	10f
9:	li	a0, -EINVAL
10:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size seccomp_check_filter, .-seccomp_check_filter

# seccomp_attach_filter(unsigned int flags, struct seccomp_filter *filter)
# -> 0 or -ENOMEM: the whole chain stays within MAX_INSNS_PER_PATH (4
# instructions of penalty per filter); FLAG_LOG sets filter->log; the new
# filter points at the old chain, gets its cache, and becomes current's.
	.type seccomp_attach_filter, @function
seccomp_attach_filter:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a1
	ld	a5, SF_PROG(s1)
	lwu	a4, BP_LEN(a5)			# total_insns
	ld	a5, TASK_SECCOMP_FILTER(tp)
1:	beqz	a5, 2f
	ld	a3, SF_PROG(a5)
	lwu	a3, BP_LEN(a3)
	add	a4, a4, a3
	addi	a4, a4, 4
	ld	a5, SF_PREV(a5)
	j	1b
2:	li	a3, MAX_INSNS_PER_PATH
	li	a5, -ENOMEM
	bgtu	a4, a3, 9f
	andi	a5, a0, SECCOMP_FILTER_FLAG_LOG
	beqz	a5, 3f
	li	a5, 1
	sb	a5, SF_LOG(s1)
3:	ld	a5, TASK_SECCOMP_FILTER(tp)
	sd	a5, SF_PREV(s1)
	mv	a0, s1
	call	seccomp_cache_prepare
	sd	s1, TASK_SECCOMP_FILTER(tp)
	li	a5, 1				# atomic_inc(&current->seccomp.filter_count)
	addi	a4, tp, TASK_SECCOMP_FILTER_COUNT
	amoadd.w zero, a5, (a4)
	li	a5, 0
9:	mv	a0, a5
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size seccomp_attach_filter, .-seccomp_attach_filter

# seccomp_cache_prepare(struct seccomp_filter *sfilter):
# seccomp_cache_prepare_bitmap for the native arch: start from the previous
# filter's bitmap (or all ones: memset of every long, as bitmap_fill does),
# and clear each still-set syscall bit for which seccomp_is_const_allow,
# emulating the original classic program with only nr and arch known, does
# not find a constant ALLOW.
#   s1 sfilter, s2 nr, s3 &bitmap, s4 orig fprog
	.type seccomp_cache_prepare, @function
seccomp_cache_prepare:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	sd	s4, 0(sp)
	addi	s0, sp, 48
	mv	s1, a0
	addi	s3, a0, SF_CACHE
	ld	a5, SF_PROG(a0)
	ld	s4, BP_ORIG_PROG(a5)
	ld	a5, SF_PREV(a0)
	li	a4, 0
1:	li	a3, -1				# bitmap_fill
	beqz	a5, 2f
	slli	a3, a4, 3			# bitmap_copy from the previous filter
	add	a3, a5, a3
	ld	a3, SF_CACHE(a3)
2:	slli	a2, a4, 3
	add	a2, s3, a2
	sd	a3, 0(a2)
	addi	a4, a4, 1
	li	a3, SECCOMP_CACHE_LONGS
	blt	a4, a3, 1b
	li	s2, 0
3:	li	a5, SECCOMP_ARCH_NATIVE_NR
	bge	s2, a5, 9f
	srli	a5, s2, 6			# test_bit(nr, bitmap)
	slli	a5, a5, 3
	add	a5, s3, a5
	ld	a4, 0(a5)
	srl	a4, a4, s2
	andi	a4, a4, 1
	beqz	a4, 5f
	mv	a0, s4
	mv	a1, s2
	call	seccomp_is_const_allow		# (fprog, nr) with arch = native
	bnez	a0, 5f
	srli	a5, s2, 6			# __clear_bit(nr, bitmap)
	slli	a5, a5, 3
	add	a5, s3, a5
	ld	a4, 0(a5)
	li	a3, 1
	sll	a3, a3, s2
	not	a3, a3
	and	a4, a4, a3
	sd	a4, 0(a5)
5:	addi	s2, s2, 1
	j	3b
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	ld	s4, 0(sp)
	addi	sp, sp, 48
	ret
	.size seccomp_cache_prepare, .-seccomp_cache_prepare

# seccomp_is_const_allow(struct sock_fprog_kern *fprog, int nr) -> bool,
# for sd = { nr, arch = AUDIT_ARCH_RISCV64 }: walk the program with one
# register; loads of nr or arch, JA, the constant compares (JEQ JGE JGT
# JSET with K), AND K are followed; a RET K answers whether it is ALLOW;
# anything else (a load of the ip or an argument, ...) is not constant.
# riscv64 has neither __NR_uretprobe nor __NR_uprobe: no exception.
	.type seccomp_is_const_allow, @function
seccomp_is_const_allow:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lhu	t0, FPK_LEN(a0)
	ld	t1, FPK_FILTER(a0)
	li	a2, 0				# reg_value
	li	a3, 0				# pc
1:	bgeu	a3, t0, 90f			# ran off the end: WARN, false
	slli	a4, a3, 3
	add	a4, t1, a4
	lhu	a5, 0(a4)			# code
	lwu	a6, 4(a4)			# k
	li	a7, BPF_LD | BPF_W | BPF_ABS
	bne	a5, a7, 3f
	li	a7, SD_NR
	bne	a6, a7, 2f
	mv	a2, a1
	j	8f
2:	li	a7, SD_ARCH
	bne	a6, a7, 90f
	li	a2, AUDIT_ARCH_RISCV64
	slli	a2, a2, 32			# unsigned int: zero-extended
	srli	a2, a2, 32
	j	8f
3:	li	a7, BPF_RET | BPF_K
	bne	a5, a7, 4f
	li	a7, SECCOMP_RET_ALLOW
	sub	a0, a6, a7
	seqz	a0, a0
	j	99f
4:	li	a7, BPF_JMP | BPF_JA
	bne	a5, a7, 5f
	add	a3, a3, a6
	j	8f
5:	li	a7, BPF_ALU | BPF_AND | BPF_K
	bne	a5, a7, 6f
	and	a2, a2, a6
	j	8f
6:	lbu	t2, 2(a4)			# jt
	lbu	t3, 3(a4)			# jf
	li	a7, BPF_JMP | BPF_JEQ | BPF_K
	bne	a5, a7, 61f
	sub	a7, a2, a6
	seqz	a7, a7
	j	7f
61:	li	a7, BPF_JMP | BPF_JGE | BPF_K
	bne	a5, a7, 62f
	sltu	a7, a2, a6
	xori	a7, a7, 1
	j	7f
62:	li	a7, BPF_JMP | BPF_JGT | BPF_K
	bne	a5, a7, 63f
	sltu	a7, a6, a2
	j	7f
63:	li	a7, BPF_JMP | BPF_JSET | BPF_K
	bne	a5, a7, 90f
	and	a7, a2, a6
	snez	a7, a7
7:	mv	a4, t3				# pc += op_res ? jt : jf
	beqz	a7, 71f
	mv	a4, t2
71:	add	a3, a3, a4
8:	addi	a3, a3, 1
	j	1b
90:	li	a0, 0
99:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size seccomp_is_const_allow, .-seccomp_is_const_allow

# seccomp_filter_alloc() -> a zeroed struct seccomp_filter from the slots,
# or NULL (the stand-in for kzalloc).
	.type seccomp_filter_alloc, @function
seccomp_filter_alloc:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, seccomp_filter_slots
	li	a4, 0
1:	li	a3, SECCOMP_MAX_FILTERS
	bge	a4, a3, 8f
	lw	a3, SF_REFS(a5)			# a free slot has no references
	beqz	a3, 2f
	addi	a5, a5, SF_SIZE
	addi	a4, a4, 1
	j	1b
2:	mv	a0, a5
	addi	a4, a5, SF_SIZE
3:	sd	zero, 0(a5)
	addi	a5, a5, 8
	bltu	a5, a4, 3b
	li	a4, -1				# claimed until refs is set
	sw	a4, SF_REFS(a0)
	j	9f
8:	li	a0, 0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size seccomp_filter_alloc, .-seccomp_filter_alloc

# seccomp_filter_free(struct seccomp_filter *filter): release its prog and
# the slot (NULL: nothing).
	.type seccomp_filter_free, @function
seccomp_filter_free:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	beqz	a0, 9f
	ld	a0, SF_PROG(s1)
	beqz	a0, 1f
	call	__bpf_prog_free
1:	mv	a0, s1
	call	seccomp_filter_release_slot
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size seccomp_filter_free, .-seccomp_filter_free

# seccomp_filter_release_slot(filter): kfree(filter).
	.type seccomp_filter_release_slot, @function
seccomp_filter_release_slot:
	sw	zero, SF_REFS(a0)
	ret
	.size seccomp_filter_release_slot, .-seccomp_filter_release_slot

	.section .kernel.rodata, "a", @progbits
	.balign 4
# seccomp_get_action_avail's known actions.
	.type seccomp_actions_avail, @object
seccomp_actions_avail:
	.word	SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD, SECCOMP_RET_TRAP
	.word	SECCOMP_RET_ERRNO, SECCOMP_RET_USER_NOTIF, SECCOMP_RET_TRACE
	.word	SECCOMP_RET_LOG, SECCOMP_RET_ALLOW
	.size seccomp_actions_avail, .-seccomp_actions_avail

# seccomp_check_filter's explicit list (besides the three it rewrites).
	.type seccomp_allowed_codes, @object
seccomp_allowed_codes:
.macro SOK code
	.rept \code - (. - seccomp_allowed_codes)
	.byte	0
	.endr
	.byte	1
.endm
	SOK BPF_LD | BPF_IMM			# 0x00
	SOK BPF_LDX | BPF_IMM			# 0x01
	SOK BPF_ST				# 0x02
	SOK BPF_STX				# 0x03
	SOK BPF_ALU | BPF_ADD | BPF_K		# 0x04
	SOK BPF_JMP | BPF_JA			# 0x05
	SOK BPF_RET | BPF_K			# 0x06
	SOK BPF_MISC | BPF_TAX			# 0x07
	SOK BPF_ALU | BPF_ADD | BPF_X		# 0x0c
	SOK BPF_ALU | BPF_SUB | BPF_K		# 0x14
	SOK BPF_JMP | BPF_JEQ | BPF_K		# 0x15
	SOK BPF_RET | BPF_A			# 0x16
	SOK BPF_ALU | BPF_SUB | BPF_X		# 0x1c
	SOK BPF_JMP | BPF_JEQ | BPF_X		# 0x1d
	SOK BPF_ALU | BPF_MUL | BPF_K		# 0x24
	SOK BPF_JMP | BPF_JGT | BPF_K		# 0x25
	SOK BPF_ALU | BPF_MUL | BPF_X		# 0x2c
	SOK BPF_JMP | BPF_JGT | BPF_X		# 0x2d
	SOK BPF_ALU | BPF_DIV | BPF_K		# 0x34
	SOK BPF_JMP | BPF_JGE | BPF_K		# 0x35
	SOK BPF_ALU | BPF_DIV | BPF_X		# 0x3c
	SOK BPF_JMP | BPF_JGE | BPF_X		# 0x3d
	SOK BPF_ALU | BPF_OR | BPF_K		# 0x44
	SOK BPF_JMP | BPF_JSET | BPF_K		# 0x45
	SOK BPF_ALU | BPF_OR | BPF_X		# 0x4c
	SOK BPF_JMP | BPF_JSET | BPF_X		# 0x4d
	SOK BPF_ALU | BPF_AND | BPF_K		# 0x54
	SOK BPF_ALU | BPF_AND | BPF_X		# 0x5c
	SOK BPF_LD | BPF_MEM			# 0x60
	SOK BPF_LDX | BPF_MEM			# 0x61
	SOK BPF_ALU | BPF_LSH | BPF_K		# 0x64
	SOK BPF_ALU | BPF_LSH | BPF_X		# 0x6c
	SOK BPF_ALU | BPF_RSH | BPF_K		# 0x74
	SOK BPF_ALU | BPF_RSH | BPF_X		# 0x7c
	SOK BPF_ALU | BPF_NEG			# 0x84
	SOK BPF_MISC | BPF_TXA			# 0x87
	SOK BPF_ALU | BPF_XOR | BPF_K		# 0xa4
	SOK BPF_ALU | BPF_XOR | BPF_X		# 0xac
	.rept 256 - (. - seccomp_allowed_codes)
	.byte	0
	.endr
	.size seccomp_allowed_codes, .-seccomp_allowed_codes

	.section .kernel.bss, "aw", @nobits
	.balign 8
	.globl seccomp_filter_slots
	.type seccomp_filter_slots, @object
seccomp_filter_slots:
	.skip	SECCOMP_MAX_FILTERS * SF_SIZE
	.size seccomp_filter_slots, .-seccomp_filter_slots

# tracepoint.S: the sys_enter / sys_exit tracepoints (SYSCALL_WORK_SYSCALL_
# TRACEPOINT) with one probe each, ftrace's syscall events, writing to a
# ring buffer: include/linux/tracepoint.h (the static-key site, __DO_TRACE,
# __traceiter_*), kernel/trace/trace_syscalls.c (ftrace_syscall_enter/exit),
# kernel/trace/trace_events.c and trace.c (trace_event_buffer_reserve /
# _commit), kernel/trace/ring_buffer.c, arch/riscv/kernel/jump_label.c.
# Same compiled-C shape as syscall.S (frames, current in tp).
#
# Simplified, where and how:
#   - the ring buffer is one CPU's, one flat data area instead of a list of
#     pages: rb_reserve_next_event's cmpxchg-free fast path (an AMO on the
#     tail), without the before/after write-stamp validation; an event that
#     would run past the end of the area (64 KiB: about 1300 getppid calls'
#     events) starts again at its beginning, overwriting the oldest, where
#     Linux would move to the next page (rb_move_tail);
#   - the clock is one rdtime (Linux: the buffer's clock, trace_clock_local
#     -> sched_clock, an indirect call and a seqcount-protected read);
#   - a delta that does not fit the 27-bit time_delta adds a TIME_EXTEND
#     event first (only the first event: the delta from 0);
#   - tracing_gen_ctx: irqs-off and need-resched flags; no preempt count;
#   - no event triggers, soft-disable, pid filters or buffered events (their
#     flag tests are run; their paths are NOT_MODELLED).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-work.inc"

.macro NOT_MODELLED
	unimp
.endm

	.section .kernel.text, "ax", @progbits

# trace_sys_enter(regs, id): the inline trace_sys_enter() in an out-of-line
# copy. Its first instruction is the static branch (arch_static_branch): a
# 4-byte nop while the tracepoint has no probe, which tracepoint_boot
# patches into a jump to the body, as arch_jump_label_transform_queue does.
# The body is __DO_TRACE: preempt_disable_notrace() is a barrier here, then
# __traceiter_sys_enter(NULL, regs, id), a tail call.
	.globl trace_sys_enter
	.type trace_sys_enter, @function
	.balign 4
trace_sys_enter:
	.option push
	.option norvc
	.globl trace_sys_enter_key_site
trace_sys_enter_key_site:
	nop					# in memory: a jal to the body once a probe is on (tracepoint_boot)
	.option pop
	ret
	.globl trace_sys_enter_do_trace
trace_sys_enter_do_trace:
	mv	a2, a1
	mv	a1, a0
	li	a0, 0
	tail	__traceiter_sys_enter
	.size trace_sys_enter, .-trace_sys_enter

# trace_sys_exit(regs, ret): the same for sys_exit.
	.globl trace_sys_exit
	.type trace_sys_exit, @function
	.balign 4
trace_sys_exit:
	.option push
	.option norvc
	.globl trace_sys_exit_key_site
trace_sys_exit_key_site:
	nop					# in memory: a jal to the body once a probe is on (tracepoint_boot)
	.option pop
	ret
	.globl trace_sys_exit_do_trace
trace_sys_exit_do_trace:
	mv	a2, a1
	mv	a1, a0
	li	a0, 0
	tail	__traceiter_sys_exit
	.size trace_sys_exit, .-trace_sys_exit

# __traceiter_sys_enter(data, regs, id) -> 0: call every registered probe
# with its own data (DEFINE_TRACE_FN's iterator).
#   s1 = it_func_ptr, s2 = regs, s3 = id
.macro TRACEITER name, tp
	.globl \name
	.type \name, @function
\name:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	la	a5, \tp
	ld	s1, TP_FUNCS(a5)		# rcu_dereference_raw(tp->funcs)
	beqz	s1, 2f
	mv	s2, a1
	mv	s3, a2
1:
	ld	a5, TPF_FUNC(s1)
	ld	a0, TPF_DATA(s1)
	mv	a1, s2
	mv	a2, s3
	jalr	a5				# probe(data, regs, id)
	ld	a5, TPF_SIZE + TPF_FUNC(s1)
	addi	s1, s1, TPF_SIZE
	bnez	a5, 1b
2:
	li	a0, 0
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size \name, .-\name
.endm
	TRACEITER __traceiter_sys_enter, __tracepoint_sys_enter
	TRACEITER __traceiter_sys_exit, __tracepoint_sys_exit

# struct trace_event_buffer on the probes' frames
.equ FB_EVENT,     0
.equ FB_TRACE_CTX, 8
.equ FB_FILE,     16
.equ FB_ENTRY,    24
.equ FB_SIZE,     32

# ftrace_syscall_enter(tr, regs, id): look up the syscall's event file and
# metadata, reserve an entry of 16 + 8 * nb_args bytes, write nr and the
# arguments, commit. syscall_get_arguments() copies orig_a0 and a1..a5 into
# args[6] on the frame; memcpy then moves nb_args of them (an inlined
# word loop here: Linux calls memcpy).
#   s1 = nr, s2 = regs, s3 = file, s4 = nb_args; fbuffer at 0(sp), args at 32(sp)
	.globl ftrace_syscall_enter
	.type ftrace_syscall_enter, @function
ftrace_syscall_enter:
	addi	sp, sp, -128
	sd	ra, 120(sp)
	sd	s0, 112(sp)
	sd	s1, 104(sp)
	sd	s2, 96(sp)
	sd	s3, 88(sp)
	sd	s4, 80(sp)
	addi	s0, sp, 128
	lw	s1, PT_A7(a1)			# trace_get_syscall_nr(): (int) a7
	li	a5, NR_syscalls
	bgeu	s1, a5, 9f			# nr < 0 || nr >= NR_syscalls
	mv	s2, a1
	slli	a4, s1, 3
	add	a5, a0, a4
	ld	s3, TR_ENTER_FILES(a5)		# tr->enter_syscall_files[nr]
	beqz	s3, 9f
	ld	a5, TEF_FLAGS(s3)		# trace_trigger_soft_disabled()
	andi	a5, a5, EVENT_FILE_FL_SKIP_MASK
	bnez	a5, 7f
	la	a5, syscalls_metadata		# syscall_nr_to_meta(nr)
	add	a5, a5, a4
	ld	a5, 0(a5)
	beqz	a5, 9f
	lw	s4, META_NB_ARGS(a5)
	slli	a2, s4, 3
	addi	a2, a2, SYSCALL_TRACE_ENTER_SIZE
	mv	a1, s3
	mv	a0, sp
	call	trace_event_buffer_reserve	# (&fbuffer, file, size) -> entry
	beqz	a0, 9f
	ld	a0, FB_EVENT(sp)
	call	ring_buffer_event_data
	sw	s1, STE_NR(a0)
	ld	a5, PT_ORIG_A0(s2)		# syscall_get_arguments()
	sd	a5, 32(sp)
	ld	a5, PT_A1(s2)
	sd	a5, 40(sp)
	ld	a5, PT_A2(s2)
	sd	a5, 48(sp)
	ld	a5, PT_A3(s2)
	sd	a5, 56(sp)
	ld	a5, PT_A4(s2)
	sd	a5, 64(sp)
	ld	a5, PT_A5(s2)
	sd	a5, 72(sp)
	addi	a3, sp, 32			# memcpy(entry->args, args, 8 * nb_args)
	addi	a4, a0, STE_ARGS
	beqz	s4, 2f
1:
	ld	a5, 0(a3)
	sd	a5, 0(a4)
	addi	a3, a3, 8
	addi	a4, a4, 8
	addi	s4, s4, -1
	bnez	s4, 1b
2:
	mv	a0, sp
	call	trace_event_buffer_commit
9:
	ld	ra, 120(sp)
	ld	s0, 112(sp)
	ld	s1, 104(sp)
	ld	s2, 96(sp)
	ld	s3, 88(sp)
	ld	s4, 80(sp)
	addi	sp, sp, 128
	ret
7:	NOT_MODELLED				# triggers, soft-disable, pid filter
	.size ftrace_syscall_enter, .-ftrace_syscall_enter

# ftrace_syscall_exit(tr, regs, ret): the same lookups, a 24-byte entry
# with nr and ret (syscall_get_return_value(): regs->a0).
#   s1 = nr, s2 = regs; fbuffer at 0(sp)
	.globl ftrace_syscall_exit
	.type ftrace_syscall_exit, @function
ftrace_syscall_exit:
	addi	sp, sp, -64
	sd	ra, 56(sp)
	sd	s0, 48(sp)
	sd	s1, 40(sp)
	sd	s2, 32(sp)
	addi	s0, sp, 64
	lw	s1, PT_A7(a1)
	li	a5, NR_syscalls
	bgeu	s1, a5, 9f
	mv	s2, a1
	slli	a4, s1, 3
	add	a5, a0, a4
	li	a3, TR_EXIT_FILES		# (past 12 bits of offset)
	add	a5, a5, a3
	ld	a1, 0(a5)			# tr->exit_syscall_files[nr]
	beqz	a1, 9f
	ld	a5, TEF_FLAGS(a1)
	andi	a5, a5, EVENT_FILE_FL_SKIP_MASK
	bnez	a5, 7f
	la	a5, syscalls_metadata
	add	a5, a5, a4
	ld	a5, 0(a5)
	beqz	a5, 9f
	li	a2, SYSCALL_TRACE_EXIT_SIZE
	mv	a0, sp
	call	trace_event_buffer_reserve
	beqz	a0, 9f
	ld	a0, FB_EVENT(sp)
	call	ring_buffer_event_data
	sw	s1, STE_NR(a0)
	ld	a5, PT_A0(s2)			# syscall_get_return_value()
	sd	a5, STX_RET(a0)
	mv	a0, sp
	call	trace_event_buffer_commit
9:
	ld	ra, 56(sp)
	ld	s0, 48(sp)
	ld	s1, 40(sp)
	ld	s2, 32(sp)
	addi	sp, sp, 64
	ret
7:	NOT_MODELLED
	.size ftrace_syscall_exit, .-ftrace_syscall_exit

# trace_event_buffer_reserve(fbuffer, file, len) -> entry or NULL, with
# trace_event_buffer_lock_reserve and __trace_buffer_lock_reserve inlined:
# the context word (tracing_gen_ctx), the ring-buffer reservation, then
# trace_event_setup() fills the common trace_entry header.
#   s1 = fbuffer, s2 = file, s3 = trace_ctx
	.globl trace_event_buffer_reserve
	.type trace_event_buffer_reserve, @function
trace_event_buffer_reserve:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	ld	a5, TEF_FLAGS(a1)		# a pid filter?
	andi	a5, a5, EVENT_FILE_FL_PID_FILTER
	bnez	a5, 7f
	csrr	a5, sstatus			# tracing_gen_ctx(): irqs off?
	andi	a5, a5, SR_SIE
	seqz	a5, a5				# TRACE_FLAG_IRQS_OFF
	ld	a4, TASK_TI_FLAGS(tp)		# TRACE_FLAG_NEED_RESCHED
	andi	a4, a4, _TIF_NEED_RESCHED
	snez	a4, a4
	slli	a4, a4, 2
	or	a5, a5, a4
	slli	s3, a5, 16			# flags << 16 | preempt count (0)
	sd	s3, FB_TRACE_CTX(s1)
	sd	s2, FB_FILE(s1)
	ld	a5, TEF_FLAGS(s2)		# soft-disabled or filtered: the
	andi	a5, a5, EVENT_FILE_FL_SOFT_DISABLED | EVENT_FILE_FL_FILTERED
	bnez	a5, 7f				# buffered-event path
	la	a0, trace_ring_buffer		# tr->array_buffer.buffer
	mv	a1, a2
	call	ring_buffer_lock_reserve	# (buffer, len) -> event
	beqz	a0, 9f
	sd	a0, FB_EVENT(s1)
	call	ring_buffer_event_data		# trace_event_setup():
	lhu	a5, TEF_TYPE(s2)		# tracing_generic_entry_update()
	sh	a5, TE_TYPE(a0)
	sb	s3, TE_PREEMPT_COUNT(a0)
	srli	a5, s3, 16
	sb	a5, TE_FLAGS(a0)
	lw	a5, TASK_PID(tp)
	sw	a5, TE_PID(a0)
	sd	a0, FB_ENTRY(s1)
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
7:	NOT_MODELLED
	.size trace_event_buffer_reserve, .-trace_event_buffer_reserve

# ring_buffer_event_data(event) -> its payload (rb_event_data): past a
# TIME_EXTEND, past the header, and past the length word of an event too
# big for type_len (type_len 0).
	.globl ring_buffer_event_data
	.type ring_buffer_event_data, @function
ring_buffer_event_data:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lw	a5, 0(a0)
	andi	a5, a5, 0x1f			# type_len
	li	a4, RINGBUF_TYPE_TIME_EXTEND
	bne	a5, a4, 1f
	addi	a0, a0, 8			# skip_time_extend()
	lw	a5, 0(a0)
	andi	a5, a5, 0x1f
1:
	bnez	a5, 2f
	addi	a0, a0, 4			# array[0] holds the length
2:
	addi	a0, a0, RB_EVNT_HDR_SIZE
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size ring_buffer_event_data, .-ring_buffer_event_data

# ring_buffer_lock_reserve(buffer, len) -> event or NULL (see the top of the
# file for what is simplified): the record-disabled and size checks, the
# recursion guard (trace_recursive_lock, normal context), rb_start_commit,
# the event length (header + data, 4-byte aligned), the timestamp and its
# delta, the tail moved by an AMO, the header written.
#   s1 = cpu_buffer, s2 = event length, s3 = ts
.equ RB_CTX_NORMAL_BIT, 1 << 3
.equ BUF_MAX_DATA_SIZE, 4000
	.globl ring_buffer_lock_reserve
	.type ring_buffer_lock_reserve, @function
ring_buffer_lock_reserve:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	lw	a5, RB_RECORD_DISABLED(a0)
	bnez	a5, 8f
	li	a5, BUF_MAX_DATA_SIZE
	bgtu	a1, a5, 8f
	lw	a5, RB_NEST(s1)			# trace_recursive_lock()
	andi	a4, a5, RB_CTX_NORMAL_BIT
	bnez	a4, 8f				# recursion: drop the event
	ori	a5, a5, RB_CTX_NORMAL_BIT
	sw	a5, RB_NEST(s1)
	addi	a4, s1, RB_COMMITTING		# rb_start_commit(): local_inc
	li	a5, 1
	amoadd.d zero, a5, (a4)
	addi	a1, a1, RB_EVNT_HDR_SIZE + 3	# rb_calculate_event_length()
	andi	s2, a1, -4
	rdtime	s3				# rb_time_stamp()
	ld	a5, RB_WRITE_STAMP(s1)
	sub	a5, s3, a5			# delta
	srli	a4, a5, TS_DELTA_BITS
	bnez	a4, 5f
3:
	sd	s3, RB_WRITE_STAMP(s1)
	addi	a4, s1, RB_TAIL			# __rb_reserve_next(): the tail
	amoadd.d a3, s2, (a4)			# local_add_return(length) - length
	add	a2, a3, s2
	li	a4, RB_DATA_SIZE
	bgtu	a2, a4, 6f			# past the end: rb_move_tail()
4:
	add	a0, s1, a3
	addi	a0, a0, RB_DATA			# the event
	srli	a4, s2, 2			# rb_update_event(): type_len =
	addi	a4, a4, -1			#   data words, time_delta = delta
	slli	a5, a5, 5
	or	a4, a4, a5
	sw	a4, 0(a0)
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
5:
	# The delta does not fit: an 8-byte TIME_EXTEND event carrying the
	# full timestamp goes first, and this event's own delta is 0.
	addi	a4, s1, RB_TAIL
	li	a2, 8
	amoadd.d a3, a2, (a4)
	add	a0, s1, a3
	addi	a0, a0, RB_DATA
	slli	a4, s3, 5
	ori	a4, a4, RINGBUF_TYPE_TIME_EXTEND
	sw	a4, 0(a0)
	srli	a4, s3, TS_DELTA_BITS
	sw	a4, 4(a0)
	li	a5, 0
	j	3b
6:
	# rb_move_tail(), simplified: the buffer is in overwrite mode and has
	# one flat area, so a reservation that would run past its end starts
	# again at its beginning (the oldest events are overwritten).
	sd	s2, RB_TAIL(s1)
	li	a3, 0
	j	4b
8:
	li	a0, 0
	j	9b
	.size ring_buffer_lock_reserve, .-ring_buffer_lock_reserve

# ring_buffer_unlock_commit(buffer): rb_commit (entries++, and with the
# outermost committer gone, commit = tail: rb_set_commit_to_write), the
# readers' wake-up test (rb_wakeups: none wait), trace_recursive_unlock.
	.globl ring_buffer_unlock_commit
	.type ring_buffer_unlock_commit, @function
ring_buffer_unlock_commit:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, trace_rb_entries		# local_inc(&cpu_buffer->entries)
	li	a4, 1
	amoadd.d zero, a4, (a5)
	ld	a5, RB_COMMITTING(a0)		# rb_end_commit()
	li	a4, 1
	bne	a5, a4, 1f
	ld	a5, RB_TAIL(a0)			# rb_set_commit_to_write()
	sd	a5, RB_COMMIT(a0)
1:
	addi	a4, a0, RB_COMMITTING
	li	a5, -1
	amoadd.d zero, a5, (a4)
	la	a5, trace_rb_waiters		# rb_wakeups(): a reader waiting?
	ld	a5, 0(a5)
	bnez	a5, 7f
	lw	a5, RB_NEST(a0)			# trace_recursive_unlock()
	addi	a4, a5, -1
	and	a5, a5, a4
	sw	a5, RB_NEST(a0)
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED				# irq_work to wake the reader
	.size ring_buffer_unlock_commit, .-ring_buffer_unlock_commit

# trace_event_buffer_commit(fbuffer): two disabled static keys (tracepoint_
# printk and trace_event_exports_enabled: a nop each), then
# trace_buffer_unlock_commit_regs inlined: __buffer_unlock_commit (the
# taskinfo-save flag, a buffered event?, ring_buffer_unlock_commit) and the
# stack-trace options (ftrace_trace_stack, ftrace_trace_userstack: off).
	.globl trace_event_buffer_commit
	.type trace_event_buffer_commit, @function
trace_event_buffer_commit:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	.option push
	.option norvc
	nop					# static_key_false(&tracepoint_printk_key)
	nop					# trace_event_exports_enabled
	.option pop
	li	a5, 1				# __this_cpu_write(trace_taskinfo_save, true)
	la	a4, trace_taskinfo_save
	sb	a5, 0(a4)
	ld	a5, FB_EVENT(s1)		# the per-CPU buffered event?
	la	a4, trace_buffered_event
	ld	a4, 0(a4)
	beq	a5, a4, 7f
	la	a0, trace_ring_buffer
	call	ring_buffer_unlock_commit
	la	a5, global_trace		# tr->trace_flags
	li	a4, TR_TRACE_FLAGS
	add	a5, a5, a4
	ld	a5, 0(a5)
	andi	a4, a5, TRACE_ITER_STACKTRACE
	bnez	a4, 7f
	andi	a4, a5, TRACE_ITER_USERSTACKTRACE
	bnez	a4, 7f
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
7:	NOT_MODELLED
	.size trace_event_buffer_commit, .-trace_event_buffer_commit

# tracepoint_boot(): what enabling the syscall events does, once at boot.
# init_ftrace_syscalls fills syscalls_metadata (the syscalls the minikernel
# implements; the others keep NULL and record nothing), each event file is
# hooked into global_trace's tables (reg_event_syscall_enter/exit), each
# tracepoint gets ftrace's probe (tracepoint_probe_register) and its
# static key is switched on: the nop at the site becomes `j` to the body,
# encoded as arch_jump_label_transform_queue does, then one fence.i
# (arch_jump_label_transform_apply: flush_icache_all; one hart).
	.globl tracepoint_boot
	.type tracepoint_boot, @function
tracepoint_boot:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a0, syscall_meta_list		# (nr, meta) pairs, nr -1 ends
	la	a1, syscalls_metadata
1:
	ld	a2, 0(a0)
	bltz	a2, 2f
	ld	a3, 8(a0)
	slli	a2, a2, 3
	add	a2, a1, a2
	sd	a3, 0(a2)
	addi	a0, a0, 16
	j	1b
2:
	la	a0, global_trace		# every syscall's event files
	la	a1, sys_enter_file
	la	a2, sys_exit_file
	li	a3, NR_syscalls
3:
	sd	a1, TR_ENTER_FILES(a0)
	li	a4, TR_EXIT_FILES
	add	a4, a0, a4
	sd	a2, 0(a4)
	addi	a0, a0, 8
	addi	a3, a3, -1
	bnez	a3, 3b
	la	a0, __tracepoint_sys_enter	# tracepoint_probe_register()
	la	a1, sys_enter_funcs
	sd	a1, TP_FUNCS(a0)
	li	a1, 1
	sw	a1, TP_KEY_ENABLED(a0)		# static_key_enable()
	la	a0, __tracepoint_sys_exit
	la	a1, sys_exit_funcs
	sd	a1, TP_FUNCS(a0)
	li	a1, 1
	sw	a1, TP_KEY_ENABLED(a0)
	la	a0, trace_sys_enter_key_site
	la	a1, trace_sys_enter_do_trace
	call	jump_label_patch_jal
	la	a0, trace_sys_exit_key_site
	la	a1, trace_sys_exit_do_trace
	call	jump_label_patch_jal
	fence.i					# flush_icache_all()
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size tracepoint_boot, .-tracepoint_boot

# jump_label_patch_jal(site, target): write `jal x0, target - site` over
# the site (JAL's immediate: imm[20|10:1|11|19:12] in bits 31..12).
	.type jump_label_patch_jal, @function
jump_label_patch_jal:
	sub	a1, a1, a0			# offset
	li	a2, 0x6f			# JAL, rd = x0
	li	a3, 0xff000			# offset[19:12] -> [19:12]
	and	a4, a1, a3
	or	a2, a2, a4
	srli	a4, a1, 11			# offset[11] -> [20]
	andi	a4, a4, 1
	slli	a4, a4, 20
	or	a2, a2, a4
	srli	a4, a1, 1			# offset[10:1] -> [30:21]
	andi	a4, a4, 0x3ff
	slli	a4, a4, 21
	or	a2, a2, a4
	srli	a4, a1, 20			# offset[20] -> [31]
	andi	a4, a4, 1
	slli	a4, a4, 31
	or	a2, a2, a4
	sw	a2, 0(a0)			# patch_insn_write()
	ret
	.size jump_label_patch_jal, .-jump_label_patch_jal

	.section .kernel.rodata, "a", @progbits
	.balign 8
# struct syscall_metadata per implemented syscall (nb_args as in
# SYSCALL_DEFINEn), and the (nr, meta) list init_ftrace_syscalls walks.
meta_args0:	.word 0
	.word 0
meta_args1:	.word 1
	.word 0
meta_args3:	.word 3
	.word 0
meta_args4:	.word 4
	.word 0
meta_args5:	.word 5
	.word 0
syscall_meta_list:
	.dword SYS_exit, meta_args1
	.dword SYS_sched_yield, meta_args0
	.dword SYS_rt_sigaction, meta_args4
	.dword SYS_rt_sigreturn, meta_args0
	.dword SYS_prctl, meta_args5
	.dword SYS_getppid, meta_args0
	.dword SYS_clone, meta_args5
	.dword SYS_seccomp, meta_args3
	.dword SYS_rseq, meta_args4
	.dword -1, 0

	.section .kernel.data, "aw", @progbits
	.balign 8
# struct tracepoint __tracepoint_sys_enter / _exit: key off, no probes.
	.globl __tracepoint_sys_enter
__tracepoint_sys_enter:
	.dword 0, 0
	.globl __tracepoint_sys_exit
__tracepoint_sys_exit:
	.dword 0, 0
# The probe arrays tracepoint_probe_register installs: ftrace's probe with
# the global trace array as its data, then the NULL terminator.
sys_enter_funcs:
	.dword ftrace_syscall_enter, global_trace, 0
	.dword 0, 0, 0
sys_exit_funcs:
	.dword ftrace_syscall_exit, global_trace, 0
	.dword 0, 0, 0
# The two event files (flags, type).
sys_enter_file:
	.dword 0, SYS_ENTER_TYPE
sys_exit_file:
	.dword 0, SYS_EXIT_TYPE
trace_taskinfo_save:
	.dword 0
trace_buffered_event:
	.dword 0				# none (no filtered events)
	.globl trace_rb_entries
trace_rb_entries:
	.dword 0				# events committed
trace_rb_waiters:
	.dword 0				# readers waiting: none

	.section .kernel.bss, "aw", @nobits
	.balign 8
	.globl syscalls_metadata
syscalls_metadata:
	.skip NR_syscalls * 8
	.globl global_trace
global_trace:
	.skip TR_SIZE
	.globl trace_ring_buffer
trace_ring_buffer:
	.skip RB_SIZE

# irq-user.S: the interrupt program (knob_irq_bench = 1 with a timer, see
# timer.S): a function that spins, so that the timer interrupt lands in a
# user loop while the return-address stack holds that function's return.
#
#   irq_user_start: sp; irq_work(); exit(0)
#   irq_work:       for (n = knob_irq_spins; n != 0; n--) ;  return
#
# The measured window runs from irq_work to irq_work_done (one pass), so it
# holds the loop, the interrupt path (M timer in the firmware, S timer
# through handle_exception -> do_irq -> ret_from_exception) and irq_work's
# own `ret`, which finds out whether the kernel left the RAS as it was.

	.include "minikernel-abi.inc"

	.section .user.text, "ax", @progbits

	.globl irq_user_start
	.type irq_user_start, @function
irq_user_start:
	la	sp, irq_user_stack_top
	call	irq_work			# RAS push: irq_work_done
	.globl irq_work_done
irq_work_done:
	li	a1, IRQ_BENCH_OK
	li	a0, SYS_exit
	call	syscall
1:	j	1b
	.size irq_user_start, .-irq_user_start

	.globl irq_work
	.type irq_work, @function
irq_work:
	ld	a5, knob_irq_spins
	.globl irq_spin
irq_spin:
	addi	a5, a5, -1
	bnez	a5, irq_spin
	ret					# RAS pop: irq_work_done, if still there
	.size irq_work, .-irq_work

	.section .user.data, "aw", @progbits
	.balign 8
	.globl knob_irq_bench
	.type knob_irq_bench, @object
knob_irq_bench:
	.dword 0				# 1: run this program (with a timer)
	.size knob_irq_bench, .-knob_irq_bench
	.globl knob_irq_spins
	.type knob_irq_spins, @object
knob_irq_spins:
	.dword 200000				# loop passes in irq_work
	.size knob_irq_spins, .-knob_irq_spins

	.section .user.bss, "aw", @nobits
	.balign 16
irq_user_stack:
	.skip 1024
irq_user_stack_top:

# init/tick.S: trapscope's /init program "tick" (include/init-path.inc): a
# user program that does nothing but spin, so that the only way into the
# kernel is the timer interrupt. Each tick, the firmware takes the machine
# timer interrupt (mcause 7), masks it and raises the supervisor timer
# interrupt, which the kernel takes at the spin (scause = interrupt | 5):
# handle_exception -> do_irq -> the interrupt controller's handler -> the
# timer's (riscv_timer_interrupt), the tick itself (tick_handle_periodic or
# the hrtimer path, and the scheduler's tick), the next event programmed
# through the SBI (sbi_set_timer: an ecall into the firmware), and
# irq_exit's soft interrupts -> ret_from_exception -> sret to the spin.
#
# The loop is one instruction, `init_loop: j init_loop`, and has no marker
# of the usual kind: under QEMU it runs millions of times between ticks.
# `trapscope snapshot --init tick` counts the kernel's entries for the
# supervisor timer interrupt taken with sepc at init_loop, and stops at the
# N-th (at the trap handler, with the tick's path ahead), keeping the
# interrupt enables and the armed timer. trapscope then skips each spin to
# the timer's deadline as idle time, so the jump retires once per tick:
# init_loop marks one iteration, the tick's path, by itself.
#
# User side per iteration, by hand: the jump, once: 1 instruction.

.macro init_banner_text
	.ascii "trapscope-init: tick loop (a user spin; the timer interrupt is the only way in)\n"
.endm
	.include "init-path.inc"

	.text
	.globl init_main
	.type init_main, @function
init_main:
	li	s1, 0				# as the other inits (it never counts)
	.globl init_loop
init_loop:
	j	init_loop
	.size init_main, .-init_main

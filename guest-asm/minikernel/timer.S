# timer.S: the kernel's timer tick and its interrupt handler.
#
# Off unless a scenario sets knob_timer_period (in timer ticks, the unit of
# the `time` CSR and the CLINT's mtime): with 0, kernel_start never calls
# timer_setup, no interrupt is ever enabled, and every other path is as it
# was before the timer existed. With it:
#
#   timer_setup    at boot: enable the S timer interrupt (sie.STIE; the
#                  firmware delegates it, see fw.S) and ask the SBI for the
#                  first event at time + knob_timer_period. If the user
#                  program's knob_irq_bench is set, start irq-user.S's
#                  program instead of user.S's (as init= would name another).
#   do_irq         reached from handle_exception's interrupt branch, in both
#                  seed-003 forms (include/minikernel-entry.inc): `tail
#                  do_irq` with ra = ret_from_exception set by hand, or
#                  `call do_irq` + `j ret_from_exception`. For the S timer
#                  (scause = interrupt | 5) it counts the tick, masks the
#                  interrupt (as Linux's riscv_timer_interrupt clears
#                  CSR_IE.TIE), and either programs the next event, which
#                  unmasks it (through the legacy call, so both SBI entry
#                  points run), or, after knob_timer_irqs ticks, stops the
#                  timer with set_timer(-1). Any other interrupt is counted
#                  as spurious.
#   sbi_set_timer  the SBI TIME call (fw.S programs mtimecmp), and
#                  sbi_set_timer_legacy, the same through EID 0.
#
# Instructions, for the scenario's hand counts (do_irq with the timer
# stopped, knob_timer_irqs = 1; `la`/`ld sym` are auipc + addi/ld, `call`
# relaxes to one jal): do_irq 4 (prologue) + 5 (cause test) + 5 (count) +
# 2 (mask) + 5 (two loads, bltu) + 1 (li) + 1 (jal) + 1 (j) + 4 (epilogue
# and ret) = 28, and sbi_set_timer 5 (lui, addw, li, ecall, ret). RAS: one
# push (`jal ra, sbi_set_timer`), two pops (its `ret`, then do_irq's).

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

	.globl timer_setup
	.type timer_setup, @function
timer_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, SIE_STIE
	csrs	sie, a5
	rdtime	a0
	ld	a5, knob_timer_period
	add	a0, a0, a5
	call	sbi_set_timer
	ld	a5, knob_irq_bench
	beqz	a5, 1f
	la	a5, irq_user_start
	csrw	sepc, a5
1:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size timer_setup, .-timer_setup

# do_irq(regs): the interrupt handler (Linux: handle_riscv_irq).
	.globl do_irq
	.type do_irq, @function
do_irq:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, PT_CAUSE(a0)
	slli	a5, a5, 1
	srli	a5, a5, 1			# the interrupt code
	li	a4, IRQ_S_TIMER
	bne	a5, a4, 2f
	la	a5, stat_timer_irq
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	li	a5, SIE_STIE
	csrc	sie, a5				# mask until the next event is set
	ld	a4, stat_timer_irq
	ld	a5, knob_timer_irqs
	bltu	a4, a5, 1f
	li	a0, -1				# enough ticks: stop the timer
	call	sbi_set_timer
	j	3f
1:
	rdtime	a0
	ld	a5, knob_timer_period
	add	a0, a0, a5
	call	sbi_set_timer_legacy
	li	a5, SIE_STIE
	csrs	sie, a5
	j	3f
2:
	la	a5, stat_spurious_irq
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
3:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size do_irq, .-do_irq

# sbi_set_timer(stime_value): SBI TIME extension, set_timer.
	.globl sbi_set_timer
	.type sbi_set_timer, @function
sbi_set_timer:
	li	a7, SBI_EXT_TIME
	li	a6, SBI_TIME_FID_SET_TIMER
	ecall
	ret
	.size sbi_set_timer, .-sbi_set_timer

# sbi_set_timer_legacy(stime_value): the legacy set_timer (EID 0, no
# function id; Linux's sbi_set_timer_v01). The re-arm in do_irq uses it, so
# that both of the firmware's set_timer entry points run.
	.globl sbi_set_timer_legacy
	.type sbi_set_timer_legacy, @function
sbi_set_timer_legacy:
	li	a7, SBI_EXT_LEGACY_SET_TIMER
	ecall
	ret
	.size sbi_set_timer_legacy, .-sbi_set_timer_legacy

	.section .kernel.data, "aw", @progbits
	.balign 8
	.globl knob_timer_period
	.type knob_timer_period, @object
knob_timer_period:
	.dword 0				# timer ticks between events; 0: no timer
	.size knob_timer_period, .-knob_timer_period
	.globl knob_timer_irqs
	.type knob_timer_irqs, @object
knob_timer_irqs:
	.dword 1				# ticks taken before the timer stops
	.size knob_timer_irqs, .-knob_timer_irqs
	.globl stat_timer_irq
	.type stat_timer_irq, @object
stat_timer_irq:
	.dword 0				# S timer interrupts handled
	.size stat_timer_irq, .-stat_timer_irq

# fw.S: M-mode boot firmware and a tiny SBI for the minikernel.
#
# Plays the part OpenSBI plays on a real board, reduced to what the benchmark
# needs: set up delegation and counters, drop to S-mode at kernel_start, and
# serve two SBI calls: system reset, which ends the run through HTIF tohost
# (trapscope) and QEMU virt's test device (fw_halt),
# and set_timer, done as a firmware does it on a core without Sstc (the
# kernel cannot write a timer compare register itself): program the CLINT's
# mtimecmp and clear mip.STIP; when the M timer fires, mask MTIE and raise
# STIP, which mideleg hands to the kernel as its timer interrupt.
# On a core that traps AMO instructions (seed 004's MIPS P8700) it also
# emulates them, from a second trap entry that _start installs only on such
# a core (zalrsc-fw.S).
# Everything it runs is the "firmware" phase in trapscope.
#
# SBI / tohost convention
#   S-mode ends the run with sbi_system_reset (SBI spec, SRST extension):
#     a7 = 0x53525354 (SRST), a6 = 0 (sbi_system_reset),
#     a0 = reset type (0 = shutdown; any type ends the run, nothing reboots),
#     a1 = reset reason (0 = none, 1 = system failure),
#     a2 = exit code (trapscope's extension of the call).
#   The firmware writes tohost = (code << 1) | 1 with code = a2, except that a
#   "system failure" reason with a2 = 0 becomes code 1, so a failure can never
#   read as a pass. The run's exit code is then `code`. In QEMU virt the
#   same code is QEMU's exit status, through the test device (fw_halt).
#   Anything the firmware does not expect ends the run with its own code:
#     0x7e00          ecall from S with an extension id other than SRST,
#                     TIME or the legacy set_timer (0)
#     0x7e01          SRST or TIME with a function id other than 0
#     0x7f00 | cause  an exception it neither serves nor can redirect, e.g.
#                     0x7f08 if an ecall from U reached M (delegation broken),
#                     or any exception taken while in M-mode itself
#     0x7f80 | code   an interrupt other than the M timer

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

# Exceptions handed straight to S-mode (medeleg), the set OpenSBI delegates:
# misaligned fetch, breakpoint, ecall from U and the three page faults. Ecall
# from S (9) must stay here: it is how the kernel calls the SBI.
.equ FW_MEDELEG, (1 << CAUSE_MISALIGNED_FETCH) | (1 << CAUSE_BREAKPOINT) | (1 << CAUSE_USER_ECALL) | (1 << CAUSE_FETCH_PAGE_FAULT) | (1 << CAUSE_LOAD_PAGE_FAULT) | (1 << CAUSE_STORE_PAGE_FAULT)

# Exceptions that come to M first and are passed on to S by fw_redirect_to_s,
# as OpenSBI does after trying to emulate them: illegal instruction (a real
# SBI emulates some CSRs here first; on a core that traps AMOs,
# zalrsc-fw.S's fw_trap_entry_full emulates those before this entry runs),
# access faults and misaligned load/store (plain misaligned accesses complete
# on this machine, so only misaligned atomics arrive, and those cannot be
# emulated). Keeping them in M makes that round trip visible in the trace.
.equ FW_REDIRECT, (1 << CAUSE_FETCH_ACCESS) | (1 << CAUSE_ILLEGAL_INSTRUCTION) | (1 << CAUSE_MISALIGNED_LOAD) | (1 << CAUSE_LOAD_ACCESS) | (1 << CAUSE_MISALIGNED_STORE) | (1 << CAUSE_STORE_ACCESS)

.equ FW_FAIL_BAD_EXT,   0x7e00
.equ FW_FAIL_BAD_FID,   0x7e01
.equ FW_FAIL_CAUSE,     0x7f00
.equ FW_FAIL_IRQ,       0x7f80

# Trap frame on the M stack: the four temporaries the handler uses.
.equ FW_FRAME,          32

	.section .fw.text, "ax", @progbits

# _start: reset vector. The hart arrives in M-mode with every register zero.
	.globl _start
	.type _start, @function
_start:
	la	sp, fw_stack_top
	# The trap entry swaps sp with mscratch, so mscratch holds the M stack.
	csrw	mscratch, sp
	la	t0, fw_trap_entry
	csrw	mtvec, t0			# direct mode: fw_trap_entry is 4-aligned
	# A core that traps AMO instructions gets the emulating trap entry
	# instead (zalrsc-fw.S); everywhere else mtvec stays fw_trap_entry.
	jal	t0, fw_amo_emulation_setup

	li	t0, FW_MEDELEG
	csrw	medeleg, t0
	li	t0, MIP_SSIP | MIP_STIP | MIP_SEIP
	csrw	mideleg, t0
	li	t0, COUNTEREN_CY_TM_IR
	csrw	mcounteren, t0			# S may read cycle/time/instret

	# Without a matching PMP entry S- and U-mode accesses fail, so open the
	# whole address space to them, as any SBI implementation does at boot.
	li	t0, -1
	csrw	pmpaddr0, t0
	li	t0, PMPCFG_NAPOT_RWX
	csrw	pmpcfg0, t0

	# mret lands in S-mode (MPP = S) at kernel_start with interrupts as they
	# are (none exist here).
	li	t0, SR_MPP
	csrc	mstatus, t0
	li	t0, SR_MPP_S
	csrs	mstatus, t0
	la	t0, kernel_start
	csrw	mepc, t0

	# Boot protocol of the RISC-V Linux kernel: a0 = hart id, a1 = device
	# tree (none here). Leave no firmware addresses behind in registers.
	csrr	a0, mhartid
	li	a1, 0
	li	sp, 0
	li	t0, 0
	mret
	.size _start, .-_start

# fw_trap_entry: every trap that is not delegated. Uses only t0-t3, saved on
# the M stack, so the interrupted context comes back intact on mret.
	.balign 4
	.globl fw_trap_entry
	.type fw_trap_entry, @function
fw_trap_entry:
	csrrw	sp, mscratch, sp		# sp = M stack, mscratch = trapped sp
	addi	sp, sp, -FW_FRAME
	sd	t0, 0(sp)
	sd	t1, 8(sp)
	sd	t2, 16(sp)
	sd	t3, 24(sp)

	csrr	t0, mcause
	bltz	t0, fw_irq
	li	t1, CAUSE_SUPERVISOR_ECALL
	beq	t0, t1, fw_sbi_ecall

	# A fault inside the firmware itself cannot be redirected anywhere.
	csrr	t1, mstatus
	srli	t1, t1, SR_MPP_SHIFT
	andi	t1, t1, 3
	li	t2, 3
	beq	t1, t2, fw_fail_cause

	li	t1, NR_EXCEPTION_CAUSES
	bgeu	t0, t1, fw_fail_cause
	li	t1, FW_REDIRECT
	srl	t1, t1, t0
	andi	t1, t1, 1
	bnez	t1, fw_redirect_to_s
	j	fw_fail_cause
	.size fw_trap_entry, .-fw_trap_entry

# fw_sbi_ecall: ecall from S-mode. Only SRST is served; it never returns.
	.globl fw_sbi_ecall
	.type fw_sbi_ecall, @function
fw_sbi_ecall:
	li	t1, SBI_EXT_SRST
	li	t0, FW_FAIL_BAD_EXT
	bne	a7, t1, fw_sbi_time
	li	t0, FW_FAIL_BAD_FID
	bnez	a6, fw_halt
	mv	t0, a2				# exit code
	bnez	t0, fw_halt
	snez	t0, a1				# failure reason, code 0 -> 1
	j	fw_halt
	.size fw_sbi_ecall, .-fw_sbi_ecall

# fw_sbi_time: SBI set_timer (TIME FID 0, or legacy EID 0), a0 = stime_value.
# Without Sstc the S-mode timer is the firmware's: program mtimecmp, clear a
# pending S timer, and let the M timer through (MTIE) to raise it again when
# mtime reaches a0. Returns SBI_SUCCESS in a0 (a1 = 0).
	.globl fw_sbi_time
	.type fw_sbi_time, @function
fw_sbi_time:
	li	t1, SBI_EXT_TIME
	beq	a7, t1, 1f
	bnez	a7, fw_halt			# t0 = FW_FAIL_BAD_EXT
	j	2f				# legacy set_timer has no function id
1:
	li	t0, FW_FAIL_BAD_FID
	bnez	a6, fw_halt
2:
	li	t1, CLINT_MTIMECMP
	sd	a0, 0(t1)
	li	t1, MIP_STIP
	csrc	mip, t1
	li	t1, MIP_MTIP
	csrs	mie, t1
	csrr	t1, mepc
	addi	t1, t1, 4			# past the ecall
	csrw	mepc, t1
	li	a0, 0				# SBI_SUCCESS
	li	a1, 0
	j	fw_trap_return
	.size fw_sbi_time, .-fw_sbi_time

# fw_irq: an interrupt (t0 = mcause). The M timer fired for the kernel's
# set_timer deadline: mask it (mtimecmp stays; MTIP stays pending until the
# next set_timer) and raise the S timer interrupt. Anything else is fatal.
	.globl fw_irq
	.type fw_irq, @function
fw_irq:
	slli	t1, t0, 1
	srli	t1, t1, 1			# the interrupt code
	li	t2, IRQ_M_TIMER
	bne	t1, t2, fw_fail_irq
	li	t1, MIP_MTIP
	csrc	mie, t1
	li	t1, MIP_STIP
	csrs	mip, t1
	j	fw_trap_return
	.size fw_irq, .-fw_irq

# fw_trap_return: back to the interrupted context (the frame fw_trap_entry
# saved), at mepc.
	.globl fw_trap_return
	.type fw_trap_return, @function
fw_trap_return:
	ld	t0, 0(sp)
	ld	t1, 8(sp)
	ld	t2, 16(sp)
	ld	t3, 24(sp)
	addi	sp, sp, FW_FRAME
	csrrw	sp, mscratch, sp
	mret
	.size fw_trap_return, .-fw_trap_return

# fw_redirect_to_s: hand the trap (cause in t0) to the S-mode handler as if it
# had been delegated (privileged spec, "Supervisor Trap Handling"): fill in
# sepc/scause/stval, move the previous privilege and interrupt enable into
# SPP/SPIE, clear SIE, then mret to stvec in S-mode.
	.globl fw_redirect_to_s
	.type fw_redirect_to_s, @function
fw_redirect_to_s:
	csrw	scause, t0
	csrr	t1, mepc
	csrw	sepc, t1
	csrr	t1, mtval
	csrw	stval, t1
	csrr	t1, stvec
	andi	t1, t1, -4			# exceptions use the base even when vectored
	csrw	mepc, t1

	csrr	t1, mstatus
	# MPP is U (0) or S (1) here, so shifting it down gives SPP directly.
	srli	t2, t1, SR_MPP_SHIFT
	andi	t2, t2, 1
	slli	t2, t2, SR_SPP_SHIFT
	andi	t3, t1, SR_SIE			# old SIE becomes SPIE (bit 1 -> bit 5)
	slli	t3, t3, 4
	or	t2, t2, t3
	li	t3, SR_SPP | SR_SPIE | SR_SIE | SR_MPP
	not	t3, t3
	and	t1, t1, t3
	or	t1, t1, t2
	li	t3, SR_MPP_S			# mret returns to S-mode
	or	t1, t1, t3
	csrw	mstatus, t1

	ld	t0, 0(sp)
	ld	t1, 8(sp)
	ld	t2, 16(sp)
	ld	t3, 24(sp)
	addi	sp, sp, FW_FRAME
	csrrw	sp, mscratch, sp
	mret
	.size fw_redirect_to_s, .-fw_redirect_to_s

# fw_fail_cause / fw_fail_irq: end the run on a trap we cannot handle (t0 =
# mcause), with a code that names the cause.
	.globl fw_fail_cause
	.type fw_fail_cause, @function
fw_fail_cause:
	andi	t0, t0, 0xff
	li	t1, FW_FAIL_CAUSE
	or	t0, t0, t1
	j	fw_halt
	.size fw_fail_cause, .-fw_fail_cause

	.globl fw_fail_irq
	.type fw_fail_irq, @function
fw_fail_irq:
	andi	t0, t0, 0x7f
	li	t1, FW_FAIL_IRQ
	or	t0, t0, t1
	j	fw_halt
	.size fw_fail_irq, .-fw_fail_irq

# fw_halt: end the run with exit code t0, on either machine it runs on:
# write (t0 << 1) | 1 to tohost (HTIF exit; trapscope stops at this store),
# then, for QEMU virt, which has no HTIF, store to its test device
# ("sifive,test0" at VIRT_TEST): 0x5555 powers off with status 0, 0x3333 |
# code << 16 with status `code` (16 bits; every firmware code fits). Then
# wait for the host to stop the hart.
	.globl fw_halt
	.type fw_halt, @function
fw_halt:
	slli	t0, t0, 1
	ori	t0, t0, 1
	la	t1, tohost
	sd	t0, 0(t1)
	srli	t0, t0, 1			# the code again
	li	t1, VIRT_TEST_PASS
	beqz	t0, 1f
	slli	t1, t0, 16
	li	t2, VIRT_TEST_FAIL
	or	t1, t1, t2
1:
	li	t2, VIRT_TEST
	sw	t1, 0(t2)
2:	j	2b
	.size fw_halt, .-fw_halt

# HTIF mailbox: the host watches tohost; fromhost is unused but conventional.
	.section .tohost, "aw", @progbits
	.balign 8
	.globl tohost
	.type tohost, @object
tohost:
	.dword 0
	.size tohost, .-tohost
	.globl fromhost
	.type fromhost, @object
fromhost:
	.dword 0
	.size fromhost, .-fromhost

	.section .fw.bss, "aw", @nobits
	.balign 16
	.type fw_stack, @object
fw_stack:
	.skip 4096
	.size fw_stack, .-fw_stack
	.globl fw_stack_top
fw_stack_top:
	# The scratch area (minikernel-defs.inc) sits just above the stack; only
	# the AMO-emulating entry (zalrsc-fw.S) uses it.
	.skip FW_SCRATCH_SIZE

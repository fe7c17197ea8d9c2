# traps.S: the exception vector table, the handlers for traps the benchmark
# never takes, and the kernel's SBI call.
#
# Every handler except do_trap_ecall_u (syscall.S), the vector first-use
# case of do_trap_insn_illegal, a probe's breakpoint (do_trap_break,
# zalrsc-kprobes.S) and, in minikernel-sv39.elf, do_page_fault
# (zz-pagefault.S) ends the run: an unexpected trap is a loud guest bug.
# The per-cause handlers keep Linux's names so a trace of a stray trap reads
# like a kernel's.
#
# Kernel functions here are written as compiled C with frame pointers would
# be (CONFIG_FRAME_POINTER, which the stack walker in seed 003 relies on):
# save ra and s0, point s0 at the frame.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.data, "aw", @progbits
	.balign 8
# excp_vect_table[scause] -> handler(struct pt_regs *). Causes past the end
# go to do_trap_unknown (checked in handle_exception). Read-only once the
# kernel runs (Linux would say __ro_after_init): riscv_v_setup (vector.S)
# rewrites the ecall-from-U slot at boot when the hart has V.
	.globl excp_vect_table
	.type excp_vect_table, @object
excp_vect_table:
	.dword do_trap_insn_misaligned		# 0
	.dword do_trap_insn_fault		# 1
	.dword do_trap_insn_illegal		# 2
	.dword do_trap_break			# 3
	.dword do_trap_load_misaligned		# 4
	.dword do_trap_load_fault		# 5
	.dword do_trap_store_misaligned	# 6
	.dword do_trap_store_fault		# 7
	.dword do_trap_ecall_u			# 8
	.dword do_trap_ecall_s			# 9
	.dword do_trap_unknown			# 10 reserved
	.dword do_trap_ecall_m			# 11
	.dword do_page_fault			# 12 instruction page fault
	.dword do_page_fault			# 13 load page fault
	.dword do_trap_unknown			# 14 reserved
	.dword do_page_fault			# 15 store/AMO page fault
	.globl excp_vect_table_end
excp_vect_table_end:
	.size excp_vect_table, .-excp_vect_table
.if (excp_vect_table_end - excp_vect_table) != NR_EXCEPTION_CAUSES * RISCV_SZPTR
	.error "excp_vect_table must have one entry per cause"
.endif

	.section .kernel.text, "ax", @progbits

# FATAL_TRAP name: a per-cause handler the minikernel does not implement;
# it reports through do_trap_unknown, which reads the cause from pt_regs.
.macro FATAL_TRAP name
	.globl \name
	.type \name, @function
\name:
	j	do_trap_unknown
	.size \name, .-\name
.endm

	FATAL_TRAP do_trap_insn_misaligned
	FATAL_TRAP do_trap_insn_fault
	FATAL_TRAP do_trap_load_misaligned
	FATAL_TRAP do_trap_load_fault
	FATAL_TRAP do_trap_store_misaligned
	FATAL_TRAP do_trap_store_fault
	FATAL_TRAP do_trap_ecall_s
	FATAL_TRAP do_trap_ecall_m
.ifndef SV39 ; FATAL_TRAP do_page_fault ; .endif # sv39: zz-pagefault.S

# do_trap_insn_illegal(regs): an illegal instruction. From U-mode it may be
# a program's first vector instruction, which traps because its sstatus.VS
# is still Off: riscv_v_first_use_handler (vector.S) then gives the task a
# vector context and the instruction runs again after the return. Anything
# else is fatal, as before (Linux would send SIGILL; with one process that
# ends the run the same way).
	.globl do_trap_insn_illegal
	.type do_trap_insn_illegal, @function
do_trap_insn_illegal:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	a5, PT_STATUS(a0)
	andi	a5, a5, SR_SPP
	bnez	a5, 1f				# from the kernel: an oops
	csrsi	sstatus, SR_SIE			# local_irq_enable()
	call	riscv_v_first_use_handler	# (regs) -> handled?
	csrci	sstatus, SR_SIE			# local_irq_disable()
	beqz	a0, 1f
	mv	a0, s1
	call	irqentry_exit_to_user_mode	# (regs): exit work, V restore
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
1:
	mv	a0, s1
	j	do_trap_unknown			# does not return
	.size do_trap_insn_illegal, .-do_trap_insn_illegal

# do_trap_unknown(regs): end the run with EXIT_USER_FAULT | cause for a trap
# from U-mode, EXIT_KERNEL_FAULT | cause for one taken in the kernel.
	.globl do_trap_unknown
	.type do_trap_unknown, @function
do_trap_unknown:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, PT_STATUS(a0)
	ld	a2, PT_CAUSE(a0)
	andi	a5, a5, SR_SPP
	andi	a2, a2, 0xff
	ori	a2, a2, EXIT_USER_FAULT
	beqz	a5, 1f
	xori	a2, a2, EXIT_USER_FAULT | EXIT_KERNEL_FAULT
1:
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	li	a1, SBI_SRST_REASON_FAILURE
	call	sbi_system_reset
2:	j	2b				# not reached: the reset ends the run
	.size do_trap_unknown, .-do_trap_unknown

# do_irq(regs) is in timer.S.

# sbi_system_reset(type, reason, code): SBI SRST call; see fw.S for how the
# firmware turns it into the run's exit code. Returns only if the SBI
# refused the call (a0 = SBI error), as the SBI spec allows.
	.globl sbi_system_reset
	.type sbi_system_reset, @function
sbi_system_reset:
	li	a7, SBI_EXT_SRST
	li	a6, SBI_SRST_FID_RESET
	ecall
	ret
	.size sbi_system_reset, .-sbi_system_reset

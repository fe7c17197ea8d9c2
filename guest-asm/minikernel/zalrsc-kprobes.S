# zalrsc-kprobes.S: the breakpoint trap, as far as probes need it (seed 004,
# patch 1: "kprobes and uprobes reject a probe inside an LR/SC sequence,
# where the breakpoint trap drops the reservation and the loop never
# completes").
#
# trapscope places probes itself: when execution reaches a probed pc the
# machine raises a breakpoint exception (cause 3, epc = that pc) before the
# instruction runs, and runs the instruction once when the handler returns
# to the same pc. That is a kprobe as the kernel sees it, minus the text
# patching: Linux writes an ebreak over the instruction, and on the trap
# kprobe_breakpoint_handler finds the kprobe for that address, runs its
# handlers and single-steps a copy of the original instruction out of line.
# Here the original is still in the text, so "not an ebreak at epc" is
# what tells a probe from a real ebreak, and the machine does the single
# step. medeleg bit 3 (fw.S) brings the trap straight to S-mode.
#
# The trap itself is the point of seed 004's patch 1: taking it (and the
# sret, and ret_from_exception's sc.d) clears the hart's reservation. With a
# probe on cmpxchg_probe_site or futex_cmpxchg_probe_site
# (zalrsc-atomics.S), between an lr and its sc, every sc fails: arch_cmpxchg
# spins forever (trapscope's livelock detector ends the run), and
# futex_atomic_cmpxchg_inatomic gives up with -EAGAIN after 128 hits.
# Patch 1 makes register_kprobe refuse such an address: with it applied a
# scenario would not place the probe there at all.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-atomics.inc"

	.section .kernel.text, "ax", @progbits

# do_trap_break(regs): excp_vect_table[3]. A probe, from the kernel
# (kprobe) or from U-mode (uprobe), is counted and the trap returns to epc
# unchanged; from U-mode the exit work runs first, as for any trap from
# user mode (irqentry_exit_to_user_mode). A real ebreak ends the run as
# before (do_trap_unknown: 0x203 from the kernel, 0x103 from U-mode, where
# Linux would oops or send SIGTRAP).
	.globl do_trap_break
	.type do_trap_break, @function
do_trap_break:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	call	kprobe_breakpoint_handler	# (regs) -> a probe?
	beqz	a0, 1f
	ld	a5, PT_STATUS(s1)
	andi	a5, a5, SR_SPP
	bnez	a5, 2f				# kprobe: straight back
	mv	a0, s1
	call	irqentry_exit_to_user_mode	# uprobe: exit work first
2:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
1:
	mv	a0, s1
	j	do_trap_unknown			# does not return
	.size do_trap_break, .-do_trap_break

# kprobe_breakpoint_handler(regs) -> 1 if the breakpoint is a probe (counted
# in stat_probe_hits; regs->epc is left alone, so the sret goes back to the
# probed instruction), 0 for an ebreak or c.ebreak in the text. No MMU, so
# reading the text at epc cannot fault; epc may be 2-byte aligned (RVC).
	.globl kprobe_breakpoint_handler
	.type kprobe_breakpoint_handler, @function
kprobe_breakpoint_handler:
	ld	a5, PT_EPC(a0)
	lhu	a4, 0(a5)
	li	a3, INSN_C_EBREAK
	beq	a4, a3, 8f
	li	a3, INSN_EBREAK & 0xffff
	bne	a4, a3, 1f
	lhu	a4, 2(a5)
	li	a3, INSN_EBREAK >> 16
	beq	a4, a3, 8f
1:
	la	a5, stat_probe_hits
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	li	a0, 1
	ret
8:
	li	a0, 0
	ret
	.size kprobe_breakpoint_handler, .-kprobe_breakpoint_handler

# syscall-arch.S: the system call table of RISC-V's entry before generic
# entry (entry-arch.S). 5.x's handle_syscall called sys_*(a0, ..., a5) with
# the arguments in registers, so the table holds register-ABI handlers:
# getppid and sched_yield take no argument and the minikernel's own serve
# as they are; exit has sys_exit_arch; prctl has sys_prctl_arch (no syscall
# user dispatch before generic entry). Every other implemented call goes
# through sys_ptregs_shim to the minikernel's pt_regs-ABI handler.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-arch-entry.inc"

	.section .kernel.text, "ax", @progbits

# sys_exit_arch(error_code): sys_exit with the status in a0, as 5.x's table
# called it; the run ends with that status (see sys_exit in syscall.S).
	.globl sys_exit_arch
	.type sys_exit_arch, @function
sys_exit_arch:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	andi	a2, a0, 0xff
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	snez	a1, a2				# nonzero status: reason "failure"
	call	sbi_system_reset
1:	j	1b				# do_exit() does not return
	.size sys_exit_arch, .-sys_exit_arch

# sys_prctl_arch(option, ...): a 5.x kernel has no
# PR_SET_SYSCALL_USER_DISPATCH (it needs CONFIG_GENERIC_ENTRY) and answers
# -EINVAL; any other option goes to the minikernel's sys_prctl.
	.globl sys_prctl_arch
	.type sys_prctl_arch, @function
sys_prctl_arch:
	li	t1, ARCH_PR_SET_SYSCALL_USER_DISPATCH
	beq	a0, t1, 1f
	j	sys_ptregs_shim
1:
	li	a0, -EINVAL
	ret
	.size sys_prctl_arch, .-sys_prctl_arch

# sys_ptregs_shim(): glue, not 5.x. Called from handle_syscall_arch with sp
# at the pt_regs and a7 the (checked) number, it tail-calls the
# minikernel's pt_regs-ABI handler for that number, so that whatever
# sys_call_table holds at run time (atomics_setup rewrites slot 244 at
# boot) is what runs. Its first argument comes from pt_regs->orig_a0, as
# the handlers expect. 7 instructions per call.
	.globl sys_ptregs_shim
	.type sys_ptregs_shim, @function
sys_ptregs_shim:
	mv	a0, sp
	la	a5, sys_call_table
	slli	a4, a7, RISCV_LGPTR
	add	a5, a5, a4
	ld	a5, 0(a5)
	jr	a5				# a5 is no link register: no RAS hint
	.size sys_ptregs_shim, .-sys_ptregs_shim

	.section .kernel.rodata, "a", @progbits
	.balign 8
# sys_call_table_arch[nr] -> handler(a0, ..., a5), NR_syscalls entries.
# ARCH_SLOT nr, handler: fill with sys_ni_syscall up to slot nr, then
# handler (slots in increasing order).
.macro ARCH_SLOT nr, handler
	.rept \nr - (. - sys_call_table_arch) / RISCV_SZPTR
	.dword sys_ni_syscall
	.endr
	.dword \handler
.endm
	.globl sys_call_table_arch
	.type sys_call_table_arch, @object
sys_call_table_arch:
	ARCH_SLOT SYS_exit, sys_exit_arch
	ARCH_SLOT SYS_sched_yield, sys_sched_yield	# no argument
	ARCH_SLOT SYS_rt_sigaction, sys_ptregs_shim
	ARCH_SLOT SYS_rt_sigreturn, sys_ptregs_shim
	ARCH_SLOT SYS_prctl, sys_prctl_arch
	ARCH_SLOT SYS_getppid, sys_getppid		# no argument
	ARCH_SLOT SYS_clone, sys_ptregs_shim
	ARCH_SLOT SYS_atomics_wake, sys_ptregs_shim
	ARCH_SLOT SYS_futex_cmpxchg, sys_ptregs_shim
	ARCH_SLOT SYS_cmpxchg_loop, sys_ptregs_shim
	ARCH_SLOT SYS_seccomp, sys_ptregs_shim
	ARCH_SLOT SYS_rseq, sys_ptregs_shim
	.rept NR_syscalls - (. - sys_call_table_arch) / RISCV_SZPTR
	.dword sys_ni_syscall
	.endr
	.size sys_call_table_arch, .-sys_call_table_arch
.if (. - sys_call_table_arch) != NR_syscalls * RISCV_SZPTR
	.error "sys_call_table_arch must have NR_syscalls entries"
.endif

# vector-syscall.S: the syscall path of a kernel built with vector support
# (CONFIG_RISCV_ISA_V), in three versions: mainline, Andy Chiu's v3 of
# "riscv: optimize Vector context restore" (seed 001) and v3 with the
# __riscv_v_vstate_check_gt fix from the same thread. All three come from one
# template, include/minikernel-syscall-v.inc; vector.S's header has the
# vector-state sequences they produce.
#
# Why copies: with knob_has_vector = 0 the minikernel must run exactly the
# instructions it ran before vector support existed (a kernel built without
# it), and Linux pays nothing at run time for deciding whether the hart has
# V: has_vector() is a static branch that boot code patches. The minikernel
# makes the same decision once, at boot: riscv_v_setup (vector.S) writes the
# chosen do_trap_ecall_u_* into excp_vect_table[CAUSE_USER_ECALL], and each
# copy calls its own syscall_exit_to_user_mode_*. No instruction on the
# syscall path tests a knob; without V the table keeps do_trap_ecall_u.
#
# Phases: do_trap_ecall_u_v, do_trap_ecall_u_v3, do_trap_ecall_u_v3fix are
# "syscall"; syscall_exit_to_user_mode_v, syscall_exit_to_user_mode_v3 are
# "exit". The vector leaves they call (__riscv_v_vstate_discard,
# __riscv_v_vstate_null, riscv_v_vstate_restore*) are in vector.S; kernel.S
# has the instruction counts per getppid call.
#
# A knob-tested branch on the path would have been simpler, but it would
# have added instructions to the knob_has_vector = 0 path, and a function
# pointer called from do_trap_ecall_u would have added a load and an
# indirect call to every syscall. Patching the exception table costs
# nothing per call: the dispatch in handle_exception loads the handler from
# the table anyway.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

# VFUNC base / VEND base: open and close the function base_<suffix> for the
# copy being assembled (_v, _v3, _v3fix). Only labels and symbol directives
# come from these macros, so every instruction keeps its own line.
.macro VFUNC base
  .if VSTATE_V3 == 0
	.globl \base\()_v
	.type \base\()_v, @function
\base\()_v:
  .elseif VSTATE_V3 == 1
	.globl \base\()_v3
	.type \base\()_v3, @function
\base\()_v3:
  .else
	.globl \base\()_v3fix
	.type \base\()_v3fix, @function
\base\()_v3fix:
  .endif
.endm

.macro VEND base
  .if VSTATE_V3 == 0
	.size \base\()_v, .-\base\()_v
  .elseif VSTATE_V3 == 1
	.size \base\()_v3, .-\base\()_v3
  .else
	.size \base\()_v3fix, .-\base\()_v3fix
  .endif
.endm

	.section .kernel.text, "ax", @progbits

	.set VSTATE_V3, 0
	.include "minikernel-syscall-v.inc"
	.set VSTATE_V3, 1
	.include "minikernel-syscall-v.inc"
	.set VSTATE_V3, 2
	.include "minikernel-syscall-v.inc"

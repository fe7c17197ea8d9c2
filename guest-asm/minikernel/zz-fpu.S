# zz-fpu.S: the FP half of the context switch, lazy as Linux's: a task's f0-f31
# and fcsr are saved only if it dirtied them, and loaded back only if it has
# FP state at all. Modelled by function on arch/riscv/include/asm/switch_to.h
# (__switch_to_fpu, fstate_save, fstate_restore, __fstate_clean) and
# arch/riscv/kernel/fpu.S (__fstate_save, __fstate_restore); the code is the
# minikernel's own.
#
# A task's FP state lives in two places. Its registers, while it runs, are
# the hart's; while it does not, they are in task->thread.fstate
# (TASK_FSTATE, minikernel-defs.inc). How current they are is the FS field of
# its user status, pt_regs->status at the top of its kernel stack: the entry
# (minikernel-entry.inc) turns sstatus.FS Off for the kernel's own run and
# keeps the user's value there, so a Dirty FS means "the registers on the
# hart are newer than thread.fstate" (priv spec, "Extension Context Status").
#
#   __switch_to_fpu(prev, next)      schedule() calls it before the vector
#                                    half and __switch_to (Linux: switch_to(),
#                                    under has_fpu())
#     fstate_save(prev, regs):       prev's FS Dirty: __fstate_save, then
#                                    FS Clean (the copy is current)
#     fstate_restore(next, regs):    next's FS not Off: __fstate_restore,
#                                    then FS Clean
#
# So a task that never writes an f register between two switches costs one
# load of its state per switch and no store; one that does costs both. The
# kernel itself runs with FS Off: __fstate_save and __fstate_restore turn it
# on for the copy (FS = Dirty: csrs of both bits) and off again.
#
# The file is named to sort last in minikernel/*.S (build.sh links in glob
# order), so that the kernel text of the other files keeps its addresses but
# for the call in schedule().
#
# Knob (user data): knob_use_fp, default 0. 1: the context-switch benchmark's
# tasks (userctx.S) write f registers between two yields (fp_touch).
# Counters: stat_fstate_save, stat_fstate_restore (one per copy).
#
# A task made by clone() starts with a zeroed thread.fstate and its parent's
# FS (Linux copies the parent's saved state; the benchmark's parent has not
# touched FP when it clones).

	.include "minikernel-defs.inc"

# FSTATE_CLEAN regs: regs->status.FS = Clean (Linux's __fstate_clean).
# Clobbers a4, a5.
.macro FSTATE_CLEAN regs
	ld	a5, PT_STATUS(\regs)
	li	a4, ~SR_FS
	and	a5, a5, a4
	li	a4, SR_FS_CLEAN
	or	a5, a5, a4
	sd	a5, PT_STATUS(\regs)
.endm

	.section .kernel.text, "ax", @progbits

# __switch_to_fpu(prev = a0, next = a1).
	.globl __switch_to_fpu
	.type __switch_to_fpu, @function
__switch_to_fpu:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0				# prev
	mv	s3, a1				# next
	# fstate_save(prev, task_pt_regs(prev)): only Dirty state is copied.
	ld	a5, TASK_STACK(s1)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	s2, a5, a4			# task_pt_regs(prev)
	ld	a5, PT_STATUS(s2)
	li	a4, SR_FS
	and	a5, a5, a4
	bne	a5, a4, 1f			# FS != Dirty: the copy is current
	mv	a0, s1
	call	__fstate_save
	la	a5, stat_fstate_save
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	FSTATE_CLEAN s2
1:
	# fstate_restore(next, task_pt_regs(next)): any FP state is loaded.
	ld	a5, TASK_STACK(s3)
	li	a4, THREAD_SIZE - PT_SIZE_ON_STACK
	add	s2, a5, a4			# task_pt_regs(next)
	ld	a5, PT_STATUS(s2)
	li	a4, SR_FS
	and	a5, a5, a4
	beqz	a5, 2f				# FS Off: no FP state to load
	mv	a0, s3
	call	__fstate_restore
	la	a5, stat_fstate_restore
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	FSTATE_CLEAN s2
2:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size __switch_to_fpu, .-__switch_to_fpu

# __fstate_save(task = a0): f0-f31 and fcsr into task->thread.fstate. FS is
# Off in the kernel, so it is turned on around the copy.
	.globl __fstate_save
	.type __fstate_save, @function
__fstate_save:
	li	t1, SR_FS
	csrs	sstatus, t1
	frcsr	t0
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fsd	f\n, TASK_FSTATE + \n * 8(a0)
	.endr
	sd	t0, TASK_FSTATE_FCSR(a0)
	csrc	sstatus, t1
	ret
	.size __fstate_save, .-__fstate_save

# __fstate_restore(task = a0): f0-f31 and fcsr from task->thread.fstate.
	.globl __fstate_restore
	.type __fstate_restore, @function
__fstate_restore:
	li	t1, SR_FS
	csrs	sstatus, t1
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fld	f\n, TASK_FSTATE + \n * 8(a0)
	.endr
	ld	t0, TASK_FSTATE_FCSR(a0)
	fscsr	t0
	csrc	sstatus, t1
	ret
	.size __fstate_restore, .-__fstate_restore

	.section .kernel.data, "aw", @progbits
	.balign 8
	.globl stat_fstate_save
	.type stat_fstate_save, @object
stat_fstate_save:
	.dword 0
	.size stat_fstate_save, .-stat_fstate_save
	.globl stat_fstate_restore
	.type stat_fstate_restore, @object
stat_fstate_restore:
	.dword 0
	.size stat_fstate_restore, .-stat_fstate_restore

# ---- user side -------------------------------------------------------------
	.section .user.text, "ax", @progbits

# fp_touch(): with knob_use_fp, count this call in fs0 (fs0 += 1.0), as a
# task computing in floating point between two yields would; FS becomes
# Dirty. Each task's fs0 counts its own calls only if the switch keeps each
# task's f registers apart (tests/machine/fp.rs checks it).
	.globl fp_touch
	.type fp_touch, @function
fp_touch:
	ld	a5, knob_use_fp
	beqz	a5, 1f
	fcvt.d.l fs1, a5			# 1.0 (knob_use_fp = 1)
	fadd.d	fs0, fs0, fs1
1:
	ret
	.size fp_touch, .-fp_touch

	.section .user.data, "aw", @progbits
	.balign 8
	.globl knob_use_fp
	.type knob_use_fp, @object
knob_use_fp:
	.dword 0
	.size knob_use_fp, .-knob_use_fp

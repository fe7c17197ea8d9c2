# fs_state: mstatus.FS (bits 14:13), the FP unit's context status.
#
# Priv spec §3.1.6.6 ("Extension Context Status in mstatus Register"):
# * FS is 0 Off, 1 Initial, 2 Clean, 3 Dirty.
# * With FS Off, an instruction that reads or writes FP state (f registers,
#   fflags, frm, fcsr) raises illegal instruction. A trapping instruction
#   changes nothing, so FS stays Off.
# * With FS Initial or Clean, an instruction that changes FP state makes FS
#   Dirty; SD (bit 63) is then 1.
# * The spec lets an implementation mark Dirty conservatively. The machine
#   under trapscope (and so this contract) tracks it exactly: an f store
#   only reads FP state and leaves FS as it was.
# tests/machine/fp.rs reads the events trapscope reports for the labels below
# (fs_off_fadd, fs_first_write).
#
# Checks (M-mode only; medeleg = 0, so every trap goes to st_m_trap):
#    1  at reset: FS == 0
#    2  FS Off: fadd.d raises illegal: one trap, mcause == 2
#    3  ... mepc == fs_off_fadd
#    4  ... mtval == its encoding
#    5  FS Off: fld, fsd and `csrr fcsr` each raise illegal (4 traps in all)
#    6  ... mepc of the `csrr fcsr` is fs_off_fcsr, and a0 kept its value
#    7  ... FS is still Off
#    8  FS Initial: fsd (a store) leaves FS Initial, SD == 0
#    9  FS Initial: fmv.d.x (fs_first_write) moves the bits
#   10  ... and has made FS Dirty
#   11  ... and SD == 1
#   12  FS Clean: fld (fs_clean_load) makes FS Dirty
#   13  FS Clean: csrw fcsr (fs_csr_write) makes FS Dirty, fcsr reads back
#   14  no trap in checks 8-13

        .include "selftest.inc"
        ST_START

        .equ SENTINEL, 0x5a5a1234
        .equ BITS, 0x400921fb54442d18   # pi as a double

# FS_TO value: mstatus.FS = value (csrc, then csrs unless 0).
.macro FS_TO value
        li      t0, MSTATUS_FS
        csrc    mstatus, t0
.if \value
        li      t0, (\value) << MS_FS
        csrs    mstatus, t0
.endif
.endm
# CHECK_FS n, value: check n holds iff mstatus.FS == value.
.macro CHECK_FS n, value
        csrr    a1, mstatus
        CHECK_FIELD \n, a1, MS_FS, 2, \value
.endm

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        csrr    a1, mstatus
        CHECK_FIELD 1, a1, MS_FS, 2, 0

        # ---- FS Off: FP instructions are illegal ----
        .globl fs_off_fadd
fs_off_fadd:
        fadd.d  ft0, ft1, ft2
        CHECK_COUNT 2, st_m_area, 1
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 3, st_m_area, 0, TE_EPC, fs_off_fadd
        CHECK_LOG_INSN 4, st_m_area, 0, fs_off_fadd
        la      a2, fp_word
        fld     ft0, 0(a2)
        fsd     ft0, 0(a2)
        li      a0, SENTINEL
        .globl fs_off_fcsr
fs_off_fcsr:
        csrr    a0, fcsr
        CHECK_COUNT 5, st_m_area, 4
        CHECK_LOG 5, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG 5, st_m_area, 2, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG 5, st_m_area, 3, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 6, st_m_area, 3, TE_EPC, fs_off_fcsr
        CHECK_EQI 6, a0, SENTINEL
        CHECK_FS 7, 0

        # ---- FS Initial/Clean: the first write makes it Dirty ----
        LOG_RESET st_m_area
        FS_TO   1
        la      a2, fp_word
        fsd     ft3, 8(a2)
        CHECK_FS 8, 1
        csrr    a1, mstatus
        CHECK_FIELD 8, a1, MS_SD, 1, 0
        li      t0, BITS
        .globl fs_first_write
fs_first_write:
        fmv.d.x ft4, t0                 # mid-block: plain instructions follow
        fmv.x.d a3, ft4
        li      t0, BITS
        CHECK_EQ 9, a3, t0
        CHECK_FS 10, 3
        csrr    a1, mstatus
        CHECK_FIELD 11, a1, MS_SD, 1, 1

        FS_TO   2
        la      a2, fp_word
        .globl fs_clean_load
fs_clean_load:
        fld     ft5, 0(a2)
        CHECK_FS 12, 3

        FS_TO   2
        li      t1, 0x21                # frm = RTZ (1), fflags = NX
        .globl fs_csr_write
fs_csr_write:
        csrw    fcsr, t1
        CHECK_FS 13, 3
        csrr    a3, fcsr
        CHECK_EQI 13, a3, 0x21
        CHECK_COUNT 14, st_m_area, 0

        FS_TO   0
        PASS
        .size test_main, . - test_main

        .data
        .balign 8
fp_word:
        .dword  BITS
        .dword  0

# vector_vs: the VS field around vector instructions and vector CSRs.
#
# Priv spec §3.1.6.6: with VS = Off, any vector instruction or access to a
# vector CSR raises an illegal-instruction exception; an instruction that
# changes vector state (vsetvl* included) sets VS to Dirty, and SD follows.
# V spec §3.4.4 / §6: vsetvli sets vl = min(AVL, VLMAX); §3.6 vlenb = VLEN/8.
# Run with a V unit (trapscope elf --vlen 128, the default).
#
# Checks (all in M-mode):
#    1  VS = Off: vsetvli traps, mcause == 2 (illegal instruction)
#    2  ... mtval == the vsetvli's encoding
#    3  VS = Off: csrr vlenb traps too (cause 2)
#    4  no other trap so far (2 in all)
#    5  VS = Initial: csrr vlenb reads VLEN/8 = 16 (no trap)
#    6  ... and reading a vector CSR leaves VS == Initial (1)
#    7  vsetvli t1, a0=3, e32, m1: vl = min(3, VLMAX = 128*1/32 = 4) = 3
#    8  ... VS == Dirty (3) after it
#    9  ... and mstatus.SD == 1
#   10  csrr vl == 3
#   11  VS set to Clean (2) by software: vmv.v.i (state-changing) -> Dirty
#   12  VS = Clean: vmv.x.s (reads vector state only, writes x) leaves VS Clean
#   13  ... and returns element 0 of v1 = 5 (vmv.v.i v1, 5 above)
#   14  no trap in checks 5-13

        .include "selftest.inc"
        ST_START

        .option push
        .option arch, +v

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        li      t0, MSTATUS_VS
        csrc    mstatus, t0                     # VS = Off
v_off_vsetvli:
        vsetvli t1, zero, e8, m1, ta, ma
v_off_vlenb:
        csrr    t2, vlenb
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_INSN 2, st_m_area, 0, v_off_vsetvli
        CHECK_LOG 3, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_COUNT 4, st_m_area, 2

        LOG_RESET st_m_area
        li      t0, (1 << MS_VS)                # VS = Initial
        csrs    mstatus, t0
        csrr    t2, vlenb
        CHECK_EQI 5, t2, 16
        csrr    t0, mstatus
        CHECK_FIELD 6, t0, MS_VS, 2, 1

        li      a0, 3
        vsetvli t1, a0, e32, m1, ta, ma
        CHECK_EQI 7, t1, 3
        csrr    t0, mstatus
        CHECK_FIELD 8, t0, MS_VS, 2, 3
        CHECK_FIELD 9, t0, MS_SD, 1, 1
        csrr    t2, vl
        CHECK_EQI 10, t2, 3

        li      t0, MSTATUS_VS                  # VS = Clean (2)
        csrc    mstatus, t0
        li      t0, (2 << MS_VS)
        csrs    mstatus, t0
        vmv.v.i v1, 5
        csrr    t0, mstatus
        CHECK_FIELD 11, t0, MS_VS, 2, 3

        li      t0, MSTATUS_VS
        csrc    mstatus, t0
        li      t0, (2 << MS_VS)
        csrs    mstatus, t0
        vmv.x.s a1, v1
        csrr    t0, mstatus
        CHECK_FIELD 12, t0, MS_VS, 2, 2
        CHECK_EQI 13, a1, 5
        CHECK_COUNT 14, st_m_area, 0
        PASS
        .size test_main, . - test_main

        .option pop

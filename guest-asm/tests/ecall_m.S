# ecall_m: an ecall from M-mode is taken in M with cause 11, whatever medeleg
# says.
#
# Priv spec §3.1.15 (mcause): cause 11 = environment call from M-mode.
# §3.1.14 (mepc) and §3.1.6.1 (mstatus on trap entry): MPP = 3 (M),
# MPIE = the old MIE, MIE = 0. §3.3.2 (MRET): with MPP = M, mret stays in M
# and sets MIE = MPIE.
# §3.1.8 (medeleg): traps never move to a less-privileged mode, so an M-mode
# trap ignores medeleg. The second half sets every medeleg bit that sticks
# and ecalls again. The trap must still reach mtvec and not stvec.
#
# Checks:
#    1  M took exactly one trap
#    2  mcause == 11
#    3  mepc == the ecall's address
#    4  mstatus.MPP == 3 (M)
#    5  mstatus.MPIE == 1 (MIE was 1 before the ecall), MIE == 0
#    6  after the recorder's mret: still in M (a second ecall is cause 11)
#       and MIE == 1 again (MIE = MPIE)
#    7  with medeleg = all ones: the M ecall still reaches M (cause 11, epc)
#    8  ... and the S recorder saw nothing

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        # No interrupts exist in this machine, so MIE = 1 is safe. It gives
        # trap entry a 1 to copy into MPIE.
        csrsi   mstatus, MSTATUS_MIE
m_ecall1:
        ecall
        csrr    s0, mstatus             # after mret: MIE must be 1 again
m_ecall2:
        ecall                           # privilege probe: 11 iff still in M
        CHECK_COUNT 1, st_m_area, 2
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_ADDR 3, st_m_area, 0, TE_EPC, m_ecall1
        CHECK_LOG_FIELD 4, st_m_area, 0, MS_MPP, 2, PRV_M
        CHECK_LOG_FIELD 5, st_m_area, 0, MS_MPIE, 1, 1
        CHECK_LOG_FIELD 5, st_m_area, 0, MS_MIE, 1, 0
        CHECK_LOG 6, st_m_area, 1, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_ADDR 6, st_m_area, 1, TE_EPC, m_ecall2
        CHECK_FIELD 6, s0, MS_MIE, 1, 1

        # ---- medeleg all ones: an M-mode trap still stays in M ----
        csrci   mstatus, MSTATUS_MIE
        LOG_RESET st_m_area
        li      t0, -1
        csrw    medeleg, t0             # WARL: whatever bits stick
m_ecall3:
        ecall
        csrw    medeleg, zero
        CHECK_COUNT 7, st_m_area, 1
        CHECK_LOG 7, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_ADDR 7, st_m_area, 0, TE_EPC, m_ecall3
        CHECK_COUNT 8, st_s_area, 0
        PASS
        .size test_main, . - test_main

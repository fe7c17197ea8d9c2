# ecall_s: an ecall from S-mode with no delegation, so it is taken in M.
#
# Priv spec §3.1.8: medeleg is 0 at reset, so the trap goes to M.
# §3.1.15 (mcause): cause 9 = environment call from S-mode. §3.1.14 (mepc):
# mepc = the address of the ecall. §3.1.6.1 (mstatus on trap entry):
# MPP = 1 (S), MPIE = the old MIE, MIE = 0. §3.3.2 (MRET): resumes at mepc
# in the MPP mode and sets MIE = MPIE.
#
# Case A enters S with MIE = 0; case B enters S with MIE = 1. The MIE that
# S runs with is the MPIE that the entering mret had, because MRET sets
# MIE = MPIE (§3.3.2). In case B the M recorder mrets back to S after the
# first ecall. The next instruction is a second ecall, and it must arrive as
# cause 9 again. That shows mret returned to S at mepc + 4.
#
# Checks:
#   case A (MIE = 0 in S)
#    1  M took exactly one trap
#    2  mcause == 9
#    3  mepc == the ecall's address
#    4  mstatus.MPP == 1 (S)
#    5  mstatus.MPIE == 0 (the old MIE)
#    6  mstatus.MIE == 0
#   case B (MIE = 1 in S)
#    7  M took exactly two traps
#    8  first: mcause == 9, mepc == its ecall
#    9  first: MPP == 1, MPIE == 1 (the old MIE), MIE == 0
#   10  second: mcause == 9 (mret returned to S), mepc == the next instruction
#   11  second: MPIE == 1 (mret set MIE = MPIE = 1 in S), MPP == 1
#   12  no trap reached the S recorder (nothing is delegated)

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        # ---- case A: enter S with MPIE = 0, so MIE = 0 in S ----
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        li      t0, MSTATUS_MPIE
        csrc    mstatus, t0
        RESUME_AT sa_ecall, backa
        ENTER_S sa_ecall
backa:
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 3, st_m_area, 0, TE_EPC, sa_ecall
        CHECK_LOG_FIELD 4, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_LOG_FIELD 5, st_m_area, 0, MS_MPIE, 1, 0
        CHECK_LOG_FIELD 6, st_m_area, 0, MS_MIE, 1, 0

        # ---- case B: enter S with MPIE = 1, so MIE = 1 in S ----
        # No interrupts exist in this machine, so MIE = 1 only changes the
        # bit that trap entry saves in MPIE.
        LOG_RESET st_m_area
        li      t0, MSTATUS_MPIE
        csrs    mstatus, t0
        RESUME_AT sb_ecall2, backb
        ENTER_S sb_ecall1
backb:
        CHECK_COUNT 7, st_m_area, 2
        CHECK_LOG 8, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 8, st_m_area, 0, TE_EPC, sb_ecall1
        CHECK_LOG_FIELD 9, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_LOG_FIELD 9, st_m_area, 0, MS_MPIE, 1, 1
        CHECK_LOG_FIELD 9, st_m_area, 0, MS_MIE, 1, 0
        CHECK_LOG 10, st_m_area, 1, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 10, st_m_area, 1, TE_EPC, sb_ecall2
        CHECK_LOG_FIELD 11, st_m_area, 1, MS_MPIE, 1, 1
        CHECK_LOG_FIELD 11, st_m_area, 1, MS_MPP, 2, PRV_S
        CHECK_COUNT 12, st_s_area, 0
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl sa_ecall
        .type sa_ecall, @function
sa_ecall:
        ecall                           # -> M: resume at backa
        ST_UNREACHABLE
        .size sa_ecall, . - sa_ecall

        .globl sb_ecall1
        .type sb_ecall1, @function
sb_ecall1:
        ecall                           # -> M, mret back to S at sb_ecall2
sb_ecall2:
        ecall                           # -> M again as cause 9: resume at backb
        ST_UNREACHABLE
        .size sb_ecall1, . - sb_ecall1

# ecall_u: an ecall from U-mode, delegated to S by medeleg bit 8.
#
# Priv spec §3.1.8 (medeleg): a delegated trap from U is taken in S.
# §4.1.1 (sstatus) and §4.1.7-§4.1.9 (sepc, scause, stval): on entry
# SPP = 0 (came from U), SPIE = the old SIE, SIE = 0, sepc = the address of
# the ecall, scause = 8 (environment call from U-mode).
# §3.3.2 (SRET): returns to sepc in the SPP mode and sets SIE = SPIE.
#
# Run 1 enters U with SIE = 0. Run 2 enters U with SIE = 1, so SPIE must
# record each of the two values. In run 2 the S recorder srets to the
# instruction after the first ecall. That instruction is a second ecall, and it
# must arrive again as cause 8 (from U), not 9 (from S), which shows sret
# returned to U. Each run ends with an ebreak, which is not delegated. It
# reaches M with MPP = U at the address right after the last ecall, so
# execution went on in U.
#
# Checks:
#   run 1 (SIE = 0 in U)
#    1  S took exactly one trap
#    2  scause == 8
#    3  sepc == the ecall's address
#    4  sstatus.SPP == 0 (U)
#    5  sstatus.SPIE == 0 (the old SIE)
#    6  sstatus.SIE == 0
#    7  M took exactly one trap, the final ebreak (mcause 3)
#    8  its mepc == the instruction after the ecall (sret went to sepc + 4)
#    9  its mstatus.MPP == 0 (still U after sret)
#   run 2 (SIE = 1 in U)
#   10  S took exactly two traps
#   11  first: scause == 8
#   12  first: sepc == its ecall
#   13  first: SPP == 0
#   14  first: SPIE == 1 (the old SIE)
#   15  first: SIE == 0
#   16  second: scause == 8 (sret returned to U, not S)
#   17  second: sepc == the instruction after the first ecall
#   18  second: SPIE == 1 (sret set SIE = SPIE = 1 in U)
#   19  second: SIE == 0, SPP == 0
#   20  M took one trap, the ebreak, with mepc after the second ecall and MPP == U
#   21  back in M: mstatus.SIE == 1 (the last sret set SIE from SPIE = 1),
#       SPIE == 1 (§3.3.2: SRET sets SPIE = 1)

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, 1 << CAUSE_ECALL_U
        csrw    medeleg, t0

        # ---- run 1: SIE = 0 ----
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        li      t0, MSTATUS_SIE
        csrc    mstatus, t0
        RESUME_AT u1_brk, back1, 1
        ENTER_U u1_ecall
back1:
        CHECK_COUNT 1, st_s_area, 1
        CHECK_LOG 2, st_s_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 3, st_s_area, 0, TE_EPC, u1_ecall, 1
        CHECK_LOG_FIELD 4, st_s_area, 0, MS_SPP, 1, 0
        CHECK_LOG_FIELD 5, st_s_area, 0, MS_SPIE, 1, 0
        CHECK_LOG_FIELD 6, st_s_area, 0, MS_SIE, 1, 0
        CHECK_COUNT 7, st_m_area, 1
        CHECK_LOG 7, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 8, st_m_area, 0, TE_EPC, u1_brk, 1
        CHECK_LOG_FIELD 9, st_m_area, 0, MS_MPP, 2, PRV_U

        # ---- run 2: SIE = 1 ----
        # No interrupts exist in this machine, so setting SIE only changes
        # the bit that trap entry and sret must move around.
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        li      t0, MSTATUS_SIE
        csrs    mstatus, t0
        RESUME_AT u2_brk, back2, 1
        ENTER_U u2_ecall1
back2:
        CHECK_COUNT 10, st_s_area, 2
        CHECK_LOG 11, st_s_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 12, st_s_area, 0, TE_EPC, u2_ecall1, 1
        CHECK_LOG_FIELD 13, st_s_area, 0, MS_SPP, 1, 0
        CHECK_LOG_FIELD 14, st_s_area, 0, MS_SPIE, 1, 1
        CHECK_LOG_FIELD 15, st_s_area, 0, MS_SIE, 1, 0
        CHECK_LOG 16, st_s_area, 1, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 17, st_s_area, 1, TE_EPC, u2_ecall2, 1
        CHECK_LOG_FIELD 18, st_s_area, 1, MS_SPIE, 1, 1
        CHECK_LOG_FIELD 19, st_s_area, 1, MS_SIE, 1, 0
        CHECK_LOG_FIELD 19, st_s_area, 1, MS_SPP, 1, 0
        CHECK_COUNT 20, st_m_area, 1
        CHECK_LOG 20, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 20, st_m_area, 0, TE_EPC, u2_brk, 1
        CHECK_LOG_FIELD 20, st_m_area, 0, MS_MPP, 2, PRV_U
        csrr    a0, mstatus
        CHECK_FIELD 21, a0, MS_SIE, 1, 1
        CHECK_FIELD 21, a0, MS_SPIE, 1, 1
        PASS
        .size test_main, . - test_main

# ---- U-mode code (must live in the user region) ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u1_ecall
        .type u1_ecall, @function
u1_ecall:
        ecall                           # -> S (delegated), sret to u1_brk
u1_brk:
        ebreak                          # -> M (not delegated): resume at back1
        ST_UNREACHABLE
        .size u1_ecall, . - u1_ecall

        .globl u2_ecall1
        .type u2_ecall1, @function
u2_ecall1:
        ecall                           # -> S, sret to u2_ecall2
u2_ecall2:
        ecall                           # -> S again: cause 8 only if still in U
u2_brk:
        ebreak                          # -> M: resume at back2
        ST_UNREACHABLE
        .size u2_ecall1, . - u2_ecall1

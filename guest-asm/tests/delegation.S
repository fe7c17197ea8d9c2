# delegation: medeleg sends a trap to S only if its bit is set and the trap
# comes from S or U.
#
# Priv spec §3.1.8 (machine trap delegation registers):
# * a trap whose medeleg bit is set, taken while in S or U, goes to S
#   (scause/sepc/stval/sstatus.SPP, stvec).
# * with the bit clear it goes to M.
# * a delegated trap taken in S stays in S (SPP = 1).
# * traps never move to a less-privileged mode: an exception raised in M is
#   taken in M even if its medeleg bit is set.
# The two exceptions used are breakpoint (ebreak, cause 3) and illegal
# instruction (`.word 0`, cause 2). The final ecall of each lower-mode phase
# is never delegated: medeleg bits 8 and 9 stay clear. It brings control back
# to M.
# §4.1.1 (sstatus.SPP) and §3.1.6.1 (mstatus.MPP) record the mode the trap
# came from.
#
# Checks:
#    1  medeleg bits 2 and 3 read back as set
#   phase A: U, medeleg[2,3] = 1 -> S
#    2  S took exactly 2 traps, M exactly 1 (the final ecall, cause 8)
#    3  ebreak: scause == 3, sepc == the ebreak
#    4  ... sstatus.SPP == 0 (U)
#    5  illegal: scause == 2, sepc == the instruction, SPP == 0
#   phase B: U, medeleg = 0 -> M
#    6  S took no trap; M took exactly 3
#    7  ebreak: mcause == 3, mepc == the ebreak, MPP == 0 (U)
#    8  illegal: mcause == 2, mepc == the instruction, MPP == 0
#    9  the final ecall: mcause == 8
#   phase C: S, medeleg[2,3] = 1 -> stays in S
#   10  S took exactly 2 traps, M exactly 1 (the final ecall, cause 9)
#   11  ebreak: scause == 3, sepc == the ebreak, SPP == 1 (S)
#   12  illegal: scause == 2, sepc == the instruction, SPP == 1
#   phase D: S, medeleg = 0 -> M
#   13  S took no trap; M took 2: ebreak with mcause == 3, mepc, MPP == 1,
#       then the final ecall (cause 9)
#   phase E: M, medeleg[2,3] = 1 -> still M
#   14  S took no trap; M took exactly 2
#   15  ebreak: mcause == 3, mepc == the ebreak, MPP == 3 (M)
#   16  illegal: mcause == 2, mepc == the instruction, MPP == 3

        .include "selftest.inc"
        ST_START

        .equ DELEG, (1 << CAUSE_ILLEGAL) | (1 << CAUSE_BREAKPOINT)

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, DELEG
        csrw    medeleg, t0
        csrr    a0, medeleg
        andi    a0, a0, DELEG
        CHECK_EQI 1, a0, DELEG

        # ---- A: from U, delegated ----
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT ua_done, back_a, 1
        ENTER_U ua_brk
back_a:
        CHECK_COUNT 2, st_s_area, 2
        CHECK_COUNT 2, st_m_area, 1
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG 3, st_s_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 3, st_s_area, 0, TE_EPC, ua_brk, 1
        CHECK_LOG_FIELD 4, st_s_area, 0, MS_SPP, 1, 0
        CHECK_LOG 5, st_s_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 5, st_s_area, 1, TE_EPC, ua_ill, 1
        CHECK_LOG_FIELD 5, st_s_area, 1, MS_SPP, 1, 0

        # ---- B: from U, not delegated ----
        csrw    medeleg, zero
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT ub_done, back_b, 1
        ENTER_U ub_brk
back_b:
        CHECK_COUNT 6, st_s_area, 0
        CHECK_COUNT 6, st_m_area, 3
        CHECK_LOG 7, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 7, st_m_area, 0, TE_EPC, ub_brk, 1
        CHECK_LOG_FIELD 7, st_m_area, 0, MS_MPP, 2, PRV_U
        CHECK_LOG 8, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 8, st_m_area, 1, TE_EPC, ub_ill, 1
        CHECK_LOG_FIELD 8, st_m_area, 1, MS_MPP, 2, PRV_U
        CHECK_LOG 9, st_m_area, 2, TE_CAUSE, CAUSE_ECALL_U

        # ---- C: from S, delegated -> stays in S ----
        li      t0, DELEG
        csrw    medeleg, t0
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT sc_done, back_c
        ENTER_S sc_brk
back_c:
        CHECK_COUNT 10, st_s_area, 2
        CHECK_COUNT 10, st_m_area, 1
        CHECK_LOG 10, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG 11, st_s_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 11, st_s_area, 0, TE_EPC, sc_brk
        CHECK_LOG_FIELD 11, st_s_area, 0, MS_SPP, 1, 1
        CHECK_LOG 12, st_s_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 12, st_s_area, 1, TE_EPC, sc_ill
        CHECK_LOG_FIELD 12, st_s_area, 1, MS_SPP, 1, 1

        # ---- D: from S, not delegated -> M ----
        csrw    medeleg, zero
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT sd_done, back_d
        ENTER_S sd_brk
back_d:
        CHECK_COUNT 13, st_s_area, 0
        CHECK_COUNT 13, st_m_area, 2
        CHECK_LOG 13, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 13, st_m_area, 0, TE_EPC, sd_brk
        CHECK_LOG_FIELD 13, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_LOG 13, st_m_area, 1, TE_CAUSE, CAUSE_ECALL_S

        # ---- E: from M, bits set -> still M (never to a lower mode) ----
        li      t0, DELEG
        csrw    medeleg, t0
        LOG_RESET st_m_area
        LOG_RESET st_s_area
m_brk:
        ebreak
m_ill:
        .word   0
        csrw    medeleg, zero
        CHECK_COUNT 14, st_s_area, 0
        CHECK_COUNT 14, st_m_area, 2
        CHECK_LOG 15, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 15, st_m_area, 0, TE_EPC, m_brk
        CHECK_LOG_FIELD 15, st_m_area, 0, MS_MPP, 2, PRV_M
        CHECK_LOG 16, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 16, st_m_area, 1, TE_EPC, m_ill
        CHECK_LOG_FIELD 16, st_m_area, 1, MS_MPP, 2, PRV_M
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl sc_brk
        .type sc_brk, @function
sc_brk:
        ebreak                          # delegated: S recorder, SPP = 1
sc_ill:
        .word   0                       # delegated: S recorder
sc_done:
        ecall                           # cause 9, never delegated -> M
        ST_UNREACHABLE
        .size sc_brk, . - sc_brk

        .globl sd_brk
        .type sd_brk, @function
sd_brk:
        ebreak                          # not delegated -> M
sd_done:
        ecall
        ST_UNREACHABLE
        .size sd_brk, . - sd_brk

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl ua_brk
        .type ua_brk, @function
ua_brk:
        ebreak                          # delegated -> S
ua_ill:
        .word   0                       # delegated -> S
ua_done:
        ecall                           # cause 8, not delegated -> M
        ST_UNREACHABLE
        .size ua_brk, . - ua_brk

        .globl ub_brk
        .type ub_brk, @function
ub_brk:
        ebreak                          # not delegated -> M
ub_ill:
        .word   0                       # not delegated -> M
ub_done:
        ecall
        ST_UNREACHABLE
        .size ub_brk, . - ub_brk

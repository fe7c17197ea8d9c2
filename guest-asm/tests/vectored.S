# vectored: in vectored mode, synchronous exceptions still go to BASE.
#
# Priv spec §3.1.7 (mtvec) and §4.1.2 (stvec): MODE = 1 (vectored) sends
# asynchronous interrupts to BASE + 4 * cause, but all synchronous exceptions
# go to BASE, the same as in direct mode. This test checks the synchronous
# half of the rule; interrupts.S checks the other (MSI, MTI and SSI through
# their BASE + 4 * cause entries).
#
# Each vector table is 16 four-byte `j` entries (causes 0-15), aligned to 256
# bytes. That is more than any implementation's vectored-BASE alignment would
# need. Entry 0 (BASE) jumps to the normal recorder. Every other entry jumps
# to a "wrong" stub. The stub notes the cause in its trap area's TA_AUX and then
# goes on into the recorder, so the run still proceeds and M can report it.
# If the exception arrived at BASE + 4 * cause, the stub for that entry runs.
#
# Checks:
#    1  mtvec reads back as BASE | 1 (MODE = vectored kept)
#    2  no M exception landed on a non-BASE entry
#    3  M took exactly 3 traps
#    4  ecall in M: mcause == 11, mepc
#    5  ebreak in M: mcause == 3, mepc
#    6  illegal in M: mcause == 2, mepc
#    7  stvec reads back as BASE | 1
#    8  no S exception landed on a non-BASE entry
#    9  S took exactly 2 traps
#   10  ecall from U (delegated): scause == 8, sepc
#   11  illegal from U (delegated): scause == 2, sepc
#   12  the ebreak from U (not delegated) reached M through the vectored
#       mtvec at BASE: mcause == 3, mepc, and still no M wrong entry

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        # ---- mtvec vectored ----
        la      s0, m_vtab
        ori     s0, s0, 1
        csrw    mtvec, s0
        csrr    a0, mtvec
        CHECK_EQ 1, a0, s0

        LOG_RESET st_m_area
        la      t0, st_m_area
        sd      zero, TA_AUX(t0)
m_ecall:
        ecall                           # cause 11 -> BASE, not BASE + 44
m_brk:
        ebreak                          # cause 3  -> BASE, not BASE + 12
m_ill:
        .word   0                       # cause 2  -> BASE, not BASE + 8
        la      t0, st_m_area
        ld      a0, TA_AUX(t0)
        CHECK_EQI 2, a0, 0
        CHECK_COUNT 3, st_m_area, 3
        CHECK_LOG 4, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_ADDR 4, st_m_area, 0, TE_EPC, m_ecall
        CHECK_LOG 5, st_m_area, 1, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 5, st_m_area, 1, TE_EPC, m_brk
        CHECK_LOG 6, st_m_area, 2, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 6, st_m_area, 2, TE_EPC, m_ill

        # ---- stvec vectored; U traps delegated to S ----
        la      s1, s_vtab
        ori     s1, s1, 1
        csrw    stvec, s1
        csrr    a0, stvec
        CHECK_EQ 7, a0, s1
        li      t0, (1 << CAUSE_ECALL_U) | (1 << CAUSE_ILLEGAL)
        csrw    medeleg, t0             # ebreak (3) stays with M
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        la      t0, st_s_area
        sd      zero, TA_AUX(t0)
        RESUME_AT u_brk, back_u, 1
        ENTER_U u_ecall
back_u:
        csrw    medeleg, zero
        la      t0, st_s_area
        ld      a0, TA_AUX(t0)
        CHECK_EQI 8, a0, 0
        CHECK_COUNT 9, st_s_area, 2
        CHECK_LOG 10, st_s_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 10, st_s_area, 0, TE_EPC, u_ecall, 1
        CHECK_LOG 11, st_s_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 11, st_s_area, 1, TE_EPC, u_ill, 1
        CHECK_COUNT 12, st_m_area, 1
        CHECK_LOG 12, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 12, st_m_area, 0, TE_EPC, u_brk, 1
        la      t0, st_m_area
        ld      a0, TA_AUX(t0)
        CHECK_EQI 12, a0, 0
        PASS
        .size test_main, . - test_main

# ---- M vector table ----
        .balign 256
        .globl m_vtab
        .type m_vtab, @function
m_vtab:
        j       st_m_trap               # BASE: every synchronous exception
        .rept 15
        j       m_vwrong                # BASE + 4 * cause: interrupts only
        .endr
        .size m_vtab, . - m_vtab

        # Note mcause in st_m_area.TA_AUX, then record the trap as usual.
        .type m_vwrong, @function
m_vwrong:
        csrrw   sp, mscratch, sp
        sd      t0, TA_T0(sp)
        csrr    t0, mcause
        sd      t0, TA_AUX(sp)
        ld      t0, TA_T0(sp)
        csrrw   sp, mscratch, sp
        j       st_m_trap
        .size m_vwrong, . - m_vwrong

# ---- S vector table (runs in S, so it lives in the kernel region) ----
        .section .kernel.text, "ax", @progbits
        .balign 256
        .globl s_vtab
        .type s_vtab, @function
s_vtab:
        j       st_s_trap
        .rept 15
        j       s_vwrong
        .endr
        .size s_vtab, . - s_vtab

        .type s_vwrong, @function
s_vwrong:
        csrrw   sp, sscratch, sp
        sd      t0, TA_T0(sp)
        csrr    t0, scause
        sd      t0, TA_AUX(sp)
        ld      t0, TA_T0(sp)
        csrrw   sp, sscratch, sp
        j       st_s_trap
        .size s_vwrong, . - s_vwrong

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_ecall
        .type u_ecall, @function
u_ecall:
        ecall                           # cause 8 -> S at BASE, not BASE + 32
u_ill:
        .word   0                       # cause 2 -> S at BASE, not BASE + 8
u_brk:
        ebreak                          # cause 3 -> M (vectored mtvec) at BASE
        ST_UNREACHABLE
        .size u_ecall, . - u_ecall

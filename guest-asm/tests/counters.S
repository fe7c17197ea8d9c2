# counters: cycle / time / instret reads and their mcounteren/scounteren gating.
#
# Unprivileged spec, "Zicntr" (counters): rdcycle, rdtime and rdinstret read
# the cycle (0xC00), time (0xC01) and instret (0xC02) CSRs. instret counts
# retired instructions, and the counters do not go backwards.
# Priv spec §3.1.11 (mcounteren): if bit CY/TM/IR is clear, reading
# cycle/time/instret in S or U is an illegal-instruction exception. M-mode
# reads are never gated.
# §4.1.5 (scounteren): in U-mode a read also needs the bit set in scounteren.
# S-mode reads ignore scounteren.
# §3.1.15 / §3.1.16: cause 2, mtval = the encoding (the trapscope contract).
# medeleg stays 0 throughout, so every trap here goes to M.
#
# The counter values are trapscope's model (deterministic, README). The only
# value checks are the ones the spec guarantees: instret grows by at least the
# number of instructions retired between two reads. Later reads are never
# smaller than earlier ones.
#
# Checks:
#   M, mcounteren = scounteren = 0
#    1  M reads all three without trapping
#    2  instret across 16 nops grew by >= 16
#    3  cycle did not go backwards
#    4  time did not go backwards
#   S, mcounteren = 0
#    5  M took 4 traps (three reads + the final ecall)
#    6  rdcycle: mcause == 2, mepc == it, MPP == 1
#    7  ... mtval == its encoding
#    8  rdtime: mcause == 2, mepc == it
#    9  rdinstret: mcause == 2, mepc == it
#   10  the destination registers are unchanged
#   U, mcounteren = 0, scounteren = 7
#   11  rdcycle: M took 2 traps; mcause == 2, mepc == it, MPP == 0; rd unchanged
#   S, mcounteren = 7
#   12  all three reads work (M took only the final ecall)
#   13  S cycle >= the last M cycle; S time >= the last M time
#   14  S instret across 8 nops grew by >= 8; and is >= the last M instret
#   U, mcounteren = 7, scounteren = 7
#   15  all three reads work (M took only the final ecall)
#   16  U cycle >= S cycle, U time >= S time
#   17  U instret across 8 nops grew by >= 8; and is >= the S instret
#   U, mcounteren = 7, scounteren = 0
#   18  M took 4 traps
#   19  rdcycle, rdtime, rdinstret: each mcause == 2 at the right mepc, MPP == 0
#   20  destinations unchanged
#   S, mcounteren = CY only (per-bit gating)
#   21  M took 3 traps: rdtime and rdinstret (cause 2, right mepc), then the ecall
#   22  the rdcycle worked: its value is >= the U cycle; rdtime's and
#       rdinstret's destinations are unchanged

        .include "selftest.inc"
        ST_START

        .equ SENTINEL, 0x5a5a1234

# LOAD_SENTINELS: a0, a1, a2 = SENTINEL (the destinations of reads that must trap).
.macro LOAD_SENTINELS
        li      a0, SENTINEL
        mv      a1, a0
        mv      a2, a0
.endm

        .text
        .globl test_main
        .type test_main, @function
test_main:
        # The contract does not give the counter enables' reset values, so set
        # them explicitly.
        csrw    mcounteren, zero
        csrw    scounteren, zero
        LOG_RESET st_m_area

        # ---- M-mode: never gated ----
        rdcycle s0
        rdtime  s1
        rdinstret s2
        .rept 16
        nop
        .endr
        rdinstret s3
        rdcycle s4
        rdtime  s5
        CHECK_COUNT 1, st_m_area, 0
        sub     t0, s3, s2
        li      t1, 16
        CHECK_GEU 2, t0, t1
        CHECK_GEU 3, s4, s0
        CHECK_GEU 4, s5, s1

        # ---- S-mode, mcounteren = 0: all three trap ----
        LOG_RESET st_m_area
        LOAD_SENTINELS
        RESUME_AT s0_done, back_s0
        ENTER_S s0_cy
back_s0:
        CHECK_COUNT 5, st_m_area, 4
        CHECK_LOG 6, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 6, st_m_area, 0, TE_EPC, s0_cy
        CHECK_LOG_FIELD 6, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_LOG_INSN 7, st_m_area, 0, s0_cy
        CHECK_LOG 8, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 8, st_m_area, 1, TE_EPC, s0_tm
        CHECK_LOG 9, st_m_area, 2, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 9, st_m_area, 2, TE_EPC, s0_ir
        CHECK_LOG 9, st_m_area, 3, TE_CAUSE, CAUSE_ECALL_S
        CHECK_EQI 10, a0, SENTINEL
        CHECK_EQI 10, a1, SENTINEL
        CHECK_EQI 10, a2, SENTINEL

        # ---- U-mode, mcounteren = 0 (scounteren alone is not enough) ----
        li      t0, CNT_CY | CNT_TM | CNT_IR
        csrw    scounteren, t0
        LOG_RESET st_m_area
        LOAD_SENTINELS
        RESUME_AT u0_done, back_u0, 1
        ENTER_U u0_cy
back_u0:
        CHECK_COUNT 11, st_m_area, 2
        CHECK_LOG 11, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 11, st_m_area, 0, TE_EPC, u0_cy, 1
        CHECK_LOG_FIELD 11, st_m_area, 0, MS_MPP, 2, PRV_U
        CHECK_EQI 11, a0, SENTINEL

        # ---- S-mode, mcounteren = 7: all three work ----
        li      t0, CNT_CY | CNT_TM | CNT_IR
        csrw    mcounteren, t0
        LOG_RESET st_m_area
        RESUME_AT s1_done, back_s1
        ENTER_S s1_read
back_s1:
        # S left: a0 cycle, a1 time, a2 instret, a3 instret after 8 nops
        CHECK_COUNT 12, st_m_area, 1
        CHECK_LOG 12, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_GEU 13, a0, s4
        CHECK_GEU 13, a1, s5
        sub     t0, a3, a2
        li      t1, 8
        CHECK_GEU 14, t0, t1
        CHECK_GEU 14, a2, s3
        mv      s4, a0                  # newest cycle / time / instret
        mv      s5, a1
        mv      s3, a3

        # ---- U-mode, mcounteren = scounteren = 7: all three work ----
        LOG_RESET st_m_area
        RESUME_AT u1_done, back_u1, 1
        ENTER_U u1_read
back_u1:
        CHECK_COUNT 15, st_m_area, 1
        CHECK_LOG 15, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_GEU 16, a0, s4
        CHECK_GEU 16, a1, s5
        sub     t0, a3, a2
        li      t1, 8
        CHECK_GEU 17, t0, t1
        CHECK_GEU 17, a2, s3
        mv      s4, a0

        # ---- U-mode, mcounteren = 7, scounteren = 0: all three trap ----
        csrw    scounteren, zero
        LOG_RESET st_m_area
        LOAD_SENTINELS
        RESUME_AT u2_done, back_u2, 1
        ENTER_U u2_cy
back_u2:
        CHECK_COUNT 18, st_m_area, 4
        CHECK_LOG 19, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 19, st_m_area, 0, TE_EPC, u2_cy, 1
        CHECK_LOG_FIELD 19, st_m_area, 0, MS_MPP, 2, PRV_U
        CHECK_LOG 19, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 19, st_m_area, 1, TE_EPC, u2_tm, 1
        CHECK_LOG 19, st_m_area, 2, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 19, st_m_area, 2, TE_EPC, u2_ir, 1
        CHECK_LOG 19, st_m_area, 3, TE_CAUSE, CAUSE_ECALL_U
        CHECK_EQI 20, a0, SENTINEL
        CHECK_EQI 20, a1, SENTINEL
        CHECK_EQI 20, a2, SENTINEL

        # ---- S-mode, mcounteren = CY only: per-bit gating ----
        li      t0, CNT_CY
        csrw    mcounteren, t0
        LOG_RESET st_m_area
        LOAD_SENTINELS
        RESUME_AT s2_done, back_s2
        ENTER_S s2_cy
back_s2:
        CHECK_COUNT 21, st_m_area, 3
        CHECK_LOG 21, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 21, st_m_area, 0, TE_EPC, s2_tm
        CHECK_LOG 21, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 21, st_m_area, 1, TE_EPC, s2_ir
        CHECK_LOG 21, st_m_area, 2, TE_CAUSE, CAUSE_ECALL_S
        CHECK_GEU 22, a0, s4
        CHECK_EQI 22, a1, SENTINEL
        CHECK_EQI 22, a2, SENTINEL
        csrw    mcounteren, zero
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s0_cy
        .type s0_cy, @function
s0_cy:
        rdcycle a0                      # mcounteren.CY = 0: illegal
s0_tm:
        rdtime  a1                      # mcounteren.TM = 0: illegal
s0_ir:
        rdinstret a2                    # mcounteren.IR = 0: illegal
s0_done:
        ecall
        ST_UNREACHABLE
        .size s0_cy, . - s0_cy

        .globl s1_read
        .type s1_read, @function
s1_read:
        rdcycle a0
        rdtime  a1
        rdinstret a2
        .rept 8
        nop
        .endr
        rdinstret a3
s1_done:
        ecall
        ST_UNREACHABLE
        .size s1_read, . - s1_read

        .globl s2_cy
        .type s2_cy, @function
s2_cy:
        rdcycle a0                      # CY = 1: works
s2_tm:
        rdtime  a1                      # TM = 0: illegal
s2_ir:
        rdinstret a2                    # IR = 0: illegal
s2_done:
        ecall
        ST_UNREACHABLE
        .size s2_cy, . - s2_cy

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u0_cy
        .type u0_cy, @function
u0_cy:
        rdcycle a0                      # mcounteren.CY = 0: illegal even with scounteren
u0_done:
        ecall
        ST_UNREACHABLE
        .size u0_cy, . - u0_cy

        .globl u1_read
        .type u1_read, @function
u1_read:
        rdcycle a0
        rdtime  a1
        rdinstret a2
        .rept 8
        nop
        .endr
        rdinstret a3
u1_done:
        ecall
        ST_UNREACHABLE
        .size u1_read, . - u1_read

        .globl u2_cy
        .type u2_cy, @function
u2_cy:
        rdcycle a0                      # scounteren.CY = 0: illegal in U
u2_tm:
        rdtime  a1
u2_ir:
        rdinstret a2
u2_done:
        ecall
        ST_UNREACHABLE
        .size u2_cy, . - u2_cy

# illegal: illegal-instruction exceptions (cause 2) from M, S and U.
#
# Priv spec §3.1.15 / §4.1.8: cause 2 = illegal instruction.
# §3.1.16 / §4.1.9 (mtval/stval): may hold the faulting instruction's bits.
# The trapscope contract promises that it does (README: "xtval = the
# encoding"). The bits are zero-extended to XLEN, so the tests compare with an
# `lwu` of the instruction word.
# §3.1.14 / §4.1.7: xepc = the address of the illegal instruction.
# §2.1 (CSR address mapping): CSR address bits 9:8 give the lowest privilege
# that may access the CSR. A lower-privileged access is an illegal
# instruction, so S cannot read mstatus (0x300) and U cannot read sstatus
# (0x100). A trapping instruction does not retire: xepc points at it so that it
# can be re-executed (§3.1.14). So the trapping csrr must not write its
# destination register.
#
# Instructions used:
#   .word 0            16-bit 0x0000 is a defined illegal instruction (RVC); xtval = 0
#   .word 0xdeadc00b   opcode 0001011 = custom-0; this machine implements no
#                      custom extension, so it is illegal; a full 32-bit
#                      encoding with high bits set
#   csrr a0, mstatus   from S
#   csrr a0, sstatus   from U
# The recorders return to xepc + 4.
#
# Checks:
#   M-mode
#    1  `.word 0` in M: M took one trap
#    2  mcause == 2
#    3  mepc == its address
#    4  mtval == 0 (its encoding)
#    5  custom-0 in M: mcause == 2
#    6  mepc == its address
#    7  mtval == 0xdeadc00b, zero-extended
#   S-mode, not delegated (medeleg = 0)
#    8  `csrr a0, mstatus` from S: mcause == 2 (M took exactly 2 traps: it
#       and the final ecall)
#    9  mepc == its address
#   10  mtval == its encoding
#   11  mstatus.MPP == 1 (S)
#   12  a0 unchanged (the trapping csrr wrote nothing)
#   U-mode, delegated to S (medeleg bit 2)
#   13  S took exactly 2 traps; M took exactly 1 (the final ecall, cause 8)
#   14  `.word 0` from U: scause == 2, sepc == its address, stval == 0
#   15  ... sstatus.SPP == 0 (U)
#   16  `csrr a0, sstatus` from U: scause == 2, sepc == its address
#   17  stval == its encoding
#   18  a0 unchanged
#   S-mode, delegated (medeleg bit 2)
#   19  `csrr a0, mstatus` from S goes to S: scause == 2, sepc, stval == encoding,
#       SPP == 1; M saw only the final ecall

        .include "selftest.inc"
        ST_START

        .equ SENTINEL, 0x5a5a1234

        .text
        .globl test_main
        .type test_main, @function
test_main:
        # ---- M-mode ----
        LOG_RESET st_m_area
m_zero:
        .word   0
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 3, st_m_area, 0, TE_EPC, m_zero
        CHECK_LOG 4, st_m_area, 0, TE_TVAL, 0
m_custom:
        .word   0xdeadc00b
        CHECK_LOG 5, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 6, st_m_area, 1, TE_EPC, m_custom
        CHECK_LOG 7, st_m_area, 1, TE_TVAL, 0xdeadc00b

        # ---- S-mode reads mstatus, not delegated -> M ----
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        li      a0, SENTINEL
        RESUME_AT s1_done, back_s1
        ENTER_S s1_csr
back_s1:
        CHECK_COUNT 8, st_m_area, 2
        CHECK_LOG 8, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 9, st_m_area, 0, TE_EPC, s1_csr
        CHECK_LOG_INSN 10, st_m_area, 0, s1_csr
        CHECK_LOG_FIELD 11, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_EQI 12, a0, SENTINEL

        # ---- U-mode, delegated to S ----
        li      t0, 1 << CAUSE_ILLEGAL
        csrw    medeleg, t0
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        li      a0, SENTINEL
        RESUME_AT u_done, back_u, 1
        ENTER_U u_zero
back_u:
        CHECK_COUNT 13, st_s_area, 2
        CHECK_COUNT 13, st_m_area, 1
        CHECK_LOG 13, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG 14, st_s_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 14, st_s_area, 0, TE_EPC, u_zero, 1
        CHECK_LOG 14, st_s_area, 0, TE_TVAL, 0
        CHECK_LOG_FIELD 15, st_s_area, 0, MS_SPP, 1, 0
        CHECK_LOG 16, st_s_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 16, st_s_area, 1, TE_EPC, u_csr, 1
        CHECK_LOG_INSN 17, st_s_area, 1, u_csr, 1
        CHECK_EQI 18, a0, SENTINEL

        # ---- S-mode reads mstatus, delegated -> stays in S ----
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT s2_done, back_s2
        ENTER_S s2_csr
back_s2:
        CHECK_COUNT 19, st_s_area, 1
        CHECK_COUNT 19, st_m_area, 1
        CHECK_LOG 19, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG 19, st_s_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 19, st_s_area, 0, TE_EPC, s2_csr
        CHECK_LOG_INSN 19, st_s_area, 0, s2_csr
        CHECK_LOG_FIELD 19, st_s_area, 0, MS_SPP, 1, 1
        csrw    medeleg, zero
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s1_csr
        .type s1_csr, @function
s1_csr:
        csrr    a0, mstatus             # M CSR from S: illegal (§2.1)
s1_done:
        ecall                           # -> M: resume at back_s1
        ST_UNREACHABLE
        .size s1_csr, . - s1_csr

        .globl s2_csr
        .type s2_csr, @function
s2_csr:
        csrr    a0, mstatus             # illegal; medeleg[2] = 1 and from S -> S
s2_done:
        ecall                           # -> M: resume at back_s2
        ST_UNREACHABLE
        .size s2_csr, . - s2_csr

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_zero
        .type u_zero, @function
u_zero:
        .word   0                       # illegal -> S (delegated)
u_csr:
        csrr    a0, sstatus             # S CSR from U: illegal (§2.1) -> S
u_done:
        ecall                           # -> M (bit 8 not delegated): resume at back_u
        ST_UNREACHABLE
        .size u_zero, . - u_zero

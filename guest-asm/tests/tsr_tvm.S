# tsr_tvm: mstatus.TSR (bit 22), TW (bit 21) and TVM (bit 20), priv spec
# 1.12 §3.1.6.5 "Virtualization Support in mstatus Register".
#
# TSR=1: `sret` in S-mode raises an illegal-instruction exception; in M it
# still works (TSR only constrains S). TVM=1: reading or writing satp, and
# sfence.vma, in S-mode raise illegal instruction; M-mode is not affected.
# Each illegal-instruction trap has cause 2, xepc = the instruction and
# xtval = its encoding (trapscope contract, §3.1.16). TW's own trap (wfi) is
# tested with the interrupts; here only that the bit reads back where the
# spec puts it. Bits 29 and 30 are WPRI (§3.1.6): they read 0 even after a
# write of ones.
#
# Checks:
#    1  csrs mstatus, TSR: mstatus.TSR reads 1
#    2  csrs mstatus, TW: mstatus.TW reads 1; bits 30:29 still 0 (WPRI)
#    3  sstatus does not show TVM/TW/TSR (bits 22:20 read 0)
#    4  S `sret` with TSR=1: M took 2 traps (it and the final ecall)
#    5  ... mcause 2, mepc = the sret
#    6  ... mtval = the sret encoding
#    7  ... the handler's mstatus still shows TSR
#    8  TSR=0: the same sret returns to sepc in S (only the ecall there trapped)
#    9  TSR=1, sret in M: works (goes to S at sepc, whose ecall traps, cause 9)
#   10  TVM reads back 1
#   11  S with TVM=1: 4 traps (csrr satp, csrw satp, sfence.vma, ecall)
#   12  ... csrr satp: cause 2, mepc, mtval = encoding
#   13  ... csrw satp: cause 2, mepc, mtval = encoding
#   14  ... sfence.vma: cause 2, mepc, mtval = encoding
#   15  S with TVM=0: the same three instructions run (only the ecall traps)
#   16  M with TVM=1: the same three instructions run (no trap)
#   17  TSR/TW/TVM clear again after csrc

        .include "selftest.inc"
        ST_START

        .equ MSTATUS_TVM, (1 << 20)
        .equ MSTATUS_TW,  (1 << 21)
        .equ MSTATUS_TSR, (1 << 22)

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, MSTATUS_TSR
        csrs    mstatus, t0
        csrr    a1, mstatus
        CHECK_FIELD 1, a1, 22, 1, 1
        li      t0, MSTATUS_TW | (3 << 29)
        csrs    mstatus, t0
        csrr    a1, mstatus
        CHECK_FIELD 2, a1, 21, 1, 1
        CHECK_FIELD 2, a1, 29, 2, 0
        csrr    a1, sstatus
        CHECK_FIELD 3, a1, 20, 3, 0
        li      t0, MSTATUS_TW
        csrc    mstatus, t0

        # ---- TSR=1: sret in S traps ----
        LOG_RESET st_m_area
        RESUME_AT s_sret_done, back1
        ENTER_S s_sret
back1:
        CHECK_COUNT 4, st_m_area, 2
        CHECK_LOG 5, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 5, st_m_area, 0, TE_EPC, s_sret
        CHECK_LOG_INSN 6, st_m_area, 0, s_sret
        CHECK_LOG_FIELD 7, st_m_area, 0, 22, 1, 1

        # ---- TSR=0: the same sret returns to sepc (SPP = S) ----
        li      t0, MSTATUS_TSR
        csrc    mstatus, t0
        li      t0, MSTATUS_SPP
        csrs    mstatus, t0
        la      t0, s_target
        csrw    sepc, t0
        LOG_RESET st_m_area
        RESUME_AT s_target, back2
        ENTER_S s_sret
back2:
        CHECK_COUNT 8, st_m_area, 1
        CHECK_LOG 8, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 8, st_m_area, 0, TE_EPC, s_target

        # ---- TSR=1, sret in M: allowed ----
        li      t0, MSTATUS_TSR | MSTATUS_SPP
        csrs    mstatus, t0
        la      t0, s_target
        csrw    sepc, t0
        LOG_RESET st_m_area
        RESUME_AT s_target, back3
m_sret:
        sret
back3:
        CHECK_COUNT 9, st_m_area, 1
        CHECK_LOG 9, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 9, st_m_area, 0, TE_EPC, s_target
        li      t0, MSTATUS_TSR
        csrc    mstatus, t0

        # ---- TVM=1 in S ----
        li      t0, MSTATUS_TVM
        csrs    mstatus, t0
        csrr    a1, mstatus
        CHECK_FIELD 10, a1, 20, 1, 1
        LOG_RESET st_m_area
        RESUME_AT s_vm_done, back4
        ENTER_S s_vm_r
back4:
        CHECK_COUNT 11, st_m_area, 4
        CHECK_LOG 12, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 12, st_m_area, 0, TE_EPC, s_vm_r
        CHECK_LOG_INSN 12, st_m_area, 0, s_vm_r
        CHECK_LOG 13, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 13, st_m_area, 1, TE_EPC, s_vm_w
        CHECK_LOG_INSN 13, st_m_area, 1, s_vm_w
        CHECK_LOG 14, st_m_area, 2, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 14, st_m_area, 2, TE_EPC, s_vm_f
        CHECK_LOG_INSN 14, st_m_area, 2, s_vm_f
        CHECK_LOG 14, st_m_area, 3, TE_CAUSE, CAUSE_ECALL_S

        # ---- TVM=0 in S: the same instructions run ----
        li      t0, MSTATUS_TVM
        csrc    mstatus, t0
        LOG_RESET st_m_area
        RESUME_AT s_vm_done, back5
        ENTER_S s_vm_r
back5:
        CHECK_COUNT 15, st_m_area, 1
        CHECK_LOG 15, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S

        # ---- TVM=1 in M: no traps ----
        li      t0, MSTATUS_TVM
        csrs    mstatus, t0
        LOG_RESET st_m_area
        csrr    a0, satp
        csrw    satp, zero
        sfence.vma
        CHECK_COUNT 16, st_m_area, 0

        li      t0, MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR
        csrs    mstatus, t0
        csrc    mstatus, t0
        csrr    a1, mstatus
        CHECK_FIELD 17, a1, 20, 3, 0
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .type s_sret, @function
s_sret:
        sret                            # TSR=1: illegal; TSR=0: to sepc
s_sret_done:
        ecall
        ST_UNREACHABLE
        .size s_sret, . - s_sret

        .type s_target, @function
s_target:
        ecall                           # -> M (cause 9)
        ST_UNREACHABLE
        .size s_target, . - s_target

        .type s_vm_r, @function
s_vm_r:
        csrr    a0, satp
s_vm_w:
        csrw    satp, zero
s_vm_f:
        sfence.vma
s_vm_done:
        ecall
        ST_UNREACHABLE
        .size s_vm_r, . - s_vm_r

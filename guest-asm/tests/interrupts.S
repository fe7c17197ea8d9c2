# interrupts: timer, software and priority, taken at exact boundaries.
#
# Privileged spec 1.12: §3.1.9 (mip/mie: MTIP from mtime >= mtimecmp, MSIP
# from the CLINT's msip, SSIP/STIP written by M; priority MEI > MSI > MTI >
# SEI > SSI > STI), §3.1.6.1 (an interrupt for the current mode is taken only
# with xIE set; for a higher mode always), §3.1.7 (vectored mode: interrupts
# go to BASE + 4 * cause), §3.1.15 (mcause MSB = interrupt; mepc = the first
# instruction not executed), §3.3.3 (wfi resumes when an interrupt is
# pending and enabled in mie, whatever MIE says), §3.1.6.5 (TW). The CLINT is
# at QEMU virt's address (msip +0, mtimecmp +0x4000, mtime +0xbff8).
#
# This test has its own recorders (st_m_trap/st_s_trap return to xepc + 4,
# right for exceptions but not for interrupts): irq_m logs mcause, mepc and
# the vector entry it came through (-1 in direct mode), clears the
# interrupt's source and returns to mepc; for an exception it returns to
# mepc + 4, and an ecall from S or U resumes M-mode code at irq_resume_pc.
#
# Checks:
#    1  wfi with MIE = 0 returns once mtime reaches mtimecmp
#    2  ... with MTIP pending in mip
#    3  ... and no interrupt taken (MIE = 0)
#    4  setting MIE takes it: one interrupt
#    5  ... mcause = interrupt | 7 (machine timer)
#    6  ... mepc = the instruction after the csrs
#    7  ... through mtvec's BASE (direct mode)
#    8  wfi with MIE = 1: one interrupt, mcause = MTI, mepc = after the wfi
#   11  SSIP set by M (not delegated): mcause = interrupt | 1, mepc = next
#   14  SSIP delegated (mideleg), raised through sip in S with SIE: taken in
#       S, scause = interrupt | 1, sepc = the instruction after the csrs
#   17  vectored mtvec: MSI through entry 3, MTI through entry 7, SSI
#       through entry 1, each with mepc at its boundary
#   26  priority: MSI, MTI, SSI, STI all pending, then MIE = 1: taken in the
#       order 3, 7, 1, 5, each at the same mepc
#   31  wfi in U-mode raises illegal instruction (mepc = the wfi)
#   33  with TW = 1 (when mstatus.TW is writable, as the spec requires
#       with S-mode; a build whose CSR layer lacks it skips 33-35), wfi in
#       S raises illegal instruction with mtval = its encoding, and wfi in
#       M still waits for the timer

        .include "selftest.inc"
        ST_START

        .equ CLINT_MSIP,     0x02000000
        .equ CLINT_MTIMECMP, 0x02004000
        .equ CLINT_MTIME,    0x0200bff8
        .equ IRQ,            0x8000000000000000
        .equ MIP_SSIP,       1 << 1
        .equ MIP_MSIP,       1 << 3
        .equ MIP_STIP,       1 << 5
        .equ MIP_MTIP,       1 << 7
        .equ MSTATUS_TW,     1 << 21
        .equ WFI_ENCODING,   0x10500073

        .equ LE_CAUSE, 0
        .equ LE_EPC,   8
        .equ LE_ENTRY, 16
        .equ LE_SIZE,  32

# LOG_CLEAR: forget what irq_m and irq_s logged.
.macro LOG_CLEAR
        la      t0, irq_log
        sd      zero, 0(t0)
        la      t0, irq_slog
        sd      zero, 0(t0)
.endm

# LOG_IS n, log, idx, field, imm: check n holds iff entry idx's field == imm.
.macro LOG_IS n, log, idx, field, imm
        la      t6, \log
        ld      t6, 8 + (\idx) * LE_SIZE + (\field)(t6)
        li      t5, \imm
        CHECK_EQ \n, t6, t5
.endm

# LOG_AT n, log, idx, sym, user: check n holds iff entry idx's epc == sym.
.macro LOG_AT n, log, idx, sym, user=0
        la      t6, \log
        ld      t6, 8 + (\idx) * LE_SIZE + LE_EPC(t6)
        ST_LA   t5, \sym, \user
        CHECK_EQ \n, t6, t5
.endm

# LOG_COUNT n, log, expected
.macro LOG_COUNT n, log, expected
        la      t6, \log
        ld      t6, 0(t6)
        li      t5, \expected
        CHECK_EQ \n, t6, t5
.endm

        .text
        .globl test_main
        .type test_main, @function
test_main:
        la      t0, irq_m
        csrw    mtvec, t0
        la      t0, irq_save
        csrw    mscratch, t0
        la      t0, irq_s
        csrw    stvec, t0
        la      t0, irq_ssave
        csrw    sscratch, t0
        li      s1, CLINT_MTIME
        li      s4, CLINT_MTIMECMP

        # ---- wfi with MIE = 0, then MIE = 1 ----
        LOG_CLEAR
        ld      s2, 0(s1)
        addi    s3, s2, 200
        sd      s3, 0(s4)               # mtimecmp = now + 200
        li      t0, MIP_MTIP
        csrw    mie, t0
        wfi
        ld      s5, 0(s1)
        CHECK_GEU 1, s5, s3
        csrr    a0, mip
        andi    a0, a0, MIP_MTIP
        CHECK_EQI 2, a0, MIP_MTIP
        LOG_COUNT 3, irq_log, 0
        csrsi   mstatus, MSTATUS_MIE
a_taken:
        csrci   mstatus, MSTATUS_MIE
        LOG_COUNT 4, irq_log, 1
        LOG_IS  5, irq_log, 0, LE_CAUSE, IRQ | 7
        LOG_AT  6, irq_log, 0, a_taken
        LOG_IS  7, irq_log, 0, LE_ENTRY, -1

        # ---- wfi with MIE = 1: taken right after it ----
        LOG_CLEAR
        ld      s2, 0(s1)
        addi    s3, s2, 300
        sd      s3, 0(s4)
        csrsi   mstatus, MSTATUS_MIE
        wfi
b_after:
        csrci   mstatus, MSTATUS_MIE
        LOG_COUNT 8, irq_log, 1
        LOG_IS  9, irq_log, 0, LE_CAUSE, IRQ | 7
        LOG_AT  10, irq_log, 0, b_after

        # ---- SSIP from M, not delegated ----
        LOG_CLEAR
        csrw    mideleg, zero
        li      t0, MIP_SSIP
        csrw    mie, t0
        csrsi   mstatus, MSTATUS_MIE
        csrsi   mip, MIP_SSIP
d_after:
        csrci   mstatus, MSTATUS_MIE
        LOG_COUNT 11, irq_log, 1
        LOG_IS  12, irq_log, 0, LE_CAUSE, IRQ | 1
        LOG_AT  13, irq_log, 0, d_after

        # ---- SSIP delegated, raised by S through sip ----
        LOG_CLEAR
        li      t0, MIP_SSIP
        csrw    mideleg, t0
        la      t0, e_back
        la      t1, irq_resume_pc
        sd      t0, 0(t1)
        ENTER_S s_ssip
e_back:
        LOG_COUNT 14, irq_slog, 1
        LOG_IS  15, irq_slog, 0, LE_CAUSE, IRQ | 1
        LOG_AT  16, irq_slog, 0, s_ssip_after
        csrw    mideleg, zero

        # ---- vectored mtvec ----
        LOG_CLEAR
        la      t0, irq_vtab
        ori     t0, t0, 1
        csrw    mtvec, t0
        li      t0, MIP_MSIP | MIP_MTIP | MIP_SSIP
        csrw    mie, t0
        csrsi   mstatus, MSTATUS_MIE
        li      t0, CLINT_MSIP
        li      t1, 1
        sw      t1, 0(t0)               # MSIP: seen after the next jump
        j       f_msi
f_msi:
        ld      s2, 0(s1)
        sd      s2, 0(s4)               # mtimecmp = now: MTIP pending
        j       f_mti
f_mti:
        csrsi   mip, MIP_SSIP
f_ssi:
        csrci   mstatus, MSTATUS_MIE
        LOG_COUNT 17, irq_log, 3
        LOG_IS  18, irq_log, 0, LE_CAUSE, IRQ | 3
        LOG_IS  19, irq_log, 0, LE_ENTRY, 3
        LOG_AT  20, irq_log, 0, f_msi
        LOG_IS  21, irq_log, 1, LE_CAUSE, IRQ | 7
        LOG_IS  22, irq_log, 1, LE_ENTRY, 7
        LOG_AT  23, irq_log, 1, f_mti
        LOG_IS  24, irq_log, 2, LE_ENTRY, 1
        LOG_AT  25, irq_log, 2, f_ssi
        la      t0, irq_m
        csrw    mtvec, t0

        # ---- priority: four pending at once ----
        LOG_CLEAR
        li      t0, MIP_MSIP | MIP_MTIP | MIP_SSIP | MIP_STIP
        csrw    mie, t0
        li      t0, CLINT_MSIP
        li      t1, 1
        sw      t1, 0(t0)
        sd      zero, 0(s4)             # mtimecmp = 0: MTIP
        li      t0, MIP_SSIP | MIP_STIP
        csrs    mip, t0
        csrsi   mstatus, MSTATUS_MIE
g_after:
        csrci   mstatus, MSTATUS_MIE
        LOG_COUNT 26, irq_log, 4
        LOG_IS  27, irq_log, 0, LE_CAUSE, IRQ | 3
        LOG_IS  28, irq_log, 1, LE_CAUSE, IRQ | 7
        LOG_IS  29, irq_log, 2, LE_CAUSE, IRQ | 1
        LOG_IS  30, irq_log, 3, LE_CAUSE, IRQ | 5
        LOG_AT  30, irq_log, 3, g_after

        # ---- wfi in U-mode ----
        LOG_CLEAR
        csrw    mie, zero
        la      t0, h_back
        la      t1, irq_resume_pc
        sd      t0, 0(t1)
        ENTER_U u_wfi
h_back:
        LOG_IS  31, irq_log, 0, LE_CAUSE, CAUSE_ILLEGAL
        LOG_AT  32, irq_log, 0, u_wfi, 1

        # ---- TW ----
        li      t0, MSTATUS_TW
        csrs    mstatus, t0
        csrr    t1, mstatus
        and     t1, t1, t0
        beqz    t1, tw_done             # TW not writable on this build
        LOG_CLEAR
        la      t0, tw_back
        la      t1, irq_resume_pc
        sd      t0, 0(t1)
        ENTER_S s_tw
tw_back:
        LOG_IS  33, irq_log, 0, LE_CAUSE, CAUSE_ILLEGAL
        LOG_AT  33, irq_log, 0, s_tw
        la      t6, irq_log
        ld      t6, 8 + 24(t6)          # entry 0's mtval (logged at +24)
        CHECK_EQI 34, t6, WFI_ENCODING
        # In M, TW does not apply: wfi waits for the timer.
        LOG_CLEAR
        li      t0, MIP_MTIP
        csrw    mie, t0
        ld      s2, 0(s1)
        addi    s3, s2, 100
        sd      s3, 0(s4)
        wfi
        ld      s5, 0(s1)
        CHECK_GEU 35, s5, s3
        li      t0, MSTATUS_TW
        csrc    mstatus, t0
tw_done:
        PASS
        .size test_main, . - test_main

# irq_m: the M recorder (direct mode; the vector entries join it at
# irq_m_log with t2 = their index).
        .balign 4
        .type irq_m, @function
irq_m:
        csrrw   sp, mscratch, sp        # sp = irq_save
        sd      t0, 0(sp)
        sd      t1, 8(sp)
        sd      t2, 16(sp)
        li      t2, -1
irq_m_log:
        la      t0, irq_log
        ld      t1, 0(t0)
        addi    t1, t1, 1
        sd      t1, 0(t0)
        addi    t1, t1, -1
        andi    t1, t1, 7
        slli    t1, t1, 5               # * LE_SIZE
        add     t1, t1, t0
        csrr    t0, mcause
        sd      t0, 8 + LE_CAUSE(t1)
        csrr    t0, mepc
        sd      t0, 8 + LE_EPC(t1)
        sd      t2, 8 + LE_ENTRY(t1)
        csrr    t0, mtval
        sd      t0, 8 + 24(t1)
        csrr    t0, mcause
        bgez    t0, irq_m_exc
        slli    t0, t0, 1
        srli    t0, t0, 1               # the interrupt code
        li      t1, 7
        beq     t0, t1, irq_m_mti
        li      t1, 3
        beq     t0, t1, irq_m_msi
        li      t1, 1
        beq     t0, t1, irq_m_ssi
        li      t1, MIP_STIP
        csrc    mip, t1                 # 5: STI
        j       irq_m_ret
irq_m_mti:
        li      t0, CLINT_MTIMECMP
        li      t1, -1
        sd      t1, 0(t0)
        j       irq_m_ret
irq_m_msi:
        li      t0, CLINT_MSIP
        sw      zero, 0(t0)
        j       irq_m_ret
irq_m_ssi:
        csrci   mip, MIP_SSIP
        j       irq_m_ret
irq_m_exc:
        li      t1, CAUSE_ECALL_U
        beq     t0, t1, irq_m_resume
        li      t1, CAUSE_ECALL_S
        beq     t0, t1, irq_m_resume
        csrr    t0, mepc
        addi    t0, t0, 4
        csrw    mepc, t0
irq_m_ret:
        ld      t2, 16(sp)
        ld      t1, 8(sp)
        ld      t0, 0(sp)
        csrrw   sp, mscratch, sp
        mret
irq_m_resume:                           # stay in M, at irq_resume_pc
        ld      t2, 16(sp)
        ld      t1, 8(sp)
        csrrw   sp, mscratch, sp
        la      t0, irq_resume_pc
        ld      t0, 0(t0)
        jr      t0
        .size irq_m, . - irq_m

# The vectored table: entry i at BASE + 4 * i.
.macro VENT i
        j       irq_v\i
.endm
.macro VSTUB i
irq_v\i:
        csrrw   sp, mscratch, sp
        sd      t0, 0(sp)
        sd      t1, 8(sp)
        sd      t2, 16(sp)
        li      t2, \i
        j       irq_m_log
.endm
        .balign 256
irq_vtab:
        VENT 0
        VENT 1
        VENT 2
        VENT 3
        VENT 4
        VENT 5
        VENT 6
        VENT 7
        VENT 8
        VENT 9
        VENT 10
        VENT 11
        VSTUB 0
        VSTUB 1
        VSTUB 2
        VSTUB 3
        VSTUB 4
        VSTUB 5
        VSTUB 6
        VSTUB 7
        VSTUB 8
        VSTUB 9
        VSTUB 10
        VSTUB 11

# ---- S-mode code and recorder ----
        .section .kernel.text, "ax", @progbits
        .balign 4
s_ssip:
        li      t0, MIP_SSIP
        csrw    sie, t0
        csrsi   sstatus, MSTATUS_SIE
        csrsi   sip, MIP_SSIP
s_ssip_after:
        csrci   sstatus, MSTATUS_SIE
        ecall
        ST_UNREACHABLE
s_tw:
        wfi
        ecall
        ST_UNREACHABLE

        .balign 4
        .type irq_s, @function
irq_s:
        csrrw   sp, sscratch, sp
        sd      t0, 0(sp)
        sd      t1, 8(sp)
        la      t0, irq_slog
        ld      t1, 0(t0)
        addi    t1, t1, 1
        sd      t1, 0(t0)
        addi    t1, t1, -1
        andi    t1, t1, 7
        slli    t1, t1, 5
        add     t1, t1, t0
        csrr    t0, scause
        sd      t0, 8 + LE_CAUSE(t1)
        csrr    t0, sepc
        sd      t0, 8 + LE_EPC(t1)
        csrci   sip, MIP_SSIP
        ld      t1, 8(sp)
        ld      t0, 0(sp)
        csrrw   sp, sscratch, sp
        sret
        .size irq_s, . - irq_s

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
u_wfi:
        wfi
        ecall
        ST_UNREACHABLE

        .data
        .balign 8
irq_save:
        .zero   32
irq_resume_pc:
        .dword  0
irq_log:
        .zero   8 + 8 * LE_SIZE
        .section .kernel.data, "aw", @progbits
        .balign 8
irq_ssave:
        .zero   32
irq_slog:
        .zero   8 + 8 * LE_SIZE

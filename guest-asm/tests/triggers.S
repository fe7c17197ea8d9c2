# triggers: the debug trigger (RISC-V Debug Specification 1.0, "Sdtrig"):
# one mcontrol (type 2) trigger with execute, load and store address match.
#
# tselect (0x7a0) is WARL and holds only 0 (one trigger), tinfo (0x7a4)
# has info bit 2 (type 2 supported). tdata1 (0x7a1) bits: type 63:60 = 2,
# m 6, s 4, u 3, execute 2, store 1, load 0; match 10:7 (only 0 = equal).
# tdata2 (0x7a2) holds the address. With action=0 and timing=0 a match
# raises a breakpoint exception (cause 3) before the instruction: xepc = the
# instruction, xtval = the address (mcontrol: "the address being accessed
# and which caused that trigger to fire"), registers and memory unchanged.
# A trigger matches only in the modes whose bit is set, and in M-mode only
# while mstatus.MIE=1 (Sdtrig "Native Triggers", the first re-entrancy
# option; the M handler runs with MIE=0, so it cannot re-trigger). Load and
# store compare values are every byte accessed. tdata3 and tcontrol are not
# implemented: no trigger uses them, so they are illegal instructions.
#
# The M recorder returns to mepc + 4, which also skips the instruction that
# triggered.
#
# Checks:
#    1  tselect written 1 reads 0
#    2  tinfo.info == 4 (type 2)
#    3  tdata1 written 0 reads type 2, all else 0
#    4  tdata2 reads back what was written
#    5  execute, M, MIE=1: one trap, cause 3, mepc = mtval = the address
#    6  ... the instruction did not run (a0 unchanged)
#    7  execute, M, MIE=0: no trap, the instruction runs
#    8  load (ld, tdata2 = its 5th byte): cause 3, mepc = the ld, mtval = tdata2
#    9  ... the destination register unchanged
#   10  a store to the word with only `load` set: no trap
#   11  store (sd): cause 3, mepc, mtval; memory unchanged
#   12  a load of the word with only `store` set: no trap
#   13  m bit clear (s and u set): no trap in M
#   14  tdata1 = 0 (disabled) with tdata2 on the next instruction: no trap
#   15  match=2 (ge) is not supported: tdata1 reads back with execute clear,
#       and it does not fire
#   16  S-mode execute (s bit), not delegated: M takes cause 3 from S
#   17  U-mode load (u bit): M takes cause 3 from U, mtval = the address
#   18  s bit only, the same U load: no trap (only the final ecall)
#   19  c.lw (compressed) with a load trigger: cause 3, mepc = the c.lw
#   20  amoadd.w with a load trigger: cause 3; memory unchanged
#   21  flw with a load trigger: cause 3, mepc = the flw
#   22  sw with a store trigger on its last byte: cause 3, mtval = that byte
#   23  tdata3 and tcontrol are illegal (cause 2), twice
#   24  S-mode access to tselect is illegal (cause 2)
#   25  medeleg[3]=1, S-mode execute with sstatus.SIE=0: masked (no trap)
#   26  ... with SIE=1: the breakpoint goes to S (scause 3, sepc = stval =
#       the address)
#   27  lr.d with a load trigger and sc.d with a store trigger: cause 3 each
#   28  execute on an instruction trapscope runs itself (csrr mstatus): one
#       trap, mepc = it, a0 unchanged
#   29  execute trigger moved by a tdata2 write while armed: fires at the
#       new address only

        .include "selftest.inc"
        ST_START

        .equ T_TYPE2,   (2 << 60)
        .equ T_M,       (1 << 6)
        .equ T_S,       (1 << 4)
        .equ T_U,       (1 << 3)
        .equ T_EXEC,    (1 << 2)
        .equ T_STORE,   (1 << 1)
        .equ T_LOAD,    1
        .equ SENTINEL,  0x5a5a1234

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, 1
        csrw    tselect, t0
        csrr    a1, tselect
        CHECK_EQI 1, a1, 0
        csrr    a1, tinfo
        CHECK_FIELD 2, a1, 0, 16, 4
        csrw    tdata1, zero
        csrr    a1, tdata1
        li      t0, T_TYPE2
        CHECK_EQ 3, a1, t0
        la      t0, m_exec
        csrw    tdata2, t0
        csrr    a1, tdata2
        CHECK_EQ 4, a1, t0

        # ---- execute in M with MIE=1 ----
        csrsi   mstatus, MSTATUS_MIE
        li      t0, T_TYPE2 | T_M | T_EXEC
        csrw    tdata1, t0
        LOG_RESET st_m_area
        li      a0, 0
m_exec:
        li      a0, 1                   # triggers; the recorder skips it
        CHECK_COUNT 5, st_m_area, 1
        CHECK_LOG 5, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 5, st_m_area, 0, TE_EPC, m_exec
        CHECK_LOG_ADDR 5, st_m_area, 0, TE_TVAL, m_exec
        CHECK_EQI 6, a0, 0

        # ---- execute in M with MIE=0: masked ----
        csrci   mstatus, MSTATUS_MIE
        la      t0, m_exec2
        csrw    tdata2, t0
        LOG_RESET st_m_area
m_exec2:
        li      a0, 2
        CHECK_COUNT 7, st_m_area, 0
        CHECK_EQI 7, a0, 2
        csrsi   mstatus, MSTATUS_MIE

        # ---- load ----
        la      s0, word
        addi    t0, s0, 4
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_M | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
        li      a0, SENTINEL
m_ld:
        ld      a0, 0(s0)
        CHECK_COUNT 8, st_m_area, 1
        CHECK_LOG 8, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 8, st_m_area, 0, TE_EPC, m_ld
        LOG_LD  t6, st_m_area, 0, TE_TVAL
        addi    t5, s0, 4
        CHECK_EQ 8, t6, t5
        CHECK_EQI 9, a0, SENTINEL
        LOG_RESET st_m_area
        sd      zero, 0(s0)
        CHECK_COUNT 10, st_m_area, 0

        # ---- store ----
        li      t0, T_TYPE2 | T_M | T_STORE
        csrw    tdata1, t0
        li      a0, SENTINEL
        LOG_RESET st_m_area
m_sd:
        sd      a0, 0(s0)
        CHECK_COUNT 11, st_m_area, 1
        CHECK_LOG 11, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 11, st_m_area, 0, TE_EPC, m_sd
        LOG_LD  t6, st_m_area, 0, TE_TVAL
        addi    t5, s0, 4
        CHECK_EQ 11, t6, t5
        ld      a1, 0(s0)               # a load: the store trigger ignores it
        CHECK_EQI 11, a1, 0
        CHECK_COUNT 12, st_m_area, 1

        # ---- m bit clear ----
        li      t0, T_TYPE2 | T_S | T_U | T_LOAD | T_STORE | T_EXEC
        csrw    tdata1, t0
        LOG_RESET st_m_area
        ld      a1, 0(s0)
        sd      a1, 0(s0)
        CHECK_COUNT 13, st_m_area, 0

        # ---- disabled ----
        la      t0, m_off
        csrw    tdata1, zero
        csrw    tdata2, t0
        LOG_RESET st_m_area
m_off:
        li      a0, 3
        CHECK_COUNT 14, st_m_area, 0
        CHECK_EQI 14, a0, 3

        # ---- unsupported match kind ----
        la      t0, m_ge
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_M | T_EXEC | (2 << 7)
        csrw    tdata1, t0
        csrr    a1, tdata1
        CHECK_FIELD 15, a1, 2, 1, 0
        LOG_RESET st_m_area
m_ge:
        li      a0, 4
        CHECK_COUNT 15, st_m_area, 0

        # ---- S-mode execute, not delegated ----
        la      t0, s_exec
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_S | T_EXEC
        csrw    tdata1, t0
        LOG_RESET st_m_area
        RESUME_AT s_done, back_s
        ENTER_S s_exec
back_s:
        csrw    tdata1, zero
        CHECK_COUNT 16, st_m_area, 3
        CHECK_LOG 16, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 16, st_m_area, 0, TE_EPC, s_exec
        CHECK_LOG_ADDR 16, st_m_area, 0, TE_TVAL, s_exec
        CHECK_LOG_FIELD 16, st_m_area, 0, MS_MPP, 2, PRV_S
        CHECK_LOG 24, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 24, st_m_area, 1, TE_EPC, s_tsel

        # ---- U-mode load (u bit) ----
        ST_LA   t0, uword, 1
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_U | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
        RESUME_AT u_done, back_u, 1
        ENTER_U u_code
back_u:
        CHECK_COUNT 17, st_m_area, 2
        CHECK_LOG 17, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 17, st_m_area, 0, TE_EPC, u_ld, 1
        CHECK_LOG_ADDR 17, st_m_area, 0, TE_TVAL, uword, 1
        CHECK_LOG_FIELD 17, st_m_area, 0, MS_MPP, 2, PRV_U

        # ---- s bit only, the same U code ----
        li      t0, T_TYPE2 | T_S | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
        RESUME_AT u_done, back_u2, 1
        ENTER_U u_code
back_u2:
        CHECK_COUNT 18, st_m_area, 1
        CHECK_LOG 18, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        csrsi   mstatus, MSTATUS_MIE

        # ---- compressed load ----
        csrw    tdata2, s0
        li      t0, T_TYPE2 | T_M | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
m_clw:
        .option push
        .option rvc
        c.lw    a0, 0(s0)               # 2 bytes; the recorder skips 4:
        c.nop                           # this too
        .option pop
        CHECK_COUNT 19, st_m_area, 1
        CHECK_LOG 19, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 19, st_m_area, 0, TE_EPC, m_clw

        # ---- AMO (its load part) ----
        li      a0, 7
        LOG_RESET st_m_area
m_amo:
        amoadd.w a1, a0, (s0)
        csrw    tdata1, zero
        CHECK_COUNT 20, st_m_area, 1
        CHECK_LOG 20, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 20, st_m_area, 0, TE_EPC, m_amo
        lw      a1, 0(s0)
        CHECK_EQI 20, a1, 0

        # ---- FP load (FS = Initial) ----
        li      t0, 1 << MS_FS
        csrs    mstatus, t0
        li      t0, T_TYPE2 | T_M | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
m_flw:
        flw     fa0, 0(s0)
        CHECK_COUNT 21, st_m_area, 1
        CHECK_LOG 21, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 21, st_m_area, 0, TE_EPC, m_flw

        # ---- sw, trigger on its last byte ----
        addi    t0, s0, 3
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_M | T_STORE
        csrw    tdata1, t0
        LOG_RESET st_m_area
        li      a0, -1
        sw      a0, 0(s0)
        sw      a0, 4(s0)               # bytes 4..7: no match
        csrw    tdata1, zero
        CHECK_COUNT 22, st_m_area, 1
        LOG_LD  t6, st_m_area, 0, TE_TVAL
        addi    t5, s0, 3
        CHECK_EQ 22, t6, t5
        lw      a1, 0(s0)
        CHECK_EQI 22, a1, 0

        # ---- S-mode triggers when breakpoints are delegated ----
        li      t0, 1 << CAUSE_BREAKPOINT
        csrw    medeleg, t0
        la      t0, s_exec2
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_S | T_EXEC
        csrw    tdata1, t0
        csrci   mstatus, MSTATUS_SIE
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT s2_done, back_s2
        ENTER_S s_exec2
back_s2:
        CHECK_COUNT 25, st_s_area, 0
        CHECK_COUNT 25, st_m_area, 1
        csrsi   mstatus, MSTATUS_SIE
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT s2_done, back_s3
        ENTER_S s_exec2
back_s3:
        csrw    tdata1, zero
        csrw    medeleg, zero
        csrci   mstatus, MSTATUS_SIE
        CHECK_COUNT 26, st_s_area, 1
        CHECK_LOG 26, st_s_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 26, st_s_area, 0, TE_EPC, s_exec2
        CHECK_LOG_ADDR 26, st_s_area, 0, TE_TVAL, s_exec2

        # ---- LR and SC ----
        csrsi   mstatus, MSTATUS_MIE    # the resume above left M with MIE=0
        csrw    tdata2, s0
        li      t0, T_TYPE2 | T_M | T_LOAD
        csrw    tdata1, t0
        LOG_RESET st_m_area
m_lr:
        lr.d    a1, (s0)
        li      t0, T_TYPE2 | T_M | T_STORE
        csrw    tdata1, t0
m_sc:
        sc.d    a2, a1, (s0)
        csrw    tdata1, zero
        CHECK_COUNT 27, st_m_area, 2
        CHECK_LOG 27, st_m_area, 0, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 27, st_m_area, 0, TE_EPC, m_lr
        CHECK_LOG 27, st_m_area, 1, TE_CAUSE, CAUSE_BREAKPOINT
        CHECK_LOG_ADDR 27, st_m_area, 1, TE_EPC, m_sc

        # ---- execute on an intercepted instruction ----
        la      t0, m_csr
        csrw    tdata2, t0
        li      t0, T_TYPE2 | T_M | T_EXEC
        csrw    tdata1, t0
        LOG_RESET st_m_area
        li      a0, SENTINEL
m_csr:
        csrr    a0, mstatus
        CHECK_COUNT 28, st_m_area, 1
        CHECK_LOG_ADDR 28, st_m_area, 0, TE_EPC, m_csr
        CHECK_EQI 28, a0, SENTINEL

        # ---- execute trigger moved while armed ----
        la      t0, m_old
        csrw    tdata2, t0
        la      t0, m_new
        csrw    tdata2, t0
        LOG_RESET st_m_area
m_old:
        li      a0, 8
m_new:
        li      a1, 9
        csrw    tdata1, zero
        CHECK_COUNT 29, st_m_area, 1
        CHECK_LOG_ADDR 29, st_m_area, 0, TE_EPC, m_new
        CHECK_EQI 29, a0, 8

        # ---- unimplemented trigger CSRs ----
        LOG_RESET st_m_area
        csrr    a1, tdata3
        csrr    a1, tcontrol
        CHECK_COUNT 23, st_m_area, 2
        CHECK_LOG 23, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG 23, st_m_area, 1, TE_CAUSE, CAUSE_ILLEGAL
        PASS
        .size test_main, . - test_main

        .data
        .balign 8
word:   .dword  0

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .type s_exec, @function
s_exec:
        li      a0, 5                   # triggers (s bit)
s_tsel:
        csrr    a1, tselect             # M CSR from S: illegal
s_done:
        ecall
        ST_UNREACHABLE
        .size s_exec, . - s_exec

        .type s_exec2, @function
s_exec2:
        li      a0, 6                   # triggers when SIE=1
s2_done:
        ecall
        ST_UNREACHABLE
        .size s_exec2, . - s_exec2

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .type u_code, @function
u_code:
        ST_LA   a0, uword, 1
u_ld:
        ld      a1, 0(a0)               # triggers with the u bit
u_done:
        ecall
        ST_UNREACHABLE
        .size u_code, . - u_code

        .section .user.data, "aw", @progbits
        .balign 8
uword:  .dword  0

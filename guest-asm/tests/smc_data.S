# smc_data: code the guest puts in a data page runs (RAM is executable), and
# rewriting it after it ran is seen, like code in text: trapscope drops what
# it decoded there. The trap it raises tells: an access fault's mepc is the
# faulting instruction (priv spec §3.1.14), which trapscope finds in its
# decoded copy of the code.
#
# `buf` (a data page) gets `nop; ld a0, 0(a1); ret`, runs with a1 = an
# unmapped address, then gets `nop; ld a0, 8(a1); ret` (same length, so the
# same block) and runs again.
#
# Checks:
#    1  first run: mcause == 5, mepc == buf + 4, mtval == 0x4000_0000
#    2  second run: mcause == 5, mepc == buf + 4, mtval == 0x4000_0008
#    3  `csrr a0, instret; ret` written to buf2, a page that never ran code,
#       is intercepted the first time it runs: read right before the
#       `jalr`, instret is 2 more in it (the csrr s2 and the jalr retire in
#       between; priv spec §3.3.1 / Zicntr), which trapscope's model count
#       gives and the emulator's own instret would not

        .include "selftest.inc"
        ST_START

        .equ HOLE, 0x40000000

        .text
        .globl test_main
        .type test_main, @function
test_main:
        la      t0, buf
        li      t1, 0x00000013          # nop
        sw      t1, 0(t0)
        li      t1, 0x0005b503          # ld a0, 0(a1)
        sw      t1, 4(t0)
        li      t1, 0x00008067          # ret
        sw      t1, 8(t0)
        fence.i
        LOG_RESET st_m_area
        li      a1, HOLE
        la      t0, buf
        jalr    t0
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, 5
        la      t0, buf + 4
        LOG_LD  t1, st_m_area, 0, TE_EPC
        CHECK_EQ 1, t1, t0
        CHECK_LOG 1, st_m_area, 0, TE_TVAL, HOLE
        la      t0, buf
        li      t1, 0x0085b503          # ld a0, 8(a1)
        sw      t1, 4(t0)
        fence.i
        li      a1, HOLE
        la      t0, buf
        jalr    t0
        CHECK_LOG 2, st_m_area, 1, TE_CAUSE, 5
        la      t0, buf + 4
        LOG_LD  t1, st_m_area, 1, TE_EPC
        CHECK_EQ 2, t1, t0
        CHECK_LOG 2, st_m_area, 1, TE_TVAL, HOLE + 8
        la      t0, buf2
        li      t1, 0xc0202573          # csrr a0, instret
        sw      t1, 0(t0)
        li      t1, 0x00008067          # ret
        sw      t1, 4(t0)
        fence.i
        la      t0, buf2
        csrr    s2, instret
        jalr    t0
        sub     a0, a0, s2
        CHECK_EQI 3, a0, 2
        PASS
        .size test_main, . - test_main

        .data
        .balign 4096
        .globl buf
buf:
        .zero   64
        .balign 4096
        .globl buf2
buf2:
        .zero   64

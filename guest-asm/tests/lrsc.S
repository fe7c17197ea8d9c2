# lrsc: LR/SC reservations (unpriv spec §8.2).
#
# An SC succeeds (writes 0 to rd and stores) only if the hart holds a
# reservation on its address from its latest LR; any SC, successful or not,
# ends the reservation. LR.W sign-extends. This machine keeps reservations
# across traps and xRET (the priv spec permits either, §3.3.2), which is why
# Linux's ret_from_exception drops them with an SC of its own.
#
# Checks (all in M-mode):
#    1  lr.d/sc.d on one address: sc writes 0
#    2  ... and the store happened
#    3  sc.d again without an lr: fails (rd = 1)
#    4  ... and stored nothing
#    5  lr.d A, sc.d B: fails
#    6  ... B unchanged
#    7  lr.d A, an sc.d to a dummy slot, sc.d A: the second sc fails
#    8  lr.w of 0x80000000 sign-extends to 0xffffffff80000000
#    9  lr.d A, ecall (trap to M, mret back), sc.d A: succeeds here
#   10  no trap besides the ecall (1 in all)

        .include "selftest.inc"
        ST_START

        .data
        .balign 8
word_a: .dword 5
word_b: .dword 7
dummy:  .dword 0
word_w: .word 0x80000000
        .word 0

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        la      s0, word_a
        la      s1, word_b
        la      s2, dummy

        lr.d    t0, (s0)
        li      t1, 42
        sc.d    t2, t1, (s0)
        CHECK_EQI 1, t2, 0
        ld      t0, 0(s0)
        CHECK_EQI 2, t0, 42

        li      t1, 99
        sc.d    t2, t1, (s0)
        CHECK_EQI 3, t2, 1
        ld      t0, 0(s0)
        CHECK_EQI 4, t0, 42

        lr.d    t0, (s0)
        sc.d    t2, t1, (s1)
        CHECK_EQI 5, t2, 1
        ld      t0, 0(s1)
        CHECK_EQI 6, t0, 7

        lr.d    t0, (s0)
        sc.d    t2, zero, (s2)
        sc.d    t2, t1, (s0)
        CHECK_EQI 7, t2, 1

        la      t3, word_w
        lr.w    t0, (t3)
        li      t4, 0xffffffff80000000
        CHECK_EQ 8, t0, t4

        lr.d    t0, (s0)
        ecall                           # the M recorder logs it, mret to +4
        sc.d    t2, t1, (s0)
        CHECK_EQI 9, t2, 0
        CHECK_COUNT 10, st_m_area, 1
        PASS
        .size test_main, . - test_main

# smc: code the guest writes runs after fence.i (unpriv spec §3.2, Zifencei:
# fence.i makes the hart's own stores visible to its instruction fetches),
# including instructions trapscope intercepts, and an intercepted
# instruction overwritten with a nop no longer acts.
#
# The machine's RAM is writable (guest-asm/README.md), text included.
# `patch` starts as `li a0, 1; ret`. trapscope runs `csrr rd, instret`
# itself (its model's count, README), so a written one must be found and
# intercepted: read twice, `csrr s2, instret` then `jal patch` whose first
# instruction is now `csrr a0, instret`, the difference is 2 (priv spec
# §3.3.1 / Zicntr: instret counts retired instructions; the csrr s2 and the
# jal retire in between). The emulator's own instret would not say 2.
#
# Checks:
#    1  patch() returns 1 (the code as assembled)
#    2  after writing `addi a0, zero, 42` over its first word and fence.i,
#       patch() returns 42
#    3  after writing `csrr a0, instret` there, patch() returns 2 more than
#       a `csrr s2, instret` just before the call
#    4  `cyc` starts as `csrr a0, cycle; ret`: with a0 = 0 before, it returns
#       nonzero
#    5  after writing `nop` over its csrr and fence.i, it returns a0
#       unchanged (0x55): the intercept no longer acts
#    6  a compressed `c.li a0, 7` + `c.nop` written as one word: returns 7

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        call    patch
        CHECK_EQI 1, a0, 1
        la      t0, patch
        li      t1, 0x02a00513          # addi a0, zero, 42
        sw      t1, 0(t0)
        fence.i
        call    patch
        CHECK_EQI 2, a0, 42
        la      t0, patch
        li      t1, 0xc0202573          # csrr a0, instret
        sw      t1, 0(t0)
        fence.i
        csrr    s2, instret
        jal     patch                   # one instruction (`call` is two)
        sub     a0, a0, s2
        CHECK_EQI 3, a0, 2

        li      a0, 0
        call    cyc
        CHECK_NE 4, a0, zero
        la      t0, cyc
        li      t1, 0x00000013          # nop (addi x0, x0, 0)
        sw      t1, 0(t0)
        fence.i
        li      a0, 0x55
        call    cyc
        CHECK_EQI 5, a0, 0x55

        la      t0, patch
        li      t1, 0x0001451d          # c.li a0, 7 (0x451d); c.nop (0x0001)
        sw      t1, 0(t0)
        fence.i
        call    patch
        CHECK_EQI 6, a0, 7
        PASS
        .size test_main, . - test_main

        .balign 4
        .globl patch
        .type patch, @function
patch:
        li      a0, 1
        ret
        .size patch, . - patch

        .globl cyc
        .type cyc, @function
cyc:
        csrr    a0, cycle
        ret
        .size cyc, . - cyc

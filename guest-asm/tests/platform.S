# platform: the devices at QEMU virt's addresses, from inside the guest.
#
# - UART (ns16550a at 0x1000_0000): LSR (offset 5) says the transmitter is
#   empty (THRE, bit 5), so a polling driver sends at once; the bytes sent
#   are what trapscope prints (tests/machine/irq.rs checks "platform ok").
# - CLINT (0x0200_0000): mtime (+0xbff8) moves forward with the model's
#   clock; mtimecmp (+0x4000) reads back what was written; msip (+0) keeps
#   bit 0 only and raises mip.MSIP.
# - PLIC (0x0c00_0000): with no sources, a claim (context 1, +0x201004)
#   returns 0; a priority register reads back its 3 bits.
# - The test device (0x10_0000) ends the run: 0x5555 is a pass, so this
#   test passes through it rather than through tohost.
#
# Checks:
#    1  LSR has THRE and TEMT set
#    2  mtime later > mtime earlier
#    3  mtimecmp reads back
#    4  msip reads back as 1 after writing 0xffffffff
#    5  mip.MSIP follows msip (set)
#    6  mip.MSIP follows msip (clear)
#    7  PLIC claim with nothing pending is 0
#    8  PLIC priority 1 reads back 7 & 0xf = 7
#    9  the test device did not end the run with a value it ignores

        .include "selftest.inc"
        ST_START

        .equ UART,           0x10000000
        .equ CLINT_MSIP,     0x02000000
        .equ CLINT_MTIMECMP, 0x02004000
        .equ CLINT_MTIME,    0x0200bff8
        .equ PLIC,           0x0c000000
        .equ PLIC_CLAIM_S,   0x0c201004
        .equ TEST_DEV,       0x00100000

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      s0, UART
        lbu     a0, 5(s0)
        andi    a0, a0, 0x60
        CHECK_EQI 1, a0, 0x60
        la      s1, msg
1:      lbu     a1, 0(s1)
        beqz    a1, 3f
2:      lbu     a0, 5(s0)               # wait for THRE (never waits here)
        andi    a0, a0, 0x20
        beqz    a0, 2b
        sb      a1, 0(s0)
        addi    s1, s1, 1
        j       1b
3:
        li      s2, CLINT_MTIME
        ld      a0, 0(s2)
        li      t0, 20
4:      addi    t0, t0, -1
        bnez    t0, 4b
        ld      a1, 0(s2)
        bltu    a0, a1, 5f
        FAIL    2
5:
        li      s3, CLINT_MTIMECMP
        li      a0, 0x123456789
        sd      a0, 0(s3)
        ld      a1, 0(s3)
        CHECK_EQ 3, a0, a1
        li      a0, -1
        sd      a0, 0(s3)               # far future again

        li      s4, CLINT_MSIP
        li      a0, -1
        sw      a0, 0(s4)
        lw      a1, 0(s4)
        CHECK_EQI 4, a1, 1
        csrr    a0, mip
        andi    a0, a0, 1 << 3
        CHECK_EQI 5, a0, 1 << 3
        sw      zero, 0(s4)
        csrr    a0, mip
        andi    a0, a0, 1 << 3
        CHECK_EQI 6, a0, 0

        li      s5, PLIC_CLAIM_S
        lw      a0, 0(s5)
        CHECK_EQI 7, a0, 0
        li      s6, PLIC
        li      a0, 0xf
        sw      a0, 4(s6)
        lw      a1, 4(s6)
        CHECK_EQI 8, a1, 7

        li      s7, TEST_DEV
        li      a0, 0x7777              # reset: ignored, nothing reboots
        sw      a0, 0(s7)
        li      a0, 0x5555              # pass: the run ends here
        sw      a0, 0(s7)
        FAIL    9
        .size test_main, . - test_main

        .data
msg:    .asciz  "platform ok\n"

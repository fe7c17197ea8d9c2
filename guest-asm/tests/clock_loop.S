# clock_loop: a loop that reads the clock, for `trapscope verify`'s counted
# clock (tests/snapshot/verify_clock.rs). Run from reset it loops 2000 times and
# passes; `trapscope snapshot --elf` stops it at clock_loop's 5th execution,
# and `verify` then runs 200 more iterations in QEMU and in trapscope, which
# must end with the same registers and RAM: the values read here go into
# s2-s4 and into clock_log.
#
# Zicntr (unprivileged spec, "Counters"): rdtime, rdcycle and rdinstret read
# time, cycle and instret, here in M-mode. Under QEMU's -icount shift=0
# cycle and instret read its instruction count and time that count / 100
# (the CLINT at 10 MHz); trapscope's verify counts the same way.
#
# Checks:
#    1  time did not go back between the first and the last read

        .include "selftest.inc"
        # _start first in RAM: QEMU's -bios none starts at 0x80000000.
        ST_START .fw.text

        .equ ROUNDS, 2000

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      s1, 0                   # iterations done
        li      s2, 0                   # sum of the times read
        li      s3, 0                   # xor of the cycles read
        li      s4, 0                   # sum of the instrets read
        rdtime  s5                      # the first time
        la      s6, clock_log
        .globl clock_loop
clock_loop:
        rdtime  t0
        add     s2, s2, t0
        rdcycle t1
        xor     s3, s3, t1
        rdinstret t2
        add     s4, s4, t2
        andi    t3, s1, 63
        slli    t3, t3, 3
        add     t3, t3, s6
        sd      t0, 0(t3)               # the last 64 times, in RAM
        addi    s1, s1, 1
        li      t4, ROUNDS
        bltu    s1, t4, clock_loop
        rdtime  t0
        CHECK_GEU 1, t0, s5
        PASS
        .size test_main, . - test_main

        .data
        .balign 8
clock_log:
        .zero   64 * 8

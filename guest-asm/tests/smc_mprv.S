# smc_mprv: code written through a translated store still runs after
# fence.i. M-mode with mstatus.MPRV = 1 and MPP = S makes its loads and
# stores translate through Sv39 (priv spec §3.1.6.3) while its fetches do
# not; the store, through an alias of the text at VA - 2 GiB, lands in
# text, which trapscope watches for code writes.
# (A regression test: handling that write once crashed the emulator.)
#
# Checks:
#    1  patch() returns 1 as assembled
#    2  after `sw` of `addi a0, zero, 42` over it with MPRV on, MPRV off
#       again and fence.i, patch() returns 42

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START

        .equ MSTATUS_MPRV, 1 << 17

        .text
        .globl test_main
        .type test_main, @function
test_main:
        call    patch
        CHECK_EQI 1, a0, 1
        SV39_ON mp_root
        li      t0, MSTATUS_MPP
        csrc    mstatus, t0
        li      t0, (PRV_S << MS_MPP) | MSTATUS_MPRV
        csrs    mstatus, t0
        la      t0, patch
        li      t1, 0x80000000
        sub     t0, t0, t1              # its alias at VA - 2 GiB
        li      t1, 0x02a00513          # addi a0, zero, 42
        sw      t1, 0(t0)               # translated through the alias
        li      t0, MSTATUS_MPRV
        csrc    mstatus, t0
        SV39_OFF
        fence.i
        call    patch
        CHECK_EQI 2, a0, 42
        PASS
        .size test_main, . - test_main

        .balign 4
        .globl patch
        .type patch, @function
patch:
        li      a0, 1
        ret
        .size patch, . - patch

        .data
        .balign 4096
mp_root:                                # VA 0 and VA 0x8000_0000 -> PA 0x8000_0000
        .dword  (0x80000 << 10) | 0x4f   # R W X, A; D clear: the store sets it
        .dword  0
        .dword  (0x80000 << 10) | 0xcf
        .zero   8 * 509

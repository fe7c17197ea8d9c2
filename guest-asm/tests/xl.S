# xl: mstatus.UXL (bits 33:32) and SXL (bits 35:34), priv spec 1.12
# §3.1.6.2 "Base ISA Control in mstatus Register". On this RV64 hart both
# are WARL and read-only 2 (XLEN 64): writes of other values leave 2.
# sstatus shows UXL only (§4.1.1: SXL is not an sstatus field).
#
# Checks:
#    1  mstatus.UXL == 2 at reset
#    2  mstatus.SXL == 2 at reset
#    3  sstatus.UXL == 2, bits 35:34 read 0
#    4  csrc mstatus of both fields: both still 2
#    5  csrw mstatus with UXL=1, SXL=3 (other fields as read): both still 2
#    6  csrw sstatus with UXL=3: sstatus.UXL still 2
#    7  sstatus read in S: UXL == 2
#    8  mstatus as the M handler reads it on a trap: UXL == 2, SXL == 2

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        csrr    a1, mstatus
        CHECK_FIELD 1, a1, 32, 2, 2
        CHECK_FIELD 2, a1, 34, 2, 2
        csrr    a1, sstatus
        CHECK_FIELD 3, a1, 32, 2, 2
        CHECK_FIELD 3, a1, 34, 2, 0
        li      t0, 0xf << 32
        csrc    mstatus, t0
        csrr    a1, mstatus
        CHECK_FIELD 4, a1, 32, 2, 2
        CHECK_FIELD 4, a1, 34, 2, 2
        # UXL=1 (32-bit), SXL=3 (128-bit): neither is supported.
        li      t0, 0xf << 32
        not     t0, t0
        and     a1, a1, t0
        li      t0, (3 << 34) | (1 << 32)
        or      a1, a1, t0
        csrw    mstatus, a1
        csrr    a1, mstatus
        CHECK_FIELD 5, a1, 32, 2, 2
        CHECK_FIELD 5, a1, 34, 2, 2
        csrr    a1, sstatus
        li      t0, 3 << 32
        or      a1, a1, t0
        csrw    sstatus, a1
        csrr    a1, sstatus
        CHECK_FIELD 6, a1, 32, 2, 2

        li      a0, 0
        RESUME_AT s_done, back
        ENTER_S s_code
back:
        CHECK_FIELD 7, a0, 32, 2, 2
        CHECK_LOG_FIELD 8, st_m_area, 0, 32, 2, 2
        CHECK_LOG_FIELD 8, st_m_area, 0, 34, 2, 2
        PASS
        .size test_main, . - test_main

        .section .kernel.text, "ax", @progbits
        .balign 4
        .type s_code, @function
s_code:
        csrr    a0, sstatus
s_done:
        ecall
        ST_UNREACHABLE
        .size s_code, . - s_code

# fp_minmax: fmin/fmax (.s and .d) per the current F and D rules (F spec
# §11.6, changed in version 2.2 to IEEE 754-2019 minimumNumber and
# maximumNumber): if one input is a NaN the result is the other input; if
# both are, the canonical NaN; -0.0 is less than +0.0; any signaling NaN
# input sets NV (even when the result is the other, numeric, input).
# Single results are NaN-boxed (§12.2). Writing an f register sets
# mstatus.FS Dirty (priv spec §3.1.6.6); with FS Off they are illegal.
#
# Bit patterns (IEEE 754): +1.0f 0x3f800000, -1.0f 0xbf800000, +2.0f
# 0x40000000, -0.0f 0x80000000, qNaN 0x7fc00000 (canonical) or 0x7fc01234,
# sNaN 0x7f800001; +1.0 0x3ff0000000000000, -1.0 0xbff0000000000000, +3.0
# 0x4008000000000000, -0.0 0x8000000000000000, sNaN 0x7ff0000000000001.
#
# Checks:
#    1  fmin.s(+1, -1) = -1 (boxed), no flags
#    2  fmax.s(+1, -1) = +1
#    3  fmin.s(+0, -0) = fmin.s(-0, +0) = -0
#    4  fmax.s(-0, +0) = fmax.s(+0, -0) = +0
#    5  fmin.s(qNaN, +1) = +1, no flags
#    6  fmax.s(+2, qNaN) = +2, no flags
#    7  fmin.s(sNaN, +1) = +1, NV
#    8  fmax.s(qNaN, qNaN') = the canonical NaN, no flags
#    9  fmin.s(sNaN, sNaN) = the canonical NaN, NV
#   10  fmin.d(+1, -1) = -1
#   11  fmax.d(-0, +0) = +0; fmin.d(+0, -0) = -0
#   12  fmin.d(qNaN, +3) = +3, no flags
#   13  fmax.d(sNaN, +1) = +1, NV
#   14  fmax.d(qNaN, qNaN) = the canonical double NaN
#   15  FS Initial -> fmin.s -> FS Dirty
#   16  FS Off: fmin.s is illegal (cause 2, mepc, mtval = encoding)

        .include "selftest.inc"
        .include "fp.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        FS_SET  1
        csrw    fflags, zero
        FLDS    f1, 0x3f800000
        FLDS    f2, 0xbf800000
        fmin.s  f3, f1, f2
        CHECK_F 1, f3, BOX | 0xbf800000
        CHECK_FLAGS 1, 0
        fmax.s  f3, f1, f2
        CHECK_F 2, f3, BOX | 0x3f800000

        FLDS    f4, 0x00000000
        FLDS    f5, 0x80000000
        fmin.s  f3, f4, f5
        CHECK_F 3, f3, BOX | 0x80000000
        fmin.s  f3, f5, f4
        CHECK_F 3, f3, BOX | 0x80000000
        fmax.s  f3, f5, f4
        CHECK_F 4, f3, BOX | 0
        fmax.s  f3, f4, f5
        CHECK_F 4, f3, BOX | 0
        CHECK_FLAGS 4, 0

        FLDS    f6, 0x7fc00000
        fmin.s  f3, f6, f1
        CHECK_F 5, f3, BOX | 0x3f800000
        CHECK_FLAGS 5, 0
        FLDS    f7, 0x40000000
        fmax.s  f3, f7, f6
        CHECK_F 6, f3, BOX | 0x40000000
        CHECK_FLAGS 6, 0
        FLDS    f8, 0x7f800001
        fmin.s  f3, f8, f1
        CHECK_F 7, f3, BOX | 0x3f800000
        CHECK_FLAGS 7, FFLAG_NV
        FLDS    f9, 0x7fc01234
        fmax.s  f3, f6, f9
        CHECK_F 8, f3, BOX | CANON_S
        CHECK_FLAGS 8, 0
        fmin.s  f3, f8, f8
        CHECK_F 9, f3, BOX | CANON_S
        CHECK_FLAGS 9, FFLAG_NV

        FLD64   f10, 0x3ff0000000000000
        FLD64   f11, 0xbff0000000000000
        fmin.d  f3, f10, f11
        CHECK_F 10, f3, 0xbff0000000000000
        FLD64   f12, 0
        FLD64   f13, 0x8000000000000000
        fmax.d  f3, f13, f12
        CHECK_F 11, f3, 0
        fmin.d  f3, f12, f13
        CHECK_F 11, f3, 0x8000000000000000
        CHECK_FLAGS 11, 0
        FLD64   f14, 0x7ff8000000000000
        FLD64   f15, 0x4008000000000000
        fmin.d  f3, f14, f15
        CHECK_F 12, f3, 0x4008000000000000
        CHECK_FLAGS 12, 0
        FLD64   f16, 0x7ff0000000000001
        fmax.d  f3, f16, f10
        CHECK_F 13, f3, 0x3ff0000000000000
        CHECK_FLAGS 13, FFLAG_NV
        fmax.d  f3, f14, f14
        CHECK_F 14, f3, CANON_D

        FS_SET  1
        fmin.s  f3, f1, f2
        csrr    a1, mstatus
        CHECK_FIELD 15, a1, MS_FS, 2, 3

        FS_SET  0
        LOG_RESET st_m_area
fs_off:
        fmin.s  f3, f1, f2
        CHECK_COUNT 16, st_m_area, 1
        CHECK_LOG 16, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 16, st_m_area, 0, TE_EPC, fs_off
        CHECK_LOG_INSN 16, st_m_area, 0, fs_off
        PASS
        .size test_main, . - test_main

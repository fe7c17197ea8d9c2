# fp_nanbox: NaN-boxing of single-precision values (unprivileged spec
# 20191213 §12.2 "NaN Boxing of Narrower Values"). A single in a 64-bit f
# register is valid only if its upper 32 bits are all ones; any instruction
# that reads it as a single (OP-FP with fmt=S, the FMA family, fsgnj*.s,
# fcvt.*.s including fcvt.d.s, compares, fclass.s) sees any other value as
# the canonical NaN 0x7fc00000 (§11.3). Only flw/fsw and fmv.x.w/fmv.w.x move
# the bits unchanged. Every single result is boxed: fmv.x.d of it shows
# 0xffffffff in the upper half.
#
# With a canonical-NaN input, arithmetic gives the canonical NaN and raises
# NV only for a signaling NaN input (IEEE 754 §7.2), a signaling compare
# (flt/fle) with a NaN (§11.8), an FMA of inf x 0 (§11.6: "even when the
# addend is a quiet NaN"), and a conversion of NaN to an integer, which gives
# the largest value (§11.7 Table 11.4). fsgnj*.s use the canonical NaN's
# bits; fclass.s reports a quiet NaN (bit 9, §11.9).
#
# The unboxed value used is 0x000000003f800000 (1.0f without the boxing).
#
# Checks:
#    1  native single results are boxed: fadd.s 1+1 = 0xffffffff40000000,
#       fmv.w.x of 0x12345678_3f800000 gives 0xffffffff3f800000,
#       fcvt.s.w of 3 gives 0xffffffff40400000
#    2  fadd.s(unboxed, 1.0) = canonical NaN (boxed), no flags
#    3  fadd.s(unboxed, sNaN) = canonical NaN, NV
#    4  fmul.s(unboxed, +0) = canonical NaN, no flags (no inf x 0 with a NaN)
#    5  fsqrt.s(unboxed) = canonical NaN, no flags
#    6  fmadd.s(inf, +0, unboxed) = canonical NaN, NV
#    7  fmadd.s(unboxed, 1, 1) = canonical NaN, no flags
#    8  fsgnj.s(unboxed, -1) = 0xffffffffffc00000
#    9  fsgnjx.s(1.0, unboxed) = 0xffffffff3f800000; fsgnjn.s(unboxed, unboxed)
#       = 0xffffffffffc00000; fmv.s (fsgnj.s x, x) of unboxed = boxed canonical
#   10  feq.s(unboxed, unboxed) = 0, no flags
#   11  flt.s(1.0, unboxed) = 0, NV; fle.s = 0, NV
#   12  fclass.s(unboxed) = 0x200; fclass.s(1.0) = 0x40
#   13  fcvt.w.s = 0x7fffffff, NV; fcvt.wu.s = all ones (sign-extended), NV
#   14  fcvt.l.s = 0x7fffffffffffffff, NV; fcvt.lu.s = all ones, NV
#   15  fcvt.d.s(unboxed) = 0x7ff8000000000000, no flags
#   16  exempt: fmv.x.w of the unboxed value = 0x3f800000; fsw stores 0x3f800000
#   17  FS Initial -> emulated fadd.s -> FS Dirty
#   18  frm = 5 (reserved) with rm = dyn: illegal (cause 2, mtval = encoding)
#   19  FS Off: fadd.s of an unboxed input is illegal (cause 2)
#   20  FS Off: fadd.s of boxed inputs is illegal too, and its rd keeps the
#       double it held (nothing was written, so nothing is boxed)
#   21  a single result is boxed when a later instruction of its block
#       faults (a load from a hole): the trap handler and the code after it
#       read 0xffffffff40000000
#   22  one block, run three times, whose single input lives into it: boxed
#       1.0, then the unboxed value, then boxed 1.0 again; fadd.s with 1.0
#       gives 2.0, the canonical NaN, 2.0 (each stored with fsd, so the
#       stored dword shows the boxing too)
#   23  fsd and fmv.x.d of a single result in the same block see it boxed

        .include "selftest.inc"
        .include "fp.inc"
        ST_START

        .equ UNBOXED, 0x000000003f800000

        .text
        .globl test_main
        .type test_main, @function
test_main:
        FS_SET  1
        csrw    fflags, zero
        FLDS    f1, 0x3f800000          # 1.0f
        fadd.s  f3, f1, f1
        CHECK_F 1, f3, BOX | 0x40000000
        li      t0, 0x123456783f800000
        fmv.w.x f3, t0
        CHECK_F 1, f3, BOX | 0x3f800000
        li      t0, 3
        fcvt.s.w f3, t0
        CHECK_F 1, f3, BOX | 0x40400000
        CHECK_FLAGS 1, 0

        FLD64   f2, UNBOXED
        fadd.s  f3, f2, f1
        CHECK_F 2, f3, BOX | CANON_S
        CHECK_FLAGS 2, 0
        FLDS    f4, 0x7f800001          # sNaN
        fadd.s  f3, f2, f4
        CHECK_F 3, f3, BOX | CANON_S
        CHECK_FLAGS 3, FFLAG_NV
        FLDS    f5, 0                   # +0
        fmul.s  f3, f2, f5
        CHECK_F 4, f3, BOX | CANON_S
        CHECK_FLAGS 4, 0
        fsqrt.s f3, f2
        CHECK_F 5, f3, BOX | CANON_S
        CHECK_FLAGS 5, 0
        FLDS    f6, 0x7f800000          # +inf
        fmadd.s f3, f6, f5, f2
        CHECK_F 6, f3, BOX | CANON_S
        CHECK_FLAGS 6, FFLAG_NV
        fmadd.s f3, f2, f1, f1
        CHECK_F 7, f3, BOX | CANON_S
        CHECK_FLAGS 7, 0

        FLDS    f7, 0xbf800000          # -1.0f
        fsgnj.s f3, f2, f7
        CHECK_F 8, f3, BOX | 0xffc00000
        fsgnjx.s f3, f1, f2
        CHECK_F 9, f3, BOX | 0x3f800000
        fsgnjn.s f3, f2, f2
        CHECK_F 9, f3, BOX | 0xffc00000
        fmv.s   f3, f2
        CHECK_F 9, f3, BOX | CANON_S
        CHECK_FLAGS 9, 0

        feq.s   a1, f2, f2
        CHECK_EQI 10, a1, 0
        CHECK_FLAGS 10, 0
        li      a1, 5
        flt.s   a1, f1, f2
        CHECK_EQI 11, a1, 0
        CHECK_FLAGS 11, FFLAG_NV
        li      a1, 5
        fle.s   a1, f1, f2
        CHECK_EQI 11, a1, 0
        CHECK_FLAGS 11, FFLAG_NV

        fclass.s a1, f2
        CHECK_EQI 12, a1, 0x200
        fclass.s a1, f1
        CHECK_EQI 12, a1, 0x40

        fcvt.w.s a1, f2, rtz
        CHECK_EQI 13, a1, 0x7fffffff
        CHECK_FLAGS 13, FFLAG_NV
        fcvt.wu.s a1, f2, rtz
        CHECK_EQI 13, a1, -1
        CHECK_FLAGS 13, FFLAG_NV
        fcvt.l.s a1, f2, rtz
        CHECK_EQI 14, a1, 0x7fffffffffffffff
        CHECK_FLAGS 14, FFLAG_NV
        fcvt.lu.s a1, f2, rtz
        CHECK_EQI 14, a1, -1
        CHECK_FLAGS 14, FFLAG_NV
        fcvt.d.s f3, f2
        CHECK_F 15, f3, CANON_D
        CHECK_FLAGS 15, 0

        fmv.x.w a1, f2
        CHECK_EQI 16, a1, 0x3f800000
        la      t0, word
        fsw     f2, 0(t0)
        lwu     a1, 0(t0)
        CHECK_EQI 16, a1, 0x3f800000

        FS_SET  1
        fadd.s  f3, f2, f1
        csrr    a1, mstatus
        CHECK_FIELD 17, a1, MS_FS, 2, 3

        csrwi   frm, 5
        LOG_RESET st_m_area
bad_rm:
        fadd.s  f3, f2, f1              # rm = dyn
        CHECK_COUNT 18, st_m_area, 1
        CHECK_LOG 18, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 18, st_m_area, 0, TE_EPC, bad_rm
        CHECK_LOG_INSN 18, st_m_area, 0, bad_rm
        csrwi   frm, 0

        FS_SET  0
        LOG_RESET st_m_area
fs_off:
        fadd.s  f3, f2, f1
        CHECK_COUNT 19, st_m_area, 1
        CHECK_LOG 19, st_m_area, 0, TE_CAUSE, CAUSE_ILLEGAL
        CHECK_LOG_ADDR 19, st_m_area, 0, TE_EPC, fs_off
        FS_SET  1
        FLD64   f3, 0x4008000000000000  # 3.0 (a double)
        FS_SET  0
        LOG_RESET st_m_area
fs_off2:
        fadd.s  f3, f1, f1
        CHECK_COUNT 20, st_m_area, 1
        CHECK_LOG_ADDR 20, st_m_area, 0, TE_EPC, fs_off2
        FS_SET  1
        CHECK_F 20, f3, 0x4008000000000000

        .equ HOLE, 0x40000000           # no memory there (as in access_fault.S)
        FLDS    f1, 0x3f800000
        LOG_RESET st_m_area
        li      t1, HOLE
        fadd.s  f3, f1, f1
ld_hole:
        fld     f4, 0(t1)
        CHECK_COUNT 21, st_m_area, 1
        CHECK_LOG_ADDR 21, st_m_area, 0, TE_EPC, ld_hole
        CHECK_F 21, f3, BOX | 0x40000000

        li      s2, 3
        la      t1, inputs
        la      t2, outputs
1:      fld     f2, 0(t1)
        j       2f                      # ends the block: f2 lives into the next
2:      fadd.s  f3, f2, f1
        fsd     f3, 0(t2)
        addi    t1, t1, 8
        addi    t2, t2, 8
        addi    s2, s2, -1
        bnez    s2, 1b
        la      t2, outputs
        ld      a1, 0(t2)
        li      t0, BOX | 0x40000000
        CHECK_EQ 22, a1, t0
        ld      a1, 8(t2)
        li      t0, BOX | CANON_S
        CHECK_EQ 22, a1, t0
        ld      a1, 16(t2)
        li      t0, BOX | 0x40000000
        CHECK_EQ 22, a1, t0
        CHECK_FLAGS 22, 0

        la      t2, outputs
        fadd.s  f3, f1, f1
        fsd     f3, 0(t2)
        fmv.x.d a2, f3
        ld      a1, 0(t2)
        li      t0, BOX | 0x40000000
        CHECK_EQ 23, a1, t0
        CHECK_EQ 23, a2, t0
        PASS
        .size test_main, . - test_main

        .data
        .balign 8
word:   .dword  0
inputs: .dword  BOX | 0x3f800000, UNBOXED, BOX | 0x3f800000
outputs:
        .dword  0, 0, 0

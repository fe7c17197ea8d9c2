# fp_bench: an FP-heavy loop for `trapscope bench`'s FP figure, and a
# self-test of what the loop computes. Each iteration runs 9 F/D
# instructions (6 of them intercepted by trapscope: singles for NaN-boxing,
# fmin/fmax always) and 3 integer ones. It checks only what raw unicorn
# computes too (bench runs it raw as well); boxing is fp_nanbox's.
#
# The 8-byte knob `fp_iterations` (default 1000) sets the iteration count N.
# Per iteration: s += 1.0f; t = s * 0.5; u = t * 2 + 1 (fmadd.s) = s + 1;
# m = fmin.s(u, s) = s; z = m - s = +0; d += 1.0; e = d * 0.5;
# M = fmax.d(e, d) = d; k += (M == d). All values are integers below 2^24,
# so every step is exact and the end state follows by hand:
#
# Checks:
#    1  fcvt.l.s(s) == N
#    2  fcvt.l.d(d) == N
#    3  k == N (every fmax.d returned d)
#    4  z == +0 (the low 32 bits 0)

        .include "selftest.inc"
        .include "fp.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        FS_SET  1
        la      t0, fp_iterations
        ld      s3, 0(t0)
        mv      s4, s3
        li      s2, 0
        FLDS    fs0, 0                  # s
        FLDS    fa1, 0x3f800000         # 1.0f
        FLDS    fa2, 0x3f000000         # 0.5f
        FLDS    fa3, 0x40000000         # 2.0f
        FLD64   fs1, 0                  # d
        FLD64   fa4, 0x3ff0000000000000 # 1.0
        FLD64   fa5, 0x3fe0000000000000 # 0.5
        .globl fp_loop
fp_loop:
        fadd.s  fs0, fs0, fa1
        fmul.s  ft1, fs0, fa2
        fmadd.s ft2, ft1, fa3, fa1
        fmin.s  ft3, ft2, fs0
        fsub.s  ft4, ft3, fs0
        fadd.d  fs1, fs1, fa4
        fmul.d  ft5, fs1, fa5
        fmax.d  ft6, ft5, fs1
        feq.d   t1, ft6, fs1
        add     s2, s2, t1
        addi    s3, s3, -1
        bnez    s3, fp_loop
        fcvt.l.s a1, fs0, rtz
        CHECK_EQ 1, a1, s4
        fcvt.l.d a1, fs1, rtz
        CHECK_EQ 2, a1, s4
        CHECK_EQ 3, s2, s4
        fmv.x.w a1, ft4
        CHECK_EQI 4, a1, 0
        PASS
        .size test_main, . - test_main

        .data
        .balign 8
        .globl fp_iterations
        .type fp_iterations, @object
fp_iterations:
        .dword  1000
        .size fp_iterations, 8

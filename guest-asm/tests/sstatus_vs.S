# sstatus_vs: mstatus/sstatus VS (bits 10:9) and SD (bit 63).
#
# Priv spec §3.1.6 (mstatus) and §3.1.6.6 (extension context status):
# * VS is a two-bit WARL field: 0 Off, 1 Initial, 2 Clean, 3 Dirty.
# * SD is read-only. It is 1 exactly when VS, FS or XS is Dirty (3). XS is
#   read-only 0 here because this machine has no custom extension state.
# * §4.1.1 (sstatus): sstatus is a restricted view of the same register,
#   and VS, FS and SD (bit SXLEN-1 = 63) appear in it at the same positions.
#   So a write through either CSR shows through the other.
# * Trap entry (§3.1.6.1, §4.1.1) and xRET (§3.3.2) change only the
#   privilege/interrupt-stack fields (xPP, xPIE, xIE), not VS.
# The trapscope contract promises that VS and SD round-trip even though the
# emulator underneath has neither (README). Nothing here runs a vector or FP
# instruction, so no field becomes Dirty behind the test's back.
#
# Checks (M-mode CSR round-trips):
#    1  at reset: VS == 0, FS == 0, SD == 0
#    2  csrs mstatus VS=1: mstatus.VS == 1
#    3  ... sstatus.VS == 1
#    4  ... SD == 0 in mstatus and sstatus
#    5  VS=2 via csrc+csrs mstatus: mstatus.VS == 2
#    6  ... sstatus.VS == 2
#    7  ... SD == 0 in both
#    8  csrs mstatus VS=3: mstatus.VS == 3
#    9  ... mstatus.SD == 1
#   10  ... sstatus.VS == 3 and sstatus.SD == 1
#   11  csrc mstatus VS: mstatus.VS == 0, SD == 0
#   12  ... sstatus.SD == 0
#   13  csrs sstatus VS=1: mstatus.VS == 1, SD == 0
#   14  csrw sstatus (read-modify-write) VS=2: mstatus.VS == 2, sstatus.VS == 2
#   15  csrs sstatus VS=3: VS == 3 and SD == 1 in both
#   16  csrc sstatus VS bit 10: VS == 1, SD == 0
#   17  csrw mstatus (rmw) VS=3: VS == 3, SD == 1; then csrw VS=0: VS == 0, SD == 0
#   18  csrrc sstatus with VS=2 returns the old value with VS == 2
#   19  ... and VS == 0 afterwards
#   20  csrrs mstatus VS=1 returns VS == 0 (old) and VS == 1 afterwards
#   21  csrsi/csrci of SIE on mstatus and sstatus leave VS == 2 alone
#   22  SD not writable: csrs mstatus SD with VS=FS=0 -> SD == 0
#   23  csrw sstatus with bit 63 set, VS=FS=0 -> SD == 0 (both views)
#   24  csrs sstatus SD -> SD == 0; and with VS=3, csrc mstatus SD -> SD == 1
#   25  FS=3, VS=0 -> SD == 1 (both views)
#   26  FS=2, VS=2 -> SD == 0 (Clean is not Dirty)
#   27  FS=3, VS=3 -> SD == 1; FS=0, VS=3 -> SD == 1; FS=0, VS=0 -> SD == 0
#   28  no trap happened during checks 1-27
# Checks (traps and xret leave VS alone):
#   29  VS=1, ecall in M: mstatus on handler entry has VS == 1, SD == 0
#   30  ... and after the handler's mret VS == 1
#   31  VS=2, mret to S: S reads sstatus.VS == 2 (mret kept VS)
#   32  ecall from S: mstatus on M handler entry has VS == 2
#   33  S does an sret that stays in S: sstatus.VS == 2 after it, SD == 0
#   34  U ecall delegated to S (medeleg bit 8): sstatus on S handler entry
#       has VS == 2
#   35  back in M (via a U ebreak, cause 3) after all that: mstatus.VS == 2

        .include "selftest.inc"
        ST_START

# RDVS n, csr, value: check n holds iff the csr's VS field == value.
.macro RDVS n, csr, value
        csrr    a0, \csr
        CHECK_FIELD \n, a0, MS_VS, 2, \value
.endm
# RDSD n, csr, value: check n holds iff the csr's SD bit == value.
.macro RDSD n, csr, value
        csrr    a0, \csr
        CHECK_FIELD \n, a0, MS_SD, 1, \value
.endm
# SETVS csr, value: VS = value through csrc + csrs on csr.
.macro SETVS csr, value
        li      t0, MSTATUS_VS
        csrc    \csr, t0
.if \value
        li      t0, (\value) << MS_VS
        csrs    \csr, t0
.endif
.endm
# SETFS value: FS = value through mstatus.
.macro SETFS value
        li      t0, MSTATUS_FS
        csrc    mstatus, t0
.if \value
        li      t0, (\value) << MS_FS
        csrs    mstatus, t0
.endif
.endm

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        LOG_RESET st_s_area

        # ---- reset value (contract: mstatus is 0 at reset) ----
        csrr    a0, mstatus
        li      t0, MSTATUS_VS | MSTATUS_FS
        and     a1, a0, t0
        CHECK_EQI 1, a1, 0
        CHECK_FIELD 1, a0, MS_SD, 1, 0

        # ---- VS through mstatus ----
        SETVS   mstatus, 1
        RDVS    2, mstatus, 1
        RDVS    3, sstatus, 1
        RDSD    4, mstatus, 0
        RDSD    4, sstatus, 0
        SETVS   mstatus, 2
        RDVS    5, mstatus, 2
        RDVS    6, sstatus, 2
        RDSD    7, mstatus, 0
        RDSD    7, sstatus, 0
        li      t0, MSTATUS_VS
        csrs    mstatus, t0             # 2 | 3 = 3
        RDVS    8, mstatus, 3
        RDSD    9, mstatus, 1
        RDVS    10, sstatus, 3
        RDSD    10, sstatus, 1
        li      t0, MSTATUS_VS
        csrc    mstatus, t0
        RDVS    11, mstatus, 0
        RDSD    11, mstatus, 0
        RDSD    12, sstatus, 0

        # ---- VS through sstatus ----
        li      t0, 1 << MS_VS
        csrs    sstatus, t0
        RDVS    13, mstatus, 1
        RDSD    13, mstatus, 0
        csrr    a0, sstatus             # read-modify-write with csrw
        li      t0, MSTATUS_VS
        not     t0, t0
        and     a0, a0, t0
        li      t0, 2 << MS_VS
        or      a0, a0, t0
        csrw    sstatus, a0
        RDVS    14, mstatus, 2
        RDVS    14, sstatus, 2
        li      t0, MSTATUS_VS
        csrs    sstatus, t0
        RDVS    15, mstatus, 3
        RDVS    15, sstatus, 3
        RDSD    15, mstatus, 1
        RDSD    15, sstatus, 1
        li      t0, 2 << MS_VS          # clear bit 10 only: 3 -> 1
        csrc    sstatus, t0
        RDVS    16, mstatus, 1
        RDVS    16, sstatus, 1
        RDSD    16, mstatus, 0

        # ---- csrw mstatus (read-modify-write) ----
        csrr    a0, mstatus
        li      t0, MSTATUS_VS
        or      a0, a0, t0
        csrw    mstatus, a0
        RDVS    17, mstatus, 3
        RDSD    17, mstatus, 1
        csrr    a0, mstatus
        li      t0, MSTATUS_VS
        not     t0, t0
        and     a0, a0, t0
        csrw    mstatus, a0
        RDVS    17, mstatus, 0
        RDSD    17, mstatus, 0

        # ---- csrrs / csrrc return the old value, VS included ----
        SETVS   mstatus, 2
        li      t0, MSTATUS_VS
        csrrc   a1, sstatus, t0
        CHECK_FIELD 18, a1, MS_VS, 2, 2
        RDVS    19, mstatus, 0
        li      t0, 1 << MS_VS
        csrrs   a1, mstatus, t0
        CHECK_FIELD 20, a1, MS_VS, 2, 0
        RDVS    20, mstatus, 1

        # ---- immediate forms touch bits 4:0 only; VS must survive ----
        SETVS   mstatus, 2
        csrsi   mstatus, MSTATUS_SIE
        csrci   mstatus, MSTATUS_SIE
        csrsi   sstatus, MSTATUS_SIE
        csrci   sstatus, MSTATUS_SIE
        RDVS    21, mstatus, 2
        RDVS    21, sstatus, 2

        # ---- SD is read-only ----
        SETVS   mstatus, 0
        SETFS   0
        li      t0, MSTATUS_SD
        csrs    mstatus, t0
        RDSD    22, mstatus, 0
        csrr    a0, sstatus
        li      t0, MSTATUS_SD
        or      a0, a0, t0
        csrw    sstatus, a0
        RDSD    23, sstatus, 0
        RDSD    23, mstatus, 0
        li      t0, MSTATUS_SD
        csrs    sstatus, t0
        RDSD    24, sstatus, 0
        SETVS   mstatus, 3
        li      t0, MSTATUS_SD
        csrc    mstatus, t0
        RDSD    24, mstatus, 1
        SETVS   mstatus, 0

        # ---- SD also summarises FS ----
        SETFS   3
        RDSD    25, mstatus, 1
        RDSD    25, sstatus, 1
        SETFS   2
        SETVS   mstatus, 2
        RDSD    26, mstatus, 0
        RDSD    26, sstatus, 0
        SETFS   3
        SETVS   mstatus, 3
        RDSD    27, mstatus, 1
        SETFS   0
        RDSD    27, mstatus, 1
        RDSD    27, sstatus, 1
        SETVS   mstatus, 0
        RDSD    27, mstatus, 0
        RDSD    27, sstatus, 0
        CHECK_COUNT 28, st_m_area, 0

        # ---- trap entry / mret in M keep VS ----
        SETVS   mstatus, 1
m_ecall:
        ecall
        CHECK_COUNT 29, st_m_area, 1
        CHECK_LOG 29, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_FIELD 29, st_m_area, 0, MS_VS, 2, 1
        CHECK_LOG_FIELD 29, st_m_area, 0, MS_SD, 1, 0
        RDVS    30, mstatus, 1

        # ---- mret to S, ecall from S, sret in S, delegated U ecall ----
        SETVS   mstatus, 2
        li      t0, 1 << CAUSE_ECALL_U
        csrw    medeleg, t0
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        ST_LA   s3, u_ecall, 1          # S srets to U here
        RESUME_AT u_done, back, 1
        ENTER_S s_code
back:
        csrw    medeleg, zero
        CHECK_FIELD 31, s1, MS_VS, 2, 2
        CHECK_COUNT 32, st_m_area, 2
        CHECK_LOG 32, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_FIELD 32, st_m_area, 0, MS_VS, 2, 2
        CHECK_FIELD 33, s2, MS_VS, 2, 2
        CHECK_FIELD 33, s2, MS_SD, 1, 0
        CHECK_COUNT 34, st_s_area, 1
        CHECK_LOG 34, st_s_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_FIELD 34, st_s_area, 0, MS_VS, 2, 2
        CHECK_LOG 35, st_m_area, 1, TE_CAUSE, CAUSE_BREAKPOINT
        RDVS    35, mstatus, 2
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        csrr    s1, sstatus             # VS after mret
s_ecall:
        ecall                           # -> M, mret back here + 4
        li      t0, MSTATUS_SPP         # sret that stays in S
        csrs    sstatus, t0
        la      t0, s_after
        csrw    sepc, t0
        sret
s_after:
        csrr    s2, sstatus             # VS after sret
        li      t0, MSTATUS_SPP         # now sret to U at s3
        csrc    sstatus, t0
        csrw    sepc, s3
        sret
        ST_UNREACHABLE
        .size s_code, . - s_code

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_ecall
        .type u_ecall, @function
u_ecall:
        ecall                           # delegated -> S recorder, sret back
u_done:
        ebreak                          # not delegated -> M: resume at back
        ST_UNREACHABLE
        .size u_ecall, . - u_ecall

# xret: what MRET and SRET do to privilege and mstatus/sstatus.
#
# Priv spec §3.3.2 (trap-return instructions) and §3.1.6.1 (privilege and
# global interrupt-enable stack in mstatus): xRET sets the privilege to xPP,
# xIE = xPIE, xPIE = 1, and xPP = the least-privileged supported mode. That
# mode is U here, because this machine has U-mode.
# §4.1.1 (sstatus): the same for SRET with SPP/SPIE/SIE.
#
# The privilege after an xret is probed with an ecall, whose cause says where
# it came from (§3.1.15: 8 = U, 9 = S, 11 = M). The bits after an mret are
# read directly after an mret that stays in M (MPP = M). The bits after an sret
# are read by S itself after an sret that stays in S (SPP = S). No interrupts
# exist in this machine, so setting MIE/SIE is harmless.
#
# Checks:
#   mret with MPP = M
#    1  MPIE = 0 before: MIE == 0 after
#    2  MPIE == 1 after
#    3  MPP == 0 (U) after
#    4  MPIE = 1 before (MIE = 0): MIE == 1 after
#    5  MPIE == 1 and MPP == 0 after
#    6  privilege is M: an ecall is cause 11
#   mret with MPP = S
#    7  the probe ecall is cause 9 from the mret target
#    8  MPIE = 0 before: at the probe, MPIE (the MIE S ran with) == 0
#    9  MPIE = 1 before: the probe is cause 9 again and MPIE == 1
#   mret with MPP = U
#   10  the probe ecall is cause 8 from the mret target
#   sret with SPP = S, done in S
#   11  SPIE = 0, SIE = 1 before: SIE == 0 after
#   12  SPIE == 1 after
#   13  SPP == 0 (U) after
#   14  SPIE = 1, SIE = 0 before: SIE == 1, SPIE == 1, SPP == 0 after
#   15  privilege is still S: the probe ecall is cause 9, at the expected pc
#   sret with SPP = U
#   16  the probe ecall is cause 8 from the sret target

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area

        # ---- mret with MPP = M, MPIE = 0, MIE = 1 ----
        li      t0, MSTATUS_MPP
        csrs    mstatus, t0             # MPP = 3
        li      t0, MSTATUS_MPIE
        csrc    mstatus, t0
        csrsi   mstatus, MSTATUS_MIE
        la      t0, m_after1
        csrw    mepc, t0
        mret
m_after1:
        csrr    s0, mstatus
        CHECK_FIELD 1, s0, MS_MIE, 1, 0
        CHECK_FIELD 2, s0, MS_MPIE, 1, 1
        CHECK_FIELD 3, s0, MS_MPP, 2, PRV_U

        # ---- mret with MPP = M, MPIE = 1, MIE = 0 ----
        li      t0, MSTATUS_MPP | MSTATUS_MPIE
        csrs    mstatus, t0
        csrci   mstatus, MSTATUS_MIE
        la      t0, m_after2
        csrw    mepc, t0
        mret
m_after2:
        csrr    s0, mstatus
        CHECK_FIELD 4, s0, MS_MIE, 1, 1
        CHECK_FIELD 5, s0, MS_MPIE, 1, 1
        CHECK_FIELD 5, s0, MS_MPP, 2, PRV_U
        csrci   mstatus, MSTATUS_MIE
m_probe:
        ecall
        CHECK_COUNT 6, st_m_area, 1
        CHECK_LOG 6, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_M
        CHECK_LOG_ADDR 6, st_m_area, 0, TE_EPC, m_probe

        # ---- mret to S, MPIE = 0 ----
        LOG_RESET st_m_area
        li      t0, MSTATUS_MPIE
        csrc    mstatus, t0
        RESUME_AT s_probe, back_s1
        ENTER_S s_probe
back_s1:
        CHECK_COUNT 7, st_m_area, 1
        CHECK_LOG 7, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 7, st_m_area, 0, TE_EPC, s_probe
        CHECK_LOG_FIELD 8, st_m_area, 0, MS_MPIE, 1, 0

        # ---- mret to S, MPIE = 1 ----
        LOG_RESET st_m_area
        li      t0, MSTATUS_MPIE
        csrs    mstatus, t0
        RESUME_AT s_probe, back_s2
        ENTER_S s_probe
back_s2:
        CHECK_COUNT 9, st_m_area, 1
        CHECK_LOG 9, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_FIELD 9, st_m_area, 0, MS_MPIE, 1, 1

        # ---- mret to U ----
        LOG_RESET st_m_area
        RESUME_AT u_probe, back_u1, 1
        ENTER_U u_probe
back_u1:
        CHECK_COUNT 10, st_m_area, 1
        CHECK_LOG 10, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 10, st_m_area, 0, TE_EPC, u_probe, 1

        # ---- sret with SPP = S, run by S ----
        LOG_RESET st_m_area
        RESUME_AT s_sret_probe, back_s3
        ENTER_S s_sret
back_s3:
        # s1, s2 = sstatus after the first and second sret (set in S)
        CHECK_FIELD 11, s1, MS_SIE, 1, 0
        CHECK_FIELD 12, s1, MS_SPIE, 1, 1
        CHECK_FIELD 13, s1, MS_SPP, 1, 0
        CHECK_FIELD 14, s2, MS_SIE, 1, 1
        CHECK_FIELD 14, s2, MS_SPIE, 1, 1
        CHECK_FIELD 14, s2, MS_SPP, 1, 0
        CHECK_COUNT 15, st_m_area, 1
        CHECK_LOG 15, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG_ADDR 15, st_m_area, 0, TE_EPC, s_sret_probe

        # ---- sret with SPP = U ----
        LOG_RESET st_m_area
        ST_LA   s3, u_probe2, 1         # S reads the sret target from s3
        RESUME_AT u_probe2, back_u2, 1
        ENTER_S s_sret_to_u
back_u2:
        CHECK_COUNT 16, st_m_area, 1
        CHECK_LOG 16, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 16, st_m_area, 0, TE_EPC, u_probe2, 1
        PASS
        .size test_main, . - test_main

# ---- S-mode code ----
        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_probe
        .type s_probe, @function
s_probe:
        ecall                           # cause 9 iff running in S
        ST_UNREACHABLE
        .size s_probe, . - s_probe

        # Two srets that stay in S, each followed by a read of sstatus.
        .globl s_sret
        .type s_sret, @function
s_sret:
        li      t0, MSTATUS_SPP         # SPP = S
        csrs    sstatus, t0
        li      t0, MSTATUS_SPIE        # SPIE = 0
        csrc    sstatus, t0
        csrsi   sstatus, MSTATUS_SIE    # SIE = 1
        la      t0, s_after1
        csrw    sepc, t0
        sret
s_after1:
        csrr    s1, sstatus             # expect SIE 0, SPIE 1, SPP 0
        li      t0, MSTATUS_SPP | MSTATUS_SPIE
        csrs    sstatus, t0             # SPP = S, SPIE = 1
        csrci   sstatus, MSTATUS_SIE    # SIE = 0
        la      t0, s_after2
        csrw    sepc, t0
        sret
s_after2:
        csrr    s2, sstatus             # expect SIE 1, SPIE 1, SPP 0
        csrci   sstatus, MSTATUS_SIE
s_sret_probe:
        ecall                           # cause 9 iff still in S
        ST_UNREACHABLE
        .size s_sret, . - s_sret

        # sret to U; M put the target address in s3.
        .globl s_sret_to_u
        .type s_sret_to_u, @function
s_sret_to_u:
        li      t0, MSTATUS_SPP
        csrc    sstatus, t0             # SPP = U
        csrw    sepc, s3
        sret
        ST_UNREACHABLE
        .size s_sret_to_u, . - s_sret_to_u

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_probe
        .type u_probe, @function
u_probe:
        ecall                           # cause 8 iff running in U
        ST_UNREACHABLE
        .size u_probe, . - u_probe

        .globl u_probe2
        .type u_probe2, @function
u_probe2:
        ecall
        ST_UNREACHABLE
        .size u_probe2, . - u_probe2

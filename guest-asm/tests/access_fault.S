# access_fault: loads, stores, AMOs and fetches that reach no memory raise
# access faults to the guest's handler, as on hardware.
#
# Priv spec §3.7 / table 3.6: cause 1 = instruction access fault, 5 = load
# access fault, 7 = store/AMO access fault (an AMO's is always 7).
# §3.1.16 (mtval): the faulting virtual address. §3.1.14 (mepc): the address
# of the faulting instruction (for a fetch, the address fetched). The
# faulting instruction does not retire: a load leaves rd alone.
# 0x4000_0000 lies between the user region and the firmware: unmapped.
#
# Checks:
#    1  `ld` from 0x4000_0000, after two other instructions of its block:
#       M took one trap; those instructions ran
#    2  mcause == 5, mepc == the ld, mtval == 0x4000_0000
#    3  the ld's rd is unchanged
#    4  `sd` to 16(0x4000_0000): mcause == 7, mepc == the sd, mtval == 0x4000_0010
#    5  `amoadd.d`: mcause == 7 (not 5), mtval == the address
#    6  compressed `c.ld a2, 8(a3)`: mcause == 5, mepc == it, mtval == 0x4000_0008
#    7  a jump to 0x4000_0100: mcause == 1, mepc == mtval == 0x4000_0100
#    9  `lr.d` (emulated by trapscope): mcause == 5, mtval == the address
#    8  from U with medeleg[5]: S takes the load fault, scause == 5,
#       sepc == the load, stval == 0x4000_0020, SPP == U; M saw only the ecall

        .include "selftest.inc"
        ST_START

        .equ SENTINEL, 0x5a5a1234
        .equ HOLE, 0x40000000

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t2, HOLE
        # ---- load, mid-block ----
        LOG_RESET st_m_area
        li      a2, SENTINEL
        li      a1, 0
        addi    a1, a1, 7
m_ld:
        ld      a2, 0(t2)
        CHECK_COUNT 1, st_m_area, 1
        CHECK_EQI 1, a1, 7
        CHECK_LOG 2, st_m_area, 0, TE_CAUSE, 5
        CHECK_LOG_ADDR 2, st_m_area, 0, TE_EPC, m_ld
        CHECK_LOG 2, st_m_area, 0, TE_TVAL, HOLE
        CHECK_EQI 3, a2, SENTINEL

        # ---- store ----
m_sd:
        sd      a2, 16(t2)
        CHECK_LOG 4, st_m_area, 1, TE_CAUSE, 7
        CHECK_LOG_ADDR 4, st_m_area, 1, TE_EPC, m_sd
        CHECK_LOG 4, st_m_area, 1, TE_TVAL, HOLE + 16

        # ---- AMO ----
        li      t3, HOLE + 0x18
m_amo:
        amoadd.d a4, a2, (t3)
        CHECK_LOG 5, st_m_area, 2, TE_CAUSE, 7
        CHECK_LOG_ADDR 5, st_m_area, 2, TE_EPC, m_amo
        CHECK_LOG 5, st_m_area, 2, TE_TVAL, HOLE + 0x18

        # ---- compressed load: the recorder skips 4 bytes, c.ld + c.nop ----
        li      a3, HOLE
        .option push
        .option rvc
m_cld:
        c.ld    a2, 8(a3)
        c.nop
        .option pop
        CHECK_LOG 6, st_m_area, 3, TE_CAUSE, 5
        CHECK_LOG_ADDR 6, st_m_area, 3, TE_EPC, m_cld
        CHECK_LOG 6, st_m_area, 3, TE_TVAL, HOLE + 8

        # ---- LR ----
        li      t3, HOLE + 0x28
m_lr:
        lr.d    a4, (t3)
        CHECK_LOG 9, st_m_area, 4, TE_CAUSE, 5
        CHECK_LOG_ADDR 9, st_m_area, 4, TE_EPC, m_lr
        CHECK_LOG 9, st_m_area, 4, TE_TVAL, HOLE + 0x28

        # ---- fetch: resume at back_fetch instead of returning there ----
        LOG_RESET st_m_area
        la      t1, st_m_area
        li      t0, HOLE + 0x100
        sd      t0, TA_RESUME_EPC(t1)
        la      t0, back_fetch
        sd      t0, TA_RESUME_PC(t1)
        li      t0, HOLE + 0x100
        jr      t0
back_fetch:
        CHECK_COUNT 7, st_m_area, 1
        CHECK_LOG 7, st_m_area, 0, TE_CAUSE, 1
        CHECK_LOG 7, st_m_area, 0, TE_EPC, HOLE + 0x100
        CHECK_LOG 7, st_m_area, 0, TE_TVAL, HOLE + 0x100

        # ---- U-mode load, delegated to S ----
        li      t0, 1 << 5
        csrw    medeleg, t0
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT u_done, back_u, 1
        ENTER_U u_ld
back_u:
        CHECK_COUNT 8, st_s_area, 1
        CHECK_COUNT 8, st_m_area, 1
        CHECK_LOG 8, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG 8, st_s_area, 0, TE_CAUSE, 5
        CHECK_LOG_ADDR 8, st_s_area, 0, TE_EPC, u_ldi, 1
        CHECK_LOG 8, st_s_area, 0, TE_TVAL, HOLE + 0x20
        CHECK_LOG_FIELD 8, st_s_area, 0, MS_SPP, 1, 0
        csrw    medeleg, zero
        PASS
        .size test_main, . - test_main

        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_ld
        .type u_ld, @function
u_ld:
        lui     t2, %hi(HOLE)
u_ldi:
        ld      a0, 0x20(t2)            # -> S: load access fault
u_done:
        ecall                           # -> M: resume at back_u
        ST_UNREACHABLE
        .size u_ld, . - u_ld

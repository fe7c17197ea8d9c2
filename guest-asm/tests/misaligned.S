# misaligned: misaligned LR, SC and AMOs trap; plain misaligned loads and
# stores complete.
#
# Unprivileged spec, "A" extension (LR/SC and AMOs): if the address is not
# naturally aligned, an address-misaligned or access-fault exception is raised.
# The trapscope contract picks misaligned: an LR gives cause 4 (load address
# misaligned), and an SC or AMO gives cause 6 (store/AMO address misaligned),
# with xtval = the address.
# Priv spec §3.1.15 (mcause codes 4 and 6), §3.1.16 (mtval: the faulting
# virtual address for address-misaligned exceptions), §3.1.14 (mepc).
# A trapping instruction does not retire: mepc points at it so that it can be
# re-executed (§3.1.14). So a trapping LR/SC/AMO writes neither its rd nor
# memory.
#
# Plain loads and stores: the unprivileged spec lets the execution environment
# interface (EEI) decide whether a misaligned access is handled invisibly or
# raises an exception. trapscope's EEI handles them (README: "plain
# loads/stores complete"). So the plain accesses here must not trap and must
# move the right bytes, little-endian.
#
# Everything runs in M-mode; the recorder returns to mepc + 4.
#
# Checks:
#    1  lr.w at buf+1: M took one trap, mcause == 4
#    2  mtval == buf+1
#    3  mepc == the lr.w
#    4  rd unchanged
#    5  lr.d at buf+4 (4-aligned, not 8-aligned): mcause == 4
#    6  mtval == buf+4, mepc == the lr.d
#    7  sc.w at buf+2 (after a successful aligned lr.w of buf): mcause == 6
#    8  mtval == buf+2
#    9  mepc == the sc.w
#   10  rd unchanged and memory unchanged
#   11  amoadd.w at buf+1: mcause == 6, mtval == buf+1, mepc
#   12  rd unchanged and memory unchanged
#   13  amoswap.d at buf+4: mcause == 6, mtval == buf+4, mepc
#   14  rd unchanged and memory unchanged; M took exactly 5 traps in all
#   15  plain ld at buf+3 returns bytes 3..10
#   16  plain lw at buf+1 returns bytes 1..4, sign-extended
#   17  plain lhu at buf+7 returns bytes 7..8
#   18  plain sd at buf2+5 then ld at buf2+5 returns the value
#   19  ... and the aligned dwords around it hold exactly those bytes
#   20  none of the plain accesses trapped

        .include "selftest.inc"
        ST_START

        .equ SENTINEL, 0x5a5a1234
        .equ BUF_LO, 0x8786858483828180   # bytes 0x80..0x87, little-endian
        .equ BUF_HI, 0x8f8e8d8c8b8a8988   # bytes 0x88..0x8f

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        la      s0, buf
        li      a1, SENTINEL
        li      a2, 0x11111111

        # ---- LR: cause 4 ----
        addi    s1, s0, 1
mis_lrw:
        lr.w    a1, (s1)
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, CAUSE_MISALIGNED_LOAD
        LOG_LD  t0, st_m_area, 0, TE_TVAL
        CHECK_EQ 2, t0, s1
        CHECK_LOG_ADDR 3, st_m_area, 0, TE_EPC, mis_lrw
        CHECK_EQI 4, a1, SENTINEL

        addi    s1, s0, 4
mis_lrd:
        lr.d    a1, (s1)
        CHECK_LOG 5, st_m_area, 1, TE_CAUSE, CAUSE_MISALIGNED_LOAD
        LOG_LD  t0, st_m_area, 1, TE_TVAL
        CHECK_EQ 6, t0, s1
        CHECK_LOG_ADDR 6, st_m_area, 1, TE_EPC, mis_lrd

        # ---- SC: cause 6 ----
        # Take a valid reservation on the aligned word first, so that a
        # successful SC would be possible if the address were aligned.
        lr.w    t0, (s0)
        addi    s1, s0, 2
mis_scw:
        sc.w    a1, a2, (s1)
        CHECK_LOG 7, st_m_area, 2, TE_CAUSE, CAUSE_MISALIGNED_STORE
        LOG_LD  t0, st_m_area, 2, TE_TVAL
        CHECK_EQ 8, t0, s1
        CHECK_LOG_ADDR 9, st_m_area, 2, TE_EPC, mis_scw
        CHECK_EQI 10, a1, SENTINEL
        ld      t0, 0(s0)
        CHECK_EQI 10, t0, BUF_LO

        # ---- AMOs: cause 6 ----
        addi    s1, s0, 1
mis_amow:
        amoadd.w a1, a2, (s1)
        CHECK_LOG 11, st_m_area, 3, TE_CAUSE, CAUSE_MISALIGNED_STORE
        LOG_LD  t0, st_m_area, 3, TE_TVAL
        CHECK_EQ 11, t0, s1
        CHECK_LOG_ADDR 11, st_m_area, 3, TE_EPC, mis_amow
        CHECK_EQI 12, a1, SENTINEL
        ld      t0, 0(s0)
        CHECK_EQI 12, t0, BUF_LO

        addi    s1, s0, 4
mis_amod:
        amoswap.d a1, a2, (s1)
        CHECK_LOG 13, st_m_area, 4, TE_CAUSE, CAUSE_MISALIGNED_STORE
        LOG_LD  t0, st_m_area, 4, TE_TVAL
        CHECK_EQ 13, t0, s1
        CHECK_LOG_ADDR 13, st_m_area, 4, TE_EPC, mis_amod
        CHECK_EQI 14, a1, SENTINEL
        ld      t0, 0(s0)
        CHECK_EQI 14, t0, BUF_LO
        ld      t0, 8(s0)
        CHECK_EQI 14, t0, BUF_HI
        CHECK_COUNT 14, st_m_area, 5

        # ---- plain accesses: complete, no trap (the EEI allows this) ----
        LOG_RESET st_m_area
        ld      a3, 3(s0)
        CHECK_EQI 15, a3, 0x8a89888786858483
        lw      a4, 1(s0)
        CHECK_EQI 16, a4, 0xffffffff84838281
        lhu     a5, 7(s0)
        CHECK_EQI 17, a5, 0x8887
        la      s2, buf2
        li      a6, 0x1122334455667788
        sd      a6, 5(s2)
        ld      a7, 5(s2)
        CHECK_EQ 18, a7, a6
        ld      t0, 0(s2)               # bytes 0..4 zero, then 88 77 66
        CHECK_EQI 19, t0, 0x6677880000000000
        ld      t0, 8(s2)               # 55 44 33 22 11, then zero
        CHECK_EQI 19, t0, 0x0000001122334455
        CHECK_COUNT 20, st_m_area, 0
        PASS
        .size test_main, . - test_main

        .data
        .balign 16
        .type buf, @object
buf:
        .dword  BUF_LO, BUF_HI
        .size buf, . - buf
        .type buf2, @object
buf2:
        .dword  0, 0
        .size buf2, . - buf2

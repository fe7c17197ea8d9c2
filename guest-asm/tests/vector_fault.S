# vector_fault: vector loads and stores follow the scalar memory rules.
#
# V spec 1.0 §7.7 / §17.1 (exceptions in vector loads and stores): a fault
# on element i sets vstart = i, the elements before it are done, the
# others are not; xtval = the faulting element's address (priv spec
# §3.1.16). Access faults: cause 5 (load), 7 (store) (priv spec table 3.6).
# With Sv39 on (priv spec §4.3.2), vector addresses are virtual: an invalid
# PTE is a load page fault (13), a PTE without W a store page fault (15).
# A vector store to tohost ends the run like a scalar one (the final PASS).
#
# vbuf is the last 4 KiB page of the firmware data segment: the page after
# it, vbuf_end, is not memory. VLEN is 128 (the elf default): e32 at m2
# holds 8 elements.
#
# Checks:
#    1  vle32.v of 8 elements from vbuf_end - 16: one M trap, mcause == 5,
#       mepc == it, mtval == vbuf_end (element 4)
#    2  vstart == 4
#    3  elements 0..3 were loaded, element 4 is unchanged
#    4  vse32.v of 8 elements to vbuf_end - 16: mcause == 7, mtval == vbuf_end,
#       vstart == 4
#    5  elements 0..3 were stored
#    6  from S with Sv39 on: vle64.v at VA 0x4000_0000 (invalid PTE):
#       scause == 13, sepc == it, stval == 0x4000_0000
#    7  vle64.v through a read-only alias reads the data at its physical address
#    8  vse64.v through that alias: scause == 15, stval == the alias address
#    9  the final vse64.v to tohost did not end the run (reached only if not)

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START
        .option arch, +v

        .equ ALIAS, 0x40000000
        .equ MAGIC, 0x1234abcd

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, MSTATUS_VS & (1 << MS_VS)   # VS = Initial
        csrs    mstatus, t0
        # ---- load across the end of memory ----
        LOG_RESET st_m_area
        vsetivli t0, 8, e32, m2, ta, mu
        vmv.v.i v8, -1
        la      a0, vbuf_end
        addi    a0, a0, -16
        la      t0, vbuf_end - 16       # elements 0..3: 1, 2, 3, 4
        li      t1, 1
        sw      t1, 0(t0)
        li      t1, 2
        sw      t1, 4(t0)
        li      t1, 3
        sw      t1, 8(t0)
        li      t1, 4
        sw      t1, 12(t0)
m_vle:
        vle32.v v8, (a0)
        csrr    s1, vstart
        csrw    vstart, zero
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, 5
        CHECK_LOG_ADDR 1, st_m_area, 0, TE_EPC, m_vle
        CHECK_LOG_ADDR 1, st_m_area, 0, TE_TVAL, vbuf_end
        CHECK_EQI 2, s1, 4
        vsetivli t0, 8, e32, m2, ta, mu
        la      t2, vf_scratch
        vse32.v v8, (t2)
        lw      t0, 0(t2)
        CHECK_EQI 3, t0, 1
        lw      t0, 12(t2)
        CHECK_EQI 3, t0, 4
        lwu     t0, 16(t2)
        CHECK_EQI 3, t0, 0xffffffff

        # ---- store across the end of memory ----
        la      t0, vbuf_end - 16
        sd      zero, 0(t0)
        sd      zero, 8(t0)
        vsetivli t0, 8, e32, m2, ta, mu
        li      t0, 0x77
        vmv.v.x v8, t0
m_vse:
        vse32.v v8, (a0)
        csrr    s1, vstart
        csrw    vstart, zero
        CHECK_LOG 4, st_m_area, 1, TE_CAUSE, 7
        CHECK_LOG_ADDR 4, st_m_area, 1, TE_EPC, m_vse
        CHECK_LOG_ADDR 4, st_m_area, 1, TE_TVAL, vbuf_end
        CHECK_EQI 4, s1, 4
        la      t0, vbuf_end - 16
        lw      t1, 0(t0)
        CHECK_EQI 5, t1, 0x77
        lw      t1, 12(t0)
        CHECK_EQI 5, t1, 0x77

        # ---- S-mode with Sv39 ----
        li      t0, (1 << 13) | (1 << 15)
        csrw    medeleg, t0
        SV39_ON vf_root
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT s_done, back_s
        ENTER_S s_code
back_s:
        SV39_OFF
        csrw    medeleg, zero
        CHECK_COUNT 6, st_s_area, 2
        CHECK_LOG 6, st_s_area, 0, TE_CAUSE, 13
        CHECK_LOG_ADDR 6, st_s_area, 0, TE_EPC, s_vle
        CHECK_LOG 6, st_s_area, 0, TE_TVAL, 0x40000000
        CHECK_EQI 7, a1, MAGIC
        CHECK_LOG 8, st_s_area, 1, TE_CAUSE, 15
        CHECK_LOG_ADDR 8, st_s_area, 1, TE_EPC, s_vse
        la      t0, vf_data
        li      t1, ALIAS
        add     t0, t0, t1
        LOG_LD  t1, st_s_area, 1, TE_TVAL
        CHECK_EQ 8, t1, t0

        # ---- PASS through a vector store to tohost ----
        vsetivli t0, 1, e64, m1, ta, ma
        li      t0, 1
        vmv.v.x v1, t0
        la      t0, tohost
        vse64.v v1, (t0)
        FAIL    9
        .size test_main, . - test_main

        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        vsetivli t0, 2, e64, m1, ta, ma
        li      t2, 0x40000000
s_vle:
        vle64.v v16, (t2)               # invalid PTE: load page fault
        la      t3, vf_data
        li      t4, ALIAS
        add     t3, t3, t4
        vle64.v v17, (t3)               # through the read-only alias
        vmv.x.s a1, v17
s_vse:
        vse64.v v17, (t3)               # no W: store page fault
s_done:
        ecall
        ST_UNREACHABLE
        .size s_code, . - s_code

        .data
        .balign 8
vf_data:
        .dword  MAGIC, 0
vf_scratch:
        .zero   32
        .balign 4096
vf_root:                                # Sv39 root: as in sv39.S
        .dword  0
        .dword  0                       # 0x4000_0000: invalid
        .dword  (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D
        .dword  (0x80000 << 10) | PTE_V | PTE_R | PTE_A
        .zero   8 * 508
        .globl vbuf
vbuf:                                   # the last page of the segment
        .zero   4096
        .globl vbuf_end
vbuf_end:

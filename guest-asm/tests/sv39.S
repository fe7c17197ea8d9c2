# sv39: S-mode code runs with Sv39 paging on and takes load and store page
# faults with the faulting virtual address in stval.
#
# Priv spec §4.3 (Sv39) / §4.1.11 (satp: MODE 8 = Sv39, PPN of the root
# table). The root table maps three 1 GiB pages (level-2 leaves, §4.3.1):
#   VA 0x8000_0000 -> PA 0x8000_0000  R W X, A D   (firmware, kernel: identity)
#   VA 0xc000_0000 -> PA 0x8000_0000  R only, A    (an alias, read-only)
#   VA 0x4000_0000                    invalid      (V = 0)
#   VA 0x1_0000_0000 -> PA 0x4000_0000 R W, A D    (valid, but no memory there)
# §4.3.2: an access through an invalid PTE, or a store through a PTE without
# W, raises a page fault: cause 13 (load), 15 (store/AMO) (table 4.2), with
# stval = the faulting virtual address (§4.1.9) and sepc = the instruction.
# medeleg bits 13 and 15 send them to S, whose recorder returns to sepc + 4.
#
# Checks:
#    1  S took two traps, M one (the final ecall from S)
#    2  `ld` at VA 0x4000_0000: scause == 13, sepc == it, stval == 0x4000_0000
#    3  a load through the alias reads the data at its physical address
#    4  `sd` through the alias: scause == 15, sepc == it, stval == its address
#    5  the data is unchanged (the faulting store did not happen)
#    6  `lr.d` (emulated by trapscope) at VA 0x4000_0000: scause == 13,
#       stval == the address
#    7  `lr.d` through the alias reads the data
#    8  `ld` at VA 0x1_0000_0010, whose PTE is valid but whose physical
#       address is no memory: a load access fault (cause 5, §3.7), with
#       stval == the virtual address and sepc == the ld

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START

        .equ MAGIC, 0x1234abcd
        .equ ALIAS, 0x40000000          # VA alias - PA

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, (1 << 5) | (1 << 13) | (1 << 15)
        csrw    medeleg, t0
        SV39_ON sv39_root
        LOG_RESET st_m_area
        LOG_RESET st_s_area
        RESUME_AT s_done, back_s
        ENTER_S s_code
back_s:
        SV39_OFF
        csrw    medeleg, zero
        CHECK_COUNT 1, st_s_area, 4
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S
        CHECK_LOG 2, st_s_area, 0, TE_CAUSE, 13
        CHECK_LOG_ADDR 2, st_s_area, 0, TE_EPC, s_ld
        CHECK_LOG 2, st_s_area, 0, TE_TVAL, 0x40000000
        CHECK_EQI 3, a1, MAGIC
        CHECK_LOG 4, st_s_area, 1, TE_CAUSE, 15
        CHECK_LOG_ADDR 4, st_s_area, 1, TE_EPC, s_sd
        la      t0, sv39_data
        li      t1, ALIAS
        add     t0, t0, t1
        LOG_LD  t1, st_s_area, 1, TE_TVAL
        CHECK_EQ 4, t1, t0
        la      t0, sv39_data
        ld      t0, 0(t0)
        CHECK_EQI 5, t0, MAGIC
        CHECK_LOG 6, st_s_area, 2, TE_CAUSE, 13
        CHECK_LOG_ADDR 6, st_s_area, 2, TE_EPC, s_lr
        CHECK_LOG 6, st_s_area, 2, TE_TVAL, 0x40000000
        CHECK_EQI 7, a3, MAGIC
        CHECK_LOG 8, st_s_area, 3, TE_CAUSE, 5
        CHECK_LOG_ADDR 8, st_s_area, 3, TE_EPC, s_nomem
        CHECK_LOG 8, st_s_area, 3, TE_TVAL, 0x100000010
        PASS
        .size test_main, . - test_main

        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        li      t2, 0x40000000
s_ld:
        ld      a0, 0(t2)               # invalid PTE: load page fault
        la      t3, sv39_data
        li      t4, ALIAS
        add     t3, t3, t4              # its read-only alias
        ld      a1, 0(t3)
s_sd:
        sd      zero, 0(t3)             # no W: store page fault
s_lr:
        lr.d    a2, (t2)                # invalid PTE: load page fault
        lr.d    a3, (t3)                # the alias
        li      t2, 0x100000000
s_nomem:
        ld      a4, 0x10(t2)            # PA 0x4000_0010: access fault
s_done:
        ecall                           # -> M: resume at back_s
        ST_UNREACHABLE
        .size s_code, . - s_code

        .data
        .balign 8
        .globl sv39_data
sv39_data:
        .dword  MAGIC

        .balign 4096
        .globl sv39_root
        .type sv39_root, @object
sv39_root:                              # 512 PTEs, indexed by VA[38:30]
        .dword  0                       # 0x0000_0000
        .dword  0                       # 0x4000_0000: invalid
        .dword  (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D
        .dword  (0x80000 << 10) | PTE_V | PTE_R | PTE_A
        .dword  (0x40000 << 10) | PTE_V | PTE_R | PTE_W | PTE_A | PTE_D
        .zero   8 * 507
        .size sv39_root, . - sv39_root

# watch_alias: one physical doubleword reached through two virtual
# addresses, for trapscope's watchpoints, which watch physical memory
# (tests/machine/watch.rs sets one on `cell` and checks where each access stops).
#
# Sv39 (priv spec §4.3) maps VA 0x8000_0000 to itself and VA 0xc000_0000
# (the alias) to PA 0x8000_0000, both R W X with A and D set. S-mode stores
# 7 to `cell` through the identity (watch_store), loads it back through the
# alias (watch_load), and stores 9 through the alias (watch_alias_store).
#
# Checks:
#    1  the load through the alias reads 7
#    2  `cell` holds 9 at the end

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START

        .equ ALIAS, 0x40000000          # VA alias - VA
        .equ PTE_RWXAD_V, 0xcf

        .text
        .globl test_main
        .type test_main, @function
test_main:
        SV39_ON wa_root
        LOG_RESET st_m_area
        RESUME_AT s_done, back_s
        ENTER_S s_code
back_s:
        SV39_OFF
        CHECK_EQI 1, s0, 7
        la      t0, cell
        ld      s1, 0(t0)
        CHECK_EQI 2, s1, 9
        PASS
        .size test_main, . - test_main

        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        la      t3, cell
        li      t1, 7
        li      t2, ALIAS
        add     t4, t3, t2              # cell at the alias
        .globl watch_store
watch_store:
        sd      t1, 0(t3)
        .globl watch_load
watch_load:
        ld      s0, 0(t4)
        li      t1, 9
        .globl watch_alias_store
watch_alias_store:
        sd      t1, 0(t4)
s_done:
        ecall                           # -> M: resume at back_s
        ST_UNREACHABLE
        .size s_code, . - s_code

        .data
        .balign 8
        .globl cell
        .type cell, @object
cell:
        .dword  0
        .size cell, 8

        .balign 4096
wa_root:
        .dword  0, 0
        .dword  (0x80000 << 10) | PTE_RWXAD_V   # 0x8000_0000: identity
        .dword  (0x80000 << 10) | PTE_RWXAD_V   # 0xc000_0000: the alias
        .zero   8 * 508

# smc_paged: code written while paging is on, and run at a virtual address
# other than its physical one, is seen like any written code.
#
# Sv39 (priv spec §4.3) maps VA 0x8000_0000 to itself and VA 0xc000_0000
# (the alias) to PA 0x8000_0000. S-mode calls `patch` through the alias,
# writes `csrr a0, instret` over its first instruction through the alias,
# runs fence.i and calls it again. trapscope runs `csrr instret` itself
# (the model's count, README): read before the call (`csrr s2, instret`)
# and in it, the difference is 2 (the csrr s2 and the jalr retire in
# between; priv spec §3.3.1 / Zicntr). mcounteren lets S read instret.
#
# Checks:
#    1  the first call through the alias returns 1 (as assembled)
#    2  the second returns instret 2 above the read before it

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START

        .equ ALIAS, 0x40000000          # VA alias - VA
        .equ PTE_RWXAD_V, 0xcf

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, CNT_IR
        csrw    mcounteren, t0
        SV39_ON sp_root
        LOG_RESET st_m_area
        RESUME_AT s_done, back_s
        ENTER_S s_code
back_s:
        SV39_OFF
        CHECK_EQI 1, s0, 1
        CHECK_EQI 2, s1, 2
        PASS
        .size test_main, . - test_main

        .balign 4
        .globl patch
        .type patch, @function
patch:
        li      a0, 1
        ret
        .size patch, . - patch

        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        la      t3, patch
        li      t1, ALIAS
        add     t3, t3, t1              # patch at the alias
        jalr    t3
        mv      s0, a0
        li      t1, 0xc0202573          # csrr a0, instret
        sw      t1, 0(t3)               # through the alias
        fence.i
        csrr    s2, instret
        jalr    t3
        sub     s1, a0, s2
s_done:
        ecall                           # -> M: resume at back_s
        ST_UNREACHABLE
        .size s_code, . - s_code

        .data
        .balign 4096
sp_root:
        .dword  0, 0
        .dword  (0x80000 << 10) | PTE_RWXAD_V   # 0x8000_0000: identity
        .dword  (0x80000 << 10) | PTE_RWXAD_V   # 0xc000_0000: the alias
        .zero   8 * 508

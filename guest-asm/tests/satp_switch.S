# satp_switch: one virtual address, two address spaces, two instructions.
#
# Two Sv39 roots (priv spec §4.3, §4.4) map the code at 0x8000_0000 to
# itself with a gigapage, and VA 0xc000_0000 with a 4 KiB page, to
# `page_a` under root A and to `page_b` under root B. page_a begins with
# `csrr a0, instret`, which trapscope runs itself (an intercept); page_b
# with `li a0, 7`, which it does not. S-mode calls VA 0xc000_0000 under
# A, under B, and under A again, switching satp with `csrw satp` and
# `sfence.vma` between (§4.2.1: after the fence, the new tables apply to
# every fetch). A decoder or intercept keyed by virtual address alone
# would run page_a's csrr in place of page_b's li. mcounteren lets S read
# instret.
#
# Checks:
#    1  under B the call returns 7 (page_b's code)
#    2  under A again it returns instret: 2 above a read just before
#       (the csrr s2 and the jalr retire in between; §3.3.1, Zicntr)
#    3  so did the first call under A

        .include "selftest.inc"
        .include "sv39.inc"
        ST_START

        .equ VA_X, 0xc0000000
        .equ PTE_RWXAD_V, 0xcf
        .equ PTE_PTR, 1                  # a pointer to the next level: V only

        .text
        .globl test_main
        .type test_main, @function
test_main:
        li      t0, CNT_IR
        csrw    mcounteren, t0
        # The PTEs that need addresses the assembler cannot fold: root[3]
        # (VA 0xc000_0000) -> l1, l1[0] -> l0_a / l0_b, l0[0] -> the page.
        .macro PTR dst, table
        la      t0, \table
        srli    t0, t0, 12
        slli    t0, t0, 10
        ori     t0, t0, \dst
        .endm
        PTR     PTE_PTR, l1_a
        sd      t0, root_a + 3 * 8, t1
        PTR     PTE_PTR, l1_b
        sd      t0, root_b + 3 * 8, t1
        PTR     PTE_PTR, l0_a
        sd      t0, l1_a, t1
        PTR     PTE_PTR, l0_b
        sd      t0, l1_b, t1
        PTR     PTE_RWXAD_V, page_a
        sd      t0, l0_a, t1
        PTR     PTE_RWXAD_V, page_b
        sd      t0, l0_b, t1
        SV39_ON root_a
        LOG_RESET st_m_area
        RESUME_AT s_done, back_s
        ENTER_S s_code
back_s:
        SV39_OFF
        CHECK_EQI 1, s1, 7
        CHECK_EQI 2, s3, 2
        CHECK_EQI 3, s4, 2
        PASS
        .size test_main, . - test_main

        .section .kernel.text, "ax", @progbits
        .balign 4
        .globl s_code
        .type s_code, @function
s_code:
        li      t3, VA_X
        csrr    s5, instret
        jalr    t3                      # under A: csrr a0, instret
        sub     s4, a0, s5
        la      t0, root_b
        srli    t0, t0, 12
        li      t1, 8 << 60
        or      t0, t0, t1
        csrw    satp, t0
        sfence.vma
        jalr    t3                      # under B: li a0, 7
        mv      s1, a0
        la      t0, root_a
        srli    t0, t0, 12
        li      t1, 8 << 60
        or      t0, t0, t1
        csrw    satp, t0
        sfence.vma
        csrr    s2, instret
        jalr    t3                      # under A again
        sub     s3, a0, s2
s_done:
        ecall                           # -> M: resume at back_s
        ST_UNREACHABLE
        .size s_code, . - s_code

        .data
        .balign 4096
page_a:
        csrr    a0, instret
        ret
        .balign 4096
page_b:
        li      a0, 7
        ret
        .balign 4096
root_a:
        .dword  0, 0
        .dword  (0x80000 << 10) | PTE_RWXAD_V   # 0x8000_0000: identity
        .dword  0                               # 0xc000_0000: set at run time
        .zero   8 * 508
root_b:
        .dword  0, 0
        .dword  (0x80000 << 10) | PTE_RWXAD_V
        .dword  0
        .zero   8 * 508
l1_a:
        .zero   4096
l1_b:
        .zero   4096
l0_a:
        .zero   4096
l0_b:
        .zero   4096

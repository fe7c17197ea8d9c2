# fail_on_purpose: a self-test that MUST fail, at check 3.
#
# This test shows that a failing check reaches the harness: the guest
# writes (3 << 1) | 1 = 7 to tohost, and `trapscope elf` must exit with code 3.
# A harness should expect exactly exit code 3 here. Exit code 0 would mean
# failures are lost. Any other code would mean something else broke before
# check 3.
#
# The first two checks are real. Check 3 asserts something the privileged spec
# rules out.
#
# Checks:
#    1  an ecall from U (medeleg = 0) reaches M: M took one trap, mcause == 8
#       (priv spec §3.1.15, §3.1.8)
#    2  mepc == the ecall's address (§3.1.14)
#    3  DELIBERATELY FALSE: claims that same trap arrived with cause 9
#       (environment call from S-mode). It came from U, so this check fails.

        .include "selftest.inc"
        ST_START

        .text
        .globl test_main
        .type test_main, @function
test_main:
        LOG_RESET st_m_area
        RESUME_AT u_ecall, back, 1
        ENTER_U u_ecall
back:
        CHECK_COUNT 1, st_m_area, 1
        CHECK_LOG 1, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_U
        CHECK_LOG_ADDR 2, st_m_area, 0, TE_EPC, u_ecall, 1
        CHECK_LOG 3, st_m_area, 0, TE_CAUSE, CAUSE_ECALL_S   # false on purpose
        PASS                            # never reached on a correct machine
        .size test_main, . - test_main

        .section .user.text, "ax", @progbits
        .balign 4
        .globl u_ecall
        .type u_ecall, @function
u_ecall:
        ecall                           # -> M, cause 8: resume at back
        ST_UNREACHABLE
        .size u_ecall, . - u_ecall

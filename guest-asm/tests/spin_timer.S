# spin_timer: a user program that spins on a jump to itself until the
# machine timer interrupts it, TICKS times, as a Linux init spins between
# timer ticks (the `tick` init).
#
# Priv spec 1.12: §3.1.9 (MTIP is set while mtime >= mtimecmp), §3.1.6.1
# (an interrupt for a more privileged mode is taken whatever its xIE bit:
# M's timer preempts U with mstatus.MIE = 0), §3.1.15 (mcause MSB = interrupt,
# code 7 = machine timer; mepc = the first instruction not executed, here
# the jump itself). The CLINT is at QEMU virt's address (mtimecmp +0x4000,
# mtime +0xbff8).
#
# test_main arms mtimecmp = mtime + PERIOD, sets mie.MTIE and enters U at
# `spin: j spin`. tick_m (mtvec, direct mode) notes each interrupt's mcause
# and mepc; before the TICKS-th it moves mtimecmp on by PERIOD and returns
# to the spin, at the TICKS-th it disarms the timer (mtimecmp = -1) and
# returns to `done` in M. Nothing else ends the spin: no other interrupt is
# enabled, and the jump changes no state.
#
# Checks:
#   1  TICKS interrupts were taken
#   2  every one had mcause = interrupt | 7 (machine timer)
#   3  every one had mepc = spin (the jump, not yet executed again)
#   4  at `done`, mtime >= the first deadline + (TICKS - 1) * PERIOD: each
#      tick came no earlier than its deadline

        .include "selftest.inc"
        ST_START

        .equ CLINT_MTIMECMP, 0x02004000
        .equ CLINT_MTIME,    0x0200bff8
        .equ IRQ,            0x8000000000000000
        .equ MIE_MTIE,       1 << 7
        .equ PERIOD,         100000
        .equ TICKS,          5

        .text
        .globl test_main
        .type test_main, @function
test_main:
        la      t0, tick_m
        csrw    mtvec, t0
        la      t0, tick_save
        csrw    mscratch, t0
        li      t0, CLINT_MTIME
        ld      t1, 0(t0)
        li      t2, PERIOD
        add     t1, t1, t2
        la      t0, first_deadline
        sd      t1, 0(t0)
        li      t0, CLINT_MTIMECMP
        sd      t1, 0(t0)
        li      t0, MIE_MTIE
        csrs    mie, t0
        ENTER_U spin

done:
        la      t0, tick_count
        ld      t1, 0(t0)
        CHECK_EQI 1, t1, TICKS
        la      t0, bad_cause
        ld      t1, 0(t0)
        CHECK_EQI 2, t1, 0
        la      t0, bad_epc
        ld      t1, 0(t0)
        CHECK_EQI 3, t1, 0
        li      t0, CLINT_MTIME
        ld      t1, 0(t0)
        la      t0, first_deadline
        ld      t2, 0(t0)
        li      t3, (TICKS - 1) * PERIOD
        add     t2, t2, t3
        CHECK_GEU 4, t1, t2
        PASS
        .size test_main, . - test_main

# tick_m: the machine timer's handler. Saves t0-t2 in tick_save (through
# mscratch), notes a wrong mcause or mepc, and re-arms or ends.
        .balign 4
        .globl tick_m
        .type tick_m, @function
tick_m:
        csrrw   sp, mscratch, sp
        sd      t0, 0(sp)
        sd      t1, 8(sp)
        sd      t2, 16(sp)
        csrr    t0, mcause
        li      t1, IRQ | 7
        beq     t0, t1, 1f
        la      t0, bad_cause
        ld      t1, 0(t0)
        addi    t1, t1, 1
        sd      t1, 0(t0)
1:      csrr    t0, mepc
        ST_LA   t1, spin, 1
        beq     t0, t1, 2f
        la      t0, bad_epc
        ld      t1, 0(t0)
        addi    t1, t1, 1
        sd      t1, 0(t0)
2:      la      t0, tick_count
        ld      t1, 0(t0)
        addi    t1, t1, 1
        sd      t1, 0(t0)
        li      t2, TICKS
        bgeu    t1, t2, 3f
        li      t0, CLINT_MTIMECMP
        ld      t1, 0(t0)
        li      t2, PERIOD
        add     t1, t1, t2
        sd      t1, 0(t0)
        j       4f
3:      li      t0, CLINT_MTIMECMP
        li      t1, -1
        sd      t1, 0(t0)
        li      t0, MSTATUS_MPP
        csrs    mstatus, t0             # MPP = M
        la      t0, done
        csrw    mepc, t0
4:      ld      t2, 16(sp)
        ld      t1, 8(sp)
        ld      t0, 0(sp)
        csrrw   sp, mscratch, sp
        mret
        .size tick_m, . - tick_m

# ---- U-mode code ----
        .section .user.text, "ax", @progbits
        .globl spin
spin:
        j       spin
        ST_UNREACHABLE

        .data
        .balign 8
tick_save:
        .zero   24
tick_count:
        .dword  0
bad_cause:
        .dword  0
bad_epc:
        .dword  0
first_deadline:
        .dword  0

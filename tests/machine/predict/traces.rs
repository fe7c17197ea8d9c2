//! Traces of control transfers checked against hand simulation (split from
//! predict.rs, whose encodings it uses): seed 003's exception entry before
//! the patch (three mispredicted returns) and after it (a balanced RAS), RAS
//! overflow losing the outermost return, conditional branches (a loop's
//! entry and exit, a compressed branch's fall-through) and an indirect jump
//! predicted by the BTB, not the RAS.

use super::*;

// ---------------------------------------------------------------------------
// 2. Seed 003: the exception entry before and after the patch.
// ---------------------------------------------------------------------------

/// One control transfer of a trace: where it is, its encoding, where it went,
/// and the RAS afterwards (newest first) by hand simulation.
struct Step {
    pc: u64,
    raw: u32,
    next: u64,
    ras_after: &'static [u64],
}

fn step(pc: u64, raw: u32, next: u64, ras_after: &'static [u64]) -> Step {
    Step {
        pc,
        raw,
        next,
        ras_after,
    }
}

/// Feeds `steps` to `p`, checking the hand-simulated RAS after each, and
/// returns the mispredicts. For a JAL the hand-computed `next` is checked
/// against the encoded offset, so a wrong address in the trace is caught.
fn run(p: &mut Predictors, steps: &[Step]) -> Vec<Mispredict> {
    let mut out = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let d = at(s.pc, s.raw);
        if let Some(insn) = d.insn.filter(|x| x.op == Op::Jal) {
            assert_eq!(s.pc.wrapping_add(insn.imm as u64), s.next, "step {i}");
        }
        out.extend(p.resolve(&d, s.next));
        assert_eq!(p.ras.entries(), s.ras_after, "RAS after step {i}");
    }
    out
}

// The guest, assembled with rv64gc (so the assembler compresses) and linked
// by riscv64-linux-gnu-ld: user code at 0x10000 (-Ttext=0x10000), kernel at
// 0xffffffff80000000. The kernel is a minimal model written for this test
// from REFERENCE.md's "kernel paths", not kernel code.
//
//   _start:
//     10000: 4501      li a0, 0
//     10002: 00e000ef  jal ra, getpid            # `call getpid`, relaxed
//     10006: 842a      mv s0, a0
//   getpid:
//     10010: 0ac00893  li a7, 172
//     10014: 00000073  ecall
//     10018: 8082      ret
//
//   handle_exception_old:  (K, before the patch)
//     ...8000000a: 00000097  auipc ra, 0x0         # la ra, ret_from_exception
//     ...8000000e: 05608093  addi ra, ra, 86
//     ...80000020: 0002b283  ld t0, 0(t0)          # vector-table entry
//     ...80000024: 8282      jr t0                 # c.jr t0
//   handle_exception_new:  (K+0x26, after the patch)
//     ...8000003e: 0002b303  ld t1, 0(t0)
//     ...80000042: 9302      jalr t1               # c.jalr t1
//     ...80000044: a831      j ret_from_exception  # c.j
//   do_trap_ecall_u:
//     ...8000004a: 00e000ef  jal ra, syscall_enter
//     ...8000004e: 00c000ef  jal ra, sys_getpid
//     ...80000056: 8082      ret
//   syscall_enter:
//     ...80000058: 8082      ret
//   sys_getpid:
//     ...8000005e: 8082      ret
//   ret_from_exception:
//     ...80000062: 10200073  sret

const K: u64 = 0xffff_ffff_8000_0000;
/// The user's return address: after `jal ra, getpid` (4 bytes at 0x10002).
const USER_RA: u64 = 0x10006;
const HANDLE_EXCEPTION_OLD: u64 = K;
const HANDLE_EXCEPTION_NEW: u64 = K + 0x26;
const DO_TRAP_ECALL_U: u64 = K + 0x46;
const RET_FROM_EXCEPTION: u64 = K + 0x60;

/// The user side: `call getpid`, and getpid's `ecall` into the kernel at
/// `stvec`. JAL ra pushes the user's return address; a trap is not a JAL or
/// JALR, so it leaves the RAS alone.
fn user_call_and_ecall(stvec: u64) -> [Step; 2] {
    [
        step(0x10002, 0x00e0_00ef, 0x10010, &[USER_RA]), // jal ra, getpid: push 0x10006
        step(0x10014, 0x0000_0073, stvec, &[USER_RA]),   // ecall: no RAS effect
    ]
}

/// do_trap_ecall_u's own calls, on top of whatever `below` the entry left:
/// each `jal ra` pushes its pc + 4 and the callee's 2-byte `ret` pops exactly
/// that, so both pairs are predicted and the RAS is back to `below`.
fn handler_calls(below: &'static [u64], call1: &'static [u64], call2: &'static [u64]) -> [Step; 4] {
    [
        step(K + 0x4a, 0x00e0_00ef, K + 0x58, call1), // jal ra, syscall_enter: push K+0x4e
        step(K + 0x58, 0x8082, K + 0x4e, below),      // ret: pops K+0x4e, correct
        step(K + 0x4e, 0x00c0_00ef, K + 0x5a, call2), // jal ra, sys_getpid: push K+0x52
        step(K + 0x5e, 0x8082, K + 0x52, below),      // ret: pops K+0x52, correct
    ]
}

/// The entry before seed 003: `la ra, ret_from_exception; jr t0`.
///
/// Hand simulation (RAS newest first):
/// - user `jal ra, getpid`: push 0x10006 → [0x10006]
/// - `ecall`: trap, nothing → [0x10006]
/// - `jr t0` (rd x0, rs1 x5: pop) to do_trap_ecall_u: pops 0x10006 and
///   predicts it, but it went to K+0x46 → miss 1, predicted the user's
///   return address → []
/// - do_trap_ecall_u's two call/ret pairs: balanced, correct → []
/// - do_trap_ecall_u `ret` to ret_from_exception (ra from `la`, never
///   pushed): pop of an empty RAS → miss 2, predicted nothing → []
/// - `sret` to 0x10018 (sepc + 4): nothing → []
/// - getpid's `ret` to 0x10006: its entry was popped by `jr t0` → miss 3,
///   predicted nothing → []
///
/// 3 Return mispredicts, exactly 1 of them at a user pc (getpid's `ret`), and
/// the first one consumed the user's entry. Nothing is left on the RAS, so a
/// second system call repeats all three: the warm-up does not help.
#[test]
fn seed_003_entry_before_the_patch_mispredicts_three_returns() {
    let mut steps: Vec<Step> = Vec::new();
    steps.extend(user_call_and_ecall(HANDLE_EXCEPTION_OLD));
    steps.push(step(K + 0x24, 0x8282, DO_TRAP_ECALL_U, &[])); // jr t0: pops 0x10006, wrong
    steps.extend(handler_calls(&[], &[K + 0x4e], &[K + 0x52]));
    steps.extend([
        step(K + 0x56, 0x8082, RET_FROM_EXCEPTION, &[]), // ret: empty RAS, wrong
        step(K + 0x62, 0x1020_0073, 0x10018, &[]),       // sret: nothing
        step(0x10018, 0x8082, USER_RA, &[]),             // getpid's ret: empty RAS, wrong
    ]);
    let expected = vec![
        ret_miss(K + 0x24, Some(USER_RA), DO_TRAP_ECALL_U).expect("miss 1"),
        ret_miss(K + 0x56, None, RET_FROM_EXCEPTION).expect("miss 2"),
        ret_miss(0x10018, None, USER_RA).expect("miss 3"),
    ];
    let mut p = Predictors::new(16, 256, 64);
    for pass in 0..2 {
        let misses = run(&mut p, &steps);
        assert_eq!(misses, expected, "pass {pass}");
        assert!(misses.iter().all(|m| m.kind == PredKind::Return));
        assert_eq!(
            misses.iter().filter(|m| m.pc < K).count(),
            1,
            "user-side misses"
        );
    }
}

/// The entry after seed 003: `jalr t1` to the handler, `j ret_from_exception`.
///
/// Hand simulation (RAS newest first):
/// - user `jal ra, getpid`: push 0x10006 → [0x10006]
/// - `ecall`: nothing → [0x10006]
/// - `c.jalr t1` (rd x1, rs1 x6: push) at K+0x42: pushes K+0x44 (2-byte
///   instruction) → [K+0x44, 0x10006]. It is an indirect call: the cold BTB
///   has no target → 1 Indirect mispredict on the first pass only.
/// - the two call/ret pairs: balanced, correct → [K+0x44, 0x10006]
/// - do_trap_ecall_u `ret` to K+0x44: pops K+0x44, correct → [0x10006]
/// - `j ret_from_exception` (jal x0): nothing → [0x10006]
/// - `sret` to 0x10018: nothing → [0x10006]
/// - getpid's `ret` to 0x10006: pops 0x10006, correct → []
///
/// 0 Return mispredicts. On the second pass the BTB holds the handler, so
/// nothing mispredicts at all.
#[test]
fn seed_003_entry_after_the_patch_keeps_the_ras_balanced() {
    let mut steps: Vec<Step> = Vec::new();
    steps.extend(user_call_and_ecall(HANDLE_EXCEPTION_NEW));
    steps.push(step(
        K + 0x42,
        0x9302,
        DO_TRAP_ECALL_U,
        &[K + 0x44, USER_RA],
    )); // jalr t1: push K+0x44
    steps.extend(handler_calls(
        &[K + 0x44, USER_RA],
        &[K + 0x4e, K + 0x44, USER_RA],
        &[K + 0x52, K + 0x44, USER_RA],
    ));
    steps.extend([
        step(K + 0x56, 0x8082, K + 0x44, &[USER_RA]), // ret: pops K+0x44, correct
        step(K + 0x44, 0xa831, RET_FROM_EXCEPTION, &[USER_RA]), // j ret_from_exception
        step(K + 0x62, 0x1020_0073, 0x10018, &[USER_RA]), // sret: nothing
        step(0x10018, 0x8082, USER_RA, &[]),          // getpid's ret: pops 0x10006, correct
    ]);
    let mut p = Predictors::new(16, 256, 64);
    let first = run(&mut p, &steps);
    assert_eq!(
        first,
        vec![indirect_miss(K + 0x42, None, DO_TRAP_ECALL_U).expect("cold BTB")]
    );
    assert_eq!(
        first.iter().filter(|m| m.kind == PredKind::Return).count(),
        0
    );
    assert_eq!(run(&mut p, &steps), vec![], "second pass, BTB warm");
}

// ---------------------------------------------------------------------------
// 3. Overflow.
// ---------------------------------------------------------------------------

/// Three nested calls, each `jal ra, .+0x1000` (000010ef) at 0x1000, 0x2000
/// and 0x3000 and each followed by `ret` (00008067); the innermost
/// function's `ret` is at 0x4000.
///
/// With a 2-entry RAS the third call's push (0x3004) overwrites the oldest
/// entry (0x1004): the two inner returns pop 0x3004 and 0x2004 correctly, and
/// the outermost return finds the stack empty — it predicts nothing and
/// mispredicts. The same trace on a 3-entry RAS has no mispredict.
#[test]
fn overflow_loses_the_outermost_return() {
    let depth2 = [
        step(0x1000, 0x0000_10ef, 0x2000, &[0x1004]),
        step(0x2000, 0x0000_10ef, 0x3000, &[0x2004, 0x1004]),
        step(0x3000, 0x0000_10ef, 0x4000, &[0x3004, 0x2004]), // 0x1004 lost
        step(0x4000, 0x0000_8067, 0x3004, &[0x2004]),         // correct
        step(0x3004, 0x0000_8067, 0x2004, &[]),               // correct
        step(0x2004, 0x0000_8067, 0x1004, &[]),               // empty: miss
    ];
    let mut p = Predictors::new(2, 64, 64);
    assert_eq!(
        run(&mut p, &depth2),
        vec![ret_miss(0x2004, None, 0x1004).expect("outermost")]
    );

    let depth3 = [
        step(0x1000, 0x0000_10ef, 0x2000, &[0x1004]),
        step(0x2000, 0x0000_10ef, 0x3000, &[0x2004, 0x1004]),
        step(0x3000, 0x0000_10ef, 0x4000, &[0x3004, 0x2004, 0x1004]),
        step(0x4000, 0x0000_8067, 0x3004, &[0x2004, 0x1004]),
        step(0x3004, 0x0000_8067, 0x2004, &[0x1004]),
        step(0x2004, 0x0000_8067, 0x1004, &[]),
    ];
    let mut p = Predictors::new(3, 64, 64);
    assert_eq!(run(&mut p, &depth3), vec![]);
}

// ---------------------------------------------------------------------------
// 4. Conditional branches.
// ---------------------------------------------------------------------------

/// A loop's closing branch, `bnez a0, .-0x10` (fe0518e3 = bne a0, x0) at
/// 0x2010: target 0x2000, fall-through 0x2014 (pc + 4). Taken 9 times, then
/// not taken.
///
/// Hand count, 2-bit counter starting weakly not-taken (1), predicting taken
/// at 2 or more:
/// - run 1: counter 1 predicts not-taken (0x2014), went to 0x2000 → miss;
///   counter 2
/// - run 2: counter 2 predicts taken, taken → correct; counter 3
/// - runs 3–9: counter 3 predicts taken, taken → correct; stays 3
/// - run 10: counter 3 predicts taken (0x2000), fell through to 0x2014 →
///   miss; counter 2
///
/// 2 mispredicts, at runs 1 and 10. Branches never touch the RAS.
#[test]
fn loop_branch_mispredicts_on_entry_and_exit() {
    let d = at(0x2010, 0xfe05_18e3);
    assert_eq!(d.insn.map(|i| i.imm), Some(-0x10), "the encoded offset");
    let mut p = Predictors::new(8, 64, 64);
    let mut misses = Vec::new();
    for run in 1..=10 {
        let next = if run <= 9 { 0x2000 } else { 0x2014 };
        if let Some(m) = p.resolve(&d, next) {
            misses.push((run, m));
        }
    }
    assert_eq!(
        misses,
        vec![
            (1, branch_miss(0x2010, 0x2014, 0x2000).expect("entry")),
            (10, branch_miss(0x2010, 0x2000, 0x2014).expect("exit")),
        ]
    );
    assert_eq!(p.ras.entries(), Vec::<u64>::new());
    assert_eq!(p.last_ras_op, None);
}

/// A compressed branch's fall-through is pc + 2: `c.bnez a0, .-0x10` (f965)
/// at 0x2010, first run taken, is predicted not-taken to 0x2012. And
/// `c.beqz a0, .+0x20` (c105) at 0x2040, not taken, is predicted not-taken
/// (fresh counter 1) and so is correct.
#[test]
fn compressed_branch_falls_through_to_pc_plus_2() {
    let mut p = Predictors::new(8, 64, 64);
    assert_eq!(
        p.resolve(&at(0x2010, 0xf965), 0x2000),
        branch_miss(0x2010, 0x2012, 0x2000)
    );
    assert_eq!(p.resolve(&at(0x2040, 0xc105), 0x2042), None);
}

// ---------------------------------------------------------------------------
// 5. Indirect jumps.
// ---------------------------------------------------------------------------

/// `jr a5` (00078067 = jalr x0, 0(x15)): neither register is a link, so no
/// RAS action (Table 2.1 row 1); the BTB predicts it.
/// - first run to 0x5000: BTB empty → miss, predicted nothing
/// - second run to 0x5000: BTB holds 0x5000 → correct
/// - third run to 0x6000: BTB predicts 0x5000 → miss
/// - fourth run to 0x6000: BTB now holds 0x6000 → correct
///
/// The RAS entry pushed beforehand is untouched throughout.
#[test]
fn indirect_jump_uses_the_btb_not_the_ras() {
    let d = at(0x3000, 0x0007_8067);
    let mut p = Predictors::new(8, 64, 64);
    p.ras.push(OLD);
    assert_eq!(p.resolve(&d, 0x5000), indirect_miss(0x3000, None, 0x5000));
    assert_eq!(p.resolve(&d, 0x5000), None);
    assert_eq!(
        p.resolve(&d, 0x6000),
        indirect_miss(0x3000, Some(0x5000), 0x6000)
    );
    assert_eq!(p.resolve(&d, 0x6000), None);
    assert_eq!(p.ras.entries(), vec![OLD]);
    assert_eq!(p.last_ras_op, None);
}

//! Unit tests of the call stack's rules on hand-made instruction sequences.

use super::*;
use crate::isa::decode_word;

/// jal rd, off (J-type), at `pc`.
fn jal(pc: u64, rd: u32, target: u64) -> DecodedInsn {
    let off = target.wrapping_sub(pc) as u32;
    let imm = ((off >> 20) & 1) << 31
        | ((off >> 1) & 0x3ff) << 21
        | ((off >> 11) & 1) << 20
        | ((off >> 12) & 0xff) << 12;
    let raw = imm | rd << 7 | 0x6f;
    DecodedInsn {
        pc,
        raw,
        len: 4,
        insn: decode_word(raw),
    }
}

/// jalr rd, 0(rs1), at `pc`.
fn jalr(pc: u64, rd: u32, rs1: u32) -> DecodedInsn {
    let raw = rs1 << 15 | rd << 7 | 0x67;
    DecodedInsn {
        pc,
        raw,
        len: 4,
        insn: decode_word(raw),
    }
}

const RA: u32 = 1;
const T0: u32 = 5;
const A5: u32 = 15;

/// Functions at 0x1000 (phase 7), 0x2000, 0x3000 (phase 8), 0x4000;
/// the phase symbols cover 0x1000..0x1100 and 0x3000..0x3100.
fn stack() -> CallStack {
    CallStack::with_entries(vec![0x1000, 0x2000, 0x3000, 0x4000])
}

fn phases(pc: u64) -> Option<u8> {
    match pc {
        0x1000..0x1100 => Some(7),
        0x3000..0x3100 => Some(8),
        _ => None,
    }
}

fn rets(s: &CallStack) -> Vec<u64> {
    s.frames()
        .map(|f| match f {
            Frame::Call { ret, .. } => *ret,
            Frame::Trap { epc, .. } => 0xdead_0000 | *epc,
        })
        .collect()
}

#[test]
fn a_call_pushes_and_its_return_pops() {
    let mut s = stack();
    // 0x100 calls 0x1000 (phase 7), which at 0x1010 calls 0x2000
    // (jal ra); 0x2008: ret to 0x1014.
    s.transfer(&jal(0x100, RA, 0x1000), 0x1000, &phases);
    assert_eq!(s.phase(), Some(7));
    s.transfer(&jal(0x1010, RA, 0x2000), 0x2000, &phases);
    assert_eq!(rets(&s), vec![0x1014, 0x104]);
    // The helper at 0x2000 is in no phase: it inherits its caller's.
    assert_eq!(s.phase(), Some(7));
    s.transfer(&jalr(0x2008, 0, RA), 0x1014, &phases);
    assert_eq!(rets(&s), vec![0x104]);
    assert_eq!(s.mismatched, 0);
    assert_eq!(s.max_depth, 2);
    s.transfer(&jalr(0x1020, 0, RA), 0x104, &phases);
    assert_eq!(s.depth(), 0);
    assert_eq!(s.phase(), None);
    // Code with no frame (no call entered it) passes on no phase.
    s.transfer(&jal(0x1030, RA, 0x2000), 0x2000, &phases);
    assert_eq!(s.phase(), None);
}

#[test]
fn t0_is_a_link_register_for_calls_and_returns() {
    let mut s = stack();
    // jal t0, 0x2000 (millicode style), then jr t0 back.
    s.transfer(&jal(0x1010, T0, 0x2000), 0x2000, &phases);
    assert_eq!(rets(&s), vec![0x1014]);
    s.transfer(&jalr(0x2004, 0, T0), 0x1014, &phases);
    assert_eq!(s.depth(), 0);
    assert_eq!(s.mismatched, 0);
    // jalr a5 with rd = ra is a call too; jalr x0, a5 is no return.
    s.transfer(&jalr(0x1020, RA, A5), 0x4000, &phases);
    assert_eq!(rets(&s), vec![0x1024]);
    s.transfer(&jalr(0x4000, 0, A5), 0x4100, &phases);
    assert_eq!(rets(&s), vec![0x1024], "a jump inside 0x4000's code");
}

#[test]
fn a_tail_call_replaces_the_function_and_keeps_the_return_address() {
    let mut s = stack();
    // 0x3010 (phase 8) calls 0x1000 (phase 7), which tail-calls 0x2000.
    s.transfer(&jal(0x3010, RA, 0x1000), 0x1000, &phases);
    s.transfer(&jal(0x1020, 0, 0x2000), 0x2000, &phases);
    let top = *s.frames().next().unwrap();
    assert!(matches!(
        top,
        Frame::Call {
            callee: 0x2000,
            ret: 0x3014,
            ..
        }
    ));
    // 0x1000 has left the stack: the helper counts as the frame outside
    // it. That frame has no phase here (0x3010 was reached by no call).
    assert_eq!(s.phase(), None);
    // A jump to a non-entry changes nothing.
    s.transfer(&jal(0x2010, 0, 0x2040), 0x2040, &phases);
    assert!(matches!(
        s.frames().next(),
        Some(Frame::Call { callee: 0x2000, .. })
    ));
    // It returns where 0x1000 would have.
    s.transfer(&jalr(0x2044, 0, RA), 0x3014, &phases);
    assert_eq!(s.depth(), 0);
    assert_eq!(s.mismatched, 0);
    // Inside a frame of phase 8, the same tail call: the helper counts
    // as phase 8, the frame outside 0x1000.
    s.transfer(&jal(0x100, RA, 0x3000), 0x3000, &phases);
    s.transfer(&jal(0x3010, RA, 0x1000), 0x1000, &phases);
    assert_eq!(s.phase(), Some(7));
    s.transfer(&jal(0x1020, 0, 0x2000), 0x2000, &phases);
    assert_eq!(s.phase(), Some(8));
    // A tail call to a phase symbol takes its phase.
    s.transfer(&jal(0x2020, 0, 0x1000), 0x1000, &phases);
    assert_eq!(s.phase(), Some(7));
}

#[test]
fn the_old_entry_s_hand_set_return_is_a_mismatch_that_unwinds_nothing() {
    // Before seed 003 (guest-asm/include/minikernel-entry.inc): the user
    // called the wrapper (frames main, syscall), ecall trapped; the
    // entry does `la ra, ret_from_exception`, `jr t0` to the handler
    // (t0 is a link register: a "return" no call matches), the handler
    // calls and returns, then `ret`s to ret_from_exception, which no call
    // pushed either.
    let mut s = stack();
    s.transfer(&jal(0x100, RA, 0x200), 0x200, &phases); // call main
    s.transfer(&jal(0x210, RA, 0x300), 0x300, &phases); // call syscall
    s.trap(8, 0x308, Priv::U, Priv::S, 0x1000);
    let before = rets(&s);
    s.transfer(&jalr(0x1080, 0, T0), 0x3000, &phases); // jr t0
    assert_eq!(s.mismatched, 1);
    assert_eq!(s.last_mismatch, Some((0x1080, 0x3000)));
    assert_eq!(rets(&s), before, "nothing unwound");
    // The handler (phase 8 by its own range) calls a helper, which
    // inherits phase 8 through the call site.
    s.transfer(&jal(0x3020, RA, 0x4000), 0x4000, &phases);
    assert_eq!(s.phase(), Some(8));
    s.transfer(&jalr(0x4010, 0, RA), 0x3024, &phases);
    assert_eq!(s.mismatched, 1);
    s.transfer(&jalr(0x3040, 0, RA), 0x2000, &phases); // ret to "ret_from_exception"
    assert_eq!(s.mismatched, 2);
    assert_eq!(rets(&s), before);
    // sret: back to the wrapper, its frames intact.
    s.xret();
    assert_eq!(rets(&s), vec![0x214, 0x104]);
    s.transfer(&jalr(0x30c, 0, RA), 0x214, &phases);
    assert_eq!(rets(&s), vec![0x104]);
    assert_eq!(s.mismatched, 2);
}

#[test]
fn a_return_past_frames_pops_them_and_counts() {
    let mut s = stack();
    s.transfer(&jal(0x100, RA, 0x200), 0x200, &phases);
    s.transfer(&jal(0x210, RA, 0x300), 0x300, &phases);
    s.transfer(&jal(0x310, RA, 0x400), 0x400, &phases);
    // longjmp-like: 0x400 returns straight to 0x104.
    s.transfer(&jalr(0x410, 0, RA), 0x104, &phases);
    assert_eq!(s.depth(), 0);
    assert_eq!(s.mismatched, 1);
}

#[test]
fn a_return_never_crosses_a_trap_frame() {
    let mut s = stack();
    s.transfer(&jal(0x100, RA, 0x200), 0x200, &phases);
    s.trap(8, 0x208, Priv::U, Priv::S, 0x1000);
    // The kernel "returns" to the user's return address: no match
    // across the trap frame.
    s.transfer(&jalr(0x1010, 0, RA), 0x104, &phases);
    assert_eq!(rets(&s), vec![0xdead_0208, 0x104]);
    assert_eq!(s.mismatched, 1);
}

#[test]
fn traps_nest_and_each_xret_pops_one() {
    let mut s = stack();
    s.transfer(&jal(0x100, RA, 0x3000), 0x3000, &phases); // user call
    assert_eq!(s.phase(), Some(8));
    s.trap(8, 0x208, Priv::U, Priv::S, 0x1000); // ecall to S
    // The interrupted context's phase does not leak into the handler.
    assert_eq!(s.phase(), None);
    s.transfer(&jal(0x1010, RA, 0x1000), 0x1000, &phases); // kernel call
    assert_eq!(s.phase(), Some(7));
    s.trap(9, 0x2008, Priv::S, Priv::M, 0x5000); // SBI ecall to M
    // Across a trap frame: the privilege default.
    assert_eq!(s.phase(), None);
    s.transfer(&jal(0x5010, RA, 0x5100), 0x5100, &phases);
    assert_eq!(s.depth(), 5);
    assert_eq!(s.max_depth, 5);
    s.xret(); // mret: the firmware's call and its trap frame go
    assert_eq!(rets(&s), vec![0x1014, 0xdead_0208, 0x104]);
    assert_eq!(s.phase(), Some(7));
    s.xret(); // sret
    assert_eq!(rets(&s), vec![0x104]);
    // An xRET with no trap frame leaves a context the stack never saw
    // entered: everything goes.
    s.xret();
    assert_eq!(s.depth(), 0);
}

#[test]
fn a_dispatch_by_jump_counts_as_one_by_call() {
    // The handler at 0x1000 (phase 7) dispatches to 0x3000 (phase 8),
    // which calls the helper 0x4000; then to 0x2000 (no phase), which
    // calls 0x4000 too. By jump (`jr t0`, before seed 003) or by call
    // (`jalr t1`, after it), the helper counts the same.
    for by_call in [false, true] {
        let mut s = stack();
        s.trap(8, 0x208, Priv::U, Priv::S, 0x1000);
        // The trap-level code passes on no phase of its own.
        assert_eq!(s.phase(), None);
        for (target, want) in [(0x3000, Some(8)), (0x2000, None)] {
            if by_call {
                s.transfer(&jalr(0x1040, RA, 6), target, &phases);
            } else {
                s.transfer(&jalr(0x1040, 0, 6), target, &phases);
            }
            s.transfer(&jal(target + 0x10, RA, 0x4000), 0x4000, &phases);
            assert_eq!(s.phase(), want, "by call: {by_call}, {target:#x}");
            s.transfer(&jalr(0x4010, 0, RA), target + 0x14, &phases);
            if by_call {
                s.transfer(&jalr(target + 0x20, 0, RA), 0x1044, &phases);
            }
        }
        assert_eq!(s.mismatched, 0);
        assert_eq!(s.depth(), 1);
    }
}

#[test]
fn depth_is_bounded_and_the_oldest_frames_go() {
    let mut s = stack();
    for k in 0..(MAX_DEPTH as u64 + 10) {
        s.transfer(&jal(0x10_0000 + 8 * k, RA, 0x2000), 0x2000, &phases);
    }
    assert_eq!(s.depth(), MAX_DEPTH);
    assert_eq!(s.max_depth, MAX_DEPTH);
    assert_eq!(s.dropped, 10);
    // The innermost frame is the last call.
    let last = 0x10_0000 + 8 * (MAX_DEPTH as u64 + 9) + 4;
    assert_eq!(rets(&s)[0], last);
    // Returns still pair with what is kept.
    s.transfer(&jalr(0x2004, 0, RA), last, &phases);
    assert_eq!(s.depth(), MAX_DEPTH - 1);
    assert_eq!(s.mismatched, 0);
}

#[test]
fn the_digest_tells_different_histories_apart() {
    let mut a = stack();
    let mut b = stack();
    a.transfer(&jal(0x100, RA, 0x200), 0x200, &phases);
    b.transfer(&jal(0x100, RA, 0x300), 0x300, &phases);
    assert_ne!(a.digest, b.digest);
}

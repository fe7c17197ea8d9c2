//! The intercept code hooks unicorn holds grow with the pages of code that
//! hold intercepts, never with the intercepted instructions: unicorn walks
//! its whole code-hook list for every instruction it translates and every
//! hooked one it runs, so a hook per instruction made FP code cost
//! hooks × instructions (machine/hookpages.rs). Timings are `bench`'s.

use std::rc::Rc;

use trapscope::machine::{Machine, NoObserver, Outcome, Until};
use trapscope::session::guests::{FP_STRAIGHT_EXTRA, fp_straight};

/// Runs `n` straight-line singles; (intercept hooks, instructions, f regs).
fn run(n: usize, single: bool) -> (usize, u64, [u64; 32]) {
    let mut m = Machine::new(Rc::new(fp_straight(n, single)), NoObserver).unwrap();
    let o = m.run(&Until {
        max_insns: Some(10_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Exited(0), "{n} instructions");
    (m.intercept_hooks(), m.executed(), m.fp_state().f)
}

/// 4-byte instructions from the guest's start: the pages they span.
fn pages(n: usize) -> usize {
    (n + FP_STRAIGHT_EXTRA as usize).div_ceil(1024) + 1
}

#[test]
fn intercept_hooks_do_not_grow_with_the_fp_instructions() {
    let (h_short, e_short, _) = run(3_000, true);
    let (h_long, e_long, f) = run(30_000, true);
    // Every instruction of the guest runs once (its hand count: FS on, 32
    // fmv.w.x, the n singles, the 4 of the pass).
    assert_eq!(e_short, 3_000 + FP_STRAIGHT_EXTRA);
    assert_eq!(e_long, 30_000 + FP_STRAIGHT_EXTRA);
    // Singles are NaN-boxed by block (machine/fpflow.rs): straight-line
    // singles that only read what they wrote need no hook at all, and a
    // hook each would be 30,000 here. The one hook is the `csrs mstatus`
    // that turns FS on, for 3,000 and for 30,000 alike.
    assert!(
        h_long <= pages(30_000),
        "{h_long} intercept hooks for {} pages of singles",
        pages(30_000)
    );
    assert_eq!(
        h_long, h_short,
        "3,000 singles: {h_short}, 30,000: {h_long}"
    );
    assert_eq!(h_long, 1, "{h_long} hooks for straight-line singles");
    // Still NaN-boxed (F spec §12.2): every result was +0.0f.
    for (i, v) in f.iter().enumerate() {
        assert_eq!(*v, 0xffff_ffff_0000_0000, "f{i}");
    }
    // Doubles need no intercept: the one hook is the `csrs mstatus` that
    // turns FS on.
    let (h_double, _, fd) = run(30_000, false);
    assert_eq!(h_double, 1);
    assert!(fd.iter().all(|&v| v == 0));
}

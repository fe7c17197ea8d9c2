//! What a lesson step says against where it stops: a step's narration
//! describes the machine at its end, not what runs after it.

use crate::common;
use common::tui::app_at;

use trapscope::trace::{Event, PredKind};
use trapscope::tui::update::Action;

/// The return mispredicts in the live log so far.
fn return_misses(s: &trapscope::tui::state::AppState) -> usize {
    s.live
        .stats()
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                Event::Mispredict {
                    what: PredKind::Return,
                    ..
                }
            )
        })
        .count()
}

/// ras-trap-entry's last step ends at the sret (`event = "trap-return"`):
/// the wrapper's `ret` is two instructions further (user.S: `li`, `bltu`,
/// `ret` after the ecall), so the step may say that it will find main's
/// entry, not that it found it.
#[test]
fn the_last_ras_lesson_step_speaks_of_the_wrappers_ret_as_still_to_run() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    let n = s.player.steps.len();
    assert_eq!(n, 8);
    while s.player.next < n {
        s.update(Action::Advance);
    }
    assert_eq!(s.variant_name(), "after");
    // Where the step stops: right after the sret, at the instruction after
    // the ecall, in U-mode; the wrapper's `ret` has not run.
    let p = s.live.program().clone();
    let ecall = p.symbol("user_syscall_ecall").unwrap().addr;
    assert_eq!(s.live.m.pc(), ecall + 4);
    assert_eq!(p.symbol_at(ecall + 4).unwrap().0.name, "syscall");
    let say = s.narration.clone().unwrap();
    assert_eq!(say, s.player.steps[n - 1].say);
    assert!(
        !say.contains("`ret` finds") && !say.contains("`ret` found"),
        "the step speaks of a `ret` it has not reached: {say}"
    );
    assert!(say.contains("will find"), "{say}");
    // And what it says will happen does: the `ret` three instructions on
    // is predicted.
    let misses = return_misses(&s);
    for _ in 0..3 {
        s.update(Action::Step);
    }
    assert_eq!(p.symbol_at(s.live.m.pc()).unwrap().0.name, "main");
    assert_eq!(
        return_misses(&s),
        misses,
        "the wrapper's `ret` was predicted"
    );
}

//! One numbering of iterations everywhere: "iteration k" is the k-th timed
//! iteration of the measured window, 1-based, warm-up not counted (the
//! path diff, the Perfetto export and `--iteration` number so). The status
//! line counted every execution of the iteration marker, warm-up included,
//! so a counted window (`warmup`, `iterations`: a snapshot's) read
//! "iteration 11" where the diff said "iteration 1".

use crate::common;
use common::tui::screen;

use std::rc::Rc;

use trapscope::scenario::Scenario;
use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

/// The minikernel's timed loop measured as a snapshot's is: by count,
/// 3 warm-up passes of bench_timed_loop, then 5 timed.
fn counted() -> AppState {
    let dir = common::scratch("iterations");
    let elf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    let body = format!(
        "title = \"counted\"\npatch = \"none\"\nelf = {:?}\n\n[[variants]]\nname = \"only\"\n\n\
         [measure]\niteration = \"bench_timed_loop\"\nwarmup = 3\niterations = 5\n",
        elf.to_string_lossy()
    );
    let path = dir.join("counted.toml");
    std::fs::write(&path, body).unwrap();
    let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    AppState::new(Rc::new(s), None).unwrap()
}

fn status(s: &mut AppState) -> String {
    let text = screen(s, 160, 45);
    text.lines().rev().nth(1).unwrap().to_string()
}

#[test]
fn the_status_line_numbers_timed_iterations_from_1_after_the_warm_up() {
    let mut s = counted();
    s.command("break bench_timed_loop");
    // Stopped before the marker's first execution, then past it: warm-up
    // 1 of 3.
    s.update(Action::Continue);
    assert!(
        status(&mut s).contains("before the loop"),
        "{}",
        status(&mut s)
    );
    s.update(Action::Step);
    assert_eq!(s.live.stats().iteration_hits, 1);
    assert!(
        status(&mut s).contains("warm-up 1 of 3"),
        "{}",
        status(&mut s)
    );
    // Its fourth: the first timed iteration.
    for _ in 0..3 {
        s.update(Action::Continue);
    }
    s.update(Action::Step);
    assert_eq!(s.live.stats().iteration_hits, 4);
    let st = status(&mut s);
    assert!(st.contains("iteration 1 of 5"), "{st}");
    assert!(!st.contains("iteration 4"), "{st}");
}

/// ras-trap-entry's window opens at a symbol (`[measure] start`), and its
/// warm-up calls run before it in a loop of the guest's own: there the
/// status line says the window is still to open, and where, not "before the
/// loop" (the warm-up loop is running).
#[test]
fn before_a_window_opened_by_a_symbol_the_status_line_names_it() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    // The lesson opens in the first warm-up call's wrapper.
    let p = s.live.program().clone();
    assert_eq!(p.symbol_at(s.live.m.pc()).unwrap().0.name, "syscall");
    assert!(s.live.stats().window_start.is_none());
    let st = status(&mut s);
    assert!(!st.contains("before the loop"), "{st}");
    assert!(
        st.contains("before the measured window (it opens at bench_timed_loop)"),
        "{st}"
    );
    // Once the window is open, the iteration is named.
    s.command("break bench_timed_loop");
    s.update(Action::Continue);
    s.update(Action::Step);
    let st = status(&mut s);
    assert!(
        st.contains("· iteration 1") && !st.contains("window"),
        "{st}"
    );
}

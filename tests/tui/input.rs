//! Input handling: the event loop's batch handling fed
//! headless (`tui::input::handle`), long actions in pieces, and the status
//! line's latency figures.

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use trapscope::machine::Outcome;
use trapscope::scenario::Scenario;
use trapscope::tui::input::{self, MAX_MOVES, Stamped, Typing, Urgent};
use trapscope::tui::keymap::Keymap;
use trapscope::tui::latency;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Mode};
use trapscope::tui::update::Action;

fn app(name: &str) -> AppState {
    let s = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap();
    AppState::new(Rc::new(s), None).unwrap()
}

fn key(c: char) -> Stamped {
    Stamped::now(Event::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

fn code(k: KeyCode) -> Stamped {
    Stamped::now(Event::Key(KeyEvent::new(k, KeyModifiers::NONE)))
}

fn ctrl_c() -> Stamped {
    Stamped::now(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )))
}

fn resize(w: u16, h: u16) -> Stamped {
    Stamped::now(Event::Resize(w, h))
}

const BIG: (u16, u16) = (160, 45);

fn feed(s: &mut AppState, batch: &[Stamped], size: &mut (u16, u16)) -> input::Handled {
    input::handle(s, &Keymap::default(), batch, size, &|| false)
}

/// A key read with a resize: zalrsc-atomics, `r`, `c`, a resize within 50 ms, `b`: the `b`
/// acts. (The key was lost in crossterm's default event source, which
/// returns a resize and forgets the key read with it until the next one:
/// Cargo.toml turns on its level-triggered `use-dev-tty` source.)
#[test]
fn a_key_after_a_resize_during_a_long_action_acts() {
    let mut want = app("zalrsc-atomics.toml");
    want.update(Action::Restart);
    want.update(Action::Continue);
    let end = want.live.executed();
    want.update(Action::StepBack);
    let mut s = app("zalrsc-atomics.toml");
    let mut size = BIG;
    feed(&mut s, &[key('r')], &mut size);
    let h = feed(&mut s, &[key('c'), resize(150, 44), key('b')], &mut size);
    assert_eq!(size, (150, 44));
    assert_eq!(h.acted, 2);
    assert_eq!(s.live.executed(), end - 1);
    assert_eq!(s.live.executed(), want.live.executed());
    let cargo =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    assert!(
        cargo.contains("use-dev-tty"),
        "crossterm's level-triggered input source"
    );
}

/// Below the minimum size only q, Ctrl-C and resizing act.
#[test]
fn a_terminal_too_small_refuses_every_key_but_quit() {
    let mut s = app("ras-trap-entry.toml");
    let mut size = (render::MIN_WIDTH - 1, render::MIN_HEIGHT);
    let click = Stamped::now(Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 5,
        row: 5,
        modifiers: KeyModifiers::NONE,
    }));
    let batch = [
        key('s'),
        key('c'),
        key('b'),
        key(' '),
        key(':'),
        key('?'),
        key('R'),
        code(KeyCode::Tab),
        click,
    ];
    let h = feed(&mut s, &batch, &mut size);
    assert_eq!(h.refused, batch.len());
    assert_eq!(s.live.executed(), 0);
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(s.live.variant, 0);
    assert!(!s.quit);
    // Taller is not enough: both sides count.
    let mut size = (render::MIN_WIDTH, render::MIN_HEIGHT - 1);
    feed(&mut s, &[key('s')], &mut size);
    assert_eq!(s.live.executed(), 0);
    // Resized to the minimum, keys act again.
    let mut size = (80, 24);
    feed(
        &mut s,
        &[resize(render::MIN_WIDTH, render::MIN_HEIGHT), key('s')],
        &mut size,
    );
    assert_eq!(s.live.executed(), 1);
    // And q quits at any size.
    let mut size = (20, 5);
    feed(&mut s, &[key('q')], &mut size);
    assert!(s.quit);
    let mut t = app("ras-trap-entry.toml");
    feed(&mut t, &[ctrl_c()], &mut size);
    assert!(t.quit);
}

/// q and Ctrl-C act before the keys queued ahead of them.
#[test]
fn quit_acts_at_once_behind_a_flood() {
    for last in [key('q'), ctrl_c()] {
        let mut s = app("zalrsc-atomics.toml");
        let mut batch: Vec<Stamped> = (0..1000)
            .map(|i| key(['c', 'b', 's', 't'][i % 4]))
            .collect();
        batch.push(last);
        let t = Instant::now();
        let mut size = BIG;
        feed(&mut s, &batch, &mut size);
        assert!(s.quit);
        assert_eq!(s.live.executed(), 0, "nothing ran");
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }
    // q typed on the command line is a letter, not quit.
    let mut s = app("zalrsc-atomics.toml");
    let mut size = BIG;
    feed(&mut s, &[key(':'), key('q')], &mut size);
    assert!(!s.quit);
    assert_eq!(s.mode, Mode::Command("q".into()));
    feed(&mut s, &[code(KeyCode::Esc), key('q')], &mut size);
    assert!(s.quit, "after Esc left the command line");
    // The reader thread's flag (q read while the batch runs) stops the
    // batch before its next action.
    let mut s = app("zalrsc-atomics.toml");
    let n = Cell::new(0);
    let quit_now = || {
        n.set(n.get() + 1);
        n.get() > 2
    };
    input::handle(
        &mut s,
        &Keymap::default(),
        &[key('s'), key('s'), key('s'), key('s')],
        &mut BIG.clone(),
        &quit_now,
    );
    assert!(s.quit);
    assert_eq!(s.live.executed(), 2);
}

/// A run of `b` is one re-execution; at most MAX_MOVES moves
/// run per batch, and the status line says how many keys were dropped.
#[test]
fn a_flood_is_coalesced_and_bounded() {
    let mut s = app("ras-trap-entry.toml");
    let mut size = BIG;
    feed(&mut s, &[key('c')], &mut size);
    let end = s.live.executed();
    let backs: Vec<Stamped> = (0..300).map(|_| key('b')).collect();
    let t = Instant::now();
    let h = feed(&mut s, &backs, &mut size);
    let coalesced = t.elapsed();
    assert_eq!(h.acted, 1, "one re-execution");
    assert_eq!(s.live.executed(), end - 300);
    // The same 300 one by one take longer than the coalesced batch.
    let mut u = app("ras-trap-entry.toml");
    u.update(Action::Continue);
    let t = Instant::now();
    for _ in 0..20 {
        u.update(Action::StepBack);
    }
    assert!(
        t.elapsed() > coalesced,
        "{:?} vs {coalesced:?}",
        t.elapsed()
    );
    // Forty steps: MAX_MOVES run, the rest dropped and said.
    let mut s = app("ras-trap-entry.toml");
    let steps: Vec<Stamped> = (0..40).map(|_| key('s')).collect();
    let h = feed(&mut s, &steps, &mut size);
    assert_eq!(s.live.executed(), MAX_MOVES as u64);
    assert_eq!(h.dropped, 40 - MAX_MOVES);
    let (msg, err) = s.message.clone().unwrap();
    assert!(
        err && msg.contains(&format!("{} keys dropped", 40 - MAX_MOVES)),
        "{msg}"
    );
    // Scrolling is not a move: all of it acts.
    let scrolls: Vec<Stamped> = (0..40).map(|_| code(KeyCode::Down)).collect();
    let h = feed(&mut s, &scrolls, &mut size);
    assert_eq!(h.dropped, 0);
    assert_eq!(h.acted, 40);
}

/// The reader thread's view of the keyboard follows the modes.
#[test]
fn the_reader_knows_when_q_is_a_letter() {
    let k = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let mut t = Typing::default();
    assert_eq!(t.key(&k('q')), Some(Urgent::Quit));
    assert_eq!(t.key(&k(':')), None);
    assert_eq!(t.key(&k('q')), None);
    assert_eq!(
        t.key(&KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE)),
        None
    );
    // The line is empty again; one more Backspace leaves it.
    t.key(&KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    assert_eq!(t.key(&k('q')), Some(Urgent::Quit));
    let mut t = Typing::default();
    t.key(&k(':'));
    t.key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(t.key(&k('q')), Some(Urgent::Quit));
    assert_eq!(
        t.key(&KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        Some(Urgent::Stop)
    );
    // The search prompt is a line too: a q typed there is a letter.
    let mut t = Typing::default();
    assert_eq!(t.key(&k('/')), None);
    assert_eq!(t.key(&k('q')), None);
    t.key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(t.key(&k('q')), Some(Urgent::Quit));
    let mut t = Typing::default();
    t.key(&k(':'));
    assert_eq!(
        t.key(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Urgent::Quit),
        "Ctrl-C quits even on the command line"
    );
    // q in the help screen quits too.
    let mut s = app("ras-trap-entry.toml");
    s.update(Action::Help);
    let mut size = BIG;
    feed(&mut s, &[key('q')], &mut size);
    assert!(s.quit);
}

/// A long action runs in pieces; the progress hook sees it go
/// and can stop it. The machine is where it stopped, consistent: stepping
/// back to the same count gives the same state.
#[test]
fn a_long_continue_shows_progress_and_stops_when_told() {
    let mut s = app("zalrsc-atomics.toml");
    let seen = Rc::new(Cell::new(0u32));
    let k = seen.clone();
    s.progress = Some(Box::new(move |p| {
        assert_eq!(p.what, "continue");
        assert!(p.done > 0);
        k.set(k.get() + 1);
        k.get() < 2
    }));
    s.update(Action::Continue);
    assert_eq!(seen.get(), 2);
    assert_eq!(s.live.outcome, Some(Outcome::Interrupted));
    let (msg, _) = s.message.clone().unwrap();
    assert!(msg.contains("continue stopped (Esc)"), "{msg}");
    let at = s.live.executed();
    assert!(at > 0 && at <= 2 * trapscope::tui::update::long::CHUNK);
    let (pc, regs) = (s.live.m.pc(), s.live.m.gprs());
    let mut t = app("zalrsc-atomics.toml");
    t.go_to(at);
    assert_eq!((t.live.m.pc(), t.live.m.gprs()), (pc, regs));
    // c goes on from there to where an uninterrupted continue ends.
    s.progress = None;
    s.update(Action::Continue);
    let mut u = app("zalrsc-atomics.toml");
    u.update(Action::Continue);
    assert_eq!(s.live.executed(), u.live.executed());
    assert_eq!(s.live.m.pc(), u.live.m.pc());
}

/// A re-execution (b) stopped midway leaves the machine on screen as it
/// was.
#[test]
fn a_step_back_stopped_midway_keeps_the_machine() {
    let mut s = app("zalrsc-atomics.toml");
    s.update(Action::Continue);
    let end = s.live.executed();
    assert!(end > 2 * trapscope::tui::update::long::CHUNK);
    let pc = s.live.m.pc();
    // A step back from a checkpoint re-executes too little to be stopped:
    // without them (as after a change of core or knob) it re-executes
    // from power-on, long enough for the hook to stop it.
    s.live.cps = None;
    s.progress = Some(Box::new(|p| {
        assert_eq!(p.what, "re-executing");
        assert!(p.total.is_some());
        false
    }));
    s.update(Action::StepBack);
    assert_eq!(s.live.executed(), end);
    assert_eq!(s.live.m.pc(), pc);
    let (msg, _) = s.message.clone().unwrap();
    assert!(msg.contains("stopped (Esc) re-executing"), "{msg}");
    // With the hook going on, the step back in pieces ends where a whole
    // one does.
    s.progress = Some(Box::new(|_| true));
    s.update(Action::StepBack);
    assert_eq!(s.live.executed(), end - 1);
}

#[test]
fn the_progress_line_says_what_runs_and_how_to_stop_it() {
    let p = trapscope::tui::update::long::Progress {
        what: "re-executing",
        done: 250,
        total: Some(1000),
        started: Instant::now(),
    };
    let line = render::status::progress_line(&p);
    assert!(
        line.contains("re-executing: 250 instructions of 1000 (25%)"),
        "{line}"
    );
    assert!(line.contains("Esc stops"), "{line}");
}

/// The three latency figures are of one key, on one clock: the time to
/// screen holds the update and the draw, and the rest is named (waiting).
#[test]
fn the_latency_figures_add_up() {
    let key_at = Instant::now();
    std::thread::sleep(Duration::from_millis(30));
    let drawn = Instant::now();
    // 12 ms of update and 5 of draw inside those 30.
    let shown = latency::shown(key_at, 12_000, 5_000, drawn);
    assert_eq!((shown.0, shown.1), (12_000, 5_000));
    assert!(shown.2 >= 30_000);
    let text = trapscope::tui::layout::status::latency_line(shown);
    let nums: Vec<f64> = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|x| !x.is_empty() && *x != ".")
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(nums.len(), 4, "{text}");
    let (total, wait, update, draw) = (nums[0], nums[1], nums[2], nums[3]);
    assert!((wait + update + draw - total).abs() < 0.15, "{text}");
    assert_eq!((update, draw), (12.0, 5.0), "{text}");
    assert!(text.contains("wait") && text.contains("update") && text.contains("draw"));
    // An update longer than the time measured (another clock, or a batch
    // of several keys) never makes the total smaller than its parts.
    let shown = latency::shown(drawn, 164_400, 9_700, drawn);
    assert!(shown.2 >= shown.0 + shown.1);
    assert_eq!(trapscope::tui::layout::status::latency_line((0, 0, 0)), "");
    // The batch's update time is what `handle` measured around its
    // actions, all of them.
    let mut s = app("ras-trap-entry.toml");
    let t = Instant::now();
    let h = feed(&mut s, &[key('c'), key('c')], &mut BIG.clone());
    assert!(h.update_us <= t.elapsed().as_micros() as u64);
    assert!(h.key_at.is_some_and(|k| k <= Instant::now()));
    let h = feed(&mut s, &[resize(150, 44)], &mut BIG.clone());
    assert!(h.key_at.is_none(), "a resize is no key: the figures stay");
}

/// A lesson step stopped midway: Space goes on to the same step.
#[test]
fn a_lesson_step_stopped_midway_is_played_again() {
    let mut s = app("zalrsc-atomics.toml");
    // Step 6 of the lesson runs the timed loop to its end: long with 2000
    // iterations of some 300 instructions.
    s.command("set iterations=2000");
    for _ in 0..5 {
        s.update(Action::Advance);
    }
    assert_eq!(s.player.next, 5);
    s.progress = Some(Box::new(|_| false));
    s.update(Action::Advance);
    assert_eq!(s.player.next, 5, "the step is still to come");
    let (msg, _) = s.message.clone().unwrap();
    assert!(msg.contains("stopped (Esc)"), "{msg}");
    s.progress = None;
    s.update(Action::Advance);
    assert_eq!(s.player.next, 6);
    let end = s.live.program().symbol("atomics_timed_done").unwrap().addr;
    assert_eq!(s.live.m.pc(), end);
}

//! The TUI's time-travel history, all variants together, within
//! `--history-mib` (docs/guides/time-travel.md): past it checkpoints are thinned
//! and the block stream's oldest chunks go; `B` then finds a breakpoint
//! hit before the stream by re-executing from an earlier checkpoint, and
//! the status line says the history is thinned.

use crate::common;

use trapscope::machine::{Outcome, Until};
use trapscope::session;
use trapscope::tui::state::{AppState, Live};
use trapscope::tui::update::Action;

const MIB: usize = 1 << 20;

/// What `l` holds of the history: its checkpoints beyond the first one's
/// RAM, and its live stream's chunks.
fn held(l: &Live) -> usize {
    let cps = l
        .cps
        .as_ref()
        .map_or(0, |c| c.bytes().saturating_sub(l.m.ram_bytes() as usize));
    cps + l.stats().stream.sealed_bytes()
}

/// The syscall loop, long enough for a million instructions (about 200
/// a call). Opened as the terminal does: the whole runs behind the cycles
/// pane wait for idle time, which these tests never give.
fn app() -> AppState {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let sc = trapscope::scenario::Scenario::load(&path).unwrap();
    let mut s = AppState::open(std::rc::Rc::new(sc), None, Default::default()).unwrap();
    s.command("set iterations=100000");
    s
}

/// Where `sym` first runs, on a fresh machine of the variant on screen.
fn first_arrival(s: &AppState, sym: &str) -> (u64, u64) {
    let v = &s.scenario.variants[s.live.variant];
    let a = v.program.symbol(sym).unwrap().addr;
    let mut m = session::build_machine(&s.scenario, v, &s.opts()).unwrap();
    let o = m.run(&Until {
        max_insns: Some(10_000_000),
        addrs: vec![a],
        kinds: vec![],
    });
    assert_eq!(o, Outcome::ReachedAddr(a));
    (m.executed(), a)
}

/// Two variants half a million instructions in hold 2 MiB between them (before, each machine held up to 32 MiB of stream and 128 MiB of
/// checkpoints whatever the number of variants).
#[test]
fn the_history_of_all_variants_stays_within_its_cap() {
    let mut s = app();
    let cap = 2 * MIB;
    s.set_history(cap);
    s.command("run 500000");
    s.update(Action::SwitchVariant);
    assert_eq!(s.live.variant, 1, "{:?}", s.message);
    let machines: Vec<&Live> = std::iter::once(&s.live)
        .chain(s.parked.iter().flatten())
        .collect();
    assert_eq!(machines.len(), 2);
    let total: usize = machines.iter().map(|l| held(l)).sum();
    assert!(total <= cap, "history {total} bytes, cap {cap}");
    // The cap bites: the streams were cut and checkpoints dropped.
    for l in &machines {
        assert!(l.executed() > 400_000, "{}", l.executed());
        assert!(l.stats().stream.starts_at() > 0, "variant {}", l.variant);
        assert!(l.cps.as_ref().is_some_and(|c| c.thinned > 0));
    }
}

/// `B` for a breakpoint hit only before what the stream holds: found at
/// the count a fresh run first reaches it, by re-executing from
/// checkpoints (before, by a new machine from power-on, or not at all).
#[test]
fn reverse_continue_before_the_stream_re_executes_from_a_checkpoint() {
    let mut s = app();
    s.set_history(MIB);
    let (at, main) = first_arrival(&s, "main");
    s.command("break main");
    s.command("run 300000");
    let now = s.live.executed();
    assert!(
        s.live.stats().stream.starts_at() > at,
        "the stream reaches back to main"
    );
    s.update(Action::ReverseContinue);
    assert_eq!(
        (s.live.executed(), s.live.m.pc()),
        (at, main),
        "{:?}",
        s.message
    );
    let (msg, err) = s.message.clone().unwrap();
    assert!(!err, "{msg}");
    assert!(
        msg.contains(&format!("{} instructions back", now - at))
            && msg.contains("found by re-executing from the checkpoint at")
            && msg.contains("the history is thinned"),
        "{msg}"
    );
}

/// `B` with no hit anywhere before: an error, and the machine back where
/// it was.
#[test]
fn reverse_continue_with_no_hit_before_stays_put() {
    let mut s = app();
    s.set_history(MIB);
    // After the timed loop, which has 100,000 iterations to go.
    s.command("break bench_timed_done");
    s.command("run 300000");
    let here = (s.live.executed(), s.live.m.pc(), s.live.m.gprs());
    s.update(Action::ReverseContinue);
    assert_eq!((s.live.executed(), s.live.m.pc(), s.live.m.gprs()), here);
    let (msg, err) = s.message.clone().unwrap();
    assert!(err && msg.contains("no breakpoint was reached"), "{msg}");
}

/// Going to a count in a gap the thinning left re-executes from the
/// checkpoint before the gap, and the status line says the history is
/// thinned there.
#[test]
fn going_back_into_a_thinned_gap_says_so() {
    let mut s = app();
    s.set_history(MIB);
    s.command("run 300000");
    let c = s.live.cps.as_ref().unwrap();
    let every = c.every;
    let pos = c.positions();
    let (a, _) = pos
        .windows(2)
        .map(|w| (w[0], w[1]))
        .find(|(a, b)| b - a > every + 1)
        .expect("a gap wider than the interval");
    let target = a + every + 1;
    s.go_to(target);
    assert_eq!(s.live.executed(), target);
    let (msg, _) = s.message.clone().unwrap_or_default();
    assert!(
        msg.contains(&format!(
            "re-executed {} instructions from the checkpoint at {a}",
            every + 1
        )) && msg.contains("the history is thinned here"),
        "{msg}"
    );
}

/// The bound docs/guides/time-travel.md states: the TUI a billion instructions into the syscall
/// loop, with the other variant brought there by Tab, under 1 GiB
/// resident, its history within the default 320 MiB. Minutes even in a
/// release build: `cargo test --release --test tui -- --ignored history::`.
#[test]
#[ignore = "minutes: cargo test --release --test tui -- --ignored history::"]
fn the_tui_stays_under_a_gib_at_a_billion_instructions() {
    if !common::alone(
        module_path!(),
        "the_tui_stays_under_a_gib_at_a_billion_instructions",
    ) {
        return;
    }
    let mut s = app();
    s.command("set iterations=10000000");
    let target = 1_000_000_000;
    s.command(&format!("run {target}"));
    assert!(s.live.executed() >= target, "{:?}", s.message);
    s.update(Action::SwitchVariant);
    assert_eq!(s.live.variant, 1, "{:?}", s.message);
    assert!(s.live.executed() > target / 2, "{}", s.live.executed());
    let machines: Vec<&Live> = std::iter::once(&s.live)
        .chain(s.parked.iter().flatten())
        .collect();
    let history: usize = machines.iter().map(|l| held(l)).sum();
    let rss = common::rss_bytes();
    eprintln!(
        "at {} and {} instructions: history {} MiB, resident {} MiB",
        machines[0].executed(),
        machines[1].executed(),
        history >> 20,
        rss >> 20
    );
    assert!(history <= s.history(), "history {history} bytes");
    assert!(rss < 1 << 30, "resident {} MiB", rss >> 20);
}

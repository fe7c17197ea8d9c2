//! Starting where the lesson is (README.md, "Where the TUI opens"): the start rule, `r` and `R`, a
//! lesson replayed after its end, recording a lesson, and the shipped
//! lessons.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use trapscope::machine::Outcome;
use trapscope::scenario::Scenario;
use trapscope::session;
use trapscope::tui::record::shown_events;
use trapscope::tui::start::Rule;
use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A shipped scenario's text without its `[[script]]` sections.
fn without_script(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            skipping = t.starts_with("[[script]]");
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Writes `text` (a scenario of scenarios/, its relative paths made
/// absolute) as a scenario of its own and loads it.
fn scenario_text(name: &str, text: &str) -> (PathBuf, Result<Scenario, String>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tui_lesson");
    std::fs::create_dir_all(&dir).unwrap();
    let guest = root().join("assets/guest");
    let text = text.replace("\"../assets/guest/", &format!("\"{}/", guest.display()));
    let p = dir.join(format!("{name}-{}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    let s = Scenario::load(&p).map_err(|e| e.to_string());
    (p, s)
}

fn shipped(name: &str) -> String {
    std::fs::read_to_string(root().join("scenarios").join(name)).unwrap()
}

fn app(s: Scenario) -> AppState {
    AppState::new(Rc::new(s), None).unwrap()
}

/// The start is what stepping from power-on reaches: a fresh machine
/// stepped one instruction at a time to the same count has the same pc,
/// registers and events.
fn assert_stepping_agrees(s: &AppState) {
    let sc = &s.scenario;
    let v = &sc.variants[s.live.variant];
    let mut m = session::build_machine(sc, v, &s.opts()).unwrap();
    while m.executed() < s.live.executed() {
        assert_eq!(m.step(), Outcome::Stepped);
    }
    assert_eq!(m.executed(), s.live.executed());
    assert_eq!(m.pc(), s.live.m.pc());
    assert_eq!(m.gprs(), s.live.m.gprs());
    assert_eq!(
        shown_events(&m.observer().log),
        shown_events(&s.live.stats().log)
    );
}

#[test]
fn start_at_a_location_with_a_count_opens_at_its_nth_arrival() {
    // ras-trap-entry: 10 warm-up and 100 timed getppid() calls, each
    // through sys_getppid (its [knobs]); the 3rd arrival is in the warm-up.
    let text = format!(
        "start_at = \"sys_getppid\"\nstart_count = 3\n{}",
        without_script(&shipped("ras-trap-entry.toml"))
    );
    let (_, sc) = scenario_text("start-at", &text);
    let mut s = app(sc.unwrap());
    let st = s.find_start().unwrap();
    assert_eq!(st.rule, Rule::StartAt);
    s.go_to_start();
    let addr = s.live.program().symbol("sys_getppid").unwrap().addr;
    assert_eq!(s.live.m.pc(), addr);
    // Count the arrivals by stepping: the third is where the start is.
    let mut m = session::build_machine(&s.scenario, &s.scenario.variants[0], &s.opts()).unwrap();
    let mut seen = 0;
    while seen < 3 {
        if m.pc() == addr {
            seen += 1;
            if seen == 3 {
                break;
            }
        }
        assert_eq!(m.step(), Outcome::Stepped);
    }
    assert_eq!(m.executed(), s.live.executed());
    assert_stepping_agrees(&s);
    // r comes back here; R goes to power-on.
    s.update(Action::Step);
    s.update(Action::Restart);
    assert_eq!(s.live.m.pc(), addr);
    assert_eq!(s.live.executed(), m.executed());
    s.update(Action::Reset);
    assert_eq!(s.live.executed(), 0);
}

#[test]
fn start_at_takes_sym_plus_offset_and_file_line() {
    let base = without_script(&shipped("ras-trap-entry.toml"));
    let (_, sc) = scenario_text(
        "start-off",
        &format!("start_at = \"sys_getppid+0x2\"\n{base}"),
    );
    let mut s = app(sc.unwrap());
    s.go_to_start();
    let addr = s.live.program().symbol("sys_getppid").unwrap().addr;
    assert_eq!(s.live.m.pc(), addr + 2);
    let line = s
        .live
        .program()
        .loc_string(addr)
        .expect("the minikernel has a line table");
    let line = line.rsplit('/').next().unwrap().to_string();
    let (_, sc) = scenario_text("start-line", &format!("start_at = \"{line}\"\n{base}"));
    let mut s = app(sc.unwrap());
    s.go_to_start();
    let want = s
        .live
        .program()
        .resolve(&line)
        .expect("the line names a pc");
    assert_eq!(s.live.m.pc(), want);
    assert_stepping_agrees(&s);
}

#[test]
fn a_bad_start_at_is_an_error_at_its_place() {
    let base = without_script(&shipped("ras-trap-entry.toml"));
    for (name, head, want) in [
        ("nosym", "start_at = \"no_such_symbol\"\n", "no symbol"),
        (
            "zero",
            "start_at = \"sys_getppid\"\nstart_count = 0\n",
            "at least 1",
        ),
        ("alone", "start_count = 2\n", "goes with start_at"),
    ] {
        let (p, sc) = scenario_text(name, &format!("{head}{base}"));
        let e = sc.err().unwrap_or_else(|| panic!("{name} loads"));
        let file = p.display().to_string();
        assert!(e.contains(&format!("{file}:")), "{e}");
        assert!(e.contains(want), "{e}");
        // file:line:col, with the line of the field (1 or 2).
        let after = &e[e.find(&file).unwrap() + file.len() + 1..];
        let line: u32 = after.split(':').next().unwrap().parse().unwrap();
        assert!(line <= 2, "{e}");
    }
}

#[test]
fn a_lesson_opens_where_its_first_step_arrives() {
    let s0 = Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap();
    assert!(s0.start_at.is_none() && !s0.script.is_empty());
    let mut s = app(s0);
    s.go_to_start();
    assert_eq!(s.player.next, 1, "step 1 is on screen");
    assert_eq!(s.narration.as_deref(), Some(s.player.steps[0].say.as_str()));
    let at = s.live.executed();
    assert!(at > 0);
    assert_stepping_agrees(&s);
    // Space plays step 2 from there, as playing from power-on does.
    s.update(Action::Advance);
    let two = (s.live.executed(), s.live.m.pc());
    let mut t = app(Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap());
    t.update(Action::Advance);
    assert_eq!(t.live.executed(), at);
    t.update(Action::Advance);
    assert_eq!((t.live.executed(), t.live.m.pc()), two);
}

#[test]
fn without_a_lesson_it_opens_at_the_first_timed_iteration() {
    let (_, sc) = scenario_text("iter", &without_script(&shipped("ras-trap-entry.toml")));
    let mut s = app(sc.unwrap());
    assert_eq!(s.find_start().unwrap().rule, Rule::FirstIteration);
    s.go_to_start();
    let iter = s.live.program().symbol("bench_timed_loop").unwrap().addr;
    assert_eq!(s.live.m.pc(), iter);
    // The first instruction of the first timed iteration: no iteration is
    // counted yet, and one instruction later the first is.
    assert_eq!(s.live.stats().iterations, 0);
    s.update(Action::Step);
    assert_eq!(s.live.stats().iterations, 1);
    s.update(Action::Restart);
    assert_eq!(s.live.m.pc(), iter);
    assert_stepping_agrees(&s);
}

#[test]
fn without_a_loop_or_a_lesson_it_opens_at_the_entry() {
    let (_, sc) = scenario_text("entry", &without_script(&shipped("amo-speed-probe.toml")));
    let mut s = app(sc.unwrap());
    assert!(s.scenario.measure.is_none(), "amo-speed-probe has no loop");
    assert_eq!(s.find_start().unwrap().rule, Rule::Entry);
    s.update(Action::Step);
    s.go_to_start();
    assert_eq!(s.live.executed(), 0);
    assert_eq!(s.live.m.pc(), s.live.program().entry);
}

#[test]
fn space_after_the_last_step_replays_the_lesson_from_the_start() {
    let mut s = app(Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap());
    s.go_to_start();
    let start = s.live.executed();
    let n = s.player.steps.len();
    while s.player.next < n {
        s.update(Action::Advance);
    }
    let (msg, err) = s.message.clone().unwrap();
    assert!(
        !err && msg.contains("the last") && msg.contains("Space replays"),
        "{msg}"
    );
    s.update(Action::Advance);
    assert_eq!(s.live.executed(), start);
    assert_eq!(s.player.next, 1);
    let (msg, _) = s.message.clone().unwrap();
    assert!(msg.contains("replaying the lesson"), "{msg}");
    // And it plays on.
    s.update(Action::Advance);
    assert_eq!(s.player.next, 2);
}

/// The recording test's moves, on a scenario without a lesson.
fn record_some_steps(s: &mut AppState) {
    s.command("record");
    assert!(s.recorder.is_some());
    // A breakpoint that is passed many times: the 3rd continue stops at
    // its 3rd arrival (so the step needs a count).
    s.command("break sys_getppid");
    s.update(Action::Continue);
    s.command("say the first getppid");
    s.update(Action::Continue);
    s.update(Action::Continue);
    s.command("say two more");
    s.update(Action::RunToTrap);
    s.command("say the way back");
    s.update(Action::Step);
    s.update(Action::Step);
    s.command("run 1000");
    // A step back drops nothing but moves the end back by one.
    s.update(Action::StepBack);
    s.update(Action::SwitchVariant);
    s.update(Action::RunToTrap);
    s.command("say the other variant's trap");
}

#[test]
fn a_recorded_lesson_saves_and_replays_to_the_same_place() {
    let (_, sc) = scenario_text("rec", &without_script(&shipped("ras-trap-entry.toml")));
    let mut s = app(sc.unwrap());
    s.go_to_start();
    record_some_steps(&mut s);
    let r = s.recorder.clone().unwrap();
    assert!(r.steps.len() >= 5, "{:?}", r.steps);
    let counted = r.steps.iter().any(|x| x.step.count > 1);
    assert!(
        counted,
        "a repeated hit is named with a count: {:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|x| x.step.variant.is_some()), "the Tab");
    let want = (
        s.variant_name().to_string(),
        s.live.executed(),
        s.live.m.pc(),
        shown_events(&s.live.stats().log),
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tui_lesson");
    let file = dir.join(format!("recorded-{}.toml", std::process::id()));
    let _ = std::fs::remove_file(&file);
    s.command(&format!("save {}", file.display()));
    let (msg, err) = s.message.clone().unwrap();
    assert!(!err, "{msg}");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("[[script]]") && saved.contains("count = "),
        "{saved}"
    );
    assert!(saved.contains("say = \"two more\""), "{saved}");
    // Saving again to the same file: one line, the file untouched.
    s.command(&format!("save {}", file.display()));
    let (msg, err) = s.message.clone().unwrap();
    assert!(err && msg.contains("exists"), "{msg}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), saved);
    s.command("save /nonexistent-dir/x/lesson.toml");
    let (msg, err) = s.message.clone().unwrap();
    assert!(err && msg.starts_with("save: cannot write"), "{msg}");
    // The scenario with that script, replayed headless.
    let base = without_script(&shipped("ras-trap-entry.toml"));
    let (_, sc) = scenario_text("rec-replay", &format!("{base}\n{saved}"));
    let sc = sc.unwrap();
    assert_eq!(sc.script.len(), r.steps.len());
    let steps = trapscope::tui::script::replay(sc, None).unwrap();
    assert!(steps.iter().all(|x| x.ok), "{steps:?}");
    for (got, rec) in steps.iter().zip(&r.steps) {
        assert_eq!(got.instructions, rec.end.executed, "{got:?}");
    }
    let last = steps.last().unwrap();
    // The same place: variant, instruction, pc and event index.
    let mut t = app(scenario_text("rec-replay2", &format!("{base}\n{saved}"))
        .1
        .unwrap());
    for _ in 0..r.steps.len() {
        t.update(Action::Advance);
    }
    let got = (
        t.variant_name().to_string(),
        t.live.executed(),
        t.live.m.pc(),
        shown_events(&t.live.stats().log),
    );
    assert_eq!(got, want);
    assert_eq!(last.instructions, want.1);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn say_and_save_without_a_recording_say_what_to_do() {
    let mut s = app(Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap());
    s.command("say hello");
    assert!(s.message.clone().unwrap().0.contains(":record starts"));
    s.command("save x.toml");
    assert!(s.message.clone().unwrap().0.contains(":record starts"));
    s.command("record");
    s.command("say hello");
    let (msg, err) = s.message.clone().unwrap();
    assert!(err && msg.contains("take a step first"), "{msg}");
}

#[test]
fn every_shipped_scenario_has_a_lesson_that_replays() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for n in &names {
        let s = Scenario::load(&root().join("scenarios").join(n)).unwrap();
        assert!(s.script.len() >= 3, "{n}: a lesson of a few steps");
        assert!(s.script.iter().all(|x| !x.say.is_empty()), "{n}: narrated");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(root())
            .args(["run", "--script", &format!("scenarios/{n}")])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{n}: {text}");
        assert!(text.contains(" 0 failed"), "{n}: {text}");
    }
}

/// A lesson step (or a breakpoint) at an instruction trapscope runs itself
/// (here the lr.d that opens arch_cmpxchg) whose block ran before the stop
/// was asked for: the run stops before the instruction, where stepping
/// arrives, not after it.
#[test]
fn a_stop_at_an_intercepted_instruction_that_already_ran_stops_before_it() {
    use trapscope::machine::Until;
    let sc = Scenario::load(&root().join("scenarios/zalrsc-atomics.toml")).unwrap();
    let opts = session::RunOpts {
        core: sc.cores.first().cloned(),
        ..session::RunOpts::default()
    };
    let v = &sc.variants[1];
    let run_to = |m: &mut trapscope::machine::Machine<_>, at: u64| {
        m.run(&Until {
            max_insns: Some(10_000_000),
            addrs: vec![at],
            kinds: vec![],
        })
    };
    let mut m = session::build_machine(&sc, v, &opts).unwrap();
    let a = m.program.symbol("arch_cmpxchg").unwrap().addr;
    let wake = m.program.symbol("sys_atomics_wake_zalrsc").unwrap().addr;
    // Two calls in: arch_cmpxchg has run (its lr.d's hook is on), and
    // no stop at it was ever asked for.
    assert_eq!(run_to(&mut m, wake), Outcome::ReachedAddr(wake));
    assert_eq!(run_to(&mut m, wake), Outcome::ReachedAddr(wake));
    let from = m.executed();
    assert_eq!(run_to(&mut m, a), Outcome::ReachedAddr(a));
    assert_eq!(m.pc(), a, "stopped before the lr.d, not after it");
    // Stepping from the same point arrives at the same instruction count.
    let mut stepped = session::build_machine(&sc, v, &opts).unwrap();
    while stepped.executed() < from {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    while stepped.pc() != a {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    assert_eq!(stepped.executed(), m.executed());
    // Resuming from such a stop runs the instruction: the next stop is a
    // later arrival, whichever hook came first.
    for m in [&mut m, &mut session::build_machine(&sc, v, &opts).unwrap()] {
        assert_eq!(run_to(m, a), Outcome::ReachedAddr(a));
        let at = m.executed();
        assert_eq!(run_to(m, a), Outcome::ReachedAddr(a));
        assert!(m.executed() > at, "moved on from {at}");
        assert_eq!(m.pc(), a);
    }
}

/// A stop at a probed instruction (probe-in-lrsc's probe sits in
/// arch_cmpxchg) arrives before the probe's breakpoint trap, where stepping
/// arrives, not in the trap handler.
#[test]
fn a_stop_at_a_probed_instruction_stops_before_the_probe_fires() {
    use trapscope::machine::Until;
    let sc = Scenario::load(&root().join("scenarios/probe-in-lrsc.toml")).unwrap();
    let opts = session::RunOpts {
        core: sc.cores.first().cloned(),
        ..session::RunOpts::default()
    };
    let v = &sc.variants[0];
    let mut m = session::build_machine(&sc, v, &opts).unwrap();
    let site = m.program.symbol("cmpxchg_probe_site").unwrap().addr;
    let o = m.run(&Until {
        max_insns: Some(1_000_000),
        addrs: vec![site],
        kinds: vec![],
    });
    assert_eq!(o, Outcome::ReachedAddr(site));
    assert_eq!(m.pc(), site, "before the probe, not in its handler");
    let mut stepped = session::build_machine(&sc, v, &opts).unwrap();
    while stepped.pc() != site {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    assert_eq!(stepped.executed(), m.executed());
    // Going on from there, the probe fires as it does when stepping.
    assert_eq!(m.step(), Outcome::Stepped);
    assert_eq!(stepped.step(), Outcome::Stepped);
    assert_eq!(m.pc(), stepped.pc());
    assert_ne!(m.pc(), site + 4, "the probe's trap, not the instruction");
}

/// A recording refuses what a lesson cannot replay, and stops.
#[test]
fn a_recording_refuses_settings_a_lesson_cannot_replay() {
    let mut s = app(Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap());
    s.command("record");
    for c in ["set iterations=5", "core u74", "probe sys_getppid"] {
        s.command(c);
        let (msg, err) = s.message.clone().unwrap();
        assert!(err && msg.contains("while recording"), "{c}: {msg}");
    }
    assert!(s.set.is_empty() && s.probes.is_empty());
    s.command("record off");
    assert!(s.recorder.is_none());
    s.command("set iterations=5");
    assert_eq!(s.set, vec![("iterations".to_string(), 5)]);
}

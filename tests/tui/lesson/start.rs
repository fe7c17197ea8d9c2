//! The start rule (split from lesson.rs, whose helpers it uses): `start_at`
//! with a count opens at its nth arrival, takes sym+offset and file:line, and
//! is an error at its place when bad; a lesson opens where its first step
//! arrives; without one the TUI opens at the first timed iteration, and
//! without a loop at the entry.

use super::*;

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
    let want = s.live.program().locate(&line).expect("the line names a pc");
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

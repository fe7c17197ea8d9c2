//! Recording a lesson (split from lesson.rs, whose helpers it uses): a
//! recorded lesson saves and replays to the same place, `say` and `save`
//! without a recording say what to do, and a recording refuses settings a
//! lesson cannot replay.

use super::*;

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

//! Lessons in the app (split from app.rs, whose app and pane reader it
//! uses): a lesson plays step by step and highlights panes, every lesson
//! replays headless, restart starts it over (or says there is none), and it
//! does not advance past the guest's end.

use super::*;

#[test]
fn the_lesson_plays_step_by_step_and_highlights_panes() {
    let mut s = app();
    assert!(
        !s.player.steps.is_empty(),
        "ras-trap-entry has a [[script]]"
    );
    s.update(Action::Advance);
    assert_eq!(s.player.next, 1);
    let step = &s.player.steps[0];
    assert_eq!(s.narration.as_deref(), Some(step.say.as_str()));
    if let Some(h) = &step.highlight {
        assert_eq!(s.highlight, Pane::parse(h));
    }
}

#[test]
fn every_lesson_replays_headless() {
    // Every shipped scenario that has a lesson.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lessons: Vec<String> = std::fs::read_dir(root.join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("\n[[script]]"))
        .map(|p| format!("scenarios/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    lessons.sort();
    assert!(lessons.len() >= 3, "{lessons:?}");
    for scenario in &lessons {
        let scenario = scenario.as_str();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", "--script", scenario])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{scenario}: {text}");
        assert!(text.contains(" 0 failed"), "{text}");
    }
}

#[test]
fn restart_starts_the_lesson_over_and_a_scenario_without_one_says_so() {
    let mut s = app();
    s.update(Action::Advance);
    s.update(Action::Advance);
    assert_eq!(s.player.next, 2);
    // r: back to the lesson's start, which is where its first step arrives.
    s.update(Action::Restart);
    assert_eq!(s.player.next, 1);
    assert!(s.player.active);
    // R: power-on, the lesson not begun.
    s.update(Action::Reset);
    assert_eq!(s.player.next, 0);
    assert!(!s.player.active);
    assert_eq!(s.live.executed(), 0);
    let dir = std::env::temp_dir().join(format!("trapscope-nolesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    let p = dir.join("no-lesson.toml");
    std::fs::write(
        &p,
        format!(
            "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\n[[variants]]\nname = \"only\"\n",
            elf.display()
        ),
    )
    .unwrap();
    let mut z = AppState::new(Rc::new(Scenario::load(&p).unwrap()), None).unwrap();
    z.update(Action::Advance);
    let (msg, _) = z.message.clone().unwrap();
    assert!(msg.contains("has no lesson"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Space after the guest ended does not narrate a step that cannot run.
#[test]
fn the_lesson_does_not_advance_past_the_guests_end() {
    let mut s = app();
    for _ in 0..50 {
        if s.live.m.exit_code().is_some() {
            break;
        }
        s.update(Action::Continue);
    }
    assert!(s.live.m.exit_code().is_some(), "the guest ran to its end");
    let before = s.player.next;
    s.update(Action::Advance);
    assert_eq!(s.player.next, before, "no step taken");
    let msg = s.message.as_ref().map(|m| m.0.clone()).unwrap_or_default();
    assert!(msg.contains("the guest has ended"), "{msg}");
}

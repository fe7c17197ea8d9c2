//! Replaying lessons (split from lesson.rs, whose helpers it uses): space
//! after the last step replays the lesson from the start, and every shipped
//! scenario has a lesson that replays.

use super::*;

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

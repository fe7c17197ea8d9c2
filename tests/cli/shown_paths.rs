//! Paths trapscope finds itself (the default scenario, the shipped ones,
//! the core profiles) are printed relative to the current directory when
//! they are under it, as `run` and `compare` print the paths they are given:
//! `check`, `bench`, `list` and the TUI's `:variant` printed the checkout's
//! absolute path.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::time::Duration;

/// The checkout's absolute path, which no output below may hold.
fn root() -> String {
    env!("CARGO_MANIFEST_DIR").to_string()
}

#[test]
fn list_names_its_directories_relative_to_the_current_one() {
    let out = common::trapscope_within(&["list"], Duration::from_secs(30));
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&root()), "{text}");
    assert!(text.contains("scenarios (scenarios):"), "{text}");
    assert!(text.contains("core profiles (assets/cores;"), "{text}");
}

#[test]
fn check_names_the_shipped_scenarios_relative_to_the_current_one() {
    // Its first line names the first scenario: enough, without the rest.
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .arg("check")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first.starts_with("scenarios/amo-speed-probe.toml: "),
        "{first}"
    );
}

#[test]
fn bench_names_its_default_scenario_relative_to_the_current_one() {
    let out = common::trapscope_within(
        &["bench", "--variant", "nope", "--iterations", "1"],
        Duration::from_secs(60),
    );
    common::fails_one_line(
        &out,
        2,
        &["unknown variant 'nope' in scenarios/ras-trap-entry.toml"],
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains(&root()));
}

#[test]
fn the_tuis_variant_error_names_the_default_scenario_relative() {
    let s = trapscope::scenario::Scenario::load(&trapscope::default_scenario()).unwrap();
    let mut s = trapscope::tui::state::AppState::new(Rc::new(s), None).unwrap();
    s.command("variant nope");
    let (msg, err) = s.message.clone().unwrap();
    assert!(err, "{msg}");
    assert!(
        msg.contains("in scenarios/ras-trap-entry.toml") && !msg.contains(&root()),
        "{msg}"
    );
}

#[test]
fn a_path_outside_the_current_directory_stays_as_it_is() {
    let p = std::path::Path::new("/nonexistent/x.toml");
    assert_eq!(trapscope::shown_path(p), p);
    let cwd = std::env::current_dir().unwrap();
    assert_eq!(
        trapscope::shown_path(&cwd.join("scenarios/a.toml")),
        std::path::Path::new("scenarios/a.toml")
    );
    assert_eq!(trapscope::shown_path(&cwd), std::path::Path::new("."));
}

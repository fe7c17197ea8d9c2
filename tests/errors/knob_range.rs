//! A knob's `max`: generic-entry's `arch_entry` is a switch the guest reads
//! with `beqz` (kernel.S), so 2 ran as 1 and `--set arch_entry=7` was
//! accepted. A value past `max` is refused at load (at the value's place)
//! and by `--set` / `:set`, in one line that says what the knob takes.

use crate::common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use common::{fails_one_line, trapscope_within};

const LIMIT: Duration = Duration::from_secs(60);
const GENERIC: &str = "scenarios/generic-entry.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// generic-entry.toml with `edit` applied, as a scenario of its own.
fn edited(name: &str, edit: impl Fn(&str) -> String) -> (String, String) {
    let text = std::fs::read_to_string(root().join(GENERIC)).unwrap();
    let guest = root().join("assets/guest");
    let text = text.replace("\"../assets/guest/", &format!("\"{}/", guest.display()));
    let text = edit(&text);
    let dir = common::scratch(&format!("knob-{name}"));
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, &text).unwrap();
    (p.display().to_string(), text)
}

/// `file:LINE:COL` of the first `needle` in `text`, 1-based, at `off`
/// bytes into it.
fn place(text: &str, needle: &str, off: usize) -> String {
    let at = text.find(needle).unwrap() + off;
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = at - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("{line}:{col}")
}

#[test]
fn a_variant_knob_past_its_max_is_refused_at_its_place() {
    let (p, text) = edited("variant", |t| {
        t.replace("knobs = { arch_entry = 1 }", "knobs = { arch_entry = 2 }")
    });
    let out = trapscope_within(&["run", &p, "-v", "fast"], LIMIT);
    let at = place(
        &text,
        "knobs = { arch_entry = 2 }",
        "knobs = { arch_entry = ".len(),
    );
    fails_one_line(
        &out,
        2,
        &[
            &format!("{p}:{at}:"),
            "variant 'arch_entry': knob arch_entry = 2 is out of range: it takes 0 to 1",
            "0: generic entry; 1:",
        ],
    );
}

#[test]
fn a_default_past_its_max_is_refused_at_its_place() {
    let (p, text) = edited("default", |t| {
        t.replace(
            "symbol = \"knob_arch_entry\"\ndefault = 0",
            "symbol = \"knob_arch_entry\"\ndefault = 3",
        )
    });
    let out = trapscope_within(&["run", &p, "-v", "fast"], LIMIT);
    let at = place(&text, "default = 3", "default = ".len());
    fails_one_line(
        &out,
        2,
        &[
            &format!("{p}:{at}:"),
            "default: knob arch_entry = 3 is out of range",
        ],
    );
}

#[test]
fn set_past_a_knobs_max_is_refused_by_every_command() {
    for args in [
        &["run", GENERIC, "-v", "fast", "--set", "arch_entry=7"][..],
        &["compare", GENERIC, "--core", "u74", "--set", "arch_entry=7"],
        &[
            "diff",
            GENERIC,
            "fast",
            "arch_entry",
            "--set",
            "arch_entry=7",
        ],
    ] {
        let out = trapscope_within(args, LIMIT);
        fails_one_line(
            &out,
            2,
            &["knob arch_entry = 7 is out of range: it takes 0 to 1"],
        );
    }
    // Its largest value is taken.
    runs_fast_with("arch_entry=1");
    // diff refused unknown knobs only by ignoring them.
    let out = trapscope_within(&["diff", GENERIC, "--set", "nope=1"], LIMIT);
    fails_one_line(&out, 2, &["unknown knob 'nope'"]);
}

#[test]
fn colon_set_past_a_knobs_max_is_refused_in_the_tui() {
    let s = trapscope::scenario::Scenario::load(&root().join(GENERIC)).unwrap();
    let mut s = trapscope::tui::state::AppState::new(Rc::new(s), None).unwrap();
    s.command("set arch_entry=2");
    let (msg, err) = s.message.clone().unwrap();
    assert!(err, "{msg}");
    assert!(
        msg.starts_with("set: knob arch_entry = 2 is out of range: it takes 0 to 1"),
        "{msg}"
    );
    assert!(s.set.is_empty());
    s.command("set arch_entry=1");
    assert_eq!(s.set, vec![("arch_entry".to_string(), 1)]);
}

#[test]
fn a_knob_without_max_takes_any_value() {
    // iterations has none: a large count is the user's to ask for.
    runs_fast_with("iterations=3");
}

/// `run GENERIC -v fast --set KNOB=V` succeeds.
fn runs_fast_with(set: &str) {
    let out = trapscope_within(&["run", GENERIC, "-v", "fast", "--set", set], LIMIT);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

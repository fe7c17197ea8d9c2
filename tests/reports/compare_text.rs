//! `compare`'s text report: the measured figures it stands the estimates
//! beside name the variant each was measured on.

use crate::common;

use std::time::Duration;

/// ras-trap-entry has a u74 figure for each side of its pair (its
/// `[[reference]]` tables): the "measured" lines name both, each with its
/// variant, not only the baseline's.
#[test]
fn the_measured_lines_name_both_sides_of_the_pair() {
    let out = common::trapscope_within(
        &["compare", "scenarios/ras-trap-entry.toml", "--core", "u74"],
        Duration::from_secs(120),
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("u74 measured"))
        .collect();
    let before = lines
        .iter()
        .find(|l| l.contains("before") && l.contains("baseline kernel"));
    let after = lines
        .iter()
        .find(|l| l.contains("after") && l.contains("patched kernel"));
    assert!(before.is_some() && after.is_some(), "{}", lines.join("\n"));
    // Each names its variant before what was measured.
    assert!(
        before.unwrap().starts_with("u74 measured, before: "),
        "{lines:?}"
    );
    assert!(
        after.unwrap().starts_with("u74 measured, after: "),
        "{lines:?}"
    );
}

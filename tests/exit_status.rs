//! Every exit status trapscope documents, produced by the binary itself.

mod common;

use std::time::Duration;

use common::trapscope_within;

const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn help_states_the_default_budgets() {
    let out = trapscope_within(&["elf", "--help"], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[default: 100000000]"), "{text}");
    assert!(text.contains("100M"), "{text}");
    let out = trapscope_within(&["run", "--help"], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let fallback = trapscope::scenario::DEFAULT_BUDGET.to_string();
    assert!(
        text.contains("the scenario's `budget`") && text.contains(&fallback),
        "{text}"
    );
}

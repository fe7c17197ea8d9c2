//! The key and command tables as Markdown, as the book's key page (docs/reference/keys.md)
//! gives them: the normal mode's keys, then the `:` commands, each row
//! from the table's entries, so that the page's tables are generated
//! from the code (tests/docs/readme_generated.rs).

use crate::tui::keymap::binding::{Doc, KeyMode};
use crate::tui::keymap::commands::COMMANDS;
use crate::tui::keymap::table::KEYS;

/// The key page's key table (`| key | action |`) and command table
/// (`| command | what it does |`), a blank line between them.
pub fn markdown() -> String {
    let keys = KEYS
        .iter()
        .flat_map(|part| part.iter())
        .filter(|e| e.modes == [KeyMode::Normal])
        .filter_map(|e| e.doc);
    // A row's short names (`:b` for `:break`) follow its form.
    let commands = COMMANDS.iter().filter_map(|r| {
        let short: Vec<String> = r
            .commands
            .iter()
            .flat_map(|c| c.names.iter().skip(1))
            .map(|n| format!("`:{n}`"))
            .collect();
        r.doc.map(|d| {
            let keys = if short.is_empty() {
                d.keys.to_string()
            } else {
                format!("{} ({})", d.keys, short.join(", "))
            };
            (keys, d.long)
        })
    });
    let mut out = table(
        "| key | action |",
        keys.map(|d: Doc| (d.keys.to_string(), d.long)),
    );
    out.push('\n');
    out.push_str(&table("| command | what it does |", commands));
    out
}

/// A two-column table under `head`.
fn table(head: &str, rows: impl Iterator<Item = (String, &'static str)>) -> String {
    let mut out = format!("{head}\n|---|---|\n");
    for (keys, long) in rows {
        out.push_str(&format!("| {} | {} |\n", cell(&keys), cell(long)));
    }
    out
}

/// A cell's text: a `|` is escaped, so it does not end the cell.
fn cell(t: &str) -> String {
    t.replace('|', "\\|")
}

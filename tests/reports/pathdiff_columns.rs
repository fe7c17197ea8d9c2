//! The path diff's text keeps its columns (`report::pathdiff::text`): each
//! column as wide as its longest cell within a line's 79 characters, a
//! longer cell cut with `…` and given whole on the line under its row.

use std::path::Path;
use std::rc::Rc;

use trapscope::cost::Profile;
use trapscope::report::pathdiff::{self, Line};
use trapscope::scenario::Scenario;
use trapscope::session::RunOpts;
use trapscope::session::path::Which;

fn scenario(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap()
}

fn opts(core: Option<&str>) -> RunOpts {
    RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        ..RunOpts::default()
    }
}

/// The rows of `text` (full, so one per row of `d`), each with the lines
/// that continue it.
fn text_rows(text: &str) -> Vec<(&str, Vec<&str>)> {
    let mut rows: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut in_rows = false;
    for l in text.lines() {
        if ["= ", "- ", "+ "].iter().any(|m| l.starts_with(m)) {
            rows.push((l, Vec::new()));
            in_rows = true;
        } else if l.starts_with("    ") && in_rows {
            rows.last_mut().unwrap().1.push(l);
        } else if l.starts_with("Per function") {
            break;
        }
    }
    rows
}

/// Where each of a row's first three cells starts, in characters: the
/// mark, then cells with no space inside (offset, source line), then the
/// instruction.
fn cell_starts(row: &str) -> [usize; 3] {
    let c: Vec<char> = row.chars().collect();
    let mut at = [2, 0, 0];
    let mut i = 2;
    for start in at.iter_mut().skip(1) {
        while i < c.len() && c[i] != ' ' {
            i += 1;
        }
        while i < c.len() && c[i] == ' ' {
            i += 1;
        }
        *start = i;
    }
    at
}

#[test]
fn text_rows_keep_their_columns_whatever_the_cells_length() {
    // ras-trap-entry's before and after share an ELF but not the offsets
    // of handle_exception(_ras): matched rows with two offsets (`+0xa2/
    // +0x9c`), and `jal syscall_enter_from_user_mode`, 32 characters.
    for (name, core) in [
        ("ras-trap-entry.toml", Some("u74")),
        ("ras-trap-entry.toml", None),
        ("zalrsc-atomics.toml", Some("c910")),
    ] {
        let s = scenario(name);
        let (a, b) = pathdiff::variants(&s, None, None).unwrap();
        let d = pathdiff::diff_at(&s, &a, &b, &opts(core), Which::Last).unwrap();
        let text = pathdiff::text(&d, true);
        let rows = text_rows(&text);
        let lines: Vec<(Option<&Line>, Option<&Line>)> = d.rows().collect();
        assert_eq!(rows.len(), lines.len(), "{name}:\n{text}");
        let mut starts = Vec::new();
        let mut ends = Vec::new();
        for ((row, more), (a, b)) in rows.iter().zip(&lines) {
            let quiet = |x: &Option<&Line>| x.is_none_or(|x| x.events.is_empty());
            if [a, b].iter().all(|x| x.is_none_or(|x| x.source.is_some())) {
                starts.push((cell_starts(row), *row));
            }
            // The B cycles' right edge, on rows with nothing after it.
            if core.is_some() && quiet(a) && quiet(b) {
                ends.push((row.trim_end().chars().count(), *row));
            }
            // Nothing a cell lacks room for is lost: each side's offset,
            // source line and instruction are on the row or the lines that
            // continue it.
            let squash = |t: &str| t.split_whitespace().collect::<String>();
            let all = squash(&format!("{row} {}", more.join(" ")));
            for x in [a, b].into_iter().flatten() {
                let off = match x.at.strip_prefix(&x.function) {
                    Some("") => "+0x0",
                    Some(o) => o,
                    None => &x.at,
                };
                for want in [off, x.source.as_deref().unwrap_or(""), &x.text] {
                    assert!(
                        all.contains(&squash(want)),
                        "{name}: {want:?} not in {all:?}"
                    );
                }
            }
        }
        assert!(
            starts.len() > 10 && (core.is_none() || ends.len() > 10),
            "{name}"
        );
        for (k, what) in ["offset", "source", "instruction"].iter().enumerate() {
            for (at, row) in &starts {
                assert_eq!(
                    at[k], starts[0].0[k],
                    "{name}: the {what} column moves:\n{}\n{row}",
                    starts[0].1
                );
            }
        }
        for (end, row) in &ends {
            assert_eq!(
                *end, ends[0].0,
                "{name}: the cycles move:\n{}\n{row}",
                ends[0].1
            );
        }
    }
}

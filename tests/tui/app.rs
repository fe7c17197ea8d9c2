//! The TUI, driven through actions and drawn into a test backend: what the
//! user sees after each key (docs/decisions.md C6).

use crate::common;
use common::tui::screen;

use std::path::Path;
use std::rc::Rc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use trapscope::scenario::Scenario;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Mode, Pane};
use trapscope::tui::update::Action;

/// LR/SC scenarios: the reservation pane, breakpoints and probes.
mod atomics;
/// Commands, keys and terminal sizes.
mod keys;
/// Lessons played, replayed and restarted.
mod lessons;
/// What each pane shows.
mod panes;
/// Tab between variants.
mod tab;

fn app() -> AppState {
    common::tui::app_at("scenarios/ras-trap-entry.toml", None)
}

/// The rows inside the pane titled `title`, trimmed, up to its bottom.
fn pane(text: &str, title: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let head = format!("┌ {title}");
    let (r, c) = rows
        .iter()
        .enumerate()
        .find_map(|(r, row)| {
            let s: String = row.iter().collect();
            s.find(&head).map(|b| (r, s[..b].chars().count()))
        })
        .unwrap_or_else(|| panic!("no pane {title}:\n{text}"));
    let end = (c + 1..rows[r].len()).find(|&x| rows[r][x] == '┐').unwrap();
    rows[r + 1..]
        .iter()
        .take_while(|row| row[c] != '└')
        .map(|row| {
            row[c + 1..end]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

//! Key-to-frame latency of the TUI, measured without a terminal: each action
//! followed by a full draw into a 160×45 test backend (`trapscope bench`).

use std::rc::Rc;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::render;
use super::state::AppState;
use super::update::Action;
use crate::scenario::Scenario;

/// Latencies of one kind of action, in microseconds.
#[derive(Debug, serde::Serialize)]
pub struct Latency {
    pub action: String,
    pub samples: usize,
    pub median_us: u64,
    pub max_us: u64,
    /// Of which drawing (median).
    pub draw_median_us: u64,
}

fn summarise(action: &str, mut total: Vec<u64>, mut draw: Vec<u64>) -> Latency {
    total.sort_unstable();
    draw.sort_unstable();
    Latency {
        action: action.into(),
        samples: total.len(),
        median_us: total.get(total.len() / 2).copied().unwrap_or(0),
        max_us: total.last().copied().unwrap_or(0),
        draw_median_us: draw.get(draw.len() / 2).copied().unwrap_or(0),
    }
}

pub fn measure(s: Scenario) -> Result<Vec<Latency>, String> {
    let mut app = AppState::new(Rc::new(s), None)?;
    let mut term = Terminal::new(TestBackend::new(160, 45)).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let plan: [(&str, Action, usize); 5] = [
        ("s (step)", Action::Step, 2000),
        ("t (run to trap)", Action::RunToTrap, 200),
        ("b (step back)", Action::StepBack, 50),
        ("Tab (switch variant)", Action::SwitchVariant, 20),
        ("n (step over)", Action::StepOver, 200),
    ];
    for (name, action, n) in plan {
        let (mut total, mut draw) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let t0 = Instant::now();
            app.update(action.clone());
            let t1 = Instant::now();
            term.draw(|f| render::draw(f, &app))
                .map_err(|e| e.to_string())?;
            draw.push(t1.elapsed().as_micros() as u64);
            total.push(t0.elapsed().as_micros() as u64);
        }
        out.push(summarise(name, total, draw));
    }
    Ok(out)
}

/// The status line's figures for the last key, in microseconds:
/// (update, draw, to screen). All three are of one key's batch on one
/// clock: "to screen" runs from when the key was read to when its frame
/// was drawn, so it holds the update and the draw, and what is left is
/// the time the key waited behind an earlier action.
pub fn shown(key_at: Instant, update_us: u64, draw_us: u64, drawn: Instant) -> (u64, u64, u64) {
    let total = drawn.saturating_duration_since(key_at).as_micros() as u64;
    (update_us, draw_us, total.max(update_us + draw_us))
}

/// The figures in words: `key→screen 12.3 ms = 2.1 wait + 9.0 update + 1.2
/// draw` (an empty string before the first key).
pub fn describe(shown: (u64, u64, u64)) -> String {
    let (update, draw, total) = shown;
    if total == 0 {
        return String::new();
    }
    let wait = total.saturating_sub(update + draw);
    let ms = |us: u64| us as f64 / 1000.0;
    format!(
        "key→screen {:.1} ms = {:.1} wait + {:.1} update + {:.1} draw",
        ms(total),
        ms(wait),
        ms(update),
        ms(draw)
    )
}

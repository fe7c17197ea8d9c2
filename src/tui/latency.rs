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

//! The heat column: a source line's modelled cycles per measured iteration,
//! over the same span the report's hot lines use (`Stats::completed_lines`),
//! so the figure never mixes warm-up cycles into a per-iteration one.

use crate::machine::SrcLoc;
use crate::tui::state::AppState;

/// What the heat column shows on this screen.
pub enum Heat {
    /// No measured loop: cycles since reset, labelled as such.
    Total,
    /// Cycles per line over `n` completed iterations.
    PerIteration { lines: Vec<u64>, n: u64 },
    /// A measured loop that has not completed an iteration yet.
    NotYet,
}

impl Heat {
    pub fn of(s: &AppState) -> Heat {
        if s.scenario.measure.is_none() {
            return Heat::Total;
        }
        let m = &s.live.m;
        let over = m.loop_ended() || m.exit_code().is_some();
        match s.live.stats().completed_lines(over) {
            Some((lines, n)) => Heat::PerIteration { lines, n },
            None => Heat::NotYet,
        }
    }

    /// The column's heading, for the pane title.
    pub fn title(&self) -> String {
        match self {
            Heat::Total => "cycles since reset".into(),
            Heat::PerIteration { n, .. } => format!("cyc/it over {n} it"),
            Heat::NotYet => "cyc/it: no iteration done yet".into(),
        }
    }

    /// The figure of one source line (empty when it had no cycles).
    pub fn line(&self, s: &AppState, loc: SrcLoc) -> String {
        let st = s.live.stats();
        let milli = match self {
            Heat::Total => st.line_cycles(loc),
            Heat::PerIteration { lines, .. } => st
                .line_id(loc)
                .and_then(|i| lines.get(i).copied())
                .unwrap_or(0),
            Heat::NotYet => 0,
        };
        if milli == 0 {
            return String::new();
        }
        let v = milli as f64 / crate::cost::MILLI as f64;
        match self {
            Heat::PerIteration { n, .. } => format!("{:.1}", v / *n as f64),
            _ => format!("{v:.0}"),
        }
    }
}

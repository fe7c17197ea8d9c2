//! The TUI's test helpers: a scenario's AppState, and the screen drawn
//! into a test backend as text.

use std::path::Path;
use std::rc::Rc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use trapscope::scenario::Scenario;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Timing};

/// The TUI's state on `path` (from the crate's root), on `core` or the
/// scenario's first.
pub fn app_at(path: &str, core: Option<&str>) -> AppState {
    let s = Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let core = core.map(|c| Rc::new(trapscope::cost::Profile::find(c).unwrap()));
    AppState::new(Rc::new(s), core).unwrap()
}

/// The screen as text, one line per row, with the timings (host time)
/// blanked.
pub fn screen(s: &mut AppState, w: u16, h: u16) -> String {
    s.timing = Timing::default();
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw(f, s)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

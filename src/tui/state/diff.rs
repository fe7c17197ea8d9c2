//! The diff view's state (`D`): the live variant's path against its pair
//! partner's for one iteration (`report::pathdiff`), computed once per
//! (variant pair, iteration, core, knobs) and kept until that changes. The
//! view's commands are `update/diff.rs`.

use std::rc::Rc;

use crate::machine::SrcLoc;
use crate::report::pathdiff::PathDiff;
use crate::tui::TuiError;

/// What a diff was computed for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffKey {
    /// Variant indices: A (before) and B (after).
    pub a: usize,
    pub b: usize,
    /// The iteration asked for (`None`: the default, a typical one,
    /// `pathdiff::diff_typical`).
    pub iteration: Option<u64>,
    pub core: Option<String>,
    pub set: Vec<(String, u64)>,
}

#[derive(Default)]
pub struct DiffView {
    pub open: bool,
    pub key: Option<DiffKey>,
    /// The diff, or why there is none (shared, as the diff is, so that
    /// the view's state clones).
    pub result: Option<Result<Rc<PathDiff>, Rc<TuiError>>>,
    /// The selected row (into the diff's `ops`).
    pub selected: usize,
    /// Where Enter sent the source pane (cleared when the machine moves).
    pub source_at: Option<SrcLoc>,
    /// The instruction count when `source_at` was set.
    pub source_at_executed: u64,
    /// How many diffs were computed (tests check the cache).
    pub computed: u64,
}

/// Rows a page key moves.
pub const PAGE: usize = 10;

/// Rows PgUp/PgDn move (signed, for `scroll`).
pub fn diff_page() -> i64 {
    PAGE as i64
}

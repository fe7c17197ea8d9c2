//! The `/` search's state: the last query and its match, which the panes
//! mark and `]`/`[` move from. How a search is made is `tui/search.rs`'s.

use crate::machine::SrcLoc;

/// Where a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A line of a source file.
    Line(SrcLoc),
    /// An instruction of the disassembly.
    Insn(u64),
    /// An event, by its index in the log.
    Event(u64),
}

/// Every source line matching a query, in the order `]` visits them: the
/// lines this run has executed, then those it has not; within each, from
/// the line after the view's (when the cycle began) to the end of its file,
/// the files after it in the line table's order, round to the files before
/// it, and last the view's own file up to that line. `]` past the last goes
/// back to the first, and that is the wrap the status line reports.
#[derive(Clone, Debug)]
pub(in crate::tui) struct LineCycle {
    pub query: String,
    /// Each matching line and whether it has run.
    pub items: Vec<(SrcLoc, bool)>,
    /// The match on screen.
    pub at: usize,
}

/// The last search and its match.
#[derive(Clone, Debug, Default)]
pub struct Search {
    pub query: String,
    pub(in crate::tui) hit: Option<Hit>,
    /// (variant, instructions executed) when the match was found: the view
    /// stays on it until the machine moves, then follows the pc again.
    pub(in crate::tui) at: (usize, u64),
    /// The source search's cycle, while its match is on screen.
    pub(in crate::tui) lines: Option<LineCycle>,
}

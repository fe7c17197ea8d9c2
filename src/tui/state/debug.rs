//! The kernel-debugger views' state: watchpoints (`:watch`, `:unwatch`)
//! and the memory view's place (`:x`). The commands are `update/debug.rs`.

use crate::machine::Watch;

/// Bytes `:x` shows when no count is given.
pub const X_DEFAULT: u64 = 128;
/// The most bytes `:x` shows (a pane holds far fewer; the rest scroll off).
pub const X_MAX: u64 = 4096;
/// Bytes a watch covers when none are given and the symbol has no size.
pub const WATCH_DEFAULT: u64 = 8;

/// A watchpoint as the user set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchEntry {
    /// What the user typed (a symbol, an address).
    pub what: String,
    /// The virtual address it named when set.
    pub vaddr: u64,
    /// The physical range watched (aliases hit too).
    pub watch: Watch,
}

#[derive(Clone, Debug, Default)]
pub struct DebugViews {
    pub watches: Vec<WatchEntry>,
    /// The memory pane's first address and byte count (`:x`).
    pub memory: Option<(u64, u64)>,
}

impl DebugViews {
    pub fn watch_list(&self) -> Vec<Watch> {
        self.watches.iter().map(|w| w.watch).collect()
    }

    /// Scrolling the focused Memory pane moves it a word (8 bytes) a line.
    pub fn scroll_memory(&mut self, lines: i64) {
        if let Some((a, _)) = &mut self.memory {
            *a = a.wrapping_add_signed(lines.wrapping_mul(8));
        }
    }
}

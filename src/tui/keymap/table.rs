//! Every mode's keys, in two parts: the normal mode's (`keys.rs`, in the
//! order of the key page's table), then the other modes' (`modes.rs`).

use crate::tui::keymap::binding::Entry;
use crate::tui::keymap::{keys, modes};

/// Every mode's keys, in two parts: the normal mode's (`keys.rs`, in the
/// order of the key page's table), then the other modes' (`modes.rs`).
pub static KEYS: &[&[Entry]] = &[keys::NORMAL_KEYS, modes::OTHER_KEYS];

//! What the band's files share: a parameter's ends, an assignment of
//! values, mispredict lists and what one replay gives. A leaf, below the
//! files that cost, combine and schedule.

use crate::cost::Val;
use crate::predict::PredKind;

/// The most combinations a band takes whole (2^10: ten two-ended
/// parameters); above it, each alone plus all-low and all-high.
pub const FULL_MAX: usize = 1024;

/// One parameter a band varies: its name (`Ranged::key`) and ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub key: String,
    pub ends: Vec<Val>,
}

/// Values for some parameters; the others keep the profile's.
pub type Assign = Vec<(String, Val)>;

/// Mispredicts: (entry, instruction index, kind), in order.
pub(crate) type Misps = Vec<(u32, u16, PredKind)>;

/// What one replay gives: the window's cycles per phase, and the work done
/// by each iteration mark and by the window's end (milli, idle left out).
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub window: Vec<u64>,
    pub marks: Vec<u64>,
    pub end: Option<u64>,
}

impl Replayed {
    /// The work (milli) of the iteration that began at iteration mark
    /// `hit` (1-based, every mark counted): to the next mark, or to the
    /// window's end for the last.
    pub fn iteration(&self, hit: u64) -> Option<u64> {
        let i = usize::try_from(hit.checked_sub(1)?).ok()?;
        let start = *self.marks.get(i)?;
        let stop = match (self.marks.get(i + 1), self.end) {
            (Some(n), Some(e)) => (*n).min(e.max(start)),
            (Some(n), None) => *n,
            (None, e) => e?,
        };
        stop.checked_sub(start)
    }
}

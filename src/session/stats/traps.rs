//! Traps entered and not yet returned from, folded from the events as they
//! come (the TUI's privilege and pt_regs panes). Kept by the observer, so a
//! checkpoint holds it and going back needs no pass over the event log.

use crate::trace::{Event, Priv};

/// A trap that has been entered and not yet returned from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrapFrame {
    pub cause: u64,
    pub from: Priv,
    pub to: Priv,
    pub epc: u64,
    pub handler: u64,
    pub at: u64,
    /// Its index in the event log.
    pub index: u64,
}

/// The most open traps kept: a guest whose handler never returns (it jumps
/// back instead of `xRET`) would otherwise add one a trap, without bound
/// (a storm of 20 million traps held about 1 GB). Past it the oldest go;
/// the panes show the innermost.
pub const MAX_OPEN: usize = 256;

#[derive(Clone, Debug, Default)]
pub struct Traps {
    /// Oldest first; at most `MAX_OPEN`.
    pub open: Vec<TrapFrame>,
    /// Open traps dropped from the front past `MAX_OPEN`.
    pub dropped: u64,
    /// The last completed trap: its frame and where it returned to.
    pub last_return: Option<(TrapFrame, u64)>,
    /// Whether a trap has been taken into S / into M since reset.
    pub taken_to: (bool, bool),
}

impl Traps {
    /// `ev`, the log's event number `index`, at instruction count `at`.
    pub fn note(&mut self, index: u64, at: u64, ev: &Event) {
        match ev {
            Event::TrapEnter {
                cause,
                from,
                to,
                epc,
                handler,
                ..
            } => {
                if *to == Priv::S {
                    self.taken_to.0 = true;
                } else {
                    self.taken_to.1 = true;
                }
                if self.open.len() == MAX_OPEN {
                    self.open.remove(0);
                    self.dropped += 1;
                }
                self.open.push(TrapFrame {
                    cause: *cause,
                    from: *from,
                    to: *to,
                    epc: *epc,
                    handler: *handler,
                    at,
                    index,
                });
            }
            Event::TrapReturn { target, .. } => {
                if let Some(f) = self.open.pop() {
                    self.last_return = Some((f, *target));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traps_never_returned_from_stay_bounded() {
        let mut t = Traps::default();
        for i in 0..100_000u64 {
            t.note(
                i,
                i * 2,
                &Event::TrapEnter {
                    cause: 3,
                    from: Priv::M,
                    to: Priv::M,
                    epc: 0x8000_0400,
                    tval: 0,
                    handler: 0x8000_0800,
                },
            );
        }
        assert_eq!(t.open.len(), MAX_OPEN);
        assert_eq!(t.dropped, 100_000 - MAX_OPEN as u64);
        // The newest is kept.
        assert_eq!(t.open.last().map(|f| f.index), Some(99_999));
    }
}

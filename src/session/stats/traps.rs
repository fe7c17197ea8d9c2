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

#[derive(Clone, Debug, Default)]
pub struct Traps {
    /// Oldest first.
    pub open: Vec<TrapFrame>,
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

//! A bounded event log: the newest events, for the report and the TUI.
//!
//! The history used for stepping back is not this log: stepping back
//! re-executes deterministically, so nothing here grows without bound.

use std::collections::VecDeque;

use super::{Event, EventKind, Stamped};

#[derive(Debug)]
pub struct EventLog {
    cap: usize,
    events: VecDeque<Stamped>,
    dropped: u64,
    keep_retired: bool,
}

impl EventLog {
    pub fn new(cap: usize, keep_retired: bool) -> EventLog {
        EventLog {
            cap,
            events: VecDeque::new(),
            dropped: 0,
            keep_retired,
        }
    }

    pub fn push(&mut self, at: u64, event: &Event) {
        if !self.keep_retired && event.kind() == EventKind::Retired {
            return;
        }
        if self.events.len() == self.cap {
            self.events.pop_front();
            self.dropped += 1;
        }
        self.events.push_back(Stamped {
            at,
            event: event.clone(),
        });
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Stamped> {
        self.events.iter()
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// How many old events fell off the front.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

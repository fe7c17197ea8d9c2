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

    /// How many events were ever pushed (kept or dropped).
    pub fn total(&self) -> u64 {
        self.dropped + self.events.len() as u64
    }

    /// Events with an absolute index (0 = the first ever pushed) of at least
    /// `from`, with their indices.
    pub fn since(&self, from: u64) -> impl Iterator<Item = (u64, &Stamped)> {
        let skip = from.saturating_sub(self.dropped) as usize;
        let base = self.dropped;
        self.events
            .iter()
            .enumerate()
            .skip(skip)
            .map(move |(i, e)| (base + i as u64, e))
    }

    /// How many old events fell off the front.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

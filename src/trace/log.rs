//! A bounded event log: the newest events, for the report and the TUI.
//!
//! Events are kept in sealed chunks shared by reference count and one open
//! chunk, so a checkpoint (`session::checkpoint`) copies at most one chunk
//! and a list of pointers, never the whole log. Going back to a checkpoint
//! gives back the log as it was there; the events after it come again as
//! the machine re-executes.

use std::collections::VecDeque;
use std::rc::Rc;

use super::{Event, EventKind, Stamped};

/// Events per sealed chunk: what a checkpoint copies at most.
const CHUNK: usize = 512;

#[derive(Clone, Debug)]
pub struct EventLog {
    cap: usize,
    /// Sealed chunks, oldest first; each holds `CHUNK` events.
    sealed: VecDeque<Rc<Vec<Stamped>>>,
    /// Events of the oldest sealed chunk (or of `open`, when none) that
    /// fell off the front.
    skip: usize,
    open: Vec<Stamped>,
    len: usize,
    dropped: u64,
    keep_retired: bool,
    /// Events other than retired ranges ever pushed: the next one's `n`.
    numbered: u64,
}

impl EventLog {
    pub fn new(cap: usize, keep_retired: bool) -> EventLog {
        EventLog {
            cap: cap.max(1),
            sealed: VecDeque::new(),
            skip: 0,
            open: Vec::new(),
            len: 0,
            dropped: 0,
            keep_retired,
            numbered: 0,
        }
    }

    pub fn push(&mut self, at: u64, event: &Event) {
        let retired = event.kind() == EventKind::Retired;
        if !self.keep_retired && retired {
            return;
        }
        let n = self.numbered;
        if !retired {
            self.numbered += 1;
        }
        if self.open.len() == CHUNK {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK));
            self.sealed.push_back(Rc::new(full));
        }
        self.open.push(Stamped {
            at,
            n,
            event: event.clone(),
        });
        self.len += 1;
        if self.len > self.cap {
            self.drop_front();
        }
    }

    /// Drops the oldest event: a whole chunk goes once all of it has.
    fn drop_front(&mut self) {
        self.skip += 1;
        self.len -= 1;
        self.dropped += 1;
        match self.sealed.front() {
            Some(c) if self.skip == c.len() => {
                self.sealed.pop_front();
                self.skip = 0;
            }
            Some(_) => {}
            None if self.skip == self.open.len() => {
                self.open.clear();
                self.skip = 0;
            }
            None => {}
        }
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Stamped> {
        let first = self.skip;
        let open_from = if self.sealed.is_empty() { first } else { 0 };
        self.sealed
            .iter()
            .enumerate()
            .flat_map(move |(i, c)| c[if i == 0 { first } else { 0 }..].iter())
            .chain(self.open[open_from..].iter())
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many events were ever pushed (kept or dropped).
    pub fn total(&self) -> u64 {
        self.dropped + self.len as u64
    }

    /// Events with an absolute index (0 = the first ever pushed) of at least
    /// `from`, with their indices.
    pub fn since(&self, from: u64) -> impl Iterator<Item = (u64, &Stamped)> {
        let skip = from.saturating_sub(self.dropped) as usize;
        let base = self.dropped;
        // Whole chunks before `skip` are passed over without visiting them.
        let mut chunks = 0;
        let mut passed = 0;
        let mut first = self.skip;
        for c in &self.sealed {
            let n = c.len() - first;
            if passed + n > skip {
                break;
            }
            passed += n;
            chunks += 1;
            first = 0;
        }
        let open_from = if chunks == self.sealed.len() {
            first
        } else {
            0
        };
        let lead = first;
        self.sealed
            .iter()
            .skip(chunks)
            .enumerate()
            .flat_map(move |(i, c)| c[if i == 0 { lead } else { 0 }..].iter())
            .chain(self.open[open_from..].iter())
            .skip(skip - passed)
            .enumerate()
            .map(move |(i, e)| (base + (skip + i) as u64, e))
    }

    /// How many events other than retired ranges were ever pushed.
    pub fn numbered(&self) -> u64 {
        self.numbered
    }

    /// The event numbered `n` (never a retired range), if the log still
    /// holds it.
    pub fn numbered_event(&self, n: u64) -> Option<&Stamped> {
        if n >= self.numbered {
            return None;
        }
        // Numbers grow with the log's order: a binary search over the
        // chunks would do, but a walk from the newest end is short for the
        // events a pane shows.
        self.iter()
            .rev()
            .take_while(|e| e.n >= n)
            .find(|e| e.n == n && e.event.kind() != EventKind::Retired)
    }

    /// How many old events fell off the front.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// A copy keeping only about the newest `keep` events (whole sealed
    /// chunks beyond them are left out, as if they had fallen off): what a
    /// checkpoint holds, so that checkpoints do not keep the whole history
    /// of events alive between them.
    pub fn trimmed(&self, keep: usize) -> EventLog {
        let mut t = self.clone();
        while let Some(front) = t.sealed.front() {
            let n = front.len() - t.skip;
            if t.len - n < keep {
                break;
            }
            t.sealed.pop_front();
            t.len -= n;
            t.dropped += n as u64;
            t.skip = 0;
        }
        t
    }

    /// Bytes of the sealed chunks it holds that `prev` does not hold too
    /// (clones share them): what a checkpoint adds to the one before. A
    /// trimmed log's chunks outlive the live log's, so they count against
    /// the checkpoints' cap like their pages.
    pub fn chunk_bytes_beyond(&self, prev: Option<&EventLog>) -> usize {
        let theirs: std::collections::HashSet<*const Vec<Stamped>> = prev
            .map(|p| p.sealed.iter().map(Rc::as_ptr).collect())
            .unwrap_or_default();
        self.sealed
            .iter()
            .filter(|c| !theirs.contains(&Rc::as_ptr(c)))
            .count()
            * CHUNK
            * std::mem::size_of::<Stamped>()
    }

    /// The distinct sealed chunks all of `logs` hold, in bytes, counted by
    /// address (for tests of the checkpoints' cap).
    pub fn held_bytes<'a>(logs: impl Iterator<Item = &'a EventLog>) -> usize {
        let mut all = std::collections::HashSet::new();
        for l in logs {
            all.extend(l.sealed.iter().map(Rc::as_ptr));
        }
        all.len() * CHUNK * std::mem::size_of::<Stamped>()
    }

    /// Bytes this log holds of its own: the open chunk and the pointers to
    /// the sealed ones, which a clone shares (for the checkpoints' memory).
    pub fn unshared_bytes(&self) -> usize {
        self.open.capacity() * std::mem::size_of::<Stamped>()
            + self.sealed.len() * std::mem::size_of::<usize>()
    }
}

/// As the sequence of its events, oldest first (as a `Vec` of them would).
impl serde::Serialize for EventLog {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(pc: u64) -> Event {
        Event::Breakpoint { pc }
    }

    fn pcs<'a>(it: impl Iterator<Item = &'a Stamped>) -> Vec<u64> {
        it.map(|s| s.at).collect()
    }

    /// The chunked log against a plain bounded deque, for caps below,
    /// at and across chunk sizes, with every `since` offset.
    #[test]
    fn matches_a_bounded_deque() {
        for cap in [1, 2, 7, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5] {
            let mut log = EventLog::new(cap, true);
            let mut model: VecDeque<u64> = VecDeque::new();
            for i in 0..(4 * CHUNK as u64 + 37) {
                log.push(i, &ev(i));
                model.push_back(i);
                if model.len() > cap {
                    model.pop_front();
                }
                if i % 97 == 0 || i > 4 * CHUNK as u64 {
                    assert_eq!(
                        pcs(log.iter()),
                        Vec::from(model.clone()),
                        "cap {cap} at {i}"
                    );
                    assert_eq!(log.len(), model.len());
                    assert_eq!(log.total(), i + 1);
                    assert_eq!(log.dropped(), i + 1 - model.len() as u64);
                    assert_eq!(
                        log.iter().rev().map(|s| s.at).collect::<Vec<_>>(),
                        model.iter().rev().copied().collect::<Vec<_>>()
                    );
                }
            }
            let total = log.total();
            for from in [
                0,
                log.dropped(),
                log.dropped() + 1,
                total - 1,
                total,
                total + 3,
            ] {
                let got: Vec<(u64, u64)> = log.since(from).map(|(i, s)| (i, s.at)).collect();
                let want: Vec<(u64, u64)> = model
                    .iter()
                    .map(|&a| (a, a))
                    .filter(|&(i, _)| i >= from)
                    .collect();
                assert_eq!(got, want, "cap {cap} since {from}");
            }
        }
    }

    /// A clone is the log at that moment: what the original pushes after
    /// does not reach it.
    #[test]
    fn a_clone_keeps_its_moment() {
        let mut log = EventLog::new(3 * CHUNK, true);
        for i in 0..(2 * CHUNK as u64 + 10) {
            log.push(i, &ev(i));
        }
        let saved = log.clone();
        for i in 0..(5 * CHUNK as u64) {
            log.push(10_000 + i, &ev(i));
        }
        assert_eq!(saved.total(), 2 * CHUNK as u64 + 10);
        assert_eq!(
            pcs(saved.iter()),
            (0..(2 * CHUNK as u64 + 10)).collect::<Vec<_>>()
        );
    }

    /// A trimmed log is the newest events of the original, numbered as
    /// they were.
    #[test]
    fn a_trimmed_log_keeps_the_newest_with_their_numbers() {
        let mut log = EventLog::new(100_000, true);
        for i in 0..(10 * CHUNK as u64 + 17) {
            log.push(i, &ev(i));
        }
        let t = log.trimmed(2 * CHUNK);
        assert!(
            t.len() >= 2 * CHUNK && t.len() < 3 * CHUNK + 17,
            "{}",
            t.len()
        );
        assert_eq!(t.total(), log.total());
        let want: Vec<(u64, u64)> = log.since(t.dropped()).map(|(i, e)| (i, e.at)).collect();
        let got: Vec<(u64, u64)> = t.since(0).map(|(i, e)| (i, e.at)).collect();
        assert_eq!(got, want);
    }

    /// What a kept event costs: the log holds up to a million of them
    /// (`run --events`), the TUI 200,000 per variant. The largest variant
    /// is `TrapEnter`: four addresses and two privileges, 34 bytes, 40 with
    /// the tag and alignment; with the stamp's two counts, 56. A fault's
    /// strings are boxed (before, 80 and 96 bytes).
    #[test]
    fn an_event_costs_its_largest_variant() {
        assert!(
            std::mem::size_of::<Event>() <= 40,
            "{}",
            std::mem::size_of::<Event>()
        );
        assert!(std::mem::size_of::<Stamped>() <= 56);
    }

    #[test]
    fn retired_events_are_left_out_when_asked() {
        let mut log = EventLog::new(10, false);
        log.push(
            0,
            &Event::Retired {
                pc: 0,
                count: 1,
                priv_: crate::trace::Priv::M,
            },
        );
        log.push(1, &ev(4));
        assert_eq!(pcs(log.iter()), vec![1]);
    }
}

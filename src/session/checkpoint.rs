//! Time travel at any depth: a variant's checkpoints, taken as
//! its machine runs forward, and going to any instruction count by
//! restoring the nearest one at or before it and re-executing the rest.
//!
//! Checkpoints are taken every `every` instructions (more often near where
//! the user goes back to: a re-execution leaves a denser trail behind it),
//! and held within a memory cap: past it, the one whose removal leaves the
//! smallest gap, weighted by its distance from the position in use, goes.
//! So the re-execution distance stays short near the position on screen and
//! grows slowly with distance from it.

use crate::machine::checkpoint::{Checkpoint, PAGE};
use crate::machine::{Machine, Outcome};

use super::SessionError;
pub use super::stats::MACHINE_HISTORY;
use super::stats::Stats;
/// The TUI's history, all variants together, unless `--history-mib` says
/// otherwise: two variants' `MACHINE_HISTORY`, so the scenarios of two
/// variants keep what one machine held before the history was shared.
pub const DEFAULT_HISTORY_MIB: usize = 320;
/// The memory the checkpoints of one machine may hold by default.
pub const DEFAULT_CAP: usize = MACHINE_HISTORY - MACHINE_HISTORY / 5;
/// The most checkpoints of one variant, whatever their size.
const MAX_COUNT: usize = 4096;
/// The interval on a small guest: about 4 ms of instrumented execution
/// here (5 M instructions/s), so that a step back re-executes at most that.
const BASE_EVERY: u64 = 20_000;
/// RAM a checkpoint compares per `BASE_EVERY` instructions when it must
/// read all of it (writes not tracked: machine/dirty.rs): a larger guest's
/// checkpoints are then spaced out in proportion (128 MiB: every 320,000),
/// so that comparing its RAM stays a bounded share of the run.
const RAM_PER_BASE: u64 = 8 << 20;
/// The finest interval a re-execution leaves behind it (on a small guest).
const FINE_EVERY: u64 = 4_096;

pub struct Checkpoints {
    list: Vec<Checkpoint<Stats>>,
    /// Instructions between checkpoints taken running forward.
    pub every: u64,
    /// `every` when a checkpoint reads all of RAM.
    whole_every: u64,
    /// The cap on what the checkpoints beyond the first hold, and the RAM
    /// the first holds besides.
    cap: usize,
    ram: usize,
    /// Checkpoints dropped to stay within the cap.
    pub thinned: u64,
    /// What the last `go_to` did.
    pub last: Travel,
    /// Where the user is: thinning keeps checkpoints dense around it.
    focus: u64,
    /// Checkpoints taken and restored, for the bench and the status line.
    pub taken: u64,
    pub restored: u64,
}

/// What a jump did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Travel {
    /// The checkpoint restored (its instruction count), if one was.
    pub from: Option<u64>,
    /// Instructions re-executed.
    pub ran: u64,
}

impl Checkpoints {
    /// A store for `m`, holding its state now (power-on, or a snapshot's
    /// resume point) as the first checkpoint.
    pub fn new(m: &mut Machine<Stats>, cap: usize) -> Result<Checkpoints, SessionError> {
        m.track_writes().map_err(SessionError::Checkpoint)?;
        let ram = m.ram_bytes();
        let whole_every = (BASE_EVERY * ram.div_ceil(RAM_PER_BASE).max(1)).min(100 * BASE_EVERY);
        let mut c = Checkpoints {
            list: Vec::new(),
            every: BASE_EVERY,
            whole_every,
            // The first checkpoint holds all of RAM once; the cap is for
            // what the others add.
            cap,
            ram: ram as usize,
            thinned: 0,
            last: Travel::default(),
            focus: m.executed(),
            taken: 0,
            restored: 0,
        };
        c.take(m)?;
        Ok(c)
    }

    /// A store for `m` within the checkpoints' share of its history
    /// (`Stats::set_history`).
    pub fn for_machine(m: &mut Machine<Stats>) -> Result<Checkpoints, SessionError> {
        let cap = m.observer().checkpoint_cap();
        Checkpoints::new(m, cap)
    }

    /// A new cap; past it checkpoints are dropped now, as `thin` chooses.
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
        self.thin();
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The instruction counts checkpoints are held at.
    pub fn positions(&self) -> Vec<u64> {
        self.list.iter().map(|c| c.executed).collect()
    }

    /// Bytes the checkpoints hold (pages, block-stream and event-log chunks shared
    /// between neighbours counted once; shared further apart, rarely, more
    /// than once).
    pub fn bytes(&self) -> usize {
        let mut total = 0;
        for (i, c) in self.list.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| &self.list[p]);
            let (obs, prev_obs) = (c.observer(), prev.map(|p| p.observer()));
            total += c.bytes
                + c.mem().unshared_pages(prev.map(|p| p.mem())) * PAGE
                + obs
                    .stream()
                    .chunk_bytes_beyond(prev_obs.map(|p| p.stream()))
                + obs.log().chunk_bytes_beyond(prev_obs.map(|p| p.log()));
        }
        total
    }

    /// The block-stream chunks the checkpoints keep alive, in bytes,
    /// counted by address (for tests of the cap).
    pub fn stream_held_bytes(&self) -> usize {
        super::stream::StreamRun::held_bytes(self.list.iter().map(|c| c.observer().stream()))
    }

    /// The event-log chunks the checkpoints keep alive, in bytes, counted
    /// by address (for tests of the cap).
    pub fn log_held_bytes(&self) -> usize {
        crate::trace::EventLog::held_bytes(self.list.iter().map(|c| c.observer().log()))
    }

    /// The last checkpoint whose observer state satisfies `pred`, where
    /// the predicate holds from the start up to some point (its count).
    pub fn last_where(&self, pred: impl Fn(&super::stats::StatsSaved) -> bool) -> Option<u64> {
        let i = self.list.partition_point(|c| pred(c.observer()));
        i.checked_sub(1).map(|i| self.list[i].executed)
    }

    /// Whether `t` re-executed further than checkpoints are taken apart
    /// because checkpoints between were dropped to stay within the cap.
    pub fn thinned_at(&self, t: &Travel) -> bool {
        self.thinned > 0 && t.from.is_some() && t.ran > self.every
    }

    /// The furthest checkpoint.
    pub fn last(&self) -> Option<u64> {
        self.list.last().map(|c| c.executed)
    }

    /// The index of the last checkpoint at or before `n`.
    fn at_or_before(&self, n: u64) -> Option<usize> {
        self.list
            .partition_point(|c| c.executed <= n)
            .checked_sub(1)
    }

    /// Takes a checkpoint of `m` now, unless one is held at this count.
    pub fn take(&mut self, m: &mut Machine<Stats>) -> Result<(), SessionError> {
        let n = m.executed();
        let i = self.list.partition_point(|c| c.executed < n);
        if self.list.get(i).is_some_and(|c| c.executed == n) {
            return Ok(());
        }
        let c = m.checkpoint().map_err(SessionError::Checkpoint)?;
        // The first reads all of RAM; a later one does only when writes
        // cannot be tracked, and then they are spaced out.
        if m.image_whole() && !self.list.is_empty() {
            self.every = self.every.max(self.whole_every);
        }
        self.list.insert(i, c);
        self.taken += 1;
        self.thin();
        Ok(())
    }

    /// After `m` moved forward: a checkpoint if the last one is `every` back.
    pub fn note(&mut self, m: &mut Machine<Stats>) -> Result<(), SessionError> {
        let n = m.executed();
        self.focus = n;
        let last = self.at_or_before(n).map_or(0, |i| self.list[i].executed);
        if n >= last + self.every {
            self.take(m)?;
        }
        Ok(())
    }

    /// Where the next checkpoint of a forward run from `n` to `target`
    /// goes: `every` apart, and on a fine trail `fine` apart over its last
    /// eight fine intervals (where the next step back lands) on a small
    /// guest.
    fn next_stop(&self, n: u64, target: u64, fine: bool) -> u64 {
        // Only where a checkpoint costs little against re-executing: on a
        // large RAM (a snapshot) comparing it takes longer than running the
        // fine interval again.
        let fine = fine && self.every <= BASE_EVERY;
        let step = if fine && target.saturating_sub(n) <= 8 * FINE_EVERY {
            FINE_EVERY
        } else {
            self.every
        };
        let last = self.at_or_before(n).map_or(0, |i| self.list[i].executed);
        // Never a checkpoint per instruction when the last is far back.
        if last + step > n {
            last + step
        } else {
            n + step
        }
    }

    /// Runs `m` forward to `target`, taking checkpoints on the way; `run`
    /// moves it to a count (`session::run_to`, or the TUI's in pieces).
    /// `fine`: the trail is dense (a re-execution that a step back may
    /// repeat). Returns how it stopped.
    pub fn run_to(
        &mut self,
        m: &mut Machine<Stats>,
        target: u64,
        fine: bool,
        run: &mut dyn FnMut(&mut Machine<Stats>, u64) -> Outcome,
    ) -> Result<Outcome, SessionError> {
        let mut o = Outcome::Stepped;
        while m.executed() < target {
            let stop = self.next_stop(m.executed(), target, fine).min(target);
            o = run(m, stop);
            if o != Outcome::Stepped {
                break;
            }
            if m.executed() < target {
                self.take(m)?;
            }
        }
        self.focus = m.executed();
        Ok(o)
    }

    /// Puts `m` at exactly `target` instructions: on from where it is when
    /// that is nearest, else from the last checkpoint at or before it.
    pub fn go_to(
        &mut self,
        m: &mut Machine<Stats>,
        target: u64,
        run: &mut dyn FnMut(&mut Machine<Stats>, u64) -> Outcome,
    ) -> Result<(Outcome, Travel), SessionError> {
        self.focus = target;
        let now = m.executed();
        let cp = self.at_or_before(target);
        let mut travel = Travel::default();
        let forward_from_here = now <= target && cp.is_none_or(|i| self.list[i].executed <= now);
        if !forward_from_here {
            let i = cp.ok_or(SessionError::NoCheckpoint { target })?;
            m.restore(&self.list[i]).map_err(SessionError::Checkpoint)?;
            self.restored += 1;
            travel.from = Some(self.list[i].executed);
        }
        let start = m.executed();
        // A re-execution leaves a fine trail: the next step back is short.
        let o = self.run_to(m, target, travel.from.is_some(), run)?;
        travel.ran = m.executed() - start;
        self.last = travel;
        Ok((o, travel))
    }

    /// Drops checkpoints until the store is within its cap: each time the
    /// one (never the first) whose removal leaves the smallest gap, the gap
    /// weighted by distance from the focus.
    fn thin(&mut self) {
        let cap = self.cap.saturating_add(self.ram);
        let mut bytes = self.bytes();
        while (bytes > cap || self.list.len() > MAX_COUNT) && self.list.len() > 2 {
            let focus = self.focus;
            let weight = |i: usize| -> f64 {
                let c = &self.list[i];
                // The newest has no next one yet: its gap runs on by `every`.
                let next = self
                    .list
                    .get(i + 1)
                    .map_or(c.executed.saturating_add(self.every), |n| n.executed);
                let gap = next.saturating_sub(self.list[i - 1].executed);
                let d = c.executed.abs_diff(focus) as f64;
                gap as f64 / (1.0 + d / self.every as f64)
            };
            let victim = (1..self.list.len())
                .min_by(|&a, &b| weight(a).total_cmp(&weight(b)))
                .unwrap_or(1);
            self.list.remove(victim);
            self.thinned += 1;
            bytes = self.bytes();
        }
    }
}

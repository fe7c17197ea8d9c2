//! LR/SC and AMOs (unprivileged spec chapter 8, "A" extension): the
//! reservation a hart holds and why each SC succeeds or fails, and the
//! checker for constrained LR/SC sequences (§8.3).

pub mod checker;

use serde::Serialize;

/// A reservation set by an LR (unpriv spec §8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reservation {
    pub addr: u64,
    pub size: u8,
    /// The LR that took it.
    pub pc: u64,
}

pub use crate::trace::ScOutcome;

/// What the hart's reservation went through since the last LR.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    pub current: Option<Reservation>,
    /// Why the last reservation went away, if it did.
    pub lost: Option<ScOutcome>,
    /// Consecutive failures of each SC (by pc).
    pub failures: std::collections::HashMap<u64, u32>,
    /// Every how many LRs the second hart stores to the reserved address (0: never).
    pub remote_every: u64,
    lrs: u64,
    /// The address of the latest LR: an SC to it belongs to that LR's loop.
    last_lr: Option<u64>,
    pub successes: u64,
    pub fails: u64,
    /// The longest run of failures of one SC retrying its own LR's loop
    /// (what a livelock is counted in).
    pub max_retries: u32,
    /// Consecutive failures of each SC (by pc), paired with an LR or not.
    fail_runs: std::collections::HashMap<u64, u32>,
    /// The longest run of failures of one SC, paired with an LR or not
    /// (the exit path's dummy `sc` fails every time it runs).
    pub max_fail_run: u32,
    /// SCs that failed holding no reservation at all.
    pub unreserved: u64,
}

impl Tracker {
    /// An LR at `pc` reserved `addr`. Returns the address the second hart
    /// stores to right after, if it is its turn.
    pub fn lr(&mut self, pc: u64, addr: u64, size: u8) -> Option<u64> {
        self.current = Some(Reservation { addr, size, pc });
        self.lost = None;
        self.last_lr = Some(addr);
        self.lrs += 1;
        if self.remote_every > 0 && self.lrs.is_multiple_of(self.remote_every) {
            self.current = None;
            self.lost = Some(ScOutcome::RemoteStore { addr });
            return Some(addr);
        }
        None
    }

    /// An SC at `pc` to `addr`: its outcome, and how many times in a row
    /// this SC has failed its own LR's loop. Any SC ends the reservation
    /// (unpriv spec §8.2: "regardless of success or failure"). An SC that
    /// is not paired with the latest LR (like the dummy `sc` in
    /// ret_from_exception) fails without being a retry.
    ///
    /// Only an SC that held a reservation used it up: one that held none
    /// leaves the reason the last one went away (or that none was ever
    /// taken) for the next SC to report.
    pub fn sc(&mut self, pc: u64, addr: u64, size: u8) -> (ScOutcome, u32) {
        let held = self.current.take();
        let out = match (held, &self.lost) {
            (Some(r), _) if r.addr == addr && r.size == size => ScOutcome::Success,
            (Some(r), _) => ScOutcome::OtherAddress { reserved: r.addr },
            (None, Some(why)) => why.clone(),
            (None, None) => ScOutcome::NoReservation,
        };
        if held.is_some() {
            self.lost = Some(ScOutcome::ClearedBySc { pc });
        }
        let paired = self.last_lr == Some(addr);
        let n = self.failures.entry(pc).or_default();
        let run = self.fail_runs.entry(pc).or_default();
        if out.ok() {
            *n = 0;
            *run = 0;
            self.successes += 1;
        } else {
            self.fails += 1;
            if held.is_none() {
                self.unreserved += 1;
            }
            *run += 1;
            self.max_fail_run = self.max_fail_run.max(*run);
            if paired {
                *n += 1;
                self.max_retries = self.max_retries.max(*n);
            }
        }
        (out, *n)
    }

    /// How many LRs ran.
    pub fn lrs(&self) -> u64 {
        self.lrs
    }

    /// A trap or xRET that drops the reservation.
    pub fn clear(&mut self, pc: u64) {
        if self.current.take().is_some() {
            self.lost = Some(ScOutcome::ClearedByTrap { pc });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sc_succeeds_only_on_the_reserved_address_and_only_once() {
        let mut t = Tracker::default();
        t.lr(0x10, 0x1000, 8);
        assert_eq!(t.sc(0x14, 0x1000, 8).0, ScOutcome::Success);
        // The reservation is gone after any SC (§8.2).
        assert_eq!(t.sc(0x14, 0x1000, 8).0, ScOutcome::ClearedBySc { pc: 0x14 });
        t.lr(0x10, 0x1000, 8);
        assert_eq!(
            t.sc(0x14, 0x2000, 8).0,
            ScOutcome::OtherAddress { reserved: 0x1000 }
        );
        assert_eq!(
            Tracker::default().sc(0x14, 0x1000, 8).0,
            ScOutcome::NoReservation
        );
    }

    #[test]
    fn a_dummy_sc_in_between_breaks_the_reservation() {
        let mut t = Tracker::default();
        t.lr(0x10, 0x1000, 4);
        t.sc(0x900, 0x5000, 8); // ret_from_exception's sc to its own slot
        let (o, n) = t.sc(0x14, 0x1000, 4);
        assert_eq!(o, ScOutcome::ClearedBySc { pc: 0x900 });
        assert_eq!(n, 1);
        // The dummy sc itself is no loop's retry: it is not paired with the LR.
        assert_eq!(t.failures.get(&0x900).copied().unwrap_or(0), 0);
    }

    /// Defect: with no LR ever run (ras-trap-entry's exit path), the dummy
    /// sc's second run said "the sc at <itself> used up the reservation",
    /// and the longest run of failures read 0 after 110 failures.
    #[test]
    fn an_sc_with_no_reservation_says_none_was_taken_and_uses_nothing_up() {
        let mut t = Tracker::default();
        for k in 1..=3u32 {
            let (o, n) = t.sc(0x900, 0x5000, 8);
            assert_eq!(o, ScOutcome::NoReservation, "run {k}");
            assert_eq!(n, 0, "no LR: no retry of a loop");
            assert_eq!(t.max_fail_run, k);
        }
        assert_eq!(
            (t.fails, t.unreserved, t.lrs(), t.max_retries),
            (3, 3, 0, 0)
        );
        assert_eq!(
            ScOutcome::NoReservation.to_string(),
            "no reservation was ever taken (no LR has run)"
        );
        // After a real reservation is used up, an SC holding none reports
        // the SC that used it, not itself.
        t.lr(0x10, 0x1000, 8);
        assert!(t.sc(0x14, 0x1000, 8).0.ok());
        assert_eq!(t.max_fail_run, 3, "a success ends no other SC's run");
        assert_eq!(
            t.sc(0x900, 0x5000, 8).0,
            ScOutcome::ClearedBySc { pc: 0x14 }
        );
        assert_eq!(
            t.sc(0x900, 0x5000, 8).0,
            ScOutcome::ClearedBySc { pc: 0x14 }
        );
        assert_eq!(t.max_fail_run, 5);
    }

    #[test]
    fn the_second_hart_breaks_every_nth_reservation_and_retries_are_counted() {
        let mut t = Tracker {
            remote_every: 2,
            ..Tracker::default()
        };
        assert_eq!(t.lr(0x10, 0x1000, 4), None);
        assert!(t.sc(0x14, 0x1000, 4).0.ok());
        assert_eq!(t.lr(0x10, 0x1000, 4), Some(0x1000));
        assert_eq!(
            t.sc(0x14, 0x1000, 4),
            (ScOutcome::RemoteStore { addr: 0x1000 }, 1)
        );
        t.lr(0x10, 0x1000, 4);
        assert_eq!(t.sc(0x14, 0x1000, 4), (ScOutcome::Success, 0));
        assert_eq!(t.max_retries, 1);
    }
}

//! The out-of-order window (C910, P8700); ARCHITECTURE.md, "How a retired
//! range is accounted".
//!
//! Instructions dispatch in order, `issue_width` per cycle, into a
//! `window`-entry reorder buffer; each executes one cycle after dispatch,
//! when its sources are ready and in the first cycle from then on a pipe of
//! its class (`[issue]`, one instruction per pipe per cycle) is free, even
//! ahead of an older instruction still waiting, whichever is latest, and
//! completes its latency later; they retire in order, `commit_width` per
//! cycle. A serialising instruction (per core: CSR accesses, fences, xRET,
//! AMOs) dispatches only when every older instruction has retired, and the
//! instructions after one that flushes are refetched: they dispatch no
//! earlier than its refetch cost (`csr_flush`, `fence_i`, `sfence_vma`)
//! after it retires. A mispredicted control transfer lets the correct path
//! dispatch `mispredict_*` cycles after it could have dispatched, so a
//! redirect overlaps the older work still in the window.
//!
//! The cost of an instruction is how far it moves the retire point, split
//! into retire bandwidth (`Issue`), latency the window did not hide
//! (`DataStalls`) and the wait a redirect, a drain or a full window imposed
//! on its dispatch (the category of whatever set that floor).

use std::collections::VecDeque;

use super::class::{Kind, Static};
use super::model::{Cat, MILLI};
use super::params::Params;

#[derive(Clone, Debug)]
pub struct Window {
    /// Dispatch: the cycle of the last dispatch and the slots used in it.
    disp: u64,
    dused: u32,
    /// Retire: the same.
    commit: u64,
    cused: u32,
    /// The cycle each register's value is ready for a consumer to execute.
    ready: [u64; 64],
    /// Retire cycles of the instructions in the window, oldest first.
    rob: VecDeque<u64>,
    /// The next instruction dispatches no earlier than this, for this reason.
    floor: u64,
    floor_cat: Cat,
    div_free: u64,
    /// Execution cycles each pipe is busy in, from `base` on (bit n: cycle
    /// base + n): a ready instruction takes the first free cycle, before an
    /// older one still waiting for its operands if need be.
    busy: [u128; 8],
    base: u64,
}

/// How many cycles ahead the pipes' bookings are kept.
const SPAN: u64 = 128;

impl Default for Window {
    fn default() -> Window {
        Window {
            disp: 0,
            dused: u32::MAX,
            commit: 0,
            cused: u32::MAX,
            ready: [0; 64],
            rob: VecDeque::new(),
            floor: 0,
            floor_cat: Cat::Serialisation,
            div_free: 0,
            busy: [0; 8],
            base: 0,
        }
    }
}

/// What the instruction does to the window beyond executing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effects {
    /// It waits for every older instruction to retire, then this many
    /// cycles more before it dispatches.
    pub drain: Option<u32>,
    /// The instructions after it are refetched: they dispatch this many
    /// cycles after it retires (and the category the wait is charged to).
    pub refetch: Option<(Cat, u32)>,
    /// Cycles it adds to its own execution (a fence's wait).
    pub extra: u32,
}

impl Window {
    /// Dispatches, executes and retires one instruction; `sink` gets the
    /// parts of its cost (milli). Returns the cycles it executed and
    /// retired in.
    pub fn step(
        &mut self,
        p: &Params,
        s: &Static,
        fx: Effects,
        mut sink: impl FnMut(Cat, u64, bool),
    ) -> (u64, u64) {
        let slot = if self.dused >= p.width as u32 {
            self.disp + 1
        } else {
            self.disp
        };
        let full = if self.rob.len() >= p.window {
            self.rob.front().map_or(0, |c| c + 1)
        } else {
            0
        };
        let drained = fx.drain.map_or(0, |c| self.commit + u64::from(c));
        let d = slot.max(full).max(drained).max(self.floor);
        let mut ops = 0;
        for r in s.src {
            if r != 0 {
                ops = ops.max(self.ready[r as usize]);
            }
        }
        if s.kind == Kind::Div {
            ops = ops.max(self.div_free);
        }
        let lat = u64::from(s.lat.max(1) + fx.extra);
        // The pipe of its class with the earliest free cycle from when it
        // could execute (one instruction per pipe per cycle: the C910's one
        // load and one store pipe).
        self.slide(d);
        let ready_at = (d + 1).max(ops);
        let (pipe, port) = (0..p.pipes)
            .filter(|&k| s.pipes & (1 << k) != 0)
            .map(|k| (Some(k), self.first_free(k, ready_at)))
            .min_by_key(|&(_, f)| f)
            .unwrap_or((None, 0));
        let exec = (d + 1).max(ops).max(port);
        let cslot = if self.cused >= p.commit_width as u32 {
            self.commit + 1
        } else {
            self.commit
        };
        let retire = (exec + lat).max(cslot);
        // The same instruction with nothing holding its dispatch back and
        // its pipe free (`base`), then with its real dispatch (`dispatched`):
        // the rest is the wait for its pipe.
        let base = ((slot + 1).max(ops) + lat).max(cslot).min(retire);
        let dispatched = ((d + 1).max(ops) + lat).max(cslot).min(retire);
        let held = dispatched - base;
        // A floor's wait was counted as an event where it was set.
        let (held_cat, own) = if held == 0 {
            (Cat::Issue, true)
        } else if d == self.floor && self.floor > slot.max(full).max(drained) {
            (self.floor_cat, false)
        } else if d == drained && drained > slot.max(full) {
            (Cat::Serialisation, true)
        } else {
            (Cat::StructuralStalls, true)
        };
        let parts = [
            (Cat::Issue, cslot - self.commit, true),
            (Cat::DataStalls, base - cslot, true),
            (held_cat, held, own),
            (Cat::StructuralStalls, retire - dispatched, true),
        ];
        for (cat, cycles, event) in parts {
            if cycles > 0 {
                sink(cat, cycles * MILLI, event);
            }
        }
        if let Some(k) = pipe {
            self.book(k, exec);
        }
        if s.rd != 0 {
            self.ready[s.rd as usize] = exec + lat;
        }
        if s.kind == Kind::Div {
            self.div_free = exec + u64::from(p.div_busy.max(1));
        }
        if d > self.disp || self.dused == u32::MAX {
            self.disp = d;
            self.dused = 1;
        } else {
            self.dused += 1;
        }
        if retire > self.commit || self.cused == u32::MAX {
            self.commit = retire;
            self.cused = 1;
        } else {
            self.cused += 1;
        }
        self.rob.push_back(retire);
        while self.rob.len() > p.window.max(1) {
            self.rob.pop_front();
        }
        if let Some((cat, cycles)) = fx.refetch {
            self.hold(retire + u64::from(cycles), cat);
        }
        (exec, retire)
    }

    /// The next instruction dispatches no earlier than `at`, because of `cat`.
    pub fn hold(&mut self, at: u64, cat: Cat) {
        if at > self.floor {
            self.floor = at;
            self.floor_cat = cat;
        }
    }

    /// Forgets bookings before `cycle` (nothing executes before the cycle
    /// after its dispatch, and dispatch is in order).
    fn slide(&mut self, cycle: u64) {
        if cycle <= self.base {
            return;
        }
        let by = cycle - self.base;
        for b in self.busy.iter_mut() {
            *b = if by >= SPAN { 0 } else { *b >> by };
        }
        self.base = cycle;
    }

    /// The first cycle at or after `t` pipe `k` is free in (beyond the kept
    /// span, `t` itself).
    fn first_free(&self, k: usize, t: u64) -> u64 {
        let c = t.max(self.base);
        let off = c - self.base;
        if off >= SPAN {
            return c;
        }
        // The booked cycles from `c` on, one after another.
        c + u64::from((self.busy[k] >> off).trailing_ones())
    }

    fn book(&mut self, k: usize, cycle: u64) {
        if cycle >= self.base && cycle - self.base < SPAN {
            self.busy[k] |= 1u128 << (cycle - self.base);
        }
    }

    /// A correctly predicted taken transfer: the next fetch group comes
    /// `bubble` cycles late.
    pub fn taken_bubble(&mut self, bubble: u32) {
        self.hold(self.disp + 1 + u64::from(bubble), Cat::TakenBubbles);
    }

    /// `cycles` more before anything else retires; the window is empty and
    /// the front end refills (a trap, an xRET, a `wfi`).
    pub fn redirect(&mut self, cycles: u64) {
        self.commit += cycles;
        self.cused = u32::MAX;
        self.quiesce();
        // The first instruction after it dispatches in the cycle the
        // redirect ends.
        self.disp = self.commit.saturating_sub(1);
    }

    /// Whether `self` and `o` schedule every later instruction alike, each
    /// counted from its last dispatch cycle (`disp`). A later instruction
    /// dispatches no earlier than that and executes at least a cycle
    /// after, so a register or the divider free by then is free for any
    /// reader, a pipe's bookings before then are never asked about, and a
    /// floor at or below it holds nothing back (its reason unread).
    pub fn congruent(&self, o: &Window) -> bool {
        let rel = |t: u64, now: u64| i128::from(t) - i128::from(now);
        let free = |t: u64, now: u64| t.max(now + 1) - now;
        let (a, b) = (self.disp, o.disp);
        let bookings = |w: &Window, k: usize| {
            // Booked cycles after the dispatch cycle, counted from it.
            let skip = (w.disp + 1).saturating_sub(w.base).min(SPAN);
            let bits = if skip >= SPAN { 0 } else { w.busy[k] >> skip };
            (bits, rel(w.base + skip, w.disp))
        };
        self.dused == o.dused
            && self.cused == o.cused
            && rel(self.commit, a) == rel(o.commit, b)
            && rel(self.base, a) == rel(o.base, b)
            && free(self.div_free, a) == free(o.div_free, b)
            && self.rob.len() == o.rob.len()
            && self
                .rob
                .iter()
                .zip(&o.rob)
                .all(|(x, y)| rel(*x, a) == rel(*y, b))
            && self.floor.max(a) - a == o.floor.max(b) - b
            && (self.floor <= a || self.floor_cat == o.floor_cat)
            && (0..64).all(|r| free(self.ready[r], a) == free(o.ready[r], b))
            && (0..8).all(|k| bookings(self, k) == bookings(o, k))
    }

    /// The same state `d` cycles later.
    pub fn shift(&mut self, d: u64) {
        self.disp += d;
        self.commit += d;
        for r in self.ready.iter_mut() {
            *r += d;
        }
        for r in self.rob.iter_mut() {
            *r += d;
        }
        self.floor += d;
        self.div_free += d;
        self.base += d;
    }

    /// The cycle of the last dispatch: what `congruent` counts from.
    pub fn now(&self) -> u64 {
        self.disp
    }

    /// Everything in flight has retired.
    pub fn quiesce(&mut self) {
        let now = self.commit;
        for r in self.ready.iter_mut() {
            *r = (*r).min(now);
        }
        self.div_free = self.div_free.min(now);
        self.busy = [0; 8];
        self.base = now;
        self.rob.clear();
        self.disp = self.disp.max(now);
        self.dused = u32::MAX;
        self.floor = self.floor.min(now);
    }
}

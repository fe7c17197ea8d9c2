//! The state trapscope keeps beside unicorn's: what the emulator lacks
//! (the VS field, model counters), the block being executed, and stop requests.

use std::rc::Rc;

use crate::machine::code::block::Block;
use crate::machine::code::pchash::PcSet;
use crate::machine::observe::Observer;
use crate::trace::{Event, EventKind, GuestFault, Priv};

/// Why `run`/`step` returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The guest wrote `(code << 1) | 1` to `tohost`.
    Exited(u64),
    /// A single step completed.
    Stepped,
    /// Execution reached a run-until address (not executed yet).
    ReachedAddr(u64),
    /// An event of the requested kind happened.
    ReachedEvent(EventKind),
    /// The instruction budget for this call ran out.
    Budget,
    /// A user breakpoint (`ebreak` the run asked to stop at).
    Breakpoint(u64),
    Fault(GuestFault),
    /// The user asked the run to stop (Ctrl-C; `sigint::requested`).
    Interrupted,
    /// Right after an access to a watched range (`Machine::set_watches`).
    Watch(crate::machine::debug::state::WatchHit),
}

pub(super) struct Pending<D> {
    pub block: Rc<Block<D>>,
    /// Index of the first instruction not yet reported.
    pub from: usize,
    /// Instructions whose single results are NaN-boxed (fpflow.rs).
    pub boxed: usize,
    pub priv_: Priv,
}

/// The hart's state beside unicorn's: the observer, the privilege, the
/// count and the block being run, then one field per feature, each owned
/// by the sub-room that acts on it.
pub struct Hart<O: Observer> {
    pub(super) obs: O,
    pub(super) priv_: Priv,
    pub(super) executed: u64,
    pub(super) pending: Option<Pending<O::BlockData>>,
    /// Stops, limits and how the run ended.
    pub(super) run: RunControl,
    /// The counters and the clock the guest reads.
    pub(super) clock: ClockState,
    /// Traps and CSRs (`traps/`).
    pub(super) traps: crate::machine::traps::state::TrapState,
    /// Decoded blocks, intercepts and code the guest writes (`code/`).
    pub(super) code: crate::machine::code::state::CodeState<O::BlockData>,
    /// F/D, V and A as trapscope runs them (`ext/`).
    pub(super) ext: crate::machine::ext::state::ExtState,
    /// Devices and interrupts (`devices/`).
    pub(super) devices: crate::machine::devices::state::DeviceState,
    /// How guest memory is mapped (`memory/`).
    pub(super) memory: crate::machine::memory::state::MemoryState,
    /// The trigger, watchpoints and saved trap frames (`debug/`).
    pub(super) debug: crate::machine::debug::state::DebugState,
    /// RAM pages written since the machine's last image, when checkpoints
    /// track them (`checkpoint/dirty.rs`).
    pub(super) dirty: Option<crate::machine::checkpoint::dirty::Dirty>,
}

/// Stops, limits and how the run ended: what the run loop and the hooks
/// read and set between blocks.
pub(super) struct RunControl {
    pub stepping: bool,
    /// A stop to honour at the next block boundary.
    pub stop: Option<Outcome>,
    /// Why emulation stopped (set by hooks).
    pub outcome: Option<Outcome>,
    /// Stop before a block that would take `executed` past this.
    pub limit: u64,
    pub until_kinds: Vec<EventKind>,
    pub stop_addrs: PcSet<u64>,
    /// A stop address we are resuming from, to pass once.
    pub skip_once: Option<u64>,
    /// The stop address the stop hook passed once in the current block
    /// (the run's first instruction), so that an intercept hook on the same
    /// instruction, run after it, acts rather than stops.
    pub passed: Option<u64>,
    pub exit: Option<(u64, u64)>,
    /// Whether blocks are accounted (false: `Machine::new_raw`).
    pub account: bool,
    /// The run ends before the n-th execution of an address (`end.rs`).
    pub end_at: Option<EndAt>,
}

impl Default for RunControl {
    fn default() -> Self {
        RunControl {
            stepping: false,
            stop: None,
            outcome: None,
            limit: u64::MAX,
            until_kinds: Vec::new(),
            stop_addrs: PcSet::default(),
            skip_once: None,
            passed: None,
            exit: None,
            account: true,
            end_at: None,
        }
    }
}

/// The counters and clock as the guest reads them.
#[derive(Default)]
pub(super) struct ClockState {
    /// Offsets that guest writes to mcycle/minstret apply.
    pub cycle_offset: i128,
    /// mtime at the start: 0 from reset, a snapshot's mtime when resumed
    /// from one (`resume.rs`), so that time never goes back for its kernel.
    pub time_base: u64,
    pub instret_offset: i128,
    /// Reads of the clock (cycle, time, instret and their M names, the
    /// CLINT's mtime), and the pc of the first: what a run's result may
    /// owe to the model's clock rather than to the guest's state alone.
    pub clock_reads: (u64, Option<u64>),
    /// QEMU's instruction-counted clock instead of the model's
    /// (`Machine::count_time_as_qemu`).
    pub counted_clock: Option<CountedClock>,
}

impl<O: Observer> Hart<O> {
    pub(super) fn new(obs: O) -> Hart<O> {
        Hart {
            obs,
            priv_: Priv::M,
            executed: 0,
            pending: None,
            run: RunControl::default(),
            clock: ClockState::default(),
            traps: Default::default(),
            code: Default::default(),
            ext: Default::default(),
            devices: Default::default(),
            memory: Default::default(),
            debug: Default::default(),
            dirty: None,
        }
    }

    /// Records an event with the observer and checks run-until kinds.
    pub(super) fn emit(&mut self, ev: Event) {
        let kind = ev.kind();
        self.obs.event(self.executed, &ev);
        if self.run.stop.is_none() && self.run.until_kinds.contains(&kind) {
            self.run.stop = Some(Outcome::ReachedEvent(kind));
        }
    }

    /// The model's cycle counter as the guest sees it.
    pub(super) fn cycle_value(&self) -> u64 {
        let c = self.obs.cycles().unwrap_or(self.executed) as i128;
        (c + self.clock.cycle_offset) as u64
    }

    /// mtime (and the `time` CSR): `time_base` plus the model's ticks.
    pub(super) fn time_value(&self) -> u64 {
        if let Some(c) = &self.clock.counted_clock {
            return c.time(self.executed);
        }
        self.clock
            .time_base
            .wrapping_add(self.obs.time().unwrap_or_else(|| self.cycle_value()))
    }

    pub(super) fn instret_value(&self) -> u64 {
        (self.executed as i128 - self.traps.trapped as i128 + self.clock.instret_offset) as u64
    }
}

/// QEMU's clock under `-icount shift=0` (docs/decisions.md D14): one
/// nanosecond per instruction executed, `mtime` the nanoseconds over
/// `ns_per_tick` (100 at QEMU virt's 10 MHz). QEMU counts a translated
/// block's instructions as it enters the block, and a block that reads the
/// clock ends with the reading instruction, so the instruction sees itself
/// counted; an `ecall` counts too (it raises its exception after it is
/// counted), as in trapscope's `executed`.
#[derive(Clone, Copy, Debug)]
pub(super) struct CountedClock {
    /// QEMU's count (ns) at the resume point: its `minstret` there.
    pub base: u64,
    /// `executed` at the resume point.
    pub from: u64,
    pub ns_per_tick: u64,
}

impl CountedClock {
    /// QEMU's count (ns) as the next instruction, if it reads the clock,
    /// sees it: what QEMU's `cycle` and `instret` read, too.
    pub fn ns(&self, executed: u64) -> u64 {
        self.base
            .wrapping_add(executed.wrapping_sub(self.from))
            .wrapping_add(1)
    }

    /// `mtime` as the next instruction, if it reads the clock, sees it.
    pub fn time(&self, executed: u64) -> u64 {
        self.ns(executed) / self.ns_per_tick.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::CountedClock;

    /// Figures from QEMU 7.2 under `-icount shift=0` (Linux 6.12's `pipe`
    /// snapshot, stopped before its 100th marker): minstret 455166030 and
    /// the CLINT's mtime 4551660 = 455166030 / 100 at the same stop.
    #[test]
    fn the_counted_clock_starts_where_qemu_stopped() {
        let c = CountedClock {
            base: 455_166_030,
            from: 1000,
            ns_per_tick: 100,
        };
        // The first instruction after the stop, reading the clock, counts
        // itself: 455166031 ns, still tick 4551660.
        assert_eq!(c.ns(1000), 455_166_031);
        assert_eq!(c.time(1000), 4_551_660);
        // 69 instructions later the count reaches 455166100: the next tick.
        assert_eq!(c.time(1068), 4_551_660);
        assert_eq!(c.time(1069), 4_551_661);
    }
}

/// The address, how many executions end the run, how many were seen, and
/// the instruction count at the last one (a stop there and a resume from
/// it are one execution, not two), and the trapped-instruction count then.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct EndAt {
    pub addr: u64,
    pub hits: u64,
    pub seen: u64,
    pub last_pos: Option<u64>,
    pub trapped: u64,
}

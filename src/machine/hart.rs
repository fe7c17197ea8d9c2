//! The state trapscope keeps beside unicorn's: what the emulator lacks
//! (the VS field, model counters), the block being executed, and stop requests.

use std::collections::HashMap;
use std::rc::Rc;

use crate::isa::Insn;
use crate::machine::code::block::{Block, BlockCache};
use crate::machine::code::pchash::{PcMap, PcSet};
use crate::machine::observe::Observer;
use crate::trace::{Access, Event, EventKind, GuestFault, Priv};

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
    Watch(crate::machine::debug::watch::WatchHit),
}

pub(super) struct Pending<D> {
    pub block: Rc<Block<D>>,
    /// Index of the first instruction not yet reported.
    pub from: usize,
    /// Instructions whose single results are NaN-boxed (fpflow.rs).
    pub boxed: usize,
    pub priv_: Priv,
}

pub struct Hart<O: Observer> {
    pub(super) obs: O,
    pub(super) priv_: Priv,
    /// sstatus.VS, which unicorn's QEMU 5.0 does not have (docs/decisions.md D2).
    pub(super) vs: u8,
    pub(super) executed: u64,
    pub(super) pending: Option<Pending<O::BlockData>>,
    pub(super) blocks: BlockCache<O::BlockData>,
    pub(super) stepping: bool,
    /// A stop to honour at the next block boundary.
    pub(super) stop: Option<Outcome>,
    /// Why emulation stopped (set by hooks).
    pub(super) outcome: Option<Outcome>,
    /// Stop before a block that would take `executed` past this.
    pub(super) limit: u64,
    pub(super) until_kinds: Vec<EventKind>,
    pub(super) intercepts: PcMap<u64, Insn>,
    /// Where a block checks a 64-bit value it reads as a single (fpflow.rs).
    pub(super) fp_checks: crate::machine::code::pchash::PcSet<u64>,
    pub(super) stop_addrs: PcSet<u64>,
    /// A stop address we are resuming from, to pass once.
    pub(super) skip_once: Option<u64>,
    /// The stop address the stop hook passed once in the current block
    /// (the run's first instruction), so that an intercept hook on the same
    /// instruction, run after it, acts rather than stops.
    pub(super) passed: Option<u64>,
    /// Last value seen of each CSR, for the `old` of CSR-write events.
    pub(super) csr_shadow: PcMap<u16, u64>,
    /// `vec::described`'s disassemblies, by pc and encoding.
    pub(super) described: PcMap<(u64, u32), String>,
    /// Set by the memory-fault hook, read when unicorn returns its error.
    pub(super) mem_fault: Option<(Access, u64, u64)>,
    pub(super) exit: Option<(u64, u64)>,
    /// Offsets that guest writes to mcycle/minstret apply.
    pub(super) cycle_offset: i128,
    /// mtime at the start: 0 from reset, a snapshot's mtime when resumed
    /// from one (`resume.rs`), so that time never goes back for its kernel.
    pub(super) time_base: u64,
    pub(super) instret_offset: i128,
    /// Reads of the clock (cycle, time, instret and their M names, the
    /// CLINT's mtime), and the pc of the first: what a run's result may
    /// owe to the model's clock rather than to the guest's state alone.
    pub(super) clock_reads: (u64, Option<u64>),
    /// QEMU's instruction-counted clock instead of the model's
    /// (`Machine::count_time_as_qemu`).
    pub(super) counted_clock: Option<CountedClock>,
    pub(super) last_trap: Option<(u64, u64)>,
    /// Instructions that raised an exception: executed, but not retired
    /// (priv spec: they do not increment minstret).
    pub(super) trapped: u64,
    /// Whether blocks are accounted (false: `Machine::new_raw`).
    pub(super) account: bool,
    /// The software V unit, when the core has one.
    pub(super) vunit: Option<crate::vector::VUnit>,
    /// The LR/SC reservation and the outcome of every SC.
    pub(super) lrsc: crate::atomics::Tracker,
    /// The core traps AMOs to M-mode as illegal instructions.
    pub(super) amo_traps: bool,
    /// xRET drops the reservation (the priv spec allows it, §3.3.2).
    pub(super) xret_clears: bool,
    /// Stop after this many consecutive failures of one SC (0: never).
    pub(super) livelock_after: u32,
    /// Probed addresses, and the one whose instruction runs next unprobed.
    pub(super) probes: PcSet<u64>,
    pub(super) probe_resume: Option<u64>,
    /// `MachineConfig::strict_segments`.
    pub(super) strict_segments: bool,
    /// mstatus bits that unicorn's QEMU 5.0 lacks or places elsewhere and
    /// trapscope keeps itself (TSR, TW: `regs::status::SHADOWED`), merged
    /// into mstatus reads.
    pub(super) status_extra: u64,
    /// Trap-storm and spin detection (`fault.rs`).
    pub(super) faults: crate::machine::traps::fault::FaultState,
    /// Trap and code-write rates, for cutting storms off (`storm.rs`).
    pub(super) storms: crate::machine::traps::storm::Storms,
    /// Watched code and intercept hooks, for code the guest writes (`smc.rs`).
    pub(super) smc: crate::machine::code::smc::SmcState,
    /// The debug trigger (tselect/tdata1/tdata2).
    pub(super) trigger: crate::machine::debug::trigger::Trigger,
    /// sstatus.FS as last reported (fstate.rs: QEMU keeps the field; this
    /// only tells a change), and the pc of an F/D instruction trapscope ran
    /// that made it Dirty.
    pub(super) fs_seen: u8,
    pub(super) fs_by: Option<u64>,
    /// mie/mip/mideleg as trapscope keeps them (unicorn's stay zero).
    pub(super) irq: crate::machine::devices::irq::IrqState,
    /// The MMIO devices: CLINT, UART, test device, PLIC.
    pub(super) platform: crate::platform::Platform,
    /// The one-shot interrupt stop armed for the running block.
    pub(super) irq_stop: Option<u64>,
    /// What the run loop must do after the block hook stopped for an interrupt.
    pub(super) irq_request: Option<crate::machine::devices::interrupt::IrqRequest>,
    /// Addresses that have an interrupt-stop code hook, and its id.
    pub(super) irq_hooks: HashMap<u64, unicorn_engine::UcHookId>,
    /// A device write changed interrupt inputs; checks wait for a block end.
    pub(super) irq_defer: bool,
    /// The run ends before the n-th execution of an address (`end.rs`).
    pub(super) end_at: Option<crate::machine::end::EndAt>,
    /// Watchpoints (`watch.rs`).
    pub(super) watch: crate::machine::debug::watch::WatchState,
    /// Where the kernel saved its trap frames (`frames.rs`).
    pub(super) saves: crate::machine::debug::frames::Saves,
    /// RAM pages written since the machine's last image, when checkpoints
    /// track them (`dirty.rs`).
    pub(super) dirty: Option<crate::machine::checkpoint::dirty::Dirty>,
}

impl<O: Observer> Hart<O> {
    pub(super) fn new(obs: O) -> Hart<O> {
        Hart {
            obs,
            priv_: Priv::M,
            vs: 0,
            executed: 0,
            pending: None,
            blocks: BlockCache::default(),
            stepping: false,
            stop: None,
            outcome: None,
            limit: u64::MAX,
            until_kinds: Vec::new(),
            intercepts: PcMap::default(),
            fp_checks: Default::default(),
            stop_addrs: PcSet::default(),
            skip_once: None,
            passed: None,
            csr_shadow: PcMap::default(),
            described: PcMap::default(),
            mem_fault: None,
            exit: None,
            cycle_offset: 0,
            time_base: 0,
            instret_offset: 0,
            clock_reads: (0, None),
            counted_clock: None,
            last_trap: None,
            trapped: 0,
            account: true,
            vunit: None,
            lrsc: Default::default(),
            amo_traps: false,
            xret_clears: false,
            livelock_after: 10_000,
            probes: PcSet::default(),
            probe_resume: None,
            strict_segments: false,
            status_extra: 0,
            faults: Default::default(),
            storms: Default::default(),
            smc: Default::default(),
            trigger: Default::default(),
            fs_seen: 0,
            fs_by: None,
            irq: Default::default(),
            platform: Default::default(),
            irq_stop: None,
            irq_request: None,
            irq_hooks: HashMap::new(),
            irq_defer: false,
            end_at: None,
            watch: Default::default(),
            saves: Default::default(),
            dirty: None,
        }
    }

    /// Records an event with the observer and checks run-until kinds.
    pub(super) fn emit(&mut self, ev: Event) {
        let kind = ev.kind();
        self.obs.event(self.executed, &ev);
        if self.stop.is_none() && self.until_kinds.contains(&kind) {
            self.stop = Some(Outcome::ReachedEvent(kind));
        }
    }

    /// The model's cycle counter as the guest sees it.
    pub(super) fn cycle_value(&self) -> u64 {
        let c = self.obs.cycles().unwrap_or(self.executed) as i128;
        (c + self.cycle_offset) as u64
    }

    /// mtime (and the `time` CSR): `time_base` plus the model's ticks.
    pub(super) fn time_value(&self) -> u64 {
        if let Some(c) = &self.counted_clock {
            return c.time(self.executed);
        }
        self.time_base
            .wrapping_add(self.obs.time().unwrap_or_else(|| self.cycle_value()))
    }

    pub(super) fn instret_value(&self) -> u64 {
        (self.executed as i128 - self.trapped as i128 + self.instret_offset) as u64
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

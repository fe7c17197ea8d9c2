//! The machine as its users hold it: the unicorn instance with the hart
//! inside, and what the handle keeps beside it (the program, the hooks it
//! installed, RAM's last image). The type and its configuration only; what
//! it does is in `impl Machine` blocks across the machine's sub-rooms, each
//! next to the feature it serves.

use std::collections::HashMap;
use std::rc::Rc;

use unicorn_engine::Unicorn;
use unicorn_engine::unicorn_const::uc_error;

use crate::machine::error::{LoadError, Uc};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::program::Program;
use crate::trace::EventKind;

/// Where unicorn would stop on its own; the guest never gets there.
pub(in crate::machine) const NEVER: u64 = u64::MAX - 0xf;

/// How the machine is built: what the command line and scenarios may set.
#[derive(Clone, Copy, Debug)]
pub struct MachineConfig {
    /// Keep the ELF's segment permissions (text read-only, data not
    /// executable) and end the run on an access fault, instead of treating
    /// RAM as the platform does (docs/decisions.md D11) and delivering it.
    pub strict_segments: bool,
    /// The most guest memory (bytes) the loaded segments may take in all.
    pub mem_limit: u64,
}

impl MachineConfig {
    /// 4 GiB: far above any guest ELF or scenario, far below what would
    /// exhaust the host.
    pub const DEFAULT_MEM_LIMIT: u64 = 4 << 30;
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig {
            strict_segments: false,
            mem_limit: MachineConfig::DEFAULT_MEM_LIMIT,
        }
    }
}

/// What a run should stop at, besides the guest ending.
#[derive(Clone, Debug, Default)]
pub struct Until {
    /// At most this many more instructions (the budget).
    pub max_insns: Option<u64>,
    /// Stop before executing any of these addresses.
    pub addrs: Vec<u64>,
    /// Stop right after an event of one of these kinds.
    pub kinds: Vec<EventKind>,
}

pub struct Machine<O: Observer + 'static> {
    pub(in crate::machine) uc: Unicorn<'static, Hart<O>>,
    pub program: Rc<Program>,
    pub(in crate::machine) stop_hooks: HashMap<u64, unicorn_engine::UcHookId>,
    /// `ebreak` stops the run (a user breakpoint) instead of trapping the guest.
    pub ebreak_stops: bool,
    /// Whether the translated code was made for single-stepping.
    pub(in crate::machine) tb_single: Option<bool>,
    /// The code hook at the debug trigger's execute address (trigger.rs).
    pub(in crate::machine) trigger_hook: Option<(
        crate::machine::debug::state::HookAt,
        unicorn_engine::UcHookId,
    )>,
    /// The guest's RAM regions, `[start, end)` (`memory::map_segments`).
    pub(in crate::machine) ram: Vec<(u64, u64)>,
    /// RAM as it was at the last checkpoint taken or restored: pages a new
    /// checkpoint has not changed are shared with it (`checkpoint.rs`).
    pub(in crate::machine) image: Option<crate::machine::checkpoint::memimage::MemImage>,
    /// The last image read all of RAM (no tracked writes to go by).
    pub(in crate::machine) image_whole: bool,
    /// This machine among all built in the process: a checkpoint goes back
    /// only into the machine it was taken of (its observer's tables of
    /// lines and functions are numbered in the order that machine met them).
    pub(in crate::machine) serial: u64,
}

pub(in crate::machine) fn emu(e: uc_error) -> LoadError {
    LoadError::Emulator(Uc(e))
}

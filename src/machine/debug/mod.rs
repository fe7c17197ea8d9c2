//! Debugging the guest: the debug trigger, watchpoints on physical ranges,
//! and where the kernel saved each trap's registers.

pub(in crate::machine) mod frames;
pub(in crate::machine) mod trigger;
pub(in crate::machine) mod watch;

/// The debugger's state in the hart.
#[derive(Default)]
pub(in crate::machine) struct DebugState {
    /// The debug trigger (tselect/tdata1/tdata2).
    pub trigger: trigger::Trigger,
    /// Watchpoints (`watch.rs`).
    pub watch: watch::WatchState,
    /// Where the kernel saved its trap frames (`frames.rs`).
    pub saves: frames::Saves,
}

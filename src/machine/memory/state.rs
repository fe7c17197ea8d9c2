//! The memory sub-room's part of the hart's state. Types only.

/// How guest memory is mapped, as the hart needs it while running.
#[derive(Default)]
pub(in crate::machine) struct MemoryState {
    /// `MachineConfig::strict_segments`.
    pub strict_segments: bool,
}

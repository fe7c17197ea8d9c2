//! The devices sub-room's part of the hart's state: the interrupt CSRs,
//! the MMIO devices and what the run loop owes an interrupt stop. Types
//! only; what acts on them is in the sibling files.

/// The devices and the interrupt state trapscope keeps.
#[derive(Default)]
pub(in crate::machine) struct DeviceState {
    /// mie/mip/mideleg as trapscope keeps them (unicorn's stay zero).
    pub irq: crate::machine::devices::irq::IrqState,
    /// The MMIO devices: CLINT, UART, test device, PLIC.
    pub platform: crate::platform::Platform,
    /// The one-shot interrupt stop armed for the running block.
    pub irq_stop: Option<u64>,
    /// What the run loop must do after the block hook stopped for an interrupt.
    pub irq_request: Option<IrqRequest>,
    /// Addresses that have an interrupt-stop code hook, and its id.
    pub irq_hooks: std::collections::HashMap<u64, unicorn_engine::UcHookId>,
    /// A device write changed interrupt inputs; checks wait for a block end.
    pub irq_defer: bool,
}

/// What the run loop must do after the block hook stopped unicorn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrqRequest {
    /// Take the interrupt due at the current pc.
    Deliver,
    /// Place a one-shot stop at this address, then run the block again.
    Install(u64),
}

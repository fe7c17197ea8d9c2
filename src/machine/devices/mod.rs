//! Devices and interrupts: the MMIO devices mapped into unicorn, the
//! mie/mip/mideleg shadow and the spec's choice, interrupts taken at exact
//! boundaries, and `wfi`.

pub(in crate::machine) mod interrupt;
pub mod irq;
pub(in crate::machine) mod mmio;
pub(in crate::machine) mod wfi;

/// The devices and the interrupt state trapscope keeps.
#[derive(Default)]
pub(in crate::machine) struct DeviceState {
    /// mie/mip/mideleg as trapscope keeps them (unicorn's stay zero).
    pub irq: irq::IrqState,
    /// The MMIO devices: CLINT, UART, test device, PLIC.
    pub platform: crate::platform::Platform,
    /// The one-shot interrupt stop armed for the running block.
    pub irq_stop: Option<u64>,
    /// What the run loop must do after the block hook stopped for an interrupt.
    pub irq_request: Option<interrupt::IrqRequest>,
    /// Addresses that have an interrupt-stop code hook, and its id.
    pub irq_hooks: std::collections::HashMap<u64, unicorn_engine::UcHookId>,
    /// A device write changed interrupt inputs; checks wait for a block end.
    pub irq_defer: bool,
}

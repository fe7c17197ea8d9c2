//! Devices and interrupts: the MMIO devices mapped into unicorn, the
//! mie/mip/mideleg shadow and the spec's choice, interrupts taken at exact
//! boundaries, and `wfi`.

pub(in crate::machine) mod interrupt;
pub mod irq;
pub(in crate::machine) mod mmio;
pub(in crate::machine) mod pending;
pub(in crate::machine) mod state;
pub(in crate::machine) mod wfi;

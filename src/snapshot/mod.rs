//! Real kernels by snapshot, the half that reads them: the snapshot
//! directory (`format.rs`: manifest, RAM, the init's stored sources), the
//! device tree's CPU facts (`fdt.rs`), which ISA extensions trapscope runs
//! (`isa.rs`), the manifest's vector state (`vstate.rs`), and a snapshot as a
//! scenario variant (`variant.rs`). Taking one, and checking one against
//! QEMU, is the other half, in `qemu/`, which boots QEMU.

pub mod fdt;
pub mod format;
pub mod isa;
pub mod variant;
mod vstate;

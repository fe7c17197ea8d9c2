//! Real kernels by snapshot (DESIGN decision 12 in the repo's ARCHITECTURE.md):
//! `trapscope snapshot` boots a kernel in qemu-system-riscv64, stops it at a
//! syscall of trapscope's own init through the gdbstub, and writes RAM and
//! registers (`format.rs`); a scenario variant resumes from it (`variant.rs`).

pub mod format;
pub mod variant;

//! Real kernels by snapshot: `trapscope snapshot` boots a kernel in
//! qemu-system-riscv64 (`qemu.rs`, with the initramfs of `cpio.rs` and the
//! device tree read by `fdt.rs`), stops it at a syscall of trapscope's own
//! init through the gdbstub (`gdb.rs`), and writes RAM and registers
//! (`take.rs`, in the format of `format.rs`, with the init's sources of
//! `init_src.rs`); a scenario variant resumes from it (`variant.rs`);
//! `verify.rs` checks one against QEMU.

pub mod cpio;
pub mod fdt;
pub mod format;
pub mod gdb;
pub mod init_src;
pub mod own_init;
pub mod qemu;
pub mod take;
pub mod variant;
pub mod verify;
mod vstate;

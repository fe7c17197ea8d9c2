pub mod cpio;
pub mod fdt;
pub mod qemu;

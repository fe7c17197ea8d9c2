//! The minikernel's syscall work (generic entry, ptrace, seccomp, syscall
//! user dispatch, RISC-V's own entry) and trapscope's /init programs: their
//! paths walked by hand, their rebuild byte for byte, and, ignored unless
//! `TRAPSCOPE_LINUX=DIR` names a real kernel, the same on Linux (`cargo test
//! --test kernel -- --ignored init_paths_linux tick_linux`).
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process, so none may change the process's environment,
//! directory or signal handling (a test that needs its own runs `trapscope`
//! as a child process, with `Command::env` or `current_dir`), and one that
//! measures the process's memory runs alone in a child process of this binary
//! (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../init_walk/mod.rs"]
mod init_walk;
#[path = "../snapshot_util/mod.rs"]
mod snapshot_util;

mod generic_entry;
mod guest_build;
mod init_paths;
mod init_paths_file;
mod init_paths_linux;
mod init_programs;
mod init_work;
mod tick_linux;
mod work_arch;
mod work_seccomp;
mod work_sud;
mod work_trace;

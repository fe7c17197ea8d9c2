//! Snapshots and QEMU: `trapscope snapshot` (its arguments, refusals,
//! cleanup, limits and child processes), the snapshot format, the GDB client
//! and QEMU itself, `verify`, `review`, checkpoints on a snapshot, an init's
//! stored sources and the source policy. QEMU tests skip with a reason when
//! qemu-system-riscv64 is absent (they fail under TRAPSCOPE_REQUIRE_QEMU=1);
//! the real-kernel one is ignored unless `TRAPSCOPE_LINUX=DIR` (`cargo test
//! --test snapshot -- --ignored linux_snapshot_matches_qemu`).
//!
//! One test binary (each module was tests/<module>.rs or
//! tests/snapshot_<module>.rs): its tests run as threads of one process, so
//! none may change the process's environment, directory or signal handling (a
//! test that needs its own runs `trapscope` as a child process, with
//! `Command::env` or `current_dir`), and one that measures the process's
//! memory runs alone in a child process of this binary (tests/common's
//! `alone`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../snapshot_util/mod.rs"]
mod snapshot_util;

mod args;
mod bombs;
mod checkpoint_snapshot;
mod cleanup;
mod csrs_qemu;
mod errors;
mod exact;
mod format;
mod gdb_live;
mod gdb_transcript;
mod init_src;
mod limits;
mod links;
mod minikernel_qemu;
mod own_init;
mod procs;
mod qemu;
mod qemu_live;
mod review;
mod source_policy;
mod vector_state;
mod verify;
mod verify_clock;

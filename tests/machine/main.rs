//! The emulated machine and its guests, driven in process and through
//! `trapscope elf`: trap delivery and the faults that end a run, interrupts,
//! FP state, the predictors, checkpoints and reverse execution, watchpoints,
//! hostile guests and the memory a long run holds, and the minikernel's runs.
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process, so none may change the process's environment,
//! directory or signal handling (a test that needs its own runs `trapscope`
//! as a child process, with `Command::env` or `current_dir`), and one that
//! measures the process's memory runs alone in a child process of this binary
//! (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;

mod amo_emulation;
mod callstack;
mod checkpoint;
mod dirty_pages;
mod faults;
mod fp;
mod hook_fuzz;
mod intercept_hooks;
mod irq;
mod memory_bounds;
mod minikernel;
mod minikernel_pagefault;
mod minikernel_sv39;
mod predict;
mod program;
mod ptregs;
mod reverse;
mod run_events_memory;
mod selftests;
mod sources;
mod spec_corners;
mod spin_timer;
mod storms;
mod watch;

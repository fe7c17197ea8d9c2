//! Scenarios, expectations, the cost model and the command line: what `run`,
//! `check`, `compare`, `bench` and `fidelity` print for the shipped scenarios
//! and core profiles, their exit statuses, and the repository's own
//! citations.
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process, so none may change the process's environment,
//! directory or signal handling (a test that needs its own runs `trapscope`
//! as a child process, with `Command::env` or `current_dir`), and one that
//! measures the process's memory runs alone in a child process of this binary
//! (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;

mod bench_sigint;
mod cycles;
mod exit_status;
mod expect_events;
mod expect_ext;
mod expect_names;
mod functions;
mod pairs;
mod per_event;
mod profiles;
mod seed_table;
mod shown_paths;
mod unfinished_runs;
mod variant_core;

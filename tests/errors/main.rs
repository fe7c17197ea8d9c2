//! Bad input: malformed scenarios, ELFs, core profiles and knobs, special
//! files, segments too large for the machine, and messages that named the
//! wrong cause; each is one clear line and an exit status, never a panic (and
//! the last guard, for the panic that slips through).
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process, so none may change the process's environment,
//! directory or signal handling (a test that needs its own runs `trapscope`
//! as a child process, with `Command::env` or `current_dir`), and one that
//! measures the process's memory runs alone in a child process of this binary
//! (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod huge_segments;
mod internal_error;
mod knob_range;
mod profile_ranges;
mod special_files;
mod validation;
mod wrong_messages;

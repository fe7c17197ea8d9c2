//! Reports and exports: `compare`'s text and JSON, `--format md`, the event
//! exports (JSON, CSV, Perfetto), hot lines without DWARF, and the
//! before/after path diff.
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process, so none may change the process's environment,
//! directory or signal handling (a test that needs its own runs `trapscope`
//! as a child process, with `Command::env` or `current_dir`), and one that
//! measures the process's memory runs alone in a child process of this binary
//! (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;

mod compare_json;
mod compare_text;
mod exports;
mod exports_md;
mod hot_lines_nodwarf;
mod mca;
mod pathdiff;
mod pathdiff_columns;

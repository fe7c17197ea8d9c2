//! trapscope: step an emulated RISC-V guest through kernel trap entry and
//! exit, and see where a patch saves or loses time.
//!
//! Data flows one way: `machine` → events → observers (`session::stats`, and
//! the core model: prediction and cost) → `report` / the TUI. See ARCHITECTURE.md.
//! No unsafe code: `unsafe_code = "forbid"` in Cargo.toml's `[lints]`.

pub mod atomics;
pub mod cli;
pub mod cost;
pub mod escape;
pub mod input;
pub mod isa;
pub mod located;
pub mod machine;
pub mod output;
pub mod platform;
pub mod predict;
pub mod program;
pub mod qemu;
pub mod report;
pub mod scenario;
pub mod session;
pub mod snapshot;
pub mod trace;
pub mod tui;
pub mod vector;

use std::path::PathBuf;

/// The project directory (scenarios/, assets/), wherever the binary runs from.
/// When the process started (first called from `main`): the first frame's
/// time is counted from here (`trapscope bench`).
pub fn process_start() -> std::time::Instant {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *START.get_or_init(std::time::Instant::now)
}

pub fn project_dir() -> PathBuf {
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if built.join("scenarios").is_dir() {
        built
    } else {
        PathBuf::from(".")
    }
}

/// The scenario `trapscope` opens when given none (as `shown_path` prints it).
pub fn default_scenario() -> PathBuf {
    shown_path(&project_dir().join("scenarios").join("ras-trap-entry.toml"))
}

/// `p` as outputs print it: relative to the current directory when it is
/// under it (as the paths a user types usually are), else as it is.
pub fn shown_path(p: &std::path::Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return p.to_path_buf();
    };
    match p.strip_prefix(&cwd) {
        Ok(rest) if p.is_absolute() && rest.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rest) if p.is_absolute() => rest.to_path_buf(),
        _ => p.to_path_buf(),
    }
}

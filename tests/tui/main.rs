//! The TUI, driven through actions and drawn into a test backend
//! (common::tui), and, for its signals, run on a pseudo-terminal.
//!
//! One test binary (each module was tests/tui_<module>.rs; `app` was
//! tests/tui.rs): its tests run as threads of one process, so none may change
//! the process's environment, directory or signal handling (a test that needs
//! its own runs `trapscope` as a child process, with `Command::env` or
//! `current_dir`), and one that measures the process's memory runs alone in a
//! child process of this binary (tests/common's `alone`).

#[path = "../common/mod.rs"]
mod common;

mod app;
mod core_place;
mod cut_text;
mod cycles_live;
mod debug;
mod diff;
mod event_numbers;
mod exports;
mod fit;
mod fp;
mod help;
mod history;
mod input;
mod iterations;
mod kernel_views;
mod keymap;
mod layout;
mod lesson;
mod lesson_text;
mod messages;
mod restart;
mod review;
mod search;
mod search_cycle;
mod search_ran;
mod signals;
mod step_back;
mod tab_narration;
mod tab_round;
mod travel;
mod views;
mod watch_travel;

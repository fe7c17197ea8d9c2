//! The house and its documents: the README and the book (samples, generated
//! sections, links, the summary), the room table of ARCHITECTURE.md held
//! against the imports, file sizes, and citations that stay inside the
//! repository.
//!
//! One test binary (each module was tests/<module>.rs): its tests run as
//! threads of one process and change no process-wide state; a test that
//! runs `trapscope` does so as a child process.

#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;
mod pages;

mod book;
mod circles;
mod no_outside_citations;
mod readme;
mod readme_generated;
mod rooms;

//! A user's own `/init` for `trapscope snapshot --init PATH`: what it must
//! be for the kernel to run it from the initramfs and for trapscope to stop
//! at its marker. Each refusal is one line naming what is wrong, before
//! QEMU starts.

use std::path::Path;

use crate::input::ReadError;
use crate::program::{ElfError, HeaderError, Program, elfhdr};

/// `e_type` of an executable linked at fixed addresses.
const ET_EXEC: u16 = 2;
/// `p_type`s a static executable has none of (gABI "Program Header").
const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;

/// Why a file is not an init trapscope can stop (`check`): one line
/// without the file name, but where the ELF reader's own error names it.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// Position-independent (ET_DYN), not linked at fixed addresses.
    #[error(
        "e_type is {e_type} (ET_DYN: a position-independent executable, static-pie or dynamic); an init must be linked at fixed addresses so that its marker's address is known: build it with -static -no-pie (or -nostdlib -static)"
    )]
    NotFixed { e_type: u16 },
    /// It has `what` (a program interpreter, a dynamic section).
    #[error(
        "dynamically linked: it has {what}, and the initramfs holds no libraries; build it with -static"
    )]
    Dynamic { what: &'static str },
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// Symbols it lacks, each with the option naming another.
    #[error(
        "has {}",
        missing.iter().map(ToString::to_string).collect::<Vec<_>>().join("; and ")
    )]
    Missing { missing: Vec<MissingSymbol> },
    #[error(
        "'{marker}' at {at:#x} lies in no loaded executable segment: the marker must be an instruction of the loop, run once per iteration"
    )]
    NotCode { marker: String, at: u64 },
    #[error(
        "'{marker}' is at the loop's top '{loop_top}' ({at:#x}) and is not an ecall: a marker that faults runs twice per iteration (its fault and its retry) and the top must run once; put '{loop_top}' on an instruction before it"
    )]
    AtTop {
        marker: String,
        loop_top: String,
        at: u64,
    },
}

/// A symbol an init lacks: its name, the option that names another, and
/// what it marks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no symbol '{name}' ({role}): put a global label {name} there, or name another with {flag}"
)]
pub struct MissingSymbol {
    pub name: String,
    pub flag: &'static str,
    pub role: &'static str,
}

/// Whether `--init` names a file rather than one of trapscope's inits: a
/// path with a directory part or an `.elf` name.
pub fn names_a_file(init: &str) -> bool {
    init.contains('/') || init.ends_with(".elf")
}

/// Checks `path` as an init: a static RV64 little-endian executable
/// (ET_EXEC, no interpreter, no dynamic section) with the two marker
/// symbols. The error is one line without the file name.
pub fn check(path: &Path, marker: &str, loop_top: &str) -> Result<(), InitError> {
    let b = crate::input::read_regular(path, "init ELF", crate::input::ELF_MAX)?;
    elfhdr::parse(&b)?;
    let e_type = u16::from_le_bytes([b[16], b[17]]);
    if e_type != ET_EXEC {
        return Err(InitError::NotFixed { e_type });
    }
    for t in segment_types(&b) {
        let what = match t {
            PT_INTERP => "a program interpreter (PT_INTERP)",
            PT_DYNAMIC => "a dynamic section (PT_DYNAMIC)",
            _ => continue,
        };
        return Err(InitError::Dynamic { what });
    }
    let prog = Program::parse(path, &b)?;
    let mut missing = Vec::new();
    for (name, flag, role) in [
        (
            loop_top,
            "--loop-symbol",
            "the top of the measured loop, run once per iteration",
        ),
        (
            marker,
            "--ecall-symbol",
            "the marker instruction, run once per iteration, whose N-th run is the snapshot point",
        ),
    ] {
        if prog.symbol(name).is_none() {
            missing.push(MissingSymbol {
                name: name.to_string(),
                flag,
                role,
            });
        }
    }
    if !missing.is_empty() {
        return Err(InitError::Missing { missing });
    }
    // The marker may be any instruction run once per iteration (an ecall,
    // or the store a page fault is taken on: take/step.rs counts either),
    // but it must be code the ELF loads, or no breakpoint there is hit.
    let at = prog.symbol(marker).map_or(0, |s| s.addr);
    let word = prog.text_bytes(at, 4).filter(|_| prog.is_mapped_exec(at));
    if word.is_none_or(|w| w.len() < 2) {
        return Err(InitError::NotCode {
            marker: marker.to_string(),
            at,
        });
    }
    // A marker that may fault (anything but an ecall) runs twice when it
    // does, its fault and its retry: at the loop's top, each retry would
    // count as another iteration and halve every per-iteration figure.
    let top = prog.symbol(loop_top).map_or(0, |s| s.addr);
    let is_ecall = word == Some(&ECALL.to_le_bytes()[..]);
    if at == top && !is_ecall {
        return Err(InitError::AtTop {
            marker: marker.to_string(),
            loop_top: loop_top.to_string(),
            at,
        });
    }
    Ok(())
}

/// `ecall`'s encoding (unprivileged spec, "ECALL").
const ECALL: u32 = 0x0000_0073;

/// The `p_type` of each program header (`elfhdr::parse` has checked the
/// table lies within the file).
fn segment_types(b: &[u8]) -> Vec<u32> {
    let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
    let phoff = u64::from_le_bytes(b[32..40].try_into().unwrap_or([0; 8])) as usize;
    (0..usize::from(u16_at(56)))
        .filter_map(|i| b.get(phoff + i * 56..phoff + i * 56 + 4))
        .map(|t| u32::from_le_bytes([t[0], t[1], t[2], t[3]]))
        .collect()
}

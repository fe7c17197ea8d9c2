//! The DWARF line table of a guest ELF, flattened into sorted rows.
//!
//! Our guests are assembled with `as -g`, which emits one line program per
//! object; we keep (address, file, line) rows so a pc maps to its `.S` line.

use std::borrow::Cow;

use object::{Object, ObjectSection};

use super::program::LineRow;

type Reader<'a> = gimli::EndianSlice<'a, gimli::RunTimeEndian>;

/// Runs `f` on the file's DWARF sections.
fn with_dwarf<T>(
    file: &object::File<'_>,
    f: impl FnOnce(&gimli::Dwarf<Reader<'_>>) -> T,
) -> Option<T> {
    let endian = if file.is_little_endian() {
        gimli::RunTimeEndian::Little
    } else {
        gimli::RunTimeEndian::Big
    };
    let load = |id: gimli::SectionId| -> Result<Cow<'_, [u8]>, gimli::Error> {
        Ok(file
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .unwrap_or(Cow::Borrowed(&[])))
    };
    let sections = gimli::DwarfSections::load(load).ok()?;
    let dwarf = sections.borrow(|s| gimli::EndianSlice::new(s, endian));
    Some(f(&dwarf))
}

pub(super) fn line_table(file: &object::File<'_>) -> Option<(Vec<String>, Vec<LineRow>)> {
    with_dwarf(file, rows_of)
}

fn rows_of(dwarf: &gimli::Dwarf<Reader<'_>>) -> (Vec<String>, Vec<LineRow>) {
    let mut files: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    let mut units = dwarf.units();
    while let Ok(Some(header)) = units.next() {
        let Ok(unit) = dwarf.unit(header) else {
            continue;
        };
        let Some(program) = unit.line_program.clone() else {
            continue;
        };
        let mut state = program.rows();
        while let Ok(Some((header, row))) = state.next_row() {
            let Some(fe) = row.file(header) else { continue };
            let name = file_name(dwarf, &unit, header, fe);
            let idx = match files.iter().position(|f| *f == name) {
                Some(i) => i,
                None => {
                    files.push(name);
                    files.len() - 1
                }
            };
            rows.push(LineRow {
                addr: row.address(),
                file: u16::try_from(idx).unwrap_or(u16::MAX),
                line: row.line().map(|l| l.get() as u32).unwrap_or(0),
                end_sequence: row.end_sequence(),
            });
        }
    }
    // Stable sort keeps an end_sequence row before a new sequence at the same address
    // only if it came first; put real rows after end markers at equal addresses.
    rows.sort_by(|a, b| {
        a.addr
            .cmp(&b.addr)
            .then(b.end_sequence.cmp(&a.end_sequence))
    });
    (files, rows)
}

fn file_name(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &gimli::Unit<Reader<'_>>,
    header: &gimli::LineProgramHeader<Reader<'_>>,
    fe: &gimli::FileEntry<Reader<'_>>,
) -> String {
    let name = dwarf
        .attr_string(unit, fe.path_name())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with('/') {
        return name;
    }
    let dir = fe
        .directory(header)
        .and_then(|d| dwarf.attr_string(unit, d).ok())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if dir.is_empty() || dir == "." {
        name
    } else {
        format!("{}/{}", dir.trim_start_matches("./"), name)
    }
}

/// The absolute compilation directories the units record (a kernel tree's
/// path), where relative source names are found.
pub(super) fn comp_dirs(file: &object::File<'_>) -> Vec<std::path::PathBuf> {
    with_dwarf(file, |dwarf| {
        let mut dirs: Vec<std::path::PathBuf> = Vec::new();
        let mut units = dwarf.units();
        while let Ok(Some(header)) = units.next() {
            let Ok(unit) = dwarf.unit(header) else {
                continue;
            };
            if let Some(d) = unit.comp_dir {
                let d = std::path::PathBuf::from(d.to_string_lossy().into_owned());
                if d.is_absolute() && !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        dirs
    })
    .unwrap_or_default()
}

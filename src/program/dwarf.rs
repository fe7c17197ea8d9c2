//! The DWARF line table of a guest ELF, flattened into sorted rows.
//!
//! Our guests are assembled with `as -g`, which emits one line program per
//! object; we keep (address, file, line) rows so a pc maps to its `.S` line.
//! The files it names, with their units' compilation directories, are what
//! a snapshot stores beside an init (`qemu::init_src`).

use std::borrow::Cow;

use object::{Object, ObjectSection};

use super::LineRow;

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
        .map(|(files, rows)| (files.into_iter().map(|f| f.name).collect(), rows))
}

/// A source file a line table names: as the program's `files` spell it,
/// with the compilation directory of the unit that names it (where a
/// relative name is relative to).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceName {
    pub name: String,
    pub comp_dir: Option<std::path::PathBuf>,
}

/// The source files an ELF's line table names, in the order of
/// `Program::files` (empty without DWARF, or for bytes that are no ELF).
pub fn source_names(bytes: &[u8]) -> Vec<SourceName> {
    let Ok(file) = object::File::parse(bytes) else {
        return Vec::new();
    };
    with_dwarf(&file, rows_of).map_or_else(Vec::new, |(files, _)| files)
}

fn rows_of(dwarf: &gimli::Dwarf<Reader<'_>>) -> (Vec<SourceName>, Vec<LineRow>) {
    let mut files: Vec<SourceName> = Vec::new();
    let mut rows = Vec::new();
    let mut units = dwarf.units();
    while let Ok(Some(header)) = units.next() {
        let Ok(unit) = dwarf.unit(header) else {
            continue;
        };
        let Some(program) = unit.line_program.clone() else {
            continue;
        };
        let comp_dir = unit
            .comp_dir
            .map(|d| std::path::PathBuf::from(d.to_string_lossy().into_owned()));
        let mut state = program.rows();
        while let Ok(Some((header, row))) = state.next_row() {
            let Some(fe) = row.file(header) else { continue };
            let name = file_name(dwarf, &unit, header, fe);
            let idx = match files.iter().position(|f| f.name == name) {
                Some(i) => i,
                None => {
                    files.push(SourceName {
                        name,
                        comp_dir: comp_dir.clone(),
                    });
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

/// A member of a C struct, from DWARF: its name and byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub offset: u64,
    /// Up to the next member (or the struct's end): all of pt_regs's are
    /// `unsigned long`.
    pub size: u64,
}

/// The members of the first full definition (not a declaration) of `struct
/// NAME` in the file's DWARF (DWARF 5 §5.7: DW_TAG_structure_type, its
/// DW_TAG_member children with DW_AT_data_member_location), in offset
/// order. `None` when no unit defines it (an assembled guest has no C types).
pub(super) fn struct_members(file: &object::File<'_>, name: &str) -> Option<Vec<Member>> {
    with_dwarf(file, |dwarf| {
        let mut units = dwarf.units();
        while let Ok(Some(header)) = units.next() {
            let Ok(unit) = dwarf.unit(header) else {
                continue;
            };
            if let Some(m) = struct_in_unit(dwarf, &unit, name) {
                return Some(m);
            }
        }
        None
    })
    .flatten()
}

fn struct_in_unit(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &gimli::Unit<Reader<'_>>,
    name: &str,
) -> Option<Vec<Member>> {
    let named = |e: &gimli::DebuggingInformationEntry<'_, '_, Reader<'_>>| {
        e.attr_value(gimli::DW_AT_name)
            .ok()
            .flatten()
            .and_then(|v| dwarf.attr_string(unit, v).ok())
            .map(|s| s.to_string_lossy().into_owned())
    };
    let mut entries = unit.entries();
    while let Ok(Some((_, e))) = entries.next_dfs() {
        if e.tag() != gimli::DW_TAG_structure_type
            || named(e).as_deref() != Some(name)
            || e.attr(gimli::DW_AT_declaration).ok().flatten().is_some()
        {
            continue;
        }
        let total = e
            .attr_value(gimli::DW_AT_byte_size)
            .ok()
            .flatten()
            .and_then(|v| v.udata_value())?;
        let mut tree = unit.entries_tree(Some(e.offset())).ok()?;
        let root = tree.root().ok()?;
        let mut members = Vec::new();
        let mut children = root.children();
        while let Ok(Some(child)) = children.next() {
            let c = child.entry();
            if c.tag() != gimli::DW_TAG_member {
                continue;
            }
            let offset = c
                .attr_value(gimli::DW_AT_data_member_location)
                .ok()
                .flatten()
                .and_then(|v| v.udata_value());
            if let (Some(n), Some(offset)) = (named(c), offset) {
                members.push(Member {
                    name: n,
                    offset,
                    size: 0,
                });
            }
        }
        members.sort_by_key(|m| m.offset);
        let ends: Vec<u64> = members
            .iter()
            .skip(1)
            .map(|m| m.offset)
            .chain([total])
            .collect();
        for (m, end) in members.iter_mut().zip(ends) {
            m.size = end.saturating_sub(m.offset);
        }
        return (!members.is_empty()).then_some(members);
    }
    None
}

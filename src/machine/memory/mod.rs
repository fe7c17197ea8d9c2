//! Guest memory as the machine maps it: the ELF's PT_LOAD segments as
//! merged regions with the platform's permissions (docs/decisions.md D11),
//! and the memory limit.

pub(in crate::machine) mod mmu;
pub(in crate::machine) mod peek;
pub(in crate::machine) mod state;

use unicorn_engine::Unicorn;
use unicorn_engine::unicorn_const::Permission;

use crate::machine::error::{Header, LoadError, Uc};
use crate::machine::handle::MachineConfig;
use crate::machine::handle::emu;
use crate::program::Program;

/// The permissions a segment's memory gets (the one place that decides).
/// RAM is what the platform says (RWX, PMP
/// permitting); the ELF's flags only under --strict-segments.
fn region_perm(seg: &crate::program::Segment, cfg: &MachineConfig) -> Permission {
    let strict = cfg.strict_segments;
    let mut perm = Permission::READ;
    if seg.exec || !strict {
        perm |= Permission::EXEC;
    }
    if seg.write || !strict {
        perm |= Permission::WRITE;
    }
    perm
}

/// A segment as the load errors name it.
fn header(s: &crate::program::Segment) -> Header {
    Header {
        index: s.index,
        vaddr: s.vaddr,
        memsz: s.memsz,
    }
}

/// Checks the segments' total size against `cfg.mem_limit`, naming the
/// program header that goes over it.
fn check_mem_limit(program: &Program, cfg: &MachineConfig) -> Result<(), LoadError> {
    let mut total: u64 = 0;
    for s in &program.segments {
        total = total.saturating_add(s.memsz);
        if total > cfg.mem_limit {
            return Err(LoadError::OverLimit {
                path: program.path.clone(),
                header: header(s),
                total,
                limit: cfg.mem_limit,
            });
        }
    }
    Ok(())
}

/// The most separate mappings a guest may need: unicorn's time to map grows
/// much faster than the count (about 0.1 s for 256, minutes for 4096), and
/// real guests have a handful.
const MAX_REGIONS: usize = 256;

/// Maps the PT_LOAD segments as page-aligned regions: overlapping or
/// adjacent ranges are merged as intervals (a sweep over their ends, never a
/// walk over pages), a range shared by segments gets the union of their
/// permissions, and runs of equal permissions become one mapping. Returns
/// the regions mapped, `[start, end)`: the guest's RAM.
pub(in crate::machine) fn map_segments<D>(
    uc: &mut Unicorn<'_, D>,
    program: &Program,
    cfg: &MachineConfig,
) -> Result<Vec<(u64, u64)>, LoadError> {
    const PAGE: u64 = 0x1000;
    check_mem_limit(program, cfg)?;
    // (position, segment index, +1 start / -1 end); ends sort before starts
    // at the same position, so a region boundary falls there.
    let mut ends: Vec<(u64, i8, usize)> = Vec::new();
    for (i, s) in program.segments.iter().enumerate() {
        let start = s.vaddr & !(PAGE - 1);
        // No overflow: `elfhdr` keeps vaddr + memsz within 2^56.
        let end = (s.vaddr + s.memsz).div_ceil(PAGE) * PAGE;
        ends.push((start, 1, i));
        ends.push((end, -1, i));
    }
    ends.sort_by_key(|&(pos, d, _)| (pos, d));
    // Live segments per permission bit: read, write, exec.
    let mut live = [0u32; 3];
    let mut open = 0u32;
    let bits = [Permission::READ, Permission::WRITE, Permission::EXEC];
    let mut regions: Vec<(u64, u64, Permission)> = Vec::new();
    let mut prev = 0u64;
    for &(pos, d, i) in &ends {
        let perm = bits
            .iter()
            .zip(&live)
            .filter(|(_, n)| **n > 0)
            .fold(Permission::NONE, |p, (b, _)| p | *b);
        if pos > prev && open > 0 {
            match regions.last_mut() {
                Some((_, end, last)) if *end == prev && last.bits() == perm.bits() => *end = pos,
                _ => regions.push((prev, pos, perm)),
            }
        }
        open = if d > 0 {
            open + 1
        } else {
            open.saturating_sub(1)
        };
        let p = region_perm(&program.segments[i], cfg);
        for (b, n) in bits.iter().zip(live.iter_mut()) {
            if p.contains(*b) {
                *n = if d > 0 { *n + 1 } else { n.saturating_sub(1) };
            }
        }
        prev = pos;
    }
    if let Some(&(start, end, _)) = regions.get(MAX_REGIONS) {
        let s = program
            .segments
            .iter()
            .find(|s| s.vaddr < end && s.vaddr + s.memsz > start)
            .unwrap_or(&program.segments[0]);
        return Err(LoadError::TooManyRegions {
            path: program.path.clone(),
            header: header(s),
            most: MAX_REGIONS,
        });
    }
    for &(start, end, perm) in &regions {
        uc.mem_map(start, (end - start) as usize, perm)
            .map_err(|e| LoadError::CannotMap {
                path: program.path.clone(),
                start,
                end,
                header: program
                    .segments
                    .iter()
                    .find(|s| s.vaddr < end && s.vaddr + s.memsz > start)
                    .map(header),
                err: Uc(e),
            })?;
    }
    for s in &program.segments {
        uc.mem_write(s.vaddr, &s.data).map_err(emu)?;
    }
    Ok(regions.into_iter().map(|(s, e, _)| (s, e)).collect())
}

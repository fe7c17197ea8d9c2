//! Names for the addresses a difference reports: a pc or a code address
//! by the vmlinux's and the init's symbols (`function+offset`), and a
//! physical RAM address by the virtual address the snapshot's page tables
//! give it: the kernel image as one range (its `_start` translated, for
//! as long as `_end` says), every other symbol's page one by one. Without
//! symbols (a stripped vmlinux) an address is printed bare.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::machine::{Machine, Observer, Program};

pub struct Names {
    program: Rc<Program>,
    /// The kernel image: physical start, virtual start, length.
    kernel: Option<(u64, u64, u64)>,
    /// Physical page → virtual page, for the other symbols' pages.
    pages: BTreeMap<u64, u64>,
}

/// The kernel image's `_start` and `_end` (the linker script's names):
/// the highest `_start` below an `_end`, since the init has a `_start` of
/// its own.
fn image(p: &Program) -> Option<(u64, u64)> {
    let named = |n: &'static str| {
        p.symbols()
            .iter()
            .filter(move |s| s.name == n)
            .map(|s| s.addr)
    };
    let end = named("_end").max()?;
    let start = named("_start").filter(|&s| s < end).max()?;
    Some((start, end))
}

impl Names {
    /// Names by `m`'s program, mapped through `m`'s page tables as they
    /// are now (the snapshot's: the loop changes no mapping of the kernel
    /// image or the init).
    pub fn new<O: Observer + 'static>(m: &Machine<O>) -> Names {
        let program = m.program.clone();
        let kernel = image(&program).and_then(|(start, end)| {
            let pa = m.phys_of(start)?;
            Some((pa, start, end - start))
        });
        let in_kernel = |va: u64| kernel.is_some_and(|(_, v, len)| va >= v && va - v < len);
        let mut pages = BTreeMap::new();
        let mut seen = std::collections::HashSet::new();
        for s in program.symbols() {
            let page = s.addr & !0xfff;
            if in_kernel(s.addr) || !seen.insert(page) {
                continue;
            }
            if let Some(pa) = m.phys_of(page) {
                pages.entry(pa & !0xfff).or_insert(page);
            }
        }
        Names {
            program,
            kernel,
            pages,
        }
    }

    /// Names by `program`'s symbols alone, no page tables (tests).
    #[cfg(test)]
    pub fn unmapped(program: Rc<Program>) -> Names {
        Names {
            program,
            kernel: None,
            pages: BTreeMap::new(),
        }
    }

    /// A code address: `0x10088 (init_ecall)`, or the bare address.
    pub fn code(&self, va: u64) -> String {
        match self.program.symbol_at(va) {
            Some(_) => format!("{va:#x} ({})", self.program.describe(va)),
            None => format!("{va:#x}"),
        }
    }

    /// A register's value: named only when a sized symbol covers it (a
    /// small number near an unsized one is a number).
    pub fn value(&self, v: u64) -> String {
        match self.program.symbol_at(v) {
            Some((s, off)) if s.size > 0 && off < s.size => {
                format!("{v:#x} ({})", self.program.describe(v))
            }
            _ => format!("{v:#x}"),
        }
    }

    /// The virtual address of physical `pa`, where the snapshot maps it.
    fn virt(&self, pa: u64) -> Option<u64> {
        if let Some((p, v, len)) = self.kernel
            && pa >= p
            && pa - p < len
        {
            return Some(v + (pa - p));
        }
        self.pages.get(&(pa & !0xfff)).map(|va| va | (pa & 0xfff))
    }

    /// A physical RAM address: `0x8042a070 (jiffies_64, virtual
    /// 0xffffffff801f2a70)`; `0x80401060 (knob_rseq)` where the symbol's
    /// address is the physical one (a bare-metal ELF); else bare.
    pub fn phys(&self, pa: u64) -> String {
        let named = |va: u64| {
            let (s, off) = self.program.symbol_at(va)?;
            (s.size == 0 || off < s.size).then(|| self.program.describe(va))
        };
        match self.virt(pa) {
            Some(va) if va != pa => match named(va) {
                Some(n) => format!("{pa:#x} ({n}, virtual {va:#x})"),
                None => format!("{pa:#x} (virtual {va:#x})"),
            },
            _ => match named(pa) {
                Some(n) => format!("{pa:#x} ({n})"),
                None => format!("{pa:#x}"),
            },
        }
    }
}

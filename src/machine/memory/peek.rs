//! Guest memory as the hart sees it, for panes, results and knobs: virtual
//! addresses through the page tables when paging is on (a look-up, not an
//! access: no A/D bits, no permission checks), physical ones otherwise.

use crate::machine::code::smc;
use crate::machine::handle::Machine;
use crate::machine::memory::mmu;
use crate::machine::observe::Observer;
use crate::trace::Priv;

impl<O: Observer + 'static> Machine<O> {
    /// Writes a 64-bit little-endian value into guest memory (knobs), at
    /// a virtual address when paging is on (see `read_mem`).
    pub fn write_u64(&mut self, addr: u64, value: u64) -> bool {
        let Some(addr) = self.phys_of(addr) else {
            return false;
        };
        let ok = self.uc.mem_write(addr, &value.to_le_bytes()).is_ok();
        if ok {
            smc::code_written(&mut self.uc, addr, 8, None);
        }
        ok
    }

    /// Where `addr` is in physical memory as the hart sees it now (page
    /// tables when paging is on); a look-up, not an access.
    pub fn phys_of(&self, addr: u64) -> Option<u64> {
        let hart = self.uc.get_data();
        let satp = hart.traps.csr_shadow.get(&0x180).copied().unwrap_or(0);
        if hart.priv_ == Priv::M || satp >> 60 != 8 {
            return Some(addr);
        }
        mmu::peek(&self.uc, satp, addr)
    }

    /// Whether every byte of `[phys, phys + len)` is mapped (RAM or a
    /// device's registers); false for a range that wraps.
    pub fn is_mapped_phys(&self, phys: u64, len: u64) -> bool {
        let Some(last) = len.checked_sub(1).and_then(|n| phys.checked_add(n)) else {
            return false;
        };
        let Ok(regions) = self.uc.mem_regions() else {
            return false;
        };
        let mut at = phys;
        loop {
            let Some(r) = regions.iter().find(|r| r.begin <= at && at <= r.end) else {
                return false;
            };
            if r.end >= last {
                return true;
            }
            at = r.end + 1;
        }
    }

    /// Physical memory (RAM as a snapshot holds it).
    pub fn read_phys(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        self.uc.mem_read_as_vec(addr, len).ok()
    }

    /// A 64-bit value at `addr` as the hart sees it (see `read_mem`).
    pub fn read_u64(&self, addr: u64) -> Option<u64> {
        let b = self.read_mem(addr, 8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }

    /// `len` bytes at `addr` as the hart sees it now: a virtual address
    /// translated by the page tables when paging is on (whether the page is
    /// a user or a supervisor one), a physical one otherwise. For panes and
    /// results; it is no access of the guest's (no A/D bits, no checks).
    pub fn read_mem(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(len);
        let mut va = addr;
        while out.len() < len {
            let in_page = (0x1000 - (va & 0xfff)) as usize;
            let n = in_page.min(len - out.len());
            let pa = self.phys_of(va)?;
            out.extend(self.uc.mem_read_as_vec(pa, n).ok()?);
            va = va.wrapping_add(n as u64);
        }
        Some(out)
    }
}

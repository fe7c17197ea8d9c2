//! A software Sv39 walk for the accesses trapscope makes itself (the V
//! unit's loads and stores): unicorn's `mem_read`/`mem_write` take physical
//! addresses, while a guest with paging on hands the V unit virtual ones.
//! Follows priv spec §4.3.2 (the translation process) with the §4.3.1 PTE
//! rules, SUM and MXR (§4.1.1), and MPRV (§3.1.6.3).

use unicorn_engine::Unicorn;

use crate::machine::regs::{self, status};
use crate::trace::{Access, Priv};

const SATP: u16 = 0x180;
const MSTATUS: u16 = 0x300;
const MPRV: u64 = 1 << 17;
const MXR: u64 = 1 << 19;

const PTE_V: u64 = 1;
const PTE_R: u64 = 2;
const PTE_W: u64 = 4;
const PTE_X: u64 = 8;
const PTE_U: u64 = 16;
const PTE_A: u64 = 64;
const PTE_D: u64 = 128;

/// Why a virtual address could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XlateError {
    /// Cause 12 / 13 / 15: the page table does not allow the access.
    Page,
    /// Cause 1 / 5 / 7: a page-table entry is not in memory.
    Access,
}

/// The privilege loads and stores are made with: MPP when M-mode has
/// MPRV set, else the current one (§3.1.6.3). Reads a CSR only in M-mode,
/// so it never switches privilege (safe inside unicorn's memory hooks).
pub fn data_priv<D>(uc: &mut Unicorn<'_, D>, cur: Priv) -> Priv {
    if cur != Priv::M {
        return cur;
    }
    let ms = regs::read_csr(uc, MSTATUS).unwrap_or(0);
    if ms & MPRV != 0 {
        Priv::from_bits((ms & status::MPP) >> status::MPP_SHIFT)
    } else {
        cur
    }
}

/// Translates `va` for an access of kind `access` made with privilege `p`;
/// `set_ad`: set the PTE's A/D bits as the access would (false for a
/// look-up that is no access of the guest's).
pub fn translate<D>(
    uc: &mut Unicorn<'_, D>,
    va: u64,
    access: Access,
    p: Priv,
    set_ad: bool,
) -> Result<u64, XlateError> {
    let satp = regs::read_csr(uc, SATP).unwrap_or(0);
    if p == Priv::M || satp >> 60 != 8 {
        return Ok(va);
    }
    let ms = regs::read_csr(uc, MSTATUS).unwrap_or(0);
    let Leaf { pte, at, level } = walk(uc, satp, va)?;
    // A leaf: permissions (§4.3.1, SUM and MXR from §4.1.1).
    let allowed = match access {
        Access::Read => pte & PTE_R != 0 || (ms & MXR != 0 && pte & PTE_X != 0),
        Access::Write => pte & PTE_W != 0,
        Access::Fetch => pte & PTE_X != 0,
    };
    let user_ok = match p {
        Priv::U => pte & PTE_U != 0,
        _ => pte & PTE_U == 0 || (access != Access::Fetch && ms & status::SUM != 0),
    };
    if !allowed || !user_ok {
        return Err(XlateError::Page);
    }
    // A and D are set by the walk, as the emulator's own MMU does.
    let need = PTE_A | if access == Access::Write { PTE_D } else { 0 };
    if set_ad && pte & need != need {
        let _ = uc.mem_write(at, &(pte | need).to_le_bytes());
    }
    Ok(leaf_address(pte, level, va))
}

/// A leaf PTE the walk found: its value, where it is, and its level.
struct Leaf {
    pte: u64,
    at: u64,
    level: u32,
}

/// The Sv39 walk (§4.3.2) from `satp`'s root to the leaf for `va`: the
/// canonical-address rule, invalid and reserved entries, and misaligned
/// superpages are page faults; permissions are the caller's.
fn walk<D>(uc: &Unicorn<'_, D>, satp: u64, va: u64) -> Result<Leaf, XlateError> {
    // Bits 63:39 must all equal bit 38 (§4.3.1).
    let top = (va as i64) >> 38;
    if top != 0 && top != -1 {
        return Err(XlateError::Page);
    }
    let mut table = (satp & ((1 << 44) - 1)) << 12;
    for level in (0..3u32).rev() {
        let vpn = (va >> (12 + 9 * level)) & 0x1ff;
        let at = table + vpn * 8;
        let mut b = [0u8; 8];
        uc.mem_read(at, &mut b).map_err(|_| XlateError::Access)?;
        let pte = u64::from_le_bytes(b);
        if pte & PTE_V == 0 || (pte & PTE_R == 0 && pte & PTE_W != 0) {
            return Err(XlateError::Page);
        }
        let ppn = (pte >> 10) & ((1 << 44) - 1);
        if pte & (PTE_R | PTE_X) == 0 {
            table = ppn << 12; // a pointer to the next level
            continue;
        }
        if ppn & ((1u64 << (9 * level)) - 1) != 0 {
            return Err(XlateError::Page); // a misaligned superpage
        }
        return Ok(Leaf { pte, at, level });
    }
    Err(XlateError::Page)
}

/// The physical address a leaf maps `va` to (a superpage keeps the low bits).
fn leaf_address(pte: u64, level: u32, va: u64) -> u64 {
    let ppn = (pte >> 10) & ((1 << 44) - 1);
    let low = (1u64 << (9 * level)) - 1;
    ((ppn & !low) << 12) | (va & ((1u64 << (12 + 9 * level)) - 1))
}

/// The physical address of `va` under `satp` (Sv39), for looking at guest
/// memory: the walk's validity rules, no permissions, no A/D bit set.
pub fn peek<D>(uc: &Unicorn<'_, D>, satp: u64, va: u64) -> Option<u64> {
    let leaf = walk(uc, satp, va).ok()?;
    Some(leaf_address(leaf.pte, leaf.level, va))
}

/// Whether translation is on for an access made with privilege `p`
/// (satp.MODE = Sv39 and `p` below M; for data, pass `mmu::data_priv`).
pub fn paged<D>(uc: &mut Unicorn<'_, D>, p: Priv) -> bool {
    p != Priv::M && regs::read_csr(uc, 0x180).unwrap_or(0) >> 60 == 8
}

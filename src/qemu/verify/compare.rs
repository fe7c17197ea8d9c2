//! Two states of the hart and its RAM compared item by item, in a fixed
//! order (pc, privilege, x1–x31, f0–f31 and fcsr, the CSRs by number, the
//! vector state, the CLINT, RAM), each difference kept with its two values
//! and, for a pc, an address-holding CSR or a RAM address, its symbol.

use super::VerifyError;
use super::names::Names;
use crate::snapshot::format::{Csr, HartDump, PlatformDump};

/// One register that differs, with its two values as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub what: String,
    pub left: String,
    pub right: String,
}

/// RAM that differs: the first differing byte and how many differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RamDiff {
    /// Its physical address.
    pub first: u64,
    /// The address with its symbol ("0x80401060 (knob_rseq)").
    pub named: String,
    pub left: u8,
    pub right: u8,
    pub bytes: u64,
    pub pages: u64,
}

/// What a comparison looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Covered {
    pub gprs: usize,
    /// The CSRs compared, by number.
    pub csrs: Vec<u16>,
    pub fp: bool,
    pub vector: bool,
    pub platform: bool,
    pub ram: u64,
}

/// One comparison of two states, `left` against `right` ("snapshot" and
/// "QEMU", or "QEMU" and "trapscope").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub left: &'static str,
    pub right: &'static str,
    pub covered: Covered,
    pub regs: Vec<Diff>,
    pub ram: Option<RamDiff>,
    /// The right side never reached the point compared: how its run ended
    /// instead (nothing else is compared then).
    pub ended: Option<String>,
}

impl Comparison {
    pub fn new(left: &'static str, right: &'static str) -> Comparison {
        Comparison {
            left,
            right,
            covered: Covered::default(),
            regs: Vec::new(),
            ram: None,
            ended: None,
        }
    }

    pub fn equal(&self) -> bool {
        self.regs.is_empty() && self.ram.is_none() && self.ended.is_none()
    }

    fn differ(&mut self, what: impl Into<String>, left: String, right: String) {
        self.regs.push(Diff {
            what: what.into(),
            left,
            right,
        });
    }
}

/// CSRs whose values are code addresses, named with their symbol.
const ADDRESS_CSRS: [u16; 4] = [0x105, 0x141, 0x305, 0x341];

fn hex(v: u64) -> String {
    format!("{v:#x}")
}

/// Compares the harts: every item both have, and one that only one side
/// has is a difference too; CSRs only where `csr` says (by number).
pub fn harts(
    c: &mut Comparison,
    l: &HartDump,
    r: &HartDump,
    csr: &dyn Fn(u16) -> bool,
    names: &Names,
) {
    if l.pc != r.pc {
        c.differ("pc", names.code(l.pc.0), names.code(r.pc.0));
    }
    if l.privilege != r.privilege {
        c.differ("privilege", l.privilege.clone(), r.privilege.clone());
    }
    c.covered.gprs = l.x.len().min(r.x.len()).saturating_sub(1);
    for i in 1..32 {
        let (a, b) = (l.x.get(i), r.x.get(i));
        if a != b {
            let v = |x: Option<&crate::snapshot::format::Hex>| {
                x.map_or("(none)".into(), |v| names.value(v.0))
            };
            c.differ(format!("x{i} ({})", crate::isa::ABI[i]), v(a), v(b));
        }
    }
    fp(c, l, r);
    csrs(c, &l.csrs, &r.csrs, csr, names);
    vector(c, l, r);
}

fn fp(c: &mut Comparison, l: &HartDump, r: &HartDump) {
    c.covered.fp = !l.f.is_empty() || !r.f.is_empty();
    if !c.covered.fp {
        return;
    }
    if l.f.len() != r.f.len() {
        c.differ(
            "f0-f31",
            format!("{} registers", l.f.len()),
            format!("{} registers", r.f.len()),
        );
        return;
    }
    for (i, (a, b)) in l.f.iter().zip(&r.f).enumerate() {
        if a != b {
            c.differ(format!("f{i}"), hex(a.0), hex(b.0));
        }
    }
    if l.fcsr != r.fcsr {
        let v = |x: Option<crate::snapshot::format::Hex>| x.map_or("(none)".into(), |v| hex(v.0));
        c.differ("fcsr", v(l.fcsr), v(r.fcsr));
    }
}

fn csrs(c: &mut Comparison, l: &[Csr], r: &[Csr], pick: &dyn Fn(u16) -> bool, names: &Names) {
    let mut nums: Vec<u64> = l.iter().chain(r).map(|x| x.csr.0).collect();
    nums.sort_unstable();
    nums.dedup();
    let find = |v: &[Csr], n: u64| v.iter().find(|x| x.csr.0 == n).map(|x| x.value.0);
    for n in nums {
        let Ok(num) = u16::try_from(n) else { continue };
        if !pick(num) {
            continue;
        }
        c.covered.csrs.push(num);
        let (a, b) = (find(l, n), find(r, n));
        if a == b {
            continue;
        }
        let name = crate::isa::csr_name(num)
            .map(String::from)
            .or_else(|| {
                l.iter()
                    .chain(r)
                    .find(|x| x.csr.0 == n)
                    .map(|x| x.name.clone())
            })
            .unwrap_or_else(|| format!("CSR {num:#x}"));
        let text = |v: Option<u64>| match v {
            None => "(not given)".to_string(),
            Some(v) if ADDRESS_CSRS.contains(&num) => names.code(v),
            Some(v) => hex(v),
        };
        c.differ(name, text(a), text(b));
    }
}

fn vector(c: &mut Comparison, l: &HartDump, r: &HartDump) {
    let (a, b) = match (&l.vector, &r.vector) {
        (None, None) => return,
        (Some(a), Some(b)) => (a, b),
        (a, b) => {
            let has = |v: bool| if v { "V" } else { "no V" }.to_string();
            c.differ("the vector unit", has(a.is_some()), has(b.is_some()));
            return;
        }
    };
    c.covered.vector = true;
    if a.vlen != b.vlen {
        c.differ("VLEN", a.vlen.to_string(), b.vlen.to_string());
        return;
    }
    for (what, x, y) in [
        ("vl", a.vl, b.vl),
        ("vtype", a.vtype, b.vtype),
        ("vstart", a.vstart, b.vstart),
        ("vcsr", a.vcsr, b.vcsr),
    ] {
        if x != y {
            c.differ(what, hex(x.0), hex(y.0));
        }
    }
    for (i, (x, y)) in a.v.iter().zip(&b.v).enumerate() {
        if x != y {
            c.differ(format!("v{i}"), x.clone(), y.clone());
        }
    }
}

/// Compares the CLINT's state (both from QEMU).
pub fn platforms(c: &mut Comparison, l: &PlatformDump, r: &PlatformDump) {
    c.covered.platform = true;
    for (what, x, y) in [
        ("mtime", l.mtime, r.mtime),
        ("mtimecmp", l.mtimecmp, r.mtimecmp),
        ("msip", l.msip, r.msip),
    ] {
        if x != y {
            c.differ(what, hex(x.0), hex(y.0));
        }
    }
}

/// The chunk RAM is compared in, so that the right side can be read a
/// piece at a time rather than copied whole.
const CHUNK: usize = 1 << 20;

/// Compares `left` (RAM from `base`) with the right side, read a chunk at
/// a time by `right(address, length)`.
pub fn ram(
    c: &mut Comparison,
    base: u64,
    left: &[u8],
    right: &mut dyn FnMut(u64, usize) -> Result<Vec<u8>, VerifyError>,
    names: &Names,
) -> Result<(), VerifyError> {
    c.covered.ram = left.len() as u64;
    let mut found: Option<RamDiff> = None;
    let mut last_page = None;
    for (k, l) in left.chunks(CHUNK).enumerate() {
        let at = base + (k * CHUNK) as u64;
        let r = right(at, l.len())?;
        if r.len() != l.len() {
            return Err(VerifyError::RamLength {
                side: c.right,
                got: r.len(),
                at,
                want: l.len(),
            });
        }
        if l == r.as_slice() {
            continue;
        }
        for (i, (x, y)) in l.iter().zip(&r).enumerate() {
            if x == y {
                continue;
            }
            let addr = at + i as u64;
            let d = found.get_or_insert_with(|| RamDiff {
                first: addr,
                named: names.phys(addr),
                left: *x,
                right: *y,
                bytes: 0,
                pages: 0,
            });
            d.bytes += 1;
            if last_page != Some(addr >> 12) {
                last_page = Some(addr >> 12);
                d.pages += 1;
            }
        }
    }
    c.ram = found;
    Ok(())
}

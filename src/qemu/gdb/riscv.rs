//! What a RISC-V snapshot needs from the stub's register map: the GDB
//! standard features org.gnu.gdb.riscv.cpu (x0..x31, pc), .csr, .virtual
//! (priv) and .vector (GDB manual, §G.5 "RISC-V Features").

use super::{GdbError, RegMap};
use crate::isa::{ABI, csr_name};
use std::collections::BTreeMap;

pub const CPU: &str = "org.gnu.gdb.riscv.cpu";
pub const CSR: &str = "org.gnu.gdb.riscv.csr";
pub const VIRTUAL: &str = "org.gnu.gdb.riscv.virtual";
pub const VECTOR: &str = "org.gnu.gdb.riscv.vector";

/// Register numbers for a RISC-V snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiscvRegs {
    /// x0..x31.
    pub x: [u32; 32],
    pub pc: u32,
    /// Every register of the csr feature, by name.
    pub csr: BTreeMap<String, u32>,
    /// regnum = CSR number + this, found from the CSRs whose numbers
    /// trapscope knows (`isa::names::csr_name`).
    pub csr_base: u32,
    /// The privilege (0 U, 1 S, 3 M) from the virtual feature.
    pub priv_: Option<u32>,
    /// v0..v31 when the hart has V.
    pub v: Vec<u32>,
    /// VLEN in bits (the size of v0) when the hart has V.
    pub vlen_bits: Option<u32>,
    /// The vector CSRs (`VECTOR_CSRS`) by name, from the vector feature
    /// (QEMU 7.2 lists them there, after v31) or else the csr feature;
    /// one neither lists is absent, and the snapshot refuses it by name.
    pub vector_csrs: BTreeMap<String, u32>,
}

/// The vector CSRs a snapshot of a hart with V records (V spec §3: vstart,
/// vxsat, vxrm, vcsr, vl, vtype, vlenb).
pub const VECTOR_CSRS: [&str; 7] = ["vstart", "vxsat", "vxrm", "vcsr", "vl", "vtype", "vlenb"];

/// fcsr's CSR number (unprivileged spec, "CSR Listing"): QEMU 7.2 builds
/// its CSR list while FS is Off and leaves fcsr out, yet answers `p` at
/// the CSR base plus this number.
pub const FCSR: u16 = 0x003;

impl RiscvRegs {
    pub fn from_map(map: &RegMap) -> Result<RiscvRegs, GdbError> {
        let bad = |why: String| GdbError::RiscvMap { why };
        let in_feature = |name: &str, feature: &str| {
            map.get(name)
                .filter(|r| r.feature == feature)
                .map(|r| r.regnum)
        };
        let mut x = [0u32; 32];
        for (i, slot) in x.iter_mut().enumerate() {
            // GDB's cpu feature names x8 "fp", the psABI "s0".
            let n = in_feature(ABI[i], CPU)
                .or_else(|| (i == 8).then(|| in_feature("fp", CPU)).flatten())
                .or_else(|| in_feature(&format!("x{i}"), CPU))
                .ok_or_else(|| bad(format!("no x{i} ({}) in {CPU}", ABI[i])))?;
            *slot = n;
        }
        let pc = in_feature("pc", CPU).ok_or_else(|| bad(format!("no pc in {CPU}")))?;
        let csr: BTreeMap<String, u32> = map
            .feature(CSR)
            .map(|(n, r)| (n.to_string(), r.regnum))
            .collect();
        if csr.is_empty() {
            return Err(bad(format!("no {CSR} feature")));
        }
        let numbers: BTreeMap<&str, u32> = (0u16..0x1000)
            .filter_map(|c| csr_name(c).map(|n| (n, u32::from(c))))
            .collect();
        let mut base: Option<(u32, &str)> = None;
        for (name, &regnum) in &csr {
            let Some(&num) = numbers.get(name.as_str()) else {
                continue;
            };
            let b = regnum
                .checked_sub(num)
                .ok_or_else(|| bad(format!("{name} is numbered {regnum}, below its CSR number")))?;
            match base {
                None => base = Some((b, name)),
                Some((b0, first)) if b0 != b => {
                    return Err(bad(format!(
                        "CSR numbering is not CSR + base: {first} gives base {b0}, {name} gives {b}"
                    )));
                }
                Some(_) => {}
            }
        }
        let (csr_base, _) =
            base.ok_or_else(|| bad(format!("{CSR} has none of the CSRs trapscope knows")))?;
        let priv_ = in_feature("priv", VIRTUAL);
        let mut v = Vec::new();
        let mut vlen_bits = None;
        if map.feature(VECTOR).next().is_some() {
            for i in 0..32 {
                let name = format!("v{i}");
                let r = map
                    .get(&name)
                    .filter(|r| r.feature == VECTOR)
                    .ok_or_else(|| bad(format!("{VECTOR} lacks {name}")))?;
                match vlen_bits {
                    None => vlen_bits = Some(r.bitsize),
                    Some(b) if b != r.bitsize => {
                        return Err(bad(format!("{name} is {} bits, v0 is {b}", r.bitsize)));
                    }
                    Some(_) => {}
                }
                v.push(r.regnum);
            }
        }
        let mut vector_csrs = BTreeMap::new();
        if !v.is_empty() {
            for name in VECTOR_CSRS {
                let r = in_feature(name, VECTOR).or_else(|| in_feature(name, CSR));
                if let Some(r) = r {
                    vector_csrs.insert(name.to_string(), r);
                }
            }
        }
        Ok(RiscvRegs {
            x,
            pc,
            csr,
            csr_base,
            priv_,
            v,
            vlen_bits,
            vector_csrs,
        })
    }

    /// The regnum the CSR-numbered registers give CSR `csr`, whether or
    /// not the stub described it.
    pub fn csr_regnum_unlisted(&self, csr: u16) -> u32 {
        self.csr_base + u32::from(csr)
    }

    /// The regnum of CSR number `csr`, if the stub described it.
    pub fn csr_regnum(&self, csr: u16) -> Option<u32> {
        let n = self.csr_base + u32::from(csr);
        self.csr.values().any(|&r| r == n).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qemu::gdb::RegInfo;

    fn map(extra: &[(&str, u32, u32, &str)]) -> RegMap {
        let mut m = RegMap::default();
        for (i, n) in ABI.iter().enumerate() {
            let n = if i == 8 { "fp" } else { n };
            m.regs.insert(n.to_string(), info(i as u32, 64, CPU));
        }
        m.regs.insert("pc".into(), info(32, 64, CPU));
        for &(n, r, bits, f) in extra {
            m.regs.insert(n.into(), info(r, bits, f));
        }
        m
    }

    fn info(regnum: u32, bitsize: u32, feature: &str) -> RegInfo {
        RegInfo {
            regnum,
            bitsize,
            feature: feature.into(),
        }
    }

    #[test]
    fn base_from_known_csrs_and_fp_as_x8() {
        // mstatus is CSR 0x300, mhartid 0xf14: both say base 200.
        let m = map(&[
            ("mstatus", 0x300 + 200, 64, CSR),
            ("mhartid", 0xf14 + 200, 64, CSR),
            ("custom", 5, 64, CSR),
        ]);
        let r = RiscvRegs::from_map(&m).unwrap();
        assert_eq!(r.x[8], 8);
        assert_eq!(r.csr_base, 200);
        assert_eq!(r.csr_regnum(0x300), Some(0x300 + 200));
        assert_eq!(r.csr_regnum(0x301), None);
        assert_eq!(r.csr.len(), 3);
        assert_eq!(r.priv_, None);
    }

    #[test]
    fn vector_csrs_come_from_the_vector_feature_and_a_missing_one_is_absent() {
        // QEMU 7.2's layout: v0..v31, then the vector CSRs, in the vector
        // feature; none of them in the csr feature.
        let mut regs: Vec<(String, u32, u32, &str)> = (0..32)
            .map(|i| (format!("v{i}"), 100 + i, 128, VECTOR))
            .collect();
        for (i, n) in VECTOR_CSRS.iter().enumerate().filter(|(_, n)| **n != "vl") {
            regs.push((n.to_string(), 132 + i as u32, 64, VECTOR));
        }
        regs.push(("mstatus".into(), 0x300 + 66, 64, CSR));
        let extra: Vec<(&str, u32, u32, &str)> = regs
            .iter()
            .map(|(n, r, b, f)| (n.as_str(), *r, *b, *f))
            .collect();
        let r = RiscvRegs::from_map(&map(&extra)).unwrap();
        assert_eq!(r.vlen_bits, Some(128));
        assert_eq!(r.vector_csrs.get("vtype"), Some(&(132 + 5)));
        assert_eq!(r.vector_csrs.get("vlenb"), Some(&(132 + 6)));
        assert_eq!(r.vector_csrs.get("vl"), None, "not listed: absent, never 0");
        assert_eq!(r.csr_regnum_unlisted(FCSR), 66 + 3);
    }

    #[test]
    fn inconsistent_base_and_ragged_vectors_are_refused() {
        let m = map(&[
            ("mstatus", 0x300 + 66, 64, CSR),
            ("mhartid", 0xf14 + 65, 64, CSR),
        ]);
        let e = RiscvRegs::from_map(&m).unwrap_err().to_string();
        assert!(e.contains("mhartid") && e.contains("mstatus"), "{e}");
        let mut v: Vec<(String, u32, u32)> =
            (0..32).map(|i| (format!("v{i}"), 100 + i, 128)).collect();
        v[5].2 = 256;
        let extra: Vec<(&str, u32, u32, &str)> = v
            .iter()
            .map(|(n, r, b)| (n.as_str(), *r, *b, VECTOR))
            .chain([("mstatus", 0x300 + 66, 64, CSR)])
            .collect();
        let e = RiscvRegs::from_map(&map(&extra)).unwrap_err().to_string();
        assert!(e.contains("v5 is 256 bits"), "{e}");
        let e = RiscvRegs::from_map(&map(&[])).unwrap_err().to_string();
        assert!(e.contains("no org.gnu.gdb.riscv.csr"), "{e}");
    }
}

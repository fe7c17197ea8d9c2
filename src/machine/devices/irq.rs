//! Interrupts as trapscope decides them (docs/decisions.md D10): the shadow
//! of mie/mip/mideleg (unicorn's own stay zero, so QEMU never takes one by
//! itself), the S views sie/sip, and which interrupt the hart takes, per the
//! privileged spec §3.1.9 (mip/mie), §3.1.8 (mideleg), §3.1.6.1 (global
//! enables) and §4.1.3 (sip/sie).

use crate::trace::Priv;

pub const SSI: u64 = 1;
pub const MSI: u64 = 3;
pub const STI: u64 = 5;
pub const MTI: u64 = 7;
pub const SEI: u64 = 9;
pub const MEI: u64 = 11;

/// The interrupts this hart implements (mie's writable bits).
pub const IMPLEMENTED: u64 = bit(SSI) | bit(MSI) | bit(STI) | bit(MTI) | bit(SEI) | bit(MEI);
/// Delegable to S (mideleg's writable bits): the S-level interrupts.
pub const DELEGABLE: u64 = bit(SSI) | bit(STI) | bit(SEI);
/// mip bits M-mode software may write (SSIP, STIP, SEIP: no Sstc, so
/// firmware raises STIP for the kernel's timer).
pub const MIP_WRITABLE: u64 = DELEGABLE;
/// sip bits S-mode software may write (where delegated): SSIP only.
pub const SIP_WRITABLE: u64 = bit(SSI);

/// Decreasing priority (§3.1.9): MEI, MSI, MTI, SEI, SSI, STI.
pub const PRIORITY: [u64; 6] = [MEI, MSI, MTI, SEI, SSI, STI];

pub const fn bit(code: u64) -> u64 {
    1 << code
}

pub const MIE: u16 = 0x304;
pub const MIP: u16 = 0x344;
pub const MIDELEG: u16 = 0x303;
pub const SIE: u16 = 0x104;
pub const SIP: u16 = 0x144;

/// Whether trapscope keeps this CSR in its shadow.
pub fn is_shadowed(csr: u16) -> bool {
    matches!(csr, MIE | MIP | MIDELEG | SIE | SIP)
}

/// The interrupt CSRs trapscope keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IrqState {
    pub mie: u64,
    /// mip bits as software wrote them (SSIP, STIP, SEIP).
    pub mip_sw: u64,
    pub mideleg: u64,
}

impl IrqState {
    /// mip as read: what software wrote, OR the device lines (§3.1.9: SEIP
    /// reads as the OR of the software bit and the external signal).
    pub fn mip(&self, lines: u64) -> u64 {
        (self.mip_sw | lines) & IMPLEMENTED
    }

    /// The value a CSR reads, given the device lines.
    pub fn read(&self, csr: u16, lines: u64) -> u64 {
        match csr {
            MIE => self.mie,
            MIP => self.mip(lines),
            MIDELEG => self.mideleg,
            SIE => self.mie & self.mideleg,
            SIP => self.mip(lines) & self.mideleg,
            _ => 0,
        }
    }

    /// Writes `new` to `csr` (WARL: only the writable bits change). A
    /// read-modify-write of mip works on the software bits (`old_sw`).
    pub fn write(&mut self, csr: u16, new: u64) {
        match csr {
            MIE => self.mie = new & IMPLEMENTED,
            MIDELEG => self.mideleg = new & DELEGABLE,
            MIP => self.mip_sw = new & MIP_WRITABLE,
            SIE => {
                let m = self.mideleg;
                self.mie = (self.mie & !m) | (new & m);
            }
            SIP => {
                let m = self.mideleg & SIP_WRITABLE;
                self.mip_sw = (self.mip_sw & !m) | (new & m);
            }
            _ => {}
        }
    }
}

/// The global enables at the current privilege (§3.1.6.1).
#[derive(Clone, Copy, Debug)]
pub struct Enables {
    pub priv_: Priv,
    /// mstatus.MIE and mstatus.SIE.
    pub mie: bool,
    pub sie: bool,
}

/// The interrupts that would be taken now if pending, each with the mode
/// that takes it: bits taken in M, bits taken in S. An interrupt goes to M
/// unless delegated; one for a higher privilege than the current is always
/// enabled, for a lower one never, for the same one when xIE is set; a
/// delegated interrupt is never taken in M.
pub fn takeable(st: &IrqState, en: Enables) -> (u64, u64) {
    let to_m = st.mie & !st.mideleg;
    let to_s = st.mie & st.mideleg;
    let m_on = en.priv_ < Priv::M || en.mie;
    let s_on = en.priv_ < Priv::S || (en.priv_ == Priv::S && en.sie);
    (if m_on { to_m } else { 0 }, if s_on { to_s } else { 0 })
}

/// Which interrupt the hart takes with `pending` (mip), if any: its code and
/// the mode that takes it. Interrupts for M come before any for S; within a
/// mode, `PRIORITY` decides.
pub fn select(st: &IrqState, pending: u64, en: Enables) -> Option<(u64, Priv)> {
    let (m, s) = takeable(st, en);
    for (set, to) in [(m & pending, Priv::M), (s & pending, Priv::S)] {
        if let Some(&c) = PRIORITY.iter().find(|&&c| set & bit(c) != 0) {
            return Some((c, to));
        }
    }
    None
}

/// Whether `wfi` would return now: some interrupt pending and enabled in
/// mie, whatever the global enables and delegation (§3.3.3).
pub fn wakes(st: &IrqState, pending: u64) -> bool {
    st.mie & pending != 0
}

/// A short key for counts in reports (`interrupts.s_timer`).
pub fn key(code: u64) -> &'static str {
    match code {
        SSI => "s_software",
        MSI => "m_software",
        STI => "s_timer",
        MTI => "m_timer",
        SEI => "s_external",
        MEI => "m_external",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(p: Priv, mie: bool, sie: bool) -> Enables {
        Enables { priv_: p, mie, sie }
    }

    fn all_on(mideleg: u64) -> IrqState {
        IrqState {
            mie: IMPLEMENTED,
            mip_sw: 0,
            mideleg,
        }
    }

    #[test]
    fn global_enables_follow_the_privilege_rules() {
        // §3.1.6.1, for an interrupt to M (not delegated) ...
        let st = all_on(0);
        let mti = bit(MTI);
        assert_eq!(select(&st, mti, en(Priv::M, false, true)), None, "M, MIE=0");
        assert_eq!(
            select(&st, mti, en(Priv::M, true, false)),
            Some((MTI, Priv::M))
        );
        assert_eq!(
            select(&st, mti, en(Priv::S, false, false)),
            Some((MTI, Priv::M)),
            "higher privilege: always enabled"
        );
        assert_eq!(
            select(&st, mti, en(Priv::U, false, false)),
            Some((MTI, Priv::M))
        );
        // ... and for one delegated to S.
        let st = all_on(DELEGABLE);
        let sti = bit(STI);
        assert_eq!(
            select(&st, sti, en(Priv::M, true, true)),
            None,
            "lower: never"
        );
        assert_eq!(select(&st, sti, en(Priv::S, true, false)), None, "S, SIE=0");
        assert_eq!(
            select(&st, sti, en(Priv::S, false, true)),
            Some((STI, Priv::S))
        );
        assert_eq!(
            select(&st, sti, en(Priv::U, false, false)),
            Some((STI, Priv::S))
        );
    }

    #[test]
    fn an_undelegated_s_interrupt_goes_to_m() {
        let st = all_on(0);
        assert_eq!(
            select(&st, bit(STI), en(Priv::U, false, false)),
            Some((STI, Priv::M))
        );
        assert_eq!(select(&st, bit(STI), en(Priv::M, false, false)), None);
    }

    #[test]
    fn priority_order_mei_msi_mti_sei_ssi_sti() {
        let st = all_on(0);
        let u = en(Priv::U, false, false);
        let mut pending = 0;
        for c in PRIORITY.iter().rev() {
            pending |= bit(*c);
            assert_eq!(select(&st, pending, u), Some((*c, Priv::M)), "{c}");
        }
        // Interrupts for M come before those for S, whatever their codes.
        let st = all_on(DELEGABLE);
        assert_eq!(select(&st, bit(SEI) | bit(MTI), u), Some((MTI, Priv::M)));
        assert_eq!(select(&st, bit(SSI) | bit(STI), u), Some((SSI, Priv::S)));
    }

    #[test]
    fn mie_masks_each_interrupt() {
        let mut st = all_on(0);
        st.mie = bit(MSI);
        let u = en(Priv::U, true, true);
        assert_eq!(select(&st, bit(MTI), u), None);
        assert!(!wakes(&st, bit(MTI)));
        assert!(wakes(&st, bit(MSI)), "wfi ignores the global enables");
        assert!(wakes(&st, bit(MSI) | bit(MTI)));
    }

    #[test]
    fn csr_views_are_warl_and_masked_by_mideleg() {
        let mut st = IrqState::default();
        st.write(MIDELEG, u64::MAX);
        assert_eq!(
            st.mideleg, DELEGABLE,
            "M-level interrupts are not delegable"
        );
        st.write(MIE, u64::MAX);
        assert_eq!(st.mie, IMPLEMENTED);
        assert_eq!(st.read(SIE, 0), DELEGABLE);
        st.write(SIE, 0);
        assert_eq!(
            st.mie,
            bit(MSI) | bit(MTI) | bit(MEI),
            "sie clears only S bits"
        );
        // mip: software writes SSIP/STIP/SEIP, never the device lines.
        st.write(MIP, u64::MAX);
        assert_eq!(st.mip_sw, bit(SSI) | bit(STI) | bit(SEI));
        assert_eq!(st.read(MIP, bit(MTI)), st.mip_sw | bit(MTI));
        st.write(MIP, 0);
        // sip: SSIP only, and only when delegated.
        st.write(SIP, u64::MAX);
        assert_eq!(st.mip_sw, bit(SSI));
        st.write(MIDELEG, 0);
        st.write(SIP, 0);
        assert_eq!(st.mip_sw, bit(SSI), "not delegated: read-only in sip");
        assert_eq!(st.read(SIP, 0), 0);
    }
}

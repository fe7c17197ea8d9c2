//! vsetvli, vsetivli and vsetvl (V spec 1.0 §6).

use super::vtype::{VILL, Vtype};
use crate::vector::unit::{Effect, VClass, VHost, VUnit};

/// Where the application vector length comes from (§6.2).
pub(super) enum Avl {
    /// rs1 of vsetvli / vsetvl; x0 has the special meanings of §6.2.
    Reg(u8),
    /// The 5-bit unsigned immediate of vsetivli.
    Imm(u8),
}

/// Sets vtype and vl and writes the new vl to rd. vl = AVL when AVL ≤ VLMAX
/// and VLMAX otherwise, one of the choices §6.3 allows (no ceil(AVL/2) split).
pub(super) fn vsetvl(
    u: &mut VUnit,
    host: &mut impl VHost,
    rd: u8,
    avl: Avl,
    requested: u64,
) -> Effect {
    let old_vlmax = Vtype::parse(u.vtype, u.vlen).map(|t| t.vlmax(u.vlen));
    let avl = match avl {
        Avl::Imm(n) => Some(u64::from(n)),
        // rs1 = x0, rd != x0: AVL = ~0, so vl = VLMAX.
        Avl::Reg(0) if rd != 0 => Some(u64::MAX),
        // rs1 = x0, rd = x0: keep the current vl.
        Avl::Reg(0) => None,
        Avl::Reg(r) => Some(host.x(r)),
    };
    let vlmax = Vtype::parse(requested, u.vlen).map(|t| t.vlmax(u.vlen));
    match (vlmax, avl) {
        (Some(vlmax), Some(avl)) => {
            u.vtype = requested;
            u.vl = avl.min(vlmax);
        }
        // Keeping vl is reserved when VLMAX changes or vill was set before;
        // §6.2 lets the implementation set vill then, and trapscope does.
        (Some(vlmax), None) if old_vlmax == Some(vlmax) => u.vtype = requested,
        // An unsupported vtype: vill set, the other bits and vl zero (§3.4.4).
        _ => {
            u.vtype = VILL;
            u.vl = 0;
        }
    }
    if rd != 0 {
        host.set_x(rd, u.vl);
    }
    Effect {
        dirties: true,
        written: 0,
        class: VClass::Config,
    }
}

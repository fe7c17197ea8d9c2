//! Mnemonics of the OP-V instructions trapscope does not run, so that
//! `VTrap::Unsupported` names the instruction the guest tried (V spec 1.0
//! §10.1 and the opcode tables of its instruction listing, checked against
//! binutils 2.40 in the tests). A missing entry means a reserved encoding.

use super::{Operand, bits};

/// `(funct6, forms, pattern)`: `forms` lists the operand kinds the encoding
/// exists for (V = vector, X = scalar, I = immediate, F = FP scalar); `*` in
/// the pattern becomes the form's letter, and a trailing `?` becomes `m` when
/// the instruction is masked (vm = 0), as for vmadc.vvm.
type Table = [(u32, &'static str, &'static str)];

const OPI: &Table = &[
    (0b000000, "VXI", "vadd.v*"),
    (0b000010, "VX", "vsub.v*"),
    (0b000011, "XI", "vrsub.v*"),
    (0b000100, "VX", "vminu.v*"),
    (0b000101, "VX", "vmin.v*"),
    (0b000110, "VX", "vmaxu.v*"),
    (0b000111, "VX", "vmax.v*"),
    (0b001001, "VXI", "vand.v*"),
    (0b001010, "VXI", "vor.v*"),
    (0b001011, "VXI", "vxor.v*"),
    (0b001100, "VXI", "vrgather.v*"),
    (0b001110, "V", "vrgatherei16.vv"),
    (0b001110, "XI", "vslideup.v*"),
    (0b001111, "XI", "vslidedown.v*"),
    (0b010000, "VXI", "vadc.v*m"),
    (0b010001, "VXI", "vmadc.v*?"),
    (0b010010, "VX", "vsbc.v*m"),
    (0b010011, "VX", "vmsbc.v*?"),
    (0b010111, "VXI", "vmerge.v*m"),
    (0b011000, "VXI", "vmseq.v*"),
    (0b011001, "VXI", "vmsne.v*"),
    (0b011010, "VX", "vmsltu.v*"),
    (0b011011, "VX", "vmslt.v*"),
    (0b011100, "VXI", "vmsleu.v*"),
    (0b011101, "VXI", "vmsle.v*"),
    (0b011110, "XI", "vmsgtu.v*"),
    (0b011111, "XI", "vmsgt.v*"),
    (0b100000, "VXI", "vsaddu.v*"),
    (0b100001, "VXI", "vsadd.v*"),
    (0b100010, "VX", "vssubu.v*"),
    (0b100011, "VX", "vssub.v*"),
    (0b100101, "VXI", "vsll.v*"),
    (0b100111, "VX", "vsmul.v*"),
    (0b101000, "VXI", "vsrl.v*"),
    (0b101001, "VXI", "vsra.v*"),
    (0b101010, "VXI", "vssrl.v*"),
    (0b101011, "VXI", "vssra.v*"),
    (0b101100, "VXI", "vnsrl.w*"),
    (0b101101, "VXI", "vnsra.w*"),
    (0b101110, "VXI", "vnclipu.w*"),
    (0b101111, "VXI", "vnclip.w*"),
    (0b110000, "V", "vwredsumu.vs"),
    (0b110001, "V", "vwredsum.vs"),
];

const OPM: &Table = &[
    (0b000000, "V", "vredsum.vs"),
    (0b000001, "V", "vredand.vs"),
    (0b000010, "V", "vredor.vs"),
    (0b000011, "V", "vredxor.vs"),
    (0b000100, "V", "vredminu.vs"),
    (0b000101, "V", "vredmin.vs"),
    (0b000110, "V", "vredmaxu.vs"),
    (0b000111, "V", "vredmax.vs"),
    (0b001000, "VX", "vaaddu.v*"),
    (0b001001, "VX", "vaadd.v*"),
    (0b001010, "VX", "vasubu.v*"),
    (0b001011, "VX", "vasub.v*"),
    (0b001110, "X", "vslide1up.vx"),
    (0b001111, "X", "vslide1down.vx"),
    (0b010111, "V", "vcompress.vm"),
    (0b011000, "V", "vmandn.mm"),
    (0b011001, "V", "vmand.mm"),
    (0b011010, "V", "vmor.mm"),
    (0b011011, "V", "vmxor.mm"),
    (0b011100, "V", "vmorn.mm"),
    (0b011101, "V", "vmnand.mm"),
    (0b011110, "V", "vmnor.mm"),
    (0b011111, "V", "vmxnor.mm"),
    (0b100000, "VX", "vdivu.v*"),
    (0b100001, "VX", "vdiv.v*"),
    (0b100010, "VX", "vremu.v*"),
    (0b100011, "VX", "vrem.v*"),
    (0b100100, "VX", "vmulhu.v*"),
    (0b100101, "VX", "vmul.v*"),
    (0b100110, "VX", "vmulhsu.v*"),
    (0b100111, "VX", "vmulh.v*"),
    (0b101001, "VX", "vmadd.v*"),
    (0b101011, "VX", "vnmsub.v*"),
    (0b101101, "VX", "vmacc.v*"),
    (0b101111, "VX", "vnmsac.v*"),
    (0b110000, "VX", "vwaddu.v*"),
    (0b110001, "VX", "vwadd.v*"),
    (0b110010, "VX", "vwsubu.v*"),
    (0b110011, "VX", "vwsub.v*"),
    (0b110100, "VX", "vwaddu.w*"),
    (0b110101, "VX", "vwadd.w*"),
    (0b110110, "VX", "vwsubu.w*"),
    (0b110111, "VX", "vwsub.w*"),
    (0b111000, "VX", "vwmulu.v*"),
    (0b111010, "VX", "vwmulsu.v*"),
    (0b111011, "VX", "vwmul.v*"),
    (0b111100, "VX", "vwmaccu.v*"),
    (0b111101, "VX", "vwmacc.v*"),
    (0b111110, "X", "vwmaccus.vx"),
    (0b111111, "VX", "vwmaccsu.v*"),
];

const OPF: &Table = &[
    (0b000000, "VF", "vfadd.v*"),
    (0b000001, "V", "vfredusum.vs"),
    (0b000010, "VF", "vfsub.v*"),
    (0b000011, "V", "vfredosum.vs"),
    (0b000100, "VF", "vfmin.v*"),
    (0b000101, "V", "vfredmin.vs"),
    (0b000110, "VF", "vfmax.v*"),
    (0b000111, "V", "vfredmax.vs"),
    (0b001000, "VF", "vfsgnj.v*"),
    (0b001001, "VF", "vfsgnjn.v*"),
    (0b001010, "VF", "vfsgnjx.v*"),
    (0b001110, "F", "vfslide1up.vf"),
    (0b001111, "F", "vfslide1down.vf"),
    (0b010000, "V", "vfmv.f.s"),
    (0b010000, "F", "vfmv.s.f"),
    (0b010010, "V", "vfcvt/vfwcvt/vfncvt (VFUNARY0)"),
    (0b010011, "V", "vfsqrt/vfrsqrt7/vfrec7/vfclass (VFUNARY1)"),
    (0b010111, "F", "vfmerge.vfm"),
    (0b011000, "VF", "vmfeq.v*"),
    (0b011001, "VF", "vmfle.v*"),
    (0b011011, "VF", "vmflt.v*"),
    (0b011100, "VF", "vmfne.v*"),
    (0b011101, "F", "vmfgt.vf"),
    (0b011111, "F", "vmfge.vf"),
    (0b100000, "VF", "vfdiv.v*"),
    (0b100001, "F", "vfrdiv.vf"),
    (0b100100, "VF", "vfmul.v*"),
    (0b100111, "F", "vfrsub.vf"),
    (0b101000, "VF", "vfmadd.v*"),
    (0b101001, "VF", "vfnmadd.v*"),
    (0b101010, "VF", "vfmsub.v*"),
    (0b101011, "VF", "vfnmsub.v*"),
    (0b101100, "VF", "vfmacc.v*"),
    (0b101101, "VF", "vfnmacc.v*"),
    (0b101110, "VF", "vfmsac.v*"),
    (0b101111, "VF", "vfnmsac.v*"),
    (0b110000, "VF", "vfwadd.v*"),
    (0b110001, "V", "vfwredusum.vs"),
    (0b110010, "VF", "vfwsub.v*"),
    (0b110011, "V", "vfwredosum.vs"),
    (0b110100, "VF", "vfwadd.w*"),
    (0b110110, "VF", "vfwsub.w*"),
    (0b111000, "VF", "vfwmul.v*"),
    (0b111100, "VF", "vfwmacc.v*"),
    (0b111101, "VF", "vfwnmacc.v*"),
    (0b111110, "VF", "vfwmsac.v*"),
    (0b111111, "VF", "vfwnmsac.v*"),
];

fn lookup(table: &Table, raw: u32, form: char) -> Option<String> {
    let funct6 = bits(raw, 31, 26);
    let masked = bits(raw, 25, 25) == 0;
    let (_, _, pattern) = table
        .iter()
        .find(|(f, forms, _)| *f == funct6 && forms.contains(form))?;
    let letter = form.to_ascii_lowercase().to_string();
    let name = pattern.replace('*', &letter);
    Some(match name.strip_suffix('?') {
        Some(stem) if masked => format!("{stem}m"),
        Some(stem) => stem.to_string(),
        None => name,
    })
}

/// OPIVV / OPIVX / OPIVI; funct6 100111 with an immediate is vmv<nr>r.v,
/// whose simm5 holds nr - 1 for nr = 1, 2, 4, 8 (§16.6).
pub(super) fn op_i(raw: u32, src: Operand) -> Option<String> {
    let form = match src {
        Operand::V(_) => 'V',
        Operand::X(_) => 'X',
        Operand::I(_) => 'I',
    };
    if bits(raw, 31, 26) == 0b100111 && form == 'I' {
        let nr = bits(raw, 19, 15) + 1;
        return [1, 2, 4, 8].contains(&nr).then(|| format!("vmv{nr}r.v"));
    }
    lookup(OPI, raw, form)
}

/// OPMVV / OPMVX, including the unary groups selected by vs1 or vs2.
pub(super) fn op_m(raw: u32, x: bool) -> Option<String> {
    let (vs1, vs2) = (bits(raw, 19, 15), bits(raw, 24, 20));
    let unary = match (bits(raw, 31, 26), x) {
        (0b010000, false) => match vs1 {
            0b00000 => Some("vmv.x.s"),
            0b10000 => Some("vcpop.m"),
            0b10001 => Some("vfirst.m"),
            _ => return None,
        },
        (0b010000, true) => return (vs2 == 0).then(|| "vmv.s.x".to_string()),
        (0b010010, false) => {
            const EXT: [&str; 6] = [
                "vzext.vf8",
                "vsext.vf8",
                "vzext.vf4",
                "vsext.vf4",
                "vzext.vf2",
                "vsext.vf2",
            ];
            Some(*EXT.get(vs1.checked_sub(2)? as usize)?)
        }
        (0b010100, false) => match vs1 {
            0b00001 => Some("vmsbf.m"),
            0b00010 => Some("vmsof.m"),
            0b00011 => Some("vmsif.m"),
            0b10000 => Some("viota.m"),
            0b10001 => Some("vid.v"),
            _ => return None,
        },
        _ => None,
    };
    match unary {
        Some(name) => Some(name.to_string()),
        None => lookup(OPM, raw, if x { 'X' } else { 'V' }),
    }
}

/// OPFVV / OPFVF; reserved FP encodings are named by their fields.
pub(super) fn op_f(raw: u32) -> String {
    let vf = bits(raw, 14, 12) == 5;
    if vf && bits(raw, 31, 25) == 0b0101111 {
        return "vfmv.v.f".to_string(); // the unmasked vfmerge (§13.16)
    }
    lookup(OPF, raw, if vf { 'F' } else { 'V' }).unwrap_or_else(|| {
        let kind = if vf { "OPFVF" } else { "OPFVV" };
        format!("{kind} funct6 {:#08b}", bits(raw, 31, 26))
    })
}

//! Unit-stride (V spec 1.0 §7.4) and whole-register (§7.9) loads and stores.

use super::super::{Effect, VClass, VTrap, VUnit};
use super::{A0, A1, BASE, MEM, TestHost, elem, fill, ok, run};

const VSETVLI_T0_X0_E8_M8_TA_MA: u32 = 0x0c3072d7; // vsetvli t0, zero, e8, m8, ta, ma
const VSETIVLI_X0_5_E32_M1: u32 = 0xc102f057; // vsetivli zero, 5, e32, m1, tu, mu
const VSETIVLI_X0_4_E16_M1: u32 = 0xc0827057; // vsetivli zero, 4, e16, m1, tu, mu
const VLE8_V0: u32 = 0x02050007; // vle8.v v0, (a0)
const VSE8_V0: u32 = 0x02058027; // vse8.v v0, (a1)
const VLE32_V8: u32 = 0x02056407; // vle32.v v8, (a0)
const VSE32_V8: u32 = 0x0205e427; // vse32.v v8, (a1)
const VLE64_V8: u32 = 0x02057407; // vle64.v v8, (a0)
const VL8RE8_V8: u32 = 0xe2850407; // vl8re8.v v8, (a0)
const VS8R_V8: u32 = 0xe2858427; // vs8r.v v8, (a1)
const VL1RE32_V8: u32 = 0x02856407; // vl1re32.v v8, (a0)
const VL2RE16_V9: u32 = 0x22855487; // .insn 4, 0x22855487: vl2re16.v v9, (a0)
const VLE64_V2: u32 = 0x02057107; // .insn 4, 0x02057107: vle64.v v2, (a0)

fn unit() -> (VUnit, TestHost) {
    (VUnit::new(512), TestHost::new())
}

/// Writes little-endian 32-bit words 1, 2, 3, ... at `addr`.
fn words(h: &mut TestHost, addr: u64, n: u32) {
    for k in 0..n {
        let o = (addr - BASE) as usize + 4 * k as usize;
        h.mem[o..o + 4].copy_from_slice(&(k + 1).to_le_bytes());
    }
}

#[test]
fn vle32_then_vse32_round_trips() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_5_E32_M1); // vl = 5
    words(&mut h, BASE + 0x100, 8);
    fill(&mut u, 8, 0xee);
    h.x[A0] = BASE + 0x100;
    let e = ok(&mut u, &mut h, VLE32_V8);
    for i in 0..5 {
        assert_eq!(elem(&u, 8, i, 4), i as u64 + 1);
    }
    // Element 5 (word 6 in memory) is tail: still 0xeeeeeeee.
    assert_eq!(elem(&u, 8, 5, 4), 0xeeee_eeee);
    let load = Effect {
        dirties: true,
        written: 1 << 8,
        class: VClass::UnitStride {
            store: false,
            eew: 32,
            vl: 5,
        },
    };
    assert_eq!(e, load);
    h.x[A1] = BASE + 0x200;
    let e = ok(&mut u, &mut h, VSE32_V8);
    // 5 words = 20 bytes stored, the next byte untouched.
    assert_eq!(h.bytes(BASE + 0x200, 20), h.bytes(BASE + 0x100, 20));
    assert_eq!(h.bytes(BASE + 0x214, 4), &[0, 0, 0, 0]);
    let store = Effect {
        dirties: false,
        written: 0,
        class: VClass::UnitStride {
            store: true,
            eew: 32,
            vl: 5,
        },
    };
    assert_eq!(e, store);
}

#[test]
fn e8_m8_moves_eight_registers_like_the_kernel_save() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETVLI_T0_X0_E8_M8_TA_MA); // vl = 512 bytes
    for (k, b) in h.mem[..512].iter_mut().enumerate() {
        *b = k as u8;
    }
    h.x[A0] = BASE;
    let e = ok(&mut u, &mut h, VLE8_V0);
    assert_eq!(&u.regs[..512], h.bytes(BASE, 512));
    assert_eq!(e.written, 0xff, "v0..v7");
    h.x[A1] = BASE + 0x800;
    ok(&mut u, &mut h, VSE8_V0);
    assert_eq!(h.bytes(BASE + 0x800, 512), h.bytes(BASE, 512));
}

#[test]
fn emul_must_fit() {
    let (mut u, mut h) = unit();
    h.x[A0] = BASE;
    // SEW 8, LMUL 8, EEW 64: EMUL = (64/8)·8 = 64 > 8, reserved (§7.3).
    ok(&mut u, &mut h, VSETVLI_T0_X0_E8_M8_TA_MA);
    assert!(matches!(
        run(&mut u, &mut h, VLE64_V8),
        Err(VTrap::Illegal(_))
    ));
    // SEW 16, LMUL 1, EEW 64: EMUL = 4, so vd must be a multiple of 4:
    // v8 is fine, v2 is not.
    ok(&mut u, &mut h, VSETIVLI_X0_4_E16_M1);
    ok(&mut u, &mut h, VLE64_V8);
    assert!(matches!(
        run(&mut u, &mut h, VLE64_V2),
        Err(VTrap::Illegal(_))
    ));
}

#[test]
fn a_fault_reports_the_address_and_the_element_in_vstart() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_5_E32_M1);
    // Elements 0..3 at MEM-12..MEM fit; element 3 would be at BASE + MEM.
    let start = BASE + MEM as u64 - 12;
    h.x[A0] = start;
    words(&mut h, start, 3);
    let trap = run(&mut u, &mut h, VLE32_V8);
    let fault = VTrap::Memory {
        addr: BASE + MEM as u64,
        store: false,
    };
    assert_eq!(trap, Err(fault));
    assert_eq!(u.vstart, 3, "§17.1: vstart names the faulting element");
    assert_eq!(elem(&u, 8, 2, 4), 3, "elements before it completed");
}

#[test]
fn whole_registers_ignore_vtype() {
    // From reset vtype.vill is set; vl8re8 / vs8r still run (§3.4.4, §7.9).
    let (mut u, mut h) = unit();
    for (k, b) in h.mem[..512].iter_mut().enumerate() {
        *b = (k * 7) as u8;
    }
    h.x[A0] = BASE;
    let e = ok(&mut u, &mut h, VL8RE8_V8);
    // 8 registers × 64 bytes = 512 bytes into v8..v15.
    assert_eq!(&u.regs[8 * 64..16 * 64], h.bytes(BASE, 512));
    let load = Effect {
        dirties: true,
        written: 0xff << 8,
        class: VClass::WholeReg {
            store: false,
            nregs: 8,
        },
    };
    assert_eq!(e, load);
    h.x[A1] = BASE + 0x400;
    let e = ok(&mut u, &mut h, VS8R_V8);
    assert_eq!(h.bytes(BASE + 0x400, 512), h.bytes(BASE, 512));
    assert_eq!((e.dirties, e.written), (false, 0));
    assert_eq!(u.vtype, 1 << 63, "vtype untouched");
}

#[test]
fn whole_register_vstart_and_alignment() {
    let (mut u, mut h) = unit();
    words(&mut h, BASE, 16);
    h.x[A0] = BASE;
    // vl1re32 has evl = 512/32 = 16 elements; vstart = 10 loads 10..16 only.
    assert!(u.write_csr(0x008, 10));
    let e = ok(&mut u, &mut h, VL1RE32_V8);
    assert_eq!((elem(&u, 8, 9, 4), elem(&u, 8, 10, 4)), (0, 11));
    assert_eq!((u.vstart, e.written), (0, 1 << 8));
    // Two registers must start at an even register (§7.9).
    assert!(matches!(
        run(&mut u, &mut h, VL2RE16_V9),
        Err(VTrap::Illegal(_))
    ));
}

//! Guests generated in code, for `bench` and the tests: straight-line FP
//! code of any length (the cost of intercepts must stay linear in it) and
//! hostile guests that storm one slow path each (traps, interrupts, code
//! that rewrites itself), timed against a plain loop. The instructions are
//! encoded here directly (unprivileged spec ch. 24 "RV32/64G Instruction
//! Set Listings"), so no toolchain and no committed ELF is needed.

use std::path::PathBuf;

use crate::machine::Program;
use crate::program::Segment;

/// Where a generated guest's RAM starts and runs from (QEMU virt's RAM).
pub const BASE: u64 = 0x8000_0000;
/// RAM given to a generated guest.
const RAM: u64 = 1 << 20;

const OP_IMM: u32 = 0x13;
const OP: u32 = 0x33;
const STORE: u32 = 0x23;
const LOAD: u32 = 0x03;
const SYSTEM: u32 = 0x73;
const OP_FP: u32 = 0x53;

// Register numbers (the standard ABI names).
const T0: u32 = 5;
const T1: u32 = 6;
const S0: u32 = 8;
const S1: u32 = 9;
const A0: u32 = 10;
const A1: u32 = 11;
const A2: u32 = 12;
const A3: u32 = 13;
const S2: u32 = 18;

/// A word-at-a-time assembler: offsets are from `BASE`.
#[derive(Default)]
struct Asm {
    words: Vec<u32>,
}

impl Asm {
    fn here(&self) -> i64 {
        self.words.len() as i64 * 4
    }
    fn w(&mut self, v: u32) {
        self.words.push(v);
    }
    fn i(&mut self, op: u32, f3: u32, rd: u32, rs1: u32, imm: i64) {
        self.w(((imm as u32 & 0xfff) << 20) | rs1 << 15 | f3 << 12 | rd << 7 | op);
    }
    fn r(&mut self, f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, op: u32) {
        self.w(f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op);
    }
    fn addi(&mut self, rd: u32, rs1: u32, imm: i64) {
        self.i(OP_IMM, 0, rd, rs1, imm);
    }
    fn lui(&mut self, rd: u32, imm20: u32) {
        self.w((imm20 & 0xf_ffff) << 12 | rd << 7 | 0x37);
    }
    fn sw(&mut self, rs2: u32, rs1: u32, imm: i64) {
        let imm = imm as u32;
        self.w((imm >> 5 & 0x7f) << 25
            | rs2 << 20
            | rs1 << 15
            | 2 << 12
            | (imm & 0x1f) << 7
            | STORE);
    }
    fn lw(&mut self, rd: u32, rs1: u32, imm: i64) {
        self.i(LOAD, 2, rd, rs1, imm);
    }
    /// `li` for values below 2^31 (lui + addi).
    fn li(&mut self, rd: u32, v: i64) {
        if (-2048..2048).contains(&v) {
            self.addi(rd, 0, v);
            return;
        }
        let hi = ((v + 0x800) >> 12) as u32;
        self.lui(rd, hi);
        self.addi(rd, rd, v - (i64::from(hi) << 12));
    }
    /// rd = BASE + off, pc-relative (auipc + addi).
    fn la(&mut self, rd: u32, off: i64) {
        let d = off - self.here();
        let hi = ((d + 0x800) >> 12) as u32;
        self.w((hi & 0xf_ffff) << 12 | rd << 7 | 0x17);
        self.addi(rd, rd, d - (i64::from(hi) << 12));
    }
    fn csrw(&mut self, csr: u32, rs1: u32) {
        self.w(csr << 20 | rs1 << 15 | 1 << 12 | SYSTEM);
    }
    fn csrs(&mut self, csr: u32, rs1: u32) {
        self.w(csr << 20 | rs1 << 15 | 2 << 12 | SYSTEM);
    }
    fn csrc(&mut self, csr: u32, rs1: u32) {
        self.w(csr << 20 | rs1 << 15 | 3 << 12 | SYSTEM);
    }
    fn csrr(&mut self, rd: u32, csr: u32) {
        self.w(csr << 20 | 2 << 12 | rd << 7 | SYSTEM);
    }
    /// `j` to BASE + off.
    fn j(&mut self, off: i64) {
        let d = (off - self.here()) as u32;
        self.w((d >> 20 & 1) << 31
            | (d >> 1 & 0x3ff) << 21
            | (d >> 11 & 1) << 20
            | (d >> 12 & 0xff) << 12
            | 0x6f);
    }
    /// Ends the run with a pass through the SiFive test device (0x100000).
    fn pass(&mut self) {
        self.lui(T0, 0x100);
        self.li(T1, 0x5555);
        self.sw(T1, T0, 0);
        self.j(self.here()); // not reached
    }
    fn pad_to(&mut self, off: i64) {
        while self.here() < off {
            self.addi(0, 0, 0);
        }
    }
    fn program(self, name: &str) -> Program {
        let data: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let memsz = (data.len() as u64).div_ceil(RAM) * RAM;
        let seg = Segment {
            index: 0,
            vaddr: BASE,
            memsz,
            data,
            exec: true,
            write: true,
        };
        Program::from_memory(&PathBuf::from(name), BASE, vec![seg], Vec::new())
    }
}

/// Sets mstatus.FS to Dirty (priv spec §3.1.6.6) so F/D instructions run.
fn fs_on(a: &mut Asm) {
    a.lui(T0, 6); // 0x6000: FS
    a.csrs(0x300, T0);
}

/// `n` distinct F or D instructions in straight-line code, each run once,
/// then a pass: fadd/fsub/fmul over every rd, rs1, rs2 in turn (3 · 32³
/// distinct encodings), after every f register is set to +0 (NaN-boxed for
/// singles by `fmv.w.x`).
pub fn fp_straight(n: usize, single: bool) -> Program {
    let mut a = Asm::default();
    fs_on(&mut a);
    let fmt = u32::from(!single);
    for r in 0..32 {
        // fmv.w.x / fmv.d.x fr, zero
        a.r(0x78 | fmt, 0, 0, 0, r, OP_FP);
    }
    for k in 0..n as u32 {
        let op = k % 3; // fadd, fsub, fmul
        let (rd, rs1, rs2) = (k / 3 % 32, k / 96 % 32, k / 3072 % 32);
        a.r(op << 2 | fmt, rs2, rs1, 0, rd, OP_FP);
    }
    a.pass();
    let kind = if single { "single" } else { "double" };
    a.program(&format!("<generated: {n} {kind}-precision instructions>"))
}

/// Instructions `fp_straight` runs besides the `n` FP ones.
pub const FP_STRAIGHT_EXTRA: u64 = 2 + 32 + 4;

/// A guest that storms one path of the machine from U-mode, with its trap
/// handler in M-mode; `Plain` is the loop the others are timed against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hostile {
    Plain,
    Ecall,
    Ebreak,
    AccessFault,
    Interrupt,
    SelfModifying,
    Trigger,
    /// ebreak whose handler jumps back to the loop without `mret`: every
    /// trap stays open.
    EbreakNoReturn,
    /// An LR/SC pair and an add, in U-mode: trapscope runs each LR and SC
    /// in software (its reservation model).
    Lrsc,
    /// The same in M-mode with mstatus.MPRV set and MPP = U (priv spec
    /// §3.1.6.3): the accesses are translated and checked as U-mode's.
    MprvLrsc,
    /// Two loads and an add under MPRV as above: the emulator translates
    /// them itself.
    MprvLoads,
    /// The plain loop in U-mode under Sv39, its root page table in the
    /// CLINT's mtimecmp page (a device, not RAM).
    DevicePageTable,
}

impl Hostile {
    pub const ALL: [Hostile; 12] = [
        Hostile::Plain,
        Hostile::Ecall,
        Hostile::Ebreak,
        Hostile::AccessFault,
        Hostile::Interrupt,
        Hostile::SelfModifying,
        Hostile::Trigger,
        Hostile::EbreakNoReturn,
        Hostile::Lrsc,
        Hostile::MprvLrsc,
        Hostile::MprvLoads,
        Hostile::DevicePageTable,
    ];

    /// Whether the storm rule ends it: it traps, rewrites run code or runs
    /// emulated instructions on every pass of its loop. The others run
    /// within the rule's slowdown to the budget.
    pub fn is_storm(self) -> bool {
        !matches!(
            self,
            Hostile::Plain | Hostile::MprvLoads | Hostile::DevicePageTable
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Hostile::Plain => "plain loop",
            Hostile::Ecall => "ecall storm",
            Hostile::Ebreak => "ebreak storm",
            Hostile::AccessFault => "access-fault storm",
            Hostile::Interrupt => "interrupt storm",
            Hostile::SelfModifying => "self-modifying code",
            Hostile::Trigger => "trigger storm",
            Hostile::EbreakNoReturn => "ebreak, no return",
            Hostile::Lrsc => "LR/SC loop",
            Hostile::MprvLrsc => "LR/SC under MPRV",
            Hostile::MprvLoads => "loads under MPRV",
            Hostile::DevicePageTable => "page table in a device",
        }
    }
}

/// Offsets of the loop and the handler in a hostile guest.
const LOOP: i64 = 0x400;
const HANDLER: i64 = 0x1000;
/// CLINT msip of hart 0.
const MSIP: i64 = 0x200_0000;
/// The CLINT's mtimecmp (a device page).
const MTIMECMP: i64 = 0x200_4000;
/// Data of the loops that load or reserve, on a page of its own.
const DATA: i64 = 0x2000;
/// An address nothing maps.
const HOLE: i64 = 0x4000_0000;

/// The hostile guest `kind` (it never ends: run it to a budget).
pub fn hostile(kind: Hostile) -> Program {
    hostile_spaced(kind, 0)
}

/// As `hostile`, with `pad` more instructions in its loop (`addi a3, a3,
/// 1` each, after the trapping one; before the `ebreak` that is never
/// returned from, whose handler jumps back to the loop's top), so that it
/// traps less often: below the storm cut-off from about 16 a loop.
pub fn hostile_spaced(kind: Hostile, pad: u32) -> Program {
    let mut a = Asm::default();
    a.la(T0, HANDLER);
    a.csrw(0x305, T0); // mtvec
    // PMP entry 0 over all memory, RWX, so that U-mode may run and store
    // (priv spec §3.7: no matching entry fails U-mode accesses).
    a.addi(T0, 0, -1);
    a.csrw(0x3b0, T0); // pmpaddr0
    a.li(T0, 0x1f); // NAPOT, RWX
    a.csrw(0x3a0, T0); // pmpcfg0
    match kind {
        Hostile::Interrupt => {
            a.li(S0, MSIP);
            a.li(S1, 1);
            a.li(T0, 8); // mie.MSIE
            a.csrs(0x304, T0);
        }
        Hostile::AccessFault => a.li(S2, HOLE),
        Hostile::SelfModifying => {
            a.la(S1, LOOP + 12); // the instruction the loop rewrites
            a.li(T1, 0x0015_0513); // addi a0, a0, 1
            a.lui(S2, 0x300); // xor mask: addi a0, a0, 1 <-> 2
        }
        Hostile::Trigger => {
            a.csrw(0x7a0, 0); // tselect = 0
            a.la(T0, LOOP); // execute address: the loop's first instruction
            a.csrw(0x7a2, T0);
            // mcontrol (debug spec §5.2.9): type 2, U, execute.
            a.li(T0, 2);
            a.i(OP_IMM, 1, T0, T0, 60); // slli t0, t0, 60
            a.i(OP_IMM, 6, T0, T0, 0xc); // ori: u | execute
            a.csrw(0x7a1, T0);
        }
        Hostile::Lrsc => a.la(S1, DATA),
        Hostile::MprvLrsc | Hostile::MprvLoads => {
            a.la(S1, DATA);
            a.li(T0, 0x1800);
            a.csrc(0x300, T0); // MPP = U
            a.lui(T0, 0x20); // MPRV
            a.csrs(0x300, T0);
            a.j(LOOP); // the loop runs in M-mode
        }
        Hostile::DevicePageTable => {
            // Root table at mtimecmp's page; its entry 0 a gigapage from
            // VA 0 to BASE, U|X|W|R|A|D|G|V (priv spec §4.4.1).
            a.li(T0, MTIMECMP);
            a.li(T1, (BASE >> 2) as i64 | 0xdf);
            a.sw(T1, T0, 0);
            a.sw(0, T0, 4);
            // satp: MODE = 8 (Sv39), PPN = the root's page.
            a.li(T0, 8);
            a.i(OP_IMM, 1, T0, T0, 60); // slli t0, t0, 60
            a.li(T1, MTIMECMP >> 12);
            a.r(0, T1, T0, 6, T0, OP); // or t0, t0, t1
            a.csrw(0x180, T0);
            a.w(0x1200_0073); // sfence.vma
        }
        _ => {}
    }
    // To U-mode at the loop: mstatus.MPP = 0.
    a.li(T0, 0x1800);
    a.csrc(0x300, T0);
    if kind == Hostile::DevicePageTable {
        a.li(T0, LOOP); // its virtual address: the gigapage maps 0 to BASE
    } else {
        a.la(T0, LOOP);
    }
    a.csrw(0x341, T0); // mepc
    a.w(0x3020_0073); // mret
    a.pad_to(LOOP);
    let pad_first = kind == Hostile::EbreakNoReturn;
    for _ in 0..if pad_first { pad } else { 0 } {
        a.addi(A3, A3, 1);
    }
    match kind {
        Hostile::Lrsc | Hostile::MprvLrsc => {
            a.w(2 << 27 | S1 << 15 | 2 << 12 | A1 << 7 | 0x2f); // lr.w a1, (s1)
            a.w(3 << 27 | A1 << 20 | S1 << 15 | 2 << 12 | A2 << 7 | 0x2f); // sc.w a2, a1, (s1)
            a.addi(A0, A0, 1);
        }
        Hostile::MprvLoads => {
            a.lw(A1, S1, 0);
            a.lw(A2, S1, 4);
            a.addi(A0, A0, 1);
        }
        Hostile::Plain | Hostile::DevicePageTable => {
            a.addi(A0, A0, 1);
            a.addi(A1, A1, 3);
            a.r(0, A1, A0, 4, A2, OP); // xor a2, a0, a1
        }
        Hostile::Ecall => {
            a.addi(A0, A0, 1);
            a.w(0x0000_0073);
        }
        Hostile::Ebreak | Hostile::EbreakNoReturn => {
            a.addi(A0, A0, 1);
            a.w(0x0010_0073);
        }
        Hostile::AccessFault => {
            a.addi(A0, A0, 1);
            a.lw(A1, S2, 0);
        }
        Hostile::Interrupt => {
            a.sw(S1, S0, 0); // msip = 1: taken at once
            a.addi(A0, A0, 1);
        }
        Hostile::SelfModifying => {
            a.sw(T1, S1, 0); // rewrites LOOP + 12
            a.w(0x0000_100f); // fence.i
            a.r(0, S2, T1, 4, T1, OP); // xor t1, t1, s2
            a.addi(A0, A0, 1); // LOOP + 12: rewritten each time
        }
        Hostile::Trigger => {
            a.addi(A0, A0, 1); // the trigger fires here each time
            a.addi(A1, A1, 1);
        }
    }
    for _ in 0..if pad_first { 0 } else { pad } {
        a.addi(A3, A3, 1);
    }
    a.j(LOOP);
    assert!(a.here() <= HANDLER, "the loop runs into the handler");
    a.pad_to(HANDLER);
    match kind {
        Hostile::Interrupt => a.sw(0, S0, 0), // msip = 0
        Hostile::EbreakNoReturn => {
            a.j(LOOP); // in M-mode from here on
            return a.program(&format!("<generated: {}>", kind.name()));
        }
        _ => {
            // Skip the trapping instruction (a breakpoint from the trigger
            // too: the address was not run).
            a.csrr(T0, 0x341);
            a.addi(T0, T0, 4);
            a.csrw(0x341, T0);
        }
    }
    a.w(0x3020_0073); // mret
    a.program(&format!("<generated: {}>", kind.name()))
}

//! The client against recorded QEMU 7.2 sessions (tests/data/gdb/; split
//! from gdb_transcript.rs, whose replay stream it uses): a whole session from
//! the handshake to the kill, and the vector registers' map.

use super::*;

/// The whole recorded QEMU 7.2 session, call for call as the recorder made
/// them (the fake fails on any byte the client sends differently).
#[test]
fn recorded_qemu72_session() {
    let mut g = gdb(Replay::load("qemu72-session.log"));
    let stop = g.handshake().unwrap();
    assert_eq!(stop.signal, 5);
    assert_eq!(stop.thread.as_deref(), Some("01"));
    // QEMU 7.2 does not offer QStartNoAckMode: acks stay on.
    assert!(g.acks());
    assert!(g.supported().iter().any(|f| f == "qXfer:features:read+"));

    let map = g.registers().unwrap();
    assert_eq!(map.architecture.as_deref(), Some("riscv:rv64"));
    // Oracle: `maint print remote-registers` of gdb-multiarch 13 on the same
    // QEMU ("Rmt Nr" column): zero 0, ra 1, pc 32, ft0 33, ft9 62, priv 65,
    // sstatus 322, satp 450, mstatus 834, misa 835, pmpaddr0 1010,
    // mhartid 3926. ft9 straddles the fpu annex's two qXfer chunks.
    for (name, n) in [
        ("zero", 0),
        ("ra", 1),
        ("pc", 32),
        ("ft0", 33),
        ("ft9", 62),
        ("priv", 65),
        ("sstatus", 322),
        ("satp", 450),
        ("mstatus", 834),
        ("misa", 835),
        ("pmpaddr0", 1010),
        ("mhartid", 3926),
    ] {
        assert_eq!(map.get(name).map(|r| r.regnum), Some(n), "{name}");
    }
    assert_eq!(map.get("pc").unwrap().feature, "org.gnu.gdb.riscv.cpu");
    assert_eq!(map.get("mhartid").unwrap().bitsize, 64);
    assert_eq!(
        map.get("priv").unwrap().feature,
        "org.gnu.gdb.riscv.virtual"
    );
    let rv = RiscvRegs::from_map(&map).unwrap();
    assert_eq!(rv.x, std::array::from_fn(|i| i as u32));
    assert_eq!(rv.pc, 32);
    // sstatus is CSR 0x100 at 322: base 66.
    assert_eq!(rv.csr_base, 66);
    assert_eq!(rv.csr_regnum(0xf14), Some(3926));
    assert_eq!(rv.priv_, Some(65));
    assert!(rv.v.is_empty() && rv.vlen_bits.is_none());

    // Reset state of QEMU virt: pc at the reset ROM, hart 0, machine mode.
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x1000);
    assert_eq!(g.read_reg_u64(&map, "mhartid").unwrap(), 0);
    // misa: MXL=2 (RV64) in bits 63:62, and the letters I M A F D C with
    // S and U: bits 8, 12, 0, 5, 3, 2, 18, 20 = 0x14112d.
    assert_eq!(
        g.read_reg_u64(&map, "misa").unwrap(),
        (2u64 << 62)
            | (1 << 8)
            | (1 << 12)
            | 1
            | (1 << 5)
            | (1 << 3)
            | (1 << 2)
            | (1 << 18)
            | (1 << 20)
    );
    assert_eq!(g.read_reg_u64(&map, "priv").unwrap(), 3);
    // `g`: x0..x31 and pc, 8 bytes each; pc (the 33rd) is 0x1000.
    let all = g.read_all().unwrap();
    assert_eq!(all.len(), 33 * 8);
    assert_eq!(&all[256..264], &0x1000u64.to_le_bytes());
    // 0x820 bytes take two `m` packets under PacketSize=0x1000.
    let mem = g.read_mem(0x1000, 0x820).unwrap();
    assert_eq!(mem.len(), 0x820);
    // The reset ROM's first two instructions, as `xp /1gx 0x1000` prints
    // them later in this session and gdb's `x/1gx 0x1000` did: auipc t0,0
    // (0x00000297) then addi a2,t0,40 (0x02828613).
    assert_eq!(&mem[..8], &0x0282_8613_0000_0297u64.to_le_bytes());

    g.write_reg(rv.x[10], &0x1234u64.to_le_bytes()).unwrap();
    assert_eq!(g.read_reg_u64(&map, "a0").unwrap(), 0x1234);
    let s = g.step().unwrap();
    assert_eq!(s.raw, "T05thread:01;");
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x1004);

    g.set_breakpoint(0x8000_0008, 4).unwrap();
    let mut polls = 0;
    let s = g
        .cont_until_stop(Instant::now() + Duration::from_secs(5), &mut || {
            polls += 1;
            true
        })
        .unwrap();
    assert!(!s.exited());
    // The program's third instruction, after addi a0,x0,42.
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x8000_0008);
    assert_eq!(g.read_reg_u64(&map, "a0").unwrap(), 42);
    g.clear_breakpoint(0x8000_0008, 4).unwrap();

    let xp = g.monitor("xp /1gx 0x1000").unwrap();
    assert_eq!(xp.trim_end(), "0000000000001000: 0x0282861300000297");
    let info = g.monitor("info registers").unwrap();
    assert!(info.contains("mhartid  0000000000000000"), "{info}");
    assert!(info.contains("pc       0000000080000008"), "{info}");
    g.kill();
    assert!(
        g.get_ref().finished(),
        "the client did not play the whole transcript"
    );
}

/// The vector session: QEMU renumbers the CSRs when V adds registers, which
/// is why RiscvRegs finds the base from the map.
#[test]
fn recorded_qemu72_vector_map() {
    let mut g = gdb(Replay::load("qemu72-vector-regs.log"));
    g.handshake().unwrap();
    let map = g.registers().unwrap();
    let rv = RiscvRegs::from_map(&map).unwrap();
    // Oracle: gdb-multiarch `maint print remote-registers` on the same QEMU:
    // v0 65, v1 66, v31 96, vlenb 103, priv 104, mstatus 873, mhartid 3965.
    assert_eq!(rv.v, (65..=96).collect::<Vec<u32>>());
    assert_eq!(rv.vlen_bits, Some(128));
    assert_eq!(rv.priv_, Some(104));
    assert_eq!(rv.csr.get("mstatus"), Some(&873));
    assert_eq!(rv.csr_base, 873 - 0x300);
    assert_eq!(rv.csr_regnum(0xf14), Some(3965));
    assert_eq!(map.get("vlenb").map(|r| r.regnum), Some(103));
    // vlen=128 on the command line: vlenb = 16 bytes.
    assert_eq!(g.read_reg_u64(&map, "vlenb").unwrap(), 16);
    assert_eq!(g.read_reg(rv.v[1]).unwrap().len(), 16);
    g.kill();
    assert!(g.get_ref().finished());
}

//! The target description (split from gdb_transcript.rs, whose replay
//! stream it uses): register numbers carried across included feature files,
//! malformed XML and files that include themselves, and a map with no RISC-V
//! features.

use super::*;

#[test]
fn target_xml_includes_number_across_features() {
    // Numbering rule (GDB manual, Target Description Format): a register
    // without regnum is one above the previous one, across included annexes.
    let r = acked(Replay::default())
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .pkt("m<target><xi:include href=\"a.xml\"/>")
        .client(b"+")
        .sends("qXfer:features:read:target.xml:22,ffb")
        .stub(b"+")
        .pkt("l<xi:include href=\"b.xml\"/></target>")
        .client(b"+")
        .sends("qXfer:features:read:a.xml:0,ffb")
        .stub(b"+")
        .pkt("l<feature name=\"A\"><reg name=\"r0\" bitsize=\"64\"/><reg name=\"r1\" bitsize=\"64\"/></feature>")
        .client(b"+")
        .sends("qXfer:features:read:b.xml:0,ffb")
        .stub(b"+")
        .pkt("l<feature name=\"B\"><reg name=\"s\" bitsize=\"32\"/><reg name=\"t\" bitsize=\"32\" regnum=\"100\"/><reg name=\"u\" bitsize=\"16\"/></feature>")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let map = g.registers().unwrap();
    let got: Vec<(&str, u32, u32, &str)> = map
        .regs
        .iter()
        .map(|(n, r)| (n.as_str(), r.regnum, r.bitsize, r.feature.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("r0", 0, 64, "A"),
            ("r1", 1, 64, "A"),
            ("s", 2, 32, "B"),
            ("t", 100, 32, "B"),
            ("u", 101, 16, "B"),
        ]
    );
    assert!(g.get_ref().finished());
}

#[test]
fn malformed_target_xml_and_self_includes() {
    let r = acked(Replay::default())
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .pkt("l<target><reg name=\"x\"/></target>")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.registers().unwrap_err();
    assert!(
        matches!(e, GdbError::TargetXml { .. }) && one_line(&e).contains("bitsize"),
        "{e}"
    );

    let r = acked(Replay::default())
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .pkt("l<target><xi:include href=\"target.xml\"/></target>")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.registers().unwrap_err();
    assert!(one_line(&e).contains("includes itself"), "{e}");
}

#[test]
fn a_map_without_riscv_features_is_refused() {
    let r = acked(Replay::default())
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .pkt("l<target><feature name=\"org.gnu.gdb.riscv.cpu\"><reg name=\"zero\" bitsize=\"64\"/></feature></target>")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let map = g.registers().unwrap();
    let e = RiscvRegs::from_map(&map).unwrap_err();
    assert!(one_line(&e).contains("x1 (ra)"), "{e}");
}

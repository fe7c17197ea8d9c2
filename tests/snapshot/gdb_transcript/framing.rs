//! Packet framing (split from gdb_transcript.rs, whose replay stream it
//! uses): no-ack mode when offered, resending on a NAK and asking again on a
//! bad checksum, giving up after repeated bad checksums, run-length encoded
//! and escaped replies, and console or monitor output before the reply.

use super::*;

#[test]
fn no_ack_mode_when_offered() {
    // Per the manual: the client acks the stub's OK to QStartNoAckMode, and
    // after that neither side sends '+'.
    let r = Replay::default()
        .sends(QSUP)
        .stub(b"+")
        .pkt("PacketSize=100;QStartNoAckMode+")
        .client(b"+")
        .sends("QStartNoAckMode")
        .stub(b"+")
        .pkt("OK")
        .client(b"+")
        .sends("?")
        .pkt("S05")
        .sends("p20")
        .pkt("0010000000000000");
    let mut g = gdb(r);
    let s = g.handshake().unwrap();
    assert!(!g.acks());
    assert_eq!((s.signal, s.thread, s.raw.as_str()), (5, None, "S05"));
    assert_eq!(g.read_reg(0x20).unwrap(), 0x1000u64.to_le_bytes());
    assert!(g.get_ref().finished());
}

#[test]
fn resends_on_nak_and_asks_again_on_a_bad_checksum() {
    let r = acked(Replay::default())
        .sends("p20")
        .stub(b"-") // the stub wants it again
        .sends("p20")
        .stub(b"+$0010000000000000#00") // wrong checksum
        .client(b"-")
        .pkt("0010000000000000")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    assert_eq!(g.read_reg(0x20).unwrap(), 0x1000u64.to_le_bytes());
    assert!(g.get_ref().finished());
}

#[test]
fn repeated_bad_checksums_are_an_error() {
    let mut r = acked(Replay::default()).sends("g").stub(b"+");
    for _ in 0..3 {
        r = r.stub(b"$00#00").client(b"-");
    }
    r = r.stub(b"$00#00");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.read_all().unwrap_err();
    assert!(matches!(e, GdbError::Checksum { tries: 4, .. }), "{e:?}");
    assert!(one_line(&e).contains("checksum"));
}

#[test]
fn run_length_encoded_and_escaped_replies() {
    // "34120*(" : '(' is 40 = 11 + 29, so eleven more '0's: 0x1234 in 8 bytes.
    // qXfer data with "}\x5d" (an escaped '}' ) inside an attribute value.
    let r = acked(Replay::default())
        .sends("pa")
        .stub(b"+")
        .pkt("34120*(")
        .client(b"+")
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .stub(&frame_raw(
            b"l<target><feature name=\"a}]b\"><reg name=\"x\" bitsize=\"8\"/></feature></target>",
        ))
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    assert_eq!(g.read_reg(10).unwrap(), 0x1234u64.to_le_bytes());
    let map = g.registers().unwrap();
    assert_eq!(map.get("x").unwrap().feature, "a}b");
    assert!(g.get_ref().finished());
}

#[test]
fn console_output_before_a_stop_reply() {
    let r = acked(Replay::default())
        .sends("c")
        .stub(b"+")
        .pkt("O48690a") // "Hi\n"
        .client(b"+")
        .pkt("O6f6b")
        .client(b"+")
        .pkt("T05thread:01;")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let s = g
        .cont_until_stop(Instant::now() + Duration::from_secs(2), &mut || true)
        .unwrap();
    assert_eq!(s.signal, 5);
    assert_eq!(g.take_console(), "Hi\nok");
}

#[test]
fn monitor_output_then_ok() {
    let r = acked(Replay::default())
        .sends("qRcmd,6869") // "hi"
        .stub(b"+")
        .pkt("O610a")
        .client(b"+")
        .pkt("O62")
        .client(b"+")
        .pkt("OK")
        .client(b"+")
        .sends("qRcmd,78")
        .stub(b"+")
        .pkt("")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    assert_eq!(g.monitor("hi").unwrap(), "a\nb");
    assert!(matches!(g.monitor("x"), Err(GdbError::Unsupported { .. })));
}

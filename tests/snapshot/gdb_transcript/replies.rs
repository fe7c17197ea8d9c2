//! Replies the client must report or survive (split from gdb_transcript.rs,
//! whose replay stream it uses): garbage and error replies named in one line,
//! a breakpoint falling back from Z0 to Z1, a reply that arrives before its
//! ack, random replies that never panic, and register errors that name the
//! register.

use super::*;

fn after_handshake(sends: &str, reply: &[u8]) -> Gdb<Replay> {
    let mut g = gdb(acked(Replay::default()).sends(sends).stub(reply));
    g.handshake().unwrap();
    g
}

#[test]
fn garbage_is_an_error_naming_it() {
    let mut g = after_handshake("p1", b"+hello");
    let e = g.read_reg(1).unwrap_err();
    assert!(one_line(&e).contains("unexpected byte 0x68"), "{e}");

    let mut g = after_handshake("p1", b"+$OK#zz");
    let e = g.read_reg(1).unwrap_err();
    assert!(one_line(&e).contains("checksum"), "{e}");

    let mut r = acked(Replay::default()).sends("p1").stub(b"+$00");
    r.eof_at_end = true;
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.read_reg(1).unwrap_err();
    assert!(matches!(e, GdbError::Closed { .. }), "{e:?}");
}

#[test]
fn error_replies() {
    let r = acked(Replay::default())
        .sends("m0,4")
        .stub(b"+")
        .pkt("E14")
        .client(b"+")
        .sends("p5")
        .stub(b"+")
        .pkt("xxxxxxxxxxxxxxxx")
        .client(b"+")
        .sends("p14c")
        .stub(b"+")
        .pkt("E14")
        .client(b"+")
        .sends("p5")
        .stub(b"+")
        .pkt("xxxxxxxxxxxxxxxx")
        .client(b"+")
        .sends("m0,4")
        .stub(b"+")
        .pkt("zz00")
        .client(b"+")
        .sends("m0,4")
        .stub(b"+")
        .pkt("0011223344")
        .client(b"+")
        .sends("s")
        .stub(b"+")
        .pkt("Q05")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.read_mem(0, 4).unwrap_err();
    assert!(
        matches!(e, GdbError::Stub { .. }) && one_line(&e).contains("E14"),
        "{e}"
    );
    let e = g.read_reg(5).unwrap_err();
    assert!(
        matches!(e, GdbError::Unavailable { .. }) && one_line(&e).contains('5'),
        "{e}"
    );
    // A refused CSR is None; an unavailable register is still an error.
    assert_eq!(g.try_read_reg(0x14c).unwrap(), None);
    assert!(matches!(
        g.try_read_reg(5),
        Err(GdbError::Unavailable { .. })
    ));
    let e = g.read_mem(0, 4).unwrap_err();
    assert!(one_line(&e).contains("not hex"), "{e}");
    let e = g.read_mem(0, 4).unwrap_err();
    assert!(one_line(&e).contains("5 bytes for a read of 4"), "{e}");
    let e = g.step().unwrap_err();
    assert!(one_line(&e).contains("not a stop reply"), "{e}");
    assert!(g.get_ref().finished());
}

#[test]
fn breakpoint_falls_back_to_z1() {
    let r = acked(Replay::default())
        .sends("Z0,80000000,4")
        .stub(b"+")
        .pkt("")
        .client(b"+")
        .sends("Z1,80000000,4")
        .stub(b"+")
        .pkt("OK")
        .client(b"+")
        .sends("z1,80000000,4")
        .stub(b"+")
        .pkt("OK")
        .client(b"+")
        .sends("Z1,80000010,2")
        .stub(b"+")
        .pkt("")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    g.set_breakpoint(0x8000_0000, 4).unwrap();
    g.clear_breakpoint(0x8000_0000, 4).unwrap();
    let e = g.set_breakpoint(0x8000_0010, 2).unwrap_err();
    assert!(matches!(e, GdbError::Unsupported { .. }), "{e:?}");
    assert!(g.get_ref().finished());
}

#[test]
fn a_reply_before_its_ack_is_kept_and_exit_is_reported() {
    let r = acked(Replay::default())
        .sends("p20")
        .pkt("0010000000000000") // no '+' first: the ack was lost
        .client(b"+")
        .stub(b"+")
        .sends("c")
        .stub(b"+")
        .pkt("W00")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    assert_eq!(g.read_reg(0x20).unwrap(), 0x1000u64.to_le_bytes());
    let s = g
        .cont_until_stop(Instant::now() + Duration::from_secs(2), &mut || true)
        .unwrap();
    assert!(s.exited());
    assert!(g.get_ref().finished());
}

/// Accepts every write; reads give `data`, then end of file.
struct Garbage {
    data: Vec<u8>,
    pos: usize,
}
impl Read for Garbage {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.data.len() - self.pos).min(7);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
impl Write for Garbage {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn random_replies_never_panic() {
    // xorshift64: a fixed sequence, so a failure reproduces.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"$#+-*}%OKESTWXlmx0123456789abcdef:;<>\"/ =\x03\x00\xff";
    for round in 0..400 {
        let len = (rnd() % 48) as usize;
        let body: Vec<u8> = (0..len)
            .map(|_| alphabet[(rnd() % alphabet.len() as u64) as usize])
            .collect();
        // Half the time, frame the garbage with a correct checksum so it
        // gets past the framing to the reply parsers.
        let mut data = b"+".to_vec();
        if round % 2 == 0 {
            data.extend(frame_raw(&body));
        } else {
            data.extend(&body);
        }
        let mut g = Gdb::new(Garbage { data, pos: 0 });
        g.set_timeout(Duration::from_millis(20));
        let map = trapscope::qemu::gdb::RegMap::default();
        let _ = match round % 8 {
            0 => g.handshake().map(|_| ()),
            1 => g.read_reg(1).map(|_| ()),
            2 => g.read_mem(0x1000, 64).map(|_| ()),
            3 => g.monitor("info registers").map(|_| ()),
            4 => g.registers().map(|_| ()),
            5 => g.step().map(|_| ()),
            6 => g.read_all().map(|_| ()),
            _ => g.read_reg_u64(&map, "pc").map(|_| ()),
        }
        .map_err(|e| one_line(&e));
    }
}

#[test]
fn register_errors_name_the_register() {
    let r = acked(Replay::default())
        .sends("qXfer:features:read:target.xml:0,ffb")
        .stub(b"+")
        .pkt("l<target><feature name=\"org.gnu.gdb.riscv.csr\"><reg name=\"senvcfg\" bitsize=\"64\" regnum=\"332\"/></feature></target>")
        .client(b"+")
        .sends("p14c")
        .stub(b"+")
        .pkt("E14")
        .client(b"+")
        .sends("p14c")
        .stub(b"+")
        .pkt("xxxxxxxxxxxxxxxx")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let map = g.registers().unwrap();
    let e = g.read_reg_u64(&map, "senvcfg").unwrap_err();
    assert!(
        one_line(&e).contains("register senvcfg (number 332)") && e.to_string().contains("E14"),
        "{e}"
    );
    let e = g.read_reg(332).unwrap_err();
    assert_eq!(
        one_line(&e),
        "register senvcfg (number 332) is unavailable (the stub sent 'xx')"
    );
    assert!(g.get_ref().finished());
}

//! trapscope's GDB remote protocol client (src/qemu/gdb.rs) against
//! recorded QEMU 7.2 sessions (tests/data/gdb/, see their headers) and small
//! scripted stubs for what QEMU never sends (no-ack mode, bad checksums,
//! console output, silence, garbage).
//!
//! The fake stream checks that every byte the client writes is the next byte
//! the transcript expects, and hands out the stub's bytes only once the
//! client has written everything that preceded them.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};
use trapscope::qemu::gdb::{Gdb, GdbError, RiscvRegs};

/// Deadlines, cancelling and silent stubs.
mod deadlines;
/// Acks, checksums, encodings and console output.
mod framing;
/// Recorded QEMU 7.2 sessions, replayed byte for byte.
mod recorded;
/// Garbage, error replies and random bytes.
mod replies;
/// target.xml: includes, numbering and refusals.
mod target_xml;

#[derive(Default)]
struct Replay {
    /// (client bytes written before this chunk, the stub's chunk)
    stub: Vec<(usize, Vec<u8>)>,
    next: usize,
    /// offset into stub[next] already read
    part: usize,
    expect: Vec<u8>,
    written: usize,
    /// Once the script runs out: EOF instead of silence.
    eof_at_end: bool,
}

impl Replay {
    fn client(mut self, b: &[u8]) -> Self {
        self.expect.extend_from_slice(b);
        self
    }
    fn stub(mut self, b: &[u8]) -> Self {
        self.stub.push((self.expect.len(), b.to_vec()));
        self
    }
    /// A packet from the stub, framed with its correct checksum.
    fn pkt(self, data: &str) -> Self {
        let f = frame(data);
        self.stub(&f)
    }
    fn sends(self, data: &str) -> Self {
        let f = frame(data);
        self.client(&f)
    }
    fn load(file: &str) -> Self {
        let path = format!("{}/tests/data/gdb/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut r = Replay::default();
        for line in text.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let bytes = unescape(&line[2..]);
            r = match &line[..2] {
                "> " => r.client(&bytes),
                "< " => r.stub(&bytes),
                other => panic!("bad transcript line prefix {other:?}"),
            };
        }
        r
    }
    fn finished(&self) -> bool {
        self.written == self.expect.len() && self.next == self.stub.len()
    }
}

fn frame(data: &str) -> Vec<u8> {
    let cs = data.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    format!("${data}#{cs:02x}").into_bytes()
}

fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'\\' {
                out.push(b'\\');
                i += 2;
            } else {
                assert_eq!(b[i + 1], b'x');
                let h = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                out.push(u8::from_str_radix(h, 16).unwrap());
                i += 4;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

impl Read for Replay {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.stub.get(self.next) {
            Some((needs, bytes)) if self.written >= *needs => {
                let n = buf.len().min(bytes.len() - self.part);
                buf[..n].copy_from_slice(&bytes[self.part..self.part + n]);
                self.part += n;
                if self.part == bytes.len() {
                    self.next += 1;
                    self.part = 0;
                }
                Ok(n)
            }
            None if self.eof_at_end => Ok(0),
            _ => Err(io::ErrorKind::WouldBlock.into()),
        }
    }
}

impl Write for Replay {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let at = self.written;
        let want = &self.expect[at.min(self.expect.len())..(at + buf.len()).min(self.expect.len())];
        if want != buf {
            let ctx = &self.expect[at.saturating_sub(40)..at];
            panic!(
                "client wrote {:?} at byte {at}; the transcript has {:?} (after ...{:?})",
                String::from_utf8_lossy(buf),
                String::from_utf8_lossy(want),
                String::from_utf8_lossy(ctx)
            );
        }
        self.written += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn gdb(r: Replay) -> Gdb<Replay> {
    let mut g = Gdb::new(r);
    g.set_timeout(Duration::from_millis(300));
    g
}

fn one_line(e: &GdbError) -> String {
    let s = e.to_string();
    assert!(!s.contains('\n'), "error message is not one line: {s:?}");
    s
}

const QSUP: &str = "qSupported:swbreak+;hwbreak+";

fn acked(r: Replay) -> Replay {
    r.sends(QSUP)
        .stub(b"+")
        .pkt("PacketSize=1000")
        .client(b"+")
        .sends("?")
        .stub(b"+")
        .pkt("T05thread:01;")
        .client(b"+")
}

/// `$data#cs` for data that is already escaped.
fn frame_raw(data: &[u8]) -> Vec<u8> {
    let cs = data.iter().fold(0u8, |a, &b| a.wrapping_add(b));
    let mut v = vec![b'$'];
    v.extend_from_slice(data);
    v.extend_from_slice(format!("#{cs:02x}").as_bytes());
    v
}

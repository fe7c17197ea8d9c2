//! trapscope's own client of the GDB remote serial protocol, written from
//! the GDB manual's "Remote Protocol" appendix, for QEMU's gdbstub.
//!
//! Every wait has a deadline (10 s unless `set_timeout` says otherwise), so a
//! stub that stops answering gives `GdbError::TimedOut`, never a hang; bytes
//! that are not the protocol give an error naming what was wrong.

mod error;
mod link;
mod packet;
mod riscv;
mod run;
mod tdesc;

pub use error::{GdbError, StopReply};
pub use riscv::{CSR, FCSR, RiscvRegs, VECTOR, VECTOR_CSRS};
pub use tdesc::{RegInfo, RegMap};

use error::{clip, console_text};
use link::Link;
use packet::Frame;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// How often `cont_until_stop` calls its `poll`, and the socket read timeout.
const TICK: Duration = Duration::from_millis(100);
/// The memory read size when the stub names no PacketSize.
const DEFAULT_PACKET: usize = 0x400;

/// A client of one gdbstub over `S`.
pub struct Gdb<S> {
    link: Link<S>,
    packet_size: usize,
    supported: Vec<String>,
    z0_unsupported: bool,
    names: HashMap<u32, String>,
    console: String,
}

impl Gdb<UnixStream> {
    /// Retries until the socket exists and accepts, up to `timeout`.
    pub fn connect_unix(path: &Path, timeout: Duration) -> Result<Self, GdbError> {
        let end = Instant::now() + timeout;
        let stream = loop {
            match UnixStream::connect(path) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= end => {
                    return Err(GdbError::Connect {
                        path: path.to_path_buf(),
                        why: format!("{e} (gave up after {:.1} s)", timeout.as_secs_f64()),
                    });
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        Gdb::from_unix(stream, timeout).map_err(|e| GdbError::Connect {
            path: path.to_path_buf(),
            why: e.to_string(),
        })
    }

    /// A client over a connected socket. Reads wake every 100 ms so that
    /// deadlines and `poll` are honoured; a write blocked past `timeout`
    /// is an error.
    pub fn from_unix(stream: UnixStream, timeout: Duration) -> std::io::Result<Self> {
        stream.set_read_timeout(Some(TICK))?;
        stream.set_write_timeout(Some(timeout.max(TICK)))?;
        Ok(Gdb::new(stream))
    }
}

impl<S: Read + Write> Gdb<S> {
    /// A client over any stream. Its reads must not block forever: a
    /// socket needs a read timeout (`from_unix` sets one), or the
    /// deadlines cannot be kept.
    pub fn new(stream: S) -> Self {
        Gdb {
            link: Link::new(stream),
            packet_size: DEFAULT_PACKET,
            supported: Vec::new(),
            z0_unsupported: false,
            names: HashMap::new(),
            console: String::new(),
        }
    }

    /// How long each request waits for its reply (default 10 s).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.link.timeout = timeout;
    }

    /// The features the stub listed in its `qSupported` reply.
    pub fn supported(&self) -> &[String] {
        &self.supported
    }

    /// Whether `+`/`-` acknowledgments are still on.
    pub fn acks(&self) -> bool {
        self.link.acks
    }

    /// The stream, e.g. for a test to check what was sent.
    pub fn get_ref(&self) -> &S {
        &self.link.stream
    }

    /// Console output (`O` packets) received while the guest ran.
    pub fn take_console(&mut self) -> String {
        std::mem::take(&mut self.console)
    }

    /// `qSupported`, then `QStartNoAckMode` when the stub offers it
    /// (§E.11 "Packet Acknowledgment"), then `?` for the initial stop.
    pub fn handshake(&mut self) -> Result<StopReply, GdbError> {
        let what = "qSupported";
        let reply = self.request_text(b"qSupported:swbreak+;hwbreak+", what)?;
        if reply.is_empty() {
            return Err(GdbError::Unsupported { what: what.into() });
        }
        self.supported = reply.split(';').map(str::to_string).collect();
        if let Some(size) = self
            .supported
            .iter()
            .find_map(|f| f.strip_prefix("PacketSize="))
        {
            self.packet_size = usize::from_str_radix(size, 16)
                .ok()
                .filter(|&n| n >= 64)
                .ok_or_else(|| GdbError::Malformed {
                    what: what.into(),
                    why: format!("PacketSize={} is not a usable hex size", clip(size)),
                })?
                .min(packet::MAX_PACKET);
        }
        if self.supported.iter().any(|f| f == "QStartNoAckMode+") {
            let r = self.request_text(b"QStartNoAckMode", "QStartNoAckMode")?;
            if r == "OK" {
                self.link.acks = false;
            }
        }
        let stop = self.request_text(b"?", "?")?;
        StopReply::parse(&stop).map_err(|err| GdbError::NotAStop {
            what: "?".into(),
            err,
        })
    }

    /// The registers of `target.xml` and every annex it includes.
    pub fn registers(&mut self) -> Result<RegMap, GdbError> {
        let map = tdesc::build(&mut |annex| self.read_annex(annex))?;
        self.names = map
            .regs
            .iter()
            .map(|(n, r)| (r.regnum, n.clone()))
            .collect();
        Ok(map)
    }

    /// `qXfer:features:read:ANNEX:off,len`, chunk by chunk (`m` more, `l` last).
    fn read_annex(&mut self, annex: &str) -> Result<String, GdbError> {
        let chunk = self.packet_size.saturating_sub(5).max(16);
        let mut out = Vec::new();
        loop {
            let cmd = format!("qXfer:features:read:{annex}:{:x},{chunk:x}", out.len());
            let what = format!("qXfer:features:read:{annex}");
            let reply = self.request(cmd.as_bytes(), &what)?;
            self.check_error(&reply, &what)?;
            match reply.split_first() {
                Some((b'l', rest)) => {
                    out.extend_from_slice(rest);
                    break;
                }
                Some((b'm', rest)) if !rest.is_empty() => out.extend_from_slice(rest),
                Some((b'm', _)) => {
                    return Err(GdbError::Malformed {
                        what,
                        why: "an empty 'm' chunk would never end".into(),
                    });
                }
                _ => return Err(self.malformed(&what, &reply, "expected 'm' or 'l' data")),
            }
            if out.len() > packet::MAX_PACKET * 16 {
                return Err(GdbError::Malformed {
                    what,
                    why: "the annex is larger than 16 MiB".into(),
                });
            }
        }
        String::from_utf8(out).map_err(|e| GdbError::TargetXml {
            annex: annex.to_string(),
            why: tdesc::TdescError::NotUtf8 {
                at: e.utf8_error().valid_up_to(),
            },
        })
    }

    fn reg_name(&self, regnum: u32) -> String {
        match self.names.get(&regnum) {
            Some(n) => format!("register {n} (number {regnum})"),
            None => format!("register number {regnum}"),
        }
    }

    /// `p`: register `regnum`'s bytes in target (little-endian) order.
    pub fn read_reg(&mut self, regnum: u32) -> Result<Vec<u8>, GdbError> {
        let cmd = format!("p{regnum:x}");
        let what = format!("{cmd} ({})", self.reg_name(regnum));
        let reply = self.request(cmd.as_bytes(), &what)?;
        if !reply.is_empty() && reply.iter().all(|&b| b == b'x') {
            return Err(GdbError::Unavailable {
                reg: self.reg_name(regnum),
            });
        }
        self.check_error(&reply, &what)?;
        if reply.is_empty() {
            return Err(GdbError::Unsupported {
                what: format!("p (reading {})", self.reg_name(regnum)),
            });
        }
        packet::from_hex(&reply).ok_or_else(|| self.malformed(&what, &reply, "not hex bytes"))
    }

    /// `p`, with a stub's `E NN` refusal as `None`: QEMU 7.2 refuses CSRs it
    /// lists but the hart lacks (senvcfg, menvcfg, mconfigptr under
    /// priv_spec 1.11; pmpcfg1 and pmpcfg3 on RV64).
    pub fn try_read_reg(&mut self, regnum: u32) -> Result<Option<Vec<u8>>, GdbError> {
        match self.read_reg(regnum) {
            Ok(v) => Ok(Some(v)),
            Err(GdbError::Stub { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `P`: writes `le` (target byte order) to register `regnum`.
    pub fn write_reg(&mut self, regnum: u32, le: &[u8]) -> Result<(), GdbError> {
        let cmd = format!("P{regnum:x}={}", packet::to_hex(le));
        let what = format!("P{regnum:x} ({})", self.reg_name(regnum));
        let reply = self.request(cmd.as_bytes(), &what)?;
        self.expect_ok(&reply, &what)
    }

    /// The named register as a number (at most 8 bytes, little-endian).
    pub fn read_reg_u64(&mut self, map: &RegMap, name: &str) -> Result<u64, GdbError> {
        let info = map.get(name).ok_or_else(|| GdbError::NoRegister {
            name: name.to_string(),
        })?;
        let bytes = self.read_reg(info.regnum)?;
        if bytes.len() > 8 || bytes.is_empty() {
            return Err(GdbError::Malformed {
                what: format!("p{:x}", info.regnum),
                why: format!(
                    "register {name} came back as {} bytes, not 1 to 8",
                    bytes.len()
                ),
            });
        }
        Ok(bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    }

    /// `g`: the stub's whole register block.
    pub fn read_all(&mut self) -> Result<Vec<u8>, GdbError> {
        let reply = self.request(b"g", "g")?;
        self.check_error(&reply, "g")?;
        if reply.is_empty() {
            return Err(GdbError::Unsupported { what: "g".into() });
        }
        if reply.contains(&b'x') {
            return Err(GdbError::Unavailable {
                reg: "a register in the `g` block".into(),
            });
        }
        packet::from_hex(&reply).ok_or_else(|| self.malformed("g", &reply, "not hex bytes"))
    }

    /// `m`, in chunks that fit the stub's packet size.
    pub fn read_mem(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, GdbError> {
        let chunk = (self.packet_size.saturating_sub(8) / 2).max(1);
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            let at = addr.wrapping_add(out.len() as u64);
            let n = chunk.min(len - out.len());
            let what = format!("m{at:x},{n:x}");
            let reply = self.request(what.as_bytes(), &what)?;
            self.check_error(&reply, &what)?;
            let bytes = packet::from_hex(&reply)
                .ok_or_else(|| self.malformed(&what, &reply, "not hex bytes"))?;
            if bytes.is_empty() || bytes.len() > n {
                return Err(GdbError::Malformed {
                    what,
                    why: format!("{} bytes for a read of {n}", bytes.len()),
                });
            }
            out.extend_from_slice(&bytes);
        }
        Ok(out)
    }

    /// `Z0` (software breakpoint), or `Z1` when the stub lacks `Z0`.
    pub fn set_breakpoint(&mut self, addr: u64, kind: u32) -> Result<(), GdbError> {
        self.breakpoint('Z', addr, kind)
    }

    /// `z0` / `z1`, matching what `set_breakpoint` used.
    pub fn clear_breakpoint(&mut self, addr: u64, kind: u32) -> Result<(), GdbError> {
        self.breakpoint('z', addr, kind)
    }

    fn breakpoint(&mut self, z: char, addr: u64, kind: u32) -> Result<(), GdbError> {
        if !self.z0_unsupported {
            let what = format!("{z}0,{addr:x},{kind:x}");
            let reply = self.request(what.as_bytes(), &what)?;
            if !reply.is_empty() {
                return self.expect_ok(&reply, &what);
            }
            self.z0_unsupported = true;
        }
        let what = format!("{z}1,{addr:x},{kind:x}");
        let reply = self.request(what.as_bytes(), &what)?;
        if reply.is_empty() {
            return Err(GdbError::Unsupported {
                what: format!("{z}0 or {z}1 (breakpoints)"),
            });
        }
        self.expect_ok(&reply, &what)
    }

    /// QEMU's `Qqemu.sstep`: what a single step lets happen besides the
    /// instruction (QEMU's default, 7, masks interrupts and timers; 1 lets
    /// a pending interrupt be taken). Tests use it to force a step that
    /// takes an interrupt.
    pub fn qemu_sstep_bits(&mut self, bits: u32) -> Result<(), GdbError> {
        let cmd = format!("Qqemu.sstep={bits:x}");
        let reply = self.request(cmd.as_bytes(), &cmd)?;
        self.expect_ok(&reply, &cmd)
    }

    /// `qRcmd`: a monitor command; returns the text of its `O` packets.
    pub fn monitor(&mut self, cmd: &str) -> Result<String, GdbError> {
        let what = format!("monitor {cmd}");
        let pkt = format!("qRcmd,{}", packet::to_hex(cmd.as_bytes()));
        self.link.send(pkt.as_bytes(), &what)?;
        let mut text = String::new();
        loop {
            let reply = self.link.recv(&what)?;
            if reply == b"OK" {
                return Ok(text);
            }
            if reply.is_empty() {
                return Err(GdbError::Unsupported {
                    what: "qRcmd".into(),
                });
            }
            self.check_error(&reply, &what)?;
            if let Some(out) = console_text(&reply) {
                text.push_str(&out);
                continue;
            }
            // A stub may also answer with the output itself, hex-encoded.
            let bytes = packet::from_hex(&reply)
                .ok_or_else(|| self.malformed(&what, &reply, "neither OK, O output nor hex"))?;
            text.push_str(&String::from_utf8_lossy(&bytes));
            return Ok(text);
        }
    }

    /// `k`, ignoring errors: QEMU exits and may close the socket at once.
    /// Waits up to a second (or the timeout, if shorter) for its ack and
    /// its `W` reply, which it does not acknowledge.
    pub fn kill(&mut self) {
        if self.link.write_raw(&packet::frame(b"k"), "k").is_err() {
            return;
        }
        let until = Instant::now() + self.link.timeout.min(Duration::from_secs(1));
        while let Ok(Some(f)) = self.link.next_frame(until, "k") {
            if matches!(f, Frame::Packet(_)) {
                break;
            }
        }
    }

    // ---- the packet layer ----

    fn malformed(&self, what: &str, reply: &[u8], why: &str) -> GdbError {
        GdbError::Malformed {
            what: what.to_string(),
            why: format!("{why}: \"{}\"", clip(&String::from_utf8_lossy(reply))),
        }
    }

    /// `E NN` (or `E.text`) as an error.
    fn check_error(&self, reply: &[u8], what: &str) -> Result<(), GdbError> {
        let is_err = reply.first() == Some(&b'E')
            && (reply.get(1) == Some(&b'.')
                || (reply.len() == 3 && packet::from_hex(&reply[1..]).is_some()));
        if is_err {
            return Err(GdbError::Stub {
                what: what.to_string(),
                reply: clip(&String::from_utf8_lossy(reply)),
            });
        }
        Ok(())
    }

    fn expect_ok(&self, reply: &[u8], what: &str) -> Result<(), GdbError> {
        self.check_error(reply, what)?;
        match reply {
            b"OK" => Ok(()),
            b"" => Err(GdbError::Unsupported {
                what: what.to_string(),
            }),
            _ => Err(self.malformed(what, reply, "expected OK")),
        }
    }

    fn request_text(&mut self, cmd: &[u8], what: &str) -> Result<String, GdbError> {
        let r = self.request(cmd, what)?;
        String::from_utf8(r).map_err(|_| GdbError::Malformed {
            what: what.to_string(),
            why: "the reply is not text".into(),
        })
    }

    fn request(&mut self, cmd: &[u8], what: &str) -> Result<Vec<u8>, GdbError> {
        self.link.send(cmd, what)?;
        self.link.recv(what)
    }
}

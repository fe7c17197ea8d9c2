//! trapscope's own client of the GDB remote serial protocol, written from
//! the GDB manual's "Remote Protocol" appendix, for QEMU's gdbstub.
//!
//! Every wait has a deadline (10 s unless `set_timeout` says otherwise), so a
//! stub that stops answering gives `GdbError::TimedOut`, never a hang; bytes
//! that are not the protocol give an error naming what was wrong.

mod packet;
mod riscv;
mod tdesc;

pub use riscv::RiscvRegs;
pub use tdesc::{RegInfo, RegMap};

use packet::Frame;
use std::collections::{HashMap, VecDeque};
use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often `cont_until_stop` calls its `poll`, and the socket read timeout.
const TICK: Duration = Duration::from_millis(100);
/// Times a packet is sent again after a `-`, or a bad reply asked again for.
const RETRIES: u32 = 3;
/// The memory read size when the stub names no PacketSize.
const DEFAULT_PACKET: usize = 0x400;

#[derive(Debug, thiserror::Error)]
pub enum GdbError {
    #[error("cannot connect to QEMU's gdbstub at {}: {why}", path.display())]
    Connect { path: PathBuf, why: String },
    #[error("talking to QEMU's gdbstub during `{what}`: {err}")]
    Io { what: String, err: io::Error },
    #[error("QEMU's gdbstub closed the connection during `{what}`")]
    Closed { what: String },
    #[error("no reply from QEMU's gdbstub to `{what}` within {secs:.1} s")]
    TimedOut { what: String, secs: f64 },
    #[error("stopped waiting for the guest: cancelled")]
    Cancelled,
    #[error("QEMU's gdbstub sent a malformed reply to `{what}`: {why}")]
    Malformed { what: String, why: String },
    #[error("the reply to `{what}` failed its checksum {tries} times")]
    Checksum { what: String, tries: u32 },
    #[error("QEMU's gdbstub does not support `{what}`")]
    Unsupported { what: String },
    #[error("`{what}` failed: QEMU's gdbstub replied {reply}")]
    Stub { what: String, reply: String },
    #[error("register {reg} is unavailable (the stub sent 'xx')")]
    Unavailable { reg: String },
    #[error("QEMU's target description has no register {name}")]
    NoRegister { name: String },
    #[error("QEMU's target description {annex} is malformed: {why}")]
    TargetXml { annex: String, why: String },
    #[error("QEMU's register map does not fit a RISC-V snapshot: {why}")]
    RiscvMap { why: String },
}

/// A stop reply (`S`, `T`, or `W`/`X` when the guest is gone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopReply {
    pub signal: u8,
    pub thread: Option<String>,
    /// The reply's text as sent, e.g. "T05thread:p01.01;".
    pub raw: String,
}

impl StopReply {
    /// `W` (exited) or `X` (killed by a signal): no process to inspect.
    pub fn exited(&self) -> bool {
        self.raw.starts_with('W') || self.raw.starts_with('X')
    }

    /// Parses a stop reply (GDB manual §E.3 "Stop Reply Packets").
    pub fn parse(raw: &str) -> Result<StopReply, String> {
        let kind = raw.chars().next().ok_or("an empty stop reply")?;
        if !matches!(kind, 'S' | 'T' | 'W' | 'X') {
            return Err(format!("\"{}\" is not a stop reply", clip(raw)));
        }
        let sig = raw
            .get(1..3)
            .and_then(|s| u8::from_str_radix(s, 16).ok())
            .ok_or_else(|| format!("stop reply \"{}\" lacks a two-digit number", clip(raw)))?;
        let thread = if kind == 'T' {
            raw[3..]
                .split(';')
                .find_map(|f| f.strip_prefix("thread:"))
                .map(str::to_string)
        } else {
            None
        };
        Ok(StopReply {
            signal: sig,
            thread,
            raw: raw.to_string(),
        })
    }
}

/// A client of one gdbstub over `S`.
pub struct Gdb<S> {
    stream: S,
    inbuf: Vec<u8>,
    /// Packets that arrived before the ack of the packet they answer.
    early: VecDeque<Vec<u8>>,
    acks: bool,
    timeout: Duration,
    last_sent: Vec<u8>,
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
        // Reads wake every TICK so deadlines and `poll` are honoured.
        stream
            .set_read_timeout(Some(TICK))
            .and_then(|_| stream.set_write_timeout(Some(timeout.max(TICK))))
            .map_err(|e| GdbError::Connect {
                path: path.to_path_buf(),
                why: e.to_string(),
            })?;
        Ok(Gdb::new(stream))
    }
}

impl<S: Read + Write> Gdb<S> {
    pub fn new(stream: S) -> Self {
        Gdb {
            stream,
            inbuf: Vec::new(),
            early: VecDeque::new(),
            acks: true,
            timeout: Duration::from_secs(10),
            last_sent: Vec::new(),
            packet_size: DEFAULT_PACKET,
            supported: Vec::new(),
            z0_unsupported: false,
            names: HashMap::new(),
            console: String::new(),
        }
    }

    /// How long each request waits for its reply (default 10 s).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The features the stub listed in its `qSupported` reply.
    pub fn supported(&self) -> &[String] {
        &self.supported
    }

    /// Whether `+`/`-` acknowledgments are still on.
    pub fn acks(&self) -> bool {
        self.acks
    }

    /// The stream, e.g. for a test to check what was sent.
    pub fn get_ref(&self) -> &S {
        &self.stream
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
                self.acks = false;
            }
        }
        let stop = self.request_text(b"?", "?")?;
        StopReply::parse(&stop).map_err(|why| GdbError::Malformed {
            what: "?".into(),
            why,
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
            why: format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to()),
        })
    }

    fn reg_name(&self, regnum: u32) -> String {
        match self.names.get(&regnum) {
            Some(n) => format!("{n} (number {regnum})"),
            None => format!("number {regnum}"),
        }
    }

    /// `p`: register `regnum`'s bytes in target (little-endian) order.
    pub fn read_reg(&mut self, regnum: u32) -> Result<Vec<u8>, GdbError> {
        let what = format!("p{regnum:x}");
        let reply = self.request(what.as_bytes(), &what)?;
        if !reply.is_empty() && reply.iter().all(|&b| b == b'x') {
            return Err(GdbError::Unavailable {
                reg: self.reg_name(regnum),
            });
        }
        self.check_error(&reply, &what)?;
        if reply.is_empty() {
            return Err(GdbError::Unsupported {
                what: format!("p (reading register {})", self.reg_name(regnum)),
            });
        }
        packet::from_hex(&reply).ok_or_else(|| self.malformed(&what, &reply, "not hex bytes"))
    }

    /// `P`: writes `le` (target byte order) to register `regnum`.
    pub fn write_reg(&mut self, regnum: u32, le: &[u8]) -> Result<(), GdbError> {
        let cmd = format!("P{regnum:x}={}", packet::to_hex(le));
        let what = format!("P{regnum:x}");
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
                reg: "in the `g` block".into(),
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

    /// `s`: one instruction.
    pub fn step(&mut self) -> Result<StopReply, GdbError> {
        self.send(b"s", "s")?;
        let deadline = Instant::now() + self.timeout;
        self.wait_stop("s", deadline, &mut || true)
            .map_err(|e| match e {
                Waited::Err(e) => e,
                Waited::Deadline => self.timed_out("s"),
                Waited::Cancelled => GdbError::Cancelled,
            })
    }

    /// `c`, then waits for the stop until `deadline`, calling `poll` about
    /// every 100 ms. When `poll` returns false or the deadline passes, sends
    /// the 0x03 interrupt, waits for that stop, and returns Cancelled or
    /// TimedOut.
    pub fn cont_until_stop(
        &mut self,
        deadline: Instant,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<StopReply, GdbError> {
        let started = Instant::now();
        self.send(b"c", "c")?;
        let outcome = match self.wait_stop("c", deadline, poll) {
            Ok(stop) => return Ok(stop),
            Err(Waited::Err(e)) => return Err(e),
            Err(Waited::Cancelled) => GdbError::Cancelled,
            Err(Waited::Deadline) => GdbError::TimedOut {
                what: "c (the guest never stopped)".into(),
                secs: started.elapsed().as_secs_f64(),
            },
        };
        self.write_raw(&[0x03], "interrupt")?;
        let d = Instant::now() + self.timeout;
        match self.wait_stop("interrupt", d, &mut || true) {
            Ok(_) => Err(outcome),
            Err(Waited::Err(e)) => Err(e),
            Err(_) => Err(self.timed_out("interrupt (0x03)")),
        }
    }

    /// Reads packets until a stop reply, keeping `O` console output.
    fn wait_stop(
        &mut self,
        what: &str,
        deadline: Instant,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<StopReply, Waited> {
        loop {
            let tick = (Instant::now() + TICK).min(deadline);
            match self.recv_until(tick, what).map_err(Waited::Err)? {
                Some(p) => {
                    if let Some(text) = console_text(&p) {
                        self.console.push_str(&text);
                        continue;
                    }
                    let text = String::from_utf8_lossy(&p).into_owned();
                    return StopReply::parse(&text).map_err(|why| {
                        Waited::Err(GdbError::Malformed {
                            what: what.into(),
                            why,
                        })
                    });
                }
                None => {
                    if !poll() {
                        return Err(Waited::Cancelled);
                    }
                    if Instant::now() >= deadline {
                        return Err(Waited::Deadline);
                    }
                }
            }
        }
    }

    /// `qRcmd`: a monitor command; returns the text of its `O` packets.
    pub fn monitor(&mut self, cmd: &str) -> Result<String, GdbError> {
        let what = format!("monitor {cmd}");
        let pkt = format!("qRcmd,{}", packet::to_hex(cmd.as_bytes()));
        self.send(pkt.as_bytes(), &what)?;
        let mut text = String::new();
        loop {
            let reply = self.recv(&what)?;
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
        if self.write_raw(&packet::frame(b"k"), "k").is_err() {
            return;
        }
        let until = Instant::now() + self.timeout.min(Duration::from_secs(1));
        while let Ok(Some(f)) = self.next_frame(until, "k") {
            if matches!(f, Frame::Packet(_)) {
                break;
            }
        }
    }

    // ---- the packet layer ----

    fn timed_out(&self, what: &str) -> GdbError {
        GdbError::TimedOut {
            what: what.to_string(),
            secs: self.timeout.as_secs_f64(),
        }
    }

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
        self.send(cmd, what)?;
        self.recv(what)
    }

    fn write_raw(&mut self, bytes: &[u8], what: &str) -> Result<(), GdbError> {
        self.stream
            .write_all(bytes)
            .and_then(|_| self.stream.flush())
            .map_err(|err| io_error(what, err))
    }

    /// Sends one packet; with acks on, waits for `+` and resends on `-`.
    fn send(&mut self, data: &[u8], what: &str) -> Result<(), GdbError> {
        self.last_sent = packet::frame(data);
        let frame = self.last_sent.clone();
        self.write_raw(&frame, what)?;
        if !self.acks {
            return Ok(());
        }
        let deadline = Instant::now() + self.timeout;
        let mut naks = 0;
        loop {
            match self.next_frame(deadline, what)? {
                None => return Err(self.timed_out(what)),
                Some(Frame::Ack) => return Ok(()),
                Some(Frame::Nak) => {
                    naks += 1;
                    if naks > RETRIES {
                        return Err(GdbError::Malformed {
                            what: what.into(),
                            why: format!("the stub refused the packet {naks} times ('-')"),
                        });
                    }
                    self.write_raw(&frame, what)?;
                }
                // A reply before its ack: the ack was lost; keep the reply.
                Some(Frame::Packet(p)) => {
                    self.early.push_back(p);
                    return Ok(());
                }
                Some(_) => {}
            }
        }
    }

    /// The next packet, decoded, by the request deadline.
    fn recv(&mut self, what: &str) -> Result<Vec<u8>, GdbError> {
        let deadline = Instant::now() + self.timeout;
        match self.recv_until(deadline, what)? {
            Some(p) => Ok(p),
            None => Err(self.timed_out(what)),
        }
    }

    /// The next packet, decoded; `None` if `until` passes first.
    fn recv_until(&mut self, until: Instant, what: &str) -> Result<Option<Vec<u8>>, GdbError> {
        let mut bad = 0;
        loop {
            let raw = match self.early.pop_front() {
                Some(p) => p,
                None => match self.next_frame(until, what)? {
                    None => return Ok(None),
                    Some(Frame::Packet(p)) => p,
                    Some(Frame::BadChecksum(want, got)) => {
                        bad += 1;
                        if !self.acks || bad > RETRIES {
                            return Err(if self.acks {
                                GdbError::Checksum {
                                    what: what.into(),
                                    tries: bad,
                                }
                            } else {
                                GdbError::Malformed {
                                    what: what.into(),
                                    why: format!(
                                        "checksum {got:02x} where the data sums to {want:02x}"
                                    ),
                                }
                            });
                        }
                        self.write_raw(b"-", what)?;
                        continue;
                    }
                    Some(Frame::Nak) if self.acks => {
                        let f = self.last_sent.clone();
                        self.write_raw(&f, what)?;
                        continue;
                    }
                    Some(_) => continue,
                },
            };
            if self.acks {
                self.write_raw(b"+", what)?;
            }
            return packet::decode(&raw)
                .map(Some)
                .map_err(|why| GdbError::Malformed {
                    what: what.into(),
                    why,
                });
        }
    }

    /// One frame off the wire, reading as needed; `None` once `until` passes.
    fn next_frame(&mut self, until: Instant, what: &str) -> Result<Option<Frame>, GdbError> {
        let mut buf = [0u8; 4096];
        loop {
            match packet::take_frame(&mut self.inbuf) {
                Ok(Some(f)) => return Ok(Some(f)),
                Ok(None) => {}
                Err(e) => {
                    self.inbuf.clear();
                    return Err(GdbError::Malformed {
                        what: what.into(),
                        why: e.to_string(),
                    });
                }
            }
            if Instant::now() >= until {
                return Ok(None);
            }
            match self.stream.read(&mut buf) {
                Ok(0) => {
                    return Err(GdbError::Closed { what: what.into() });
                }
                Ok(n) => self.inbuf.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    // A socket blocks for its read timeout; an in-memory
                    // stream would spin, so yield a little.
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(err) => return Err(io_error(what, err)),
            }
        }
    }
}

/// Why `wait_stop` gave up.
enum Waited {
    Err(GdbError),
    Deadline,
    Cancelled,
}

/// The text of an `O` console packet (`O` + hex), or `None` for others
/// ("OK" among them).
fn console_text(p: &[u8]) -> Option<String> {
    let hex = p.strip_prefix(b"O")?;
    if hex.is_empty() {
        return None;
    }
    packet::from_hex(hex).map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn io_error(what: &str, err: io::Error) -> GdbError {
    match err.kind() {
        io::ErrorKind::BrokenPipe
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::UnexpectedEof => GdbError::Closed { what: what.into() },
        _ => GdbError::Io {
            what: what.into(),
            err,
        },
    }
}

/// At most 60 characters of a reply, control characters escaped, for messages.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).flat_map(char::escape_default).collect();
    if s.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

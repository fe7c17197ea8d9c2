//! One packet at a time over the stream (GDB manual §E.1 Overview, §E.11
//! Packet Acknowledgment): acks and resends while they are on, and a
//! deadline on every wait.

use super::GdbError;
use super::packet::{self, Frame};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

/// Times a packet is sent again after a `-`, or a bad reply asked again for.
const RETRIES: u32 = 3;

pub(super) struct Link<S> {
    pub(super) stream: S,
    inbuf: Vec<u8>,
    /// Packets that arrived before the ack of the packet they answer.
    early: VecDeque<Vec<u8>>,
    /// `+`/`-` acknowledgments on (until QStartNoAckMode).
    pub(super) acks: bool,
    pub(super) timeout: Duration,
    last_sent: Vec<u8>,
}

impl<S: Read + Write> Link<S> {
    pub(super) fn new(stream: S) -> Self {
        Link {
            stream,
            inbuf: Vec::new(),
            early: VecDeque::new(),
            acks: true,
            timeout: Duration::from_secs(10),
            last_sent: Vec::new(),
        }
    }

    pub(super) fn timed_out(&self, what: &str) -> GdbError {
        GdbError::TimedOut {
            what: what.to_string(),
            secs: self.timeout.as_secs_f64(),
        }
    }

    pub(super) fn write_raw(&mut self, bytes: &[u8], what: &str) -> Result<(), GdbError> {
        self.stream
            .write_all(bytes)
            .and_then(|_| self.stream.flush())
            .map_err(|err| self.io_error(what, err))
    }

    /// Sends one packet; with acks on, waits for `+` and resends on `-`.
    pub(super) fn send(&mut self, data: &[u8], what: &str) -> Result<(), GdbError> {
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
    pub(super) fn recv(&mut self, what: &str) -> Result<Vec<u8>, GdbError> {
        let deadline = Instant::now() + self.timeout;
        match self.recv_until(deadline, what)? {
            Some(p) => Ok(p),
            None => Err(self.timed_out(what)),
        }
    }

    /// The next packet, decoded; `None` if `until` passes first.
    pub(super) fn recv_until(
        &mut self,
        until: Instant,
        what: &str,
    ) -> Result<Option<Vec<u8>>, GdbError> {
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
                .map_err(|err| GdbError::Undecodable {
                    what: what.into(),
                    err,
                });
        }
    }

    /// One frame off the wire, reading as needed; `None` once `until` passes.
    pub(super) fn next_frame(
        &mut self,
        until: Instant,
        what: &str,
    ) -> Result<Option<Frame>, GdbError> {
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
                Err(err) => return Err(self.io_error(what, err)),
            }
        }
    }

    pub(super) fn io_error(&self, what: &str, err: io::Error) -> GdbError {
        match err.kind() {
            io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::UnexpectedEof => GdbError::Closed { what: what.into() },
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => self.timed_out(what),
            _ => GdbError::Io {
                what: what.into(),
                err,
            },
        }
    }
}

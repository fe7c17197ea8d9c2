//! Framing of the GDB remote serial protocol (GDB manual, "Remote Protocol",
//! §E.1 Overview): `$data#cs` with a modulo-256 checksum, `+`/`-`
//! acknowledgments, run-length encoding (`x*n`, n sent as count+29) and the
//! `}` escape (next byte xor 0x20) of binary replies.

/// The largest packet trapscope accepts before calling the stream garbage.
pub const MAX_PACKET: usize = 1 << 20;

/// One thing read off the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// `+`
    Ack,
    /// `-`: the other side asks for the last packet again.
    Nak,
    /// `$...#cs` with the checksum that matched, still encoded.
    Packet(Vec<u8>),
    /// `$...#cs` whose checksum did not match (computed, received).
    BadChecksum(u8, u8),
    /// `%...#cs`: a notification, which trapscope does not ask for.
    Notification,
}

/// Why the bytes on the wire are not a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// A byte that starts nothing, outside a packet.
    Stray(u8),
    /// The two characters after `#` are not hex.
    BadChecksumDigits,
    /// No `#` within MAX_PACKET bytes.
    TooLong,
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Stray(b) => write!(f, "unexpected byte 0x{b:02x} outside a packet"),
            FrameError::BadChecksumDigits => {
                write!(f, "the checksum after '#' is not two hex digits")
            }
            FrameError::TooLong => write!(f, "a packet longer than {MAX_PACKET} bytes"),
        }
    }
}

/// The modulo-256 sum of the packet data.
pub fn checksum(data: &[u8]) -> u8 {
    data.iter().fold(0u8, |a, &b| a.wrapping_add(b))
}

/// `$data#cs`, escaping the four bytes the protocol reserves.
pub fn frame(data: &[u8]) -> Vec<u8> {
    let mut body = Vec::with_capacity(data.len() + 4);
    for &b in data {
        if matches!(b, b'$' | b'#' | b'}' | b'*') {
            body.push(b'}');
            body.push(b ^ 0x20);
        } else {
            body.push(b);
        }
    }
    let cs = checksum(&body);
    let mut out = Vec::with_capacity(body.len() + 4);
    out.push(b'$');
    out.extend_from_slice(&body);
    out.extend_from_slice(format!("#{cs:02x}").as_bytes());
    out
}

/// Takes one frame off the front of `buf`; `Ok(None)` when more bytes are needed.
pub fn take_frame(buf: &mut Vec<u8>) -> Result<Option<Frame>, FrameError> {
    let Some(&first) = buf.first() else {
        return Ok(None);
    };
    match first {
        b'+' => {
            buf.remove(0);
            Ok(Some(Frame::Ack))
        }
        b'-' => {
            buf.remove(0);
            Ok(Some(Frame::Nak))
        }
        b'$' | b'%' => {
            let Some(hash) = buf.iter().position(|&b| b == b'#') else {
                return if buf.len() > MAX_PACKET {
                    Err(FrameError::TooLong)
                } else {
                    Ok(None)
                };
            };
            if buf.len() < hash + 3 {
                return Ok(None);
            }
            let got = std::str::from_utf8(&buf[hash + 1..hash + 3])
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok());
            let Some(got) = got else {
                return Err(FrameError::BadChecksumDigits);
            };
            let data = buf[1..hash].to_vec();
            buf.drain(..hash + 3);
            let want = checksum(&data);
            Ok(Some(if first == b'%' {
                Frame::Notification
            } else if want != got {
                Frame::BadChecksum(want, got)
            } else {
                Frame::Packet(data)
            }))
        }
        other => Err(FrameError::Stray(other)),
    }
}

/// Why a reply's data does not decode (`decode`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the packet ends inside a '}}' escape")]
    Escape,
    #[error("a '*' run-length marker with nothing to repeat")]
    NothingToRepeat,
    /// A run-length count byte below 29 (`' ' + 3`), which encodes none.
    #[error("run-length count byte 0x{0:02x} is below 29")]
    Count(u8),
    #[error("a reply that expands past {MAX_PACKET} bytes")]
    TooLong,
}

/// Undoes the `}` escape and run-length encoding of a reply's data.
pub fn decode(data: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        match data[i] {
            b'}' => {
                let Some(&b) = data.get(i + 1) else {
                    return Err(DecodeError::Escape);
                };
                out.push(b ^ 0x20);
                i += 2;
            }
            b'*' => {
                let (Some(&last), Some(&n)) = (out.last(), data.get(i + 1)) else {
                    return Err(DecodeError::NothingToRepeat);
                };
                if n < 29 {
                    return Err(DecodeError::Count(n));
                }
                out.extend(std::iter::repeat_n(last, usize::from(n - 29)));
                if out.len() > MAX_PACKET {
                    return Err(DecodeError::TooLong);
                }
                i += 2;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Lower-case hex of `bytes`, in order.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from pairs of hex digits; `None` on odd length or a non-hex digit.
pub fn from_hex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks(2)
        .map(|p| {
            let hi = (p[0] as char).to_digit(16)?;
            let lo = (p[1] as char).to_digit(16)?;
            Some((hi * 16 + lo) as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_matches_the_manual_example_by_hand() {
        // "OK": 'O' 0x4f + 'K' 0x4b = 0x9a, the "$OK#9a" QEMU sends.
        assert_eq!(frame(b"OK"), b"$OK#9a");
        // "g" is 0x67 alone.
        assert_eq!(frame(b"g"), b"$g#67");
    }

    #[test]
    fn rle_counts_additional_repeats() {
        // GDB manual: "0* " is four zeros (' ' = 32 = 3 + 29 extra).
        assert_eq!(decode(b"0* ").unwrap(), b"0000");
        assert_eq!(decode(b"a0*!b").unwrap(), b"a00000b");
        assert!(decode(b"*!").is_err());
        assert!(decode(b"0*\x10").is_err());
    }

    #[test]
    fn escapes_round_trip() {
        let f = frame(b"a$b#c}d*e");
        let mut buf = f.clone();
        let Some(Frame::Packet(data)) = take_frame(&mut buf).unwrap() else {
            panic!("not a packet: {f:?}");
        };
        assert_eq!(decode(&data).unwrap(), b"a$b#c}d*e");
        assert!(decode(b"ab}").is_err());
    }

    #[test]
    fn frames_split_and_joined() {
        let mut buf = b"+$O".to_vec();
        assert_eq!(take_frame(&mut buf).unwrap(), Some(Frame::Ack));
        assert_eq!(take_frame(&mut buf).unwrap(), None);
        buf.extend_from_slice(b"K#9a-$OK#00");
        assert_eq!(
            take_frame(&mut buf).unwrap(),
            Some(Frame::Packet(b"OK".to_vec()))
        );
        assert_eq!(take_frame(&mut buf).unwrap(), Some(Frame::Nak));
        assert_eq!(
            take_frame(&mut buf).unwrap(),
            Some(Frame::BadChecksum(0x9a, 0))
        );
        let mut junk = b"hello".to_vec();
        assert_eq!(take_frame(&mut junk), Err(FrameError::Stray(b'h')));
        let mut bad = b"$OK#zz".to_vec();
        assert_eq!(take_frame(&mut bad), Err(FrameError::BadChecksumDigits));
    }

    #[test]
    fn hex() {
        assert_eq!(to_hex(&[0, 0xab, 0x10]), "00ab10");
        assert_eq!(from_hex(b"00ab10"), Some(vec![0, 0xab, 0x10]));
        assert_eq!(from_hex(b"0"), None);
        assert_eq!(from_hex(b"xx"), None);
    }
}

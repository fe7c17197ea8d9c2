//! Tests of the V unit. Encodings come from binutils 2.40
//! (`riscv64-linux-gnu-as -march=rv64gcv`, then `objdump -d -M no-aliases`)
//! and are written as hex with the assembly beside them; expected values come
//! from V spec 1.0 and the arithmetic written next to each assertion.

mod arith;
mod config;
mod decoding;
mod memory;
mod names;

use super::{Effect, VHost, VTrap, VUnit, decode};

/// Where the test host's memory starts.
const BASE: u64 = 0x8000_0000;
/// Its size: enough for eight 512-bit registers twice over.
const MEM: usize = 0x1000;

/// x0..x31 and a flat RAM at `BASE`; x0 reads 0 and ignores writes.
struct TestHost {
    x: [u64; 32],
    mem: Vec<u8>,
}

impl TestHost {
    fn new() -> TestHost {
        TestHost {
            x: [0; 32],
            mem: vec![0; MEM],
        }
    }

    /// Offset of `addr..addr+len` in `mem`, or the first address outside it.
    fn range(&self, addr: u64, len: usize) -> Result<usize, u64> {
        let end = BASE + self.mem.len() as u64;
        if addr < BASE {
            return Err(addr);
        }
        if addr + len as u64 > end {
            return Err(addr.max(end));
        }
        Ok((addr - BASE) as usize)
    }

    fn bytes(&self, addr: u64, len: usize) -> &[u8] {
        let o = (addr - BASE) as usize;
        &self.mem[o..o + len]
    }
}

impl VHost for TestHost {
    fn x(&self, r: u8) -> u64 {
        self.x[usize::from(r)]
    }
    fn set_x(&mut self, r: u8, v: u64) {
        if r != 0 {
            self.x[usize::from(r)] = v;
        }
    }
    fn load(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), u64> {
        let o = self.range(addr, buf.len())?;
        buf.copy_from_slice(&self.mem[o..o + buf.len()]);
        Ok(())
    }
    fn store(&mut self, addr: u64, data: &[u8]) -> Result<(), u64> {
        let o = self.range(addr, data.len())?;
        self.mem[o..o + data.len()].copy_from_slice(data);
        Ok(())
    }
}

// ABI numbers of the integer registers the tests use.
const T0: usize = 5;
const A0: usize = 10;
const A1: usize = 11;

/// Decodes and runs one encoding.
fn run(u: &mut VUnit, h: &mut TestHost, raw: u32) -> Result<Effect, VTrap> {
    let insn = decode(raw)?;
    u.execute(&insn, h)
}

/// Runs an encoding that must succeed.
fn ok(u: &mut VUnit, h: &mut TestHost, raw: u32) -> Effect {
    match run(u, h, raw) {
        Ok(e) => e,
        Err(t) => panic!("{raw:#010x}: {t:?}"),
    }
}

/// Fills register `r` with byte `b`.
fn fill(u: &mut VUnit, r: usize, b: u8) {
    let n = u.vlen as usize / 8;
    u.regs[r * n..(r + 1) * n].fill(b);
}

/// Element `i` of `bytes` bytes of the group at `r`, little-endian (§4.1).
fn elem(u: &VUnit, r: usize, i: usize, bytes: usize) -> u64 {
    let o = r * (u.vlen as usize / 8) + i * bytes;
    let mut le = [0u8; 8];
    le[..bytes].copy_from_slice(&u.regs[o..o + bytes]);
    u64::from_le_bytes(le)
}

//! A fast hasher for guest addresses: the intercept table, stop addresses,
//! probes and the block cache are looked up on every hooked instruction or
//! block, where SipHash's DoS resistance buys nothing (the keys are the
//! guest's own pcs) and costs about a tenth of an intercept-heavy run.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate mixing of each word written (the scheme rustc's own
/// FxHasher popularised); enough spread for pcs, which differ in low bits.
#[derive(Clone, Copy, Default)]
pub struct PcHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl PcHasher {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
    }
}

impl Hasher for PcHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

pub type PcMap<K, V> = HashMap<K, V, BuildHasherDefault<PcHasher>>;
pub type PcSet<K> = HashSet<K, BuildHasherDefault<PcHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_pcs_hash_apart_and_lookups_work() {
        let h = |v: u64| {
            let mut s = PcHasher::default();
            s.write_u64(v);
            s.finish()
        };
        assert_ne!(h(0x8000_0000), h(0x8000_0004));
        assert_ne!(h(0x8000_0000) >> 57, h(0x8000_0002) >> 57);
        let mut m: PcMap<u64, u32> = PcMap::default();
        for pc in (0x8000_0000u64..0x8001_0000).step_by(2) {
            m.insert(pc, pc as u32);
        }
        assert_eq!(m.get(&0x8000_1234), Some(&0x8000_1234));
        assert_eq!(m.len(), 0x8000);
    }
}

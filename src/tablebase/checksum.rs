//! The checksum the Syzygy generator appends to every table file: its last 16 bytes are
//! CityHashCrc128 (of CityHash 1.0, the version the generator ships) over the
//! CityHashCrc256 of each 16 MiB chunk of the bytes before them. A table damaged after it
//! was made (a bad copy or download, a flipped bit on disk) fails it, and is refused
//! before the prober, which trusts a table's contents, can read it.
//!
//! The hashes are written here from CityHash's published description; the CRC-32C inside
//! them is SSE 4.2's `crc32` instruction, or a table where the build lacks it. The whole
//! chain was checked against the embedded checksums of all 70 tables of up to 4 pieces
//! (`tests/data/syzygy` holds 14 of them). Those files are one chunk each, which takes the
//! final 128-bit hash through CityMurmur only, as four chunks still do; a file of more than
//! [`MAX_CHECKED_DATA`] bytes would take it through CityHash128's long path, which no table
//! here exercises, so such a file is trusted unchecked, as every prober trusts its tables.

use std::io::{self, Read};

/// The generator hashes its tables in chunks of this many bytes.
const CHUNK: usize = 1 << 24;

/// The most bytes (checksum excluded) of a file checked: four chunks, whose 128 bytes of
/// chunk hashes CityHash128 still passes to CityMurmur.
pub const MAX_CHECKED_DATA: u64 = 4 * CHUNK as u64;

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// What [`check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checksum {
    /// The stored checksum is that of the contents.
    Matches,
    /// It is not: the table was damaged after it was made.
    Differs,
    /// The file is larger than [`MAX_CHECKED_DATA`] and was not read.
    NotChecked,
}

/// Checks the table read from `file`, `size` bytes long (16 more than a multiple of 64,
/// already checked), from its first byte: reads the whole file unless it is too large.
pub fn check(file: &mut impl Read, size: u64) -> io::Result<Checksum> {
    let Some(mut left) = size.checked_sub(16) else {
        return Ok(Checksum::Differs);
    };
    if left > MAX_CHECKED_DATA {
        return Ok(Checksum::NotChecked);
    }
    let mut chunk = vec![0u8; left.min(CHUNK as u64) as usize];
    let mut chunk_hashes = Vec::new();
    while left > 0 {
        let part = &mut chunk[..left.min(CHUNK as u64) as usize];
        file.read_exact(part)?;
        for word in city_hash_crc_256(part) {
            chunk_hashes.extend_from_slice(&word.to_le_bytes());
        }
        left -= part.len() as u64;
    }
    let mut stored = [0u8; 16];
    file.read_exact(&mut stored)?;
    // At most four chunks: 128 bytes of chunk hashes, which CityHash128 takes.
    let Some((low, high)) = city_hash_128(&chunk_hashes) else {
        return Ok(Checksum::NotChecked);
    };
    let matches = stored[..8] == low.to_le_bytes() && stored[8..] == high.to_le_bytes();
    Ok(if matches {
        Checksum::Matches
    } else {
        Checksum::Differs
    })
}

/// The little-endian word at `at`.
fn fetch64(s: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(word)
}

fn fetch32(s: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&s[at..at + 4]);
    u64::from(u32::from_le_bytes(word))
}

fn shift_mix(value: u64) -> u64 {
    value ^ (value >> 47)
}

/// Murmur-like mixing of two words into one.
fn hash_len_16(low: u64, high: u64) -> u64 {
    const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (low ^ high).wrapping_mul(MUL);
    a ^= a >> 47;
    let mut b = (high ^ a).wrapping_mul(MUL);
    b ^= b >> 47;
    b.wrapping_mul(MUL)
}

fn hash_len_0_to_16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        return hash_len_16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b;
    }
    if len >= 4 {
        let a = fetch32(s, 0);
        return hash_len_16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4));
    }
    if len > 0 {
        let y = u64::from(s[0]) + (u64::from(s[len >> 1]) << 8);
        let z = len as u64 + (u64::from(s[len - 1]) << 2);
        return shift_mix(y.wrapping_mul(K2) ^ z.wrapping_mul(K3)).wrapping_mul(K2);
    }
    K2
}

/// CityHash128's hash of a short string (under 128 bytes) with a seed.
fn city_murmur(s: &[u8], (mut a, mut b): (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_len_0_to_16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash_len_16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash_len_16(
            b.wrapping_add(len as u64),
            c.wrapping_add(fetch64(s, len - 16)),
        );
        a = a.wrapping_add(d);
        let mut at = 0;
        while at + 16 < len {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
        }
    }
    a = hash_len_16(a, c);
    b = hash_len_16(d, b);
    (a ^ b, hash_len_16(b, a))
}

/// CityHash128 (1.0) of `s`, which is also the generator's CityHashCrc128 of strings up to
/// 900 bytes. `None` from 144 bytes on: those take CityHash128's long path, which the
/// tables checked never need (see the module's note), so it is left out.
fn city_hash_128(s: &[u8]) -> Option<(u64, u64)> {
    let len = s.len();
    if len >= 144 {
        None
    } else if len >= 16 {
        Some(city_murmur(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8))))
    } else if len >= 8 {
        Some(city_murmur(
            &[],
            (
                fetch64(s, 0) ^ (len as u64).wrapping_mul(K0),
                fetch64(s, len - 8) ^ K1,
            ),
        ))
    } else {
        Some(city_murmur(s, (K0, K1)))
    }
}

/// CityHashCrc256 of `s`: strings under 240 bytes are hashed as 240 bytes, zero-padded,
/// with their length in the seed.
fn city_hash_crc_256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        city_hash_crc_256_long(s, 0)
    } else {
        let mut padded = [0u8; 240];
        padded[..s.len()].copy_from_slice(s);
        city_hash_crc_256_long(&padded, !(s.len() as u32))
    }
}

/// The five-lane state of CityHashCrc256's loop, each lane with its CRC.
struct Lanes {
    a: u64,
    b: u64,
    c: u64,
    d: u64,
    e: u64,
    t: u64,
    crc: [u64; 5],
}

impl Lanes {
    /// One 40-byte step at `at`. A 240-byte round alternates two kinds of step, the
    /// first of each pair with other rotations and no multiplier.
    fn step(&mut self, s: &[u8], at: usize, first_of_pair: bool) {
        let (mul, z) = if first_of_pair { (1, 1) } else { (K0, 0) };
        let mix = |lane: u64, rotation: u32, offset: usize| {
            lane.rotate_right(rotation ^ z)
                .wrapping_mul(mul)
                .wrapping_add(fetch64(s, at + offset))
        };
        // Each lane takes the next one's value from before the step.
        let old_a = self.a;
        self.a = mix(self.b, 41, 0);
        self.b = mix(self.c, 27, 8);
        self.c = mix(self.d, 41, 16);
        self.d = mix(self.e, 33, 24);
        self.e = mix(self.t, 25, 32);
        self.t = old_a;
        for (crc, lane) in self
            .crc
            .iter_mut()
            .zip([self.a, self.b, self.c, self.d, self.e])
        {
            *crc = crc32c_u64(*crc, lane);
        }
    }
}

/// CityHashCrc256 of a string of at least 240 bytes.
fn city_hash_crc_256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let len = s.len();
    let mut result = [0u64; 4];
    let b0 = fetch64(s, 96).wrapping_add(K0);
    result[0] = hash_len_16(b0, len as u64);
    result[1] = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    let mut l = Lanes {
        a: fetch64(s, 56).wrapping_add(K0),
        b: b0,
        c: result[0],
        d: result[1],
        e: fetch64(s, 184).wrapping_add(u64::from(seed)),
        t: result[0].wrapping_add(result[1]),
        crc: [u64::from(seed), 0, 0, 0, 0],
    };
    let rounds = len / 240;
    let mut at = 0;
    for _ in 0..rounds {
        for step in 0..6 {
            l.step(s, at, step % 2 == 0);
            at += 40;
        }
    }
    let mut rest = len - rounds * 240;
    while rest >= 40 {
        l.step(s, at, false);
        at += 40;
        rest -= 40;
    }
    if rest > 0 {
        l.step(s, at + rest - 40, false);
    }
    let [f, g, mut h, mut i, mut j] = l.crc;
    j = j.wrapping_add(i << 32);
    let a = hash_len_16(l.a, j);
    h = h.wrapping_add(g << 32);
    let b = l.b.wrapping_add(h);
    let c = hash_len_16(l.c, f).wrapping_add(i);
    let d = hash_len_16(l.d, l.e.wrapping_add(result[0]));
    j = j.wrapping_add(l.e);
    i = i.wrapping_add(hash_len_16(h, l.t));
    let e = hash_len_16(a, d).wrapping_add(j);
    let f = hash_len_16(b, c).wrapping_add(a);
    let g = hash_len_16(j, i).wrapping_add(c);
    result[0] = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    let mut m = shift_mix(a.wrapping_add(g).wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(b);
    result[1] = result[1].wrapping_add(m).wrapping_add(result[0]);
    m = shift_mix(m.wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(c);
    result[2] = m.wrapping_add(result[1]);
    m = shift_mix(m.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    result[3] = m.wrapping_add(result[2]);
    result
}

/// CRC-32C (Castagnoli, reflected) lookup table for one byte.
const CRC32C_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = (crc >> 1) ^ if crc & 1 == 1 { 0x82f6_3b78 } else { 0 };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// The CRC-32C register `crc` after the eight bytes of `value`, least significant first,
/// with no inversion before or after: the SSE 4.2 instruction `crc32`, which every build
/// for x86-64-v2 (the portable one) or newer has. Measured on a 64 MiB table from the page
/// cache (2026-12-07): 0.02 s of CPU against the table's 0.10 s.
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
fn crc32c_u64(crc: u64, value: u64) -> u64 {
    // SAFETY: the instruction exists on every CPU this build runs on: the cfg above
    // compiles this only where the build's target features include SSE 4.2.
    unsafe { std::arch::x86_64::_mm_crc32_u64(crc, value) }
}

/// The CRC-32C register `crc` after the eight bytes of `value`, least significant first,
/// with no inversion before or after (what the SSE 4.2 instruction `crc32` computes).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse4.2"),
    allow(dead_code)
)]
fn crc32c_u64_table(crc: u64, value: u64) -> u64 {
    let crc = value
        .to_le_bytes()
        .into_iter()
        .fold(crc as u32, crc32c_byte);
    u64::from(crc)
}

/// The CRC-32C register `crc` after one more byte.
fn crc32c_byte(crc: u32, byte: u8) -> u32 {
    (crc >> 8) ^ CRC32C_TABLE[((crc ^ u32::from(byte)) & 0xff) as usize]
}

/// Where the CPU has no `crc32` instruction, the table does its work.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.2")))]
fn crc32c_u64(crc: u64, value: u64) -> u64 {
    crc32c_u64_table(crc, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_bytes(bytes: &[u8]) -> Checksum {
        check(&mut &bytes[..], bytes.len() as u64).unwrap()
    }

    /// Every test table carries the checksum this module computes, and any one flipped
    /// bit, in its contents or in the stored checksum, is found.
    #[test]
    fn the_test_tables_match_and_a_flipped_bit_does_not() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let mut tables = 0;
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if !path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
                continue;
            }
            let mut bytes = std::fs::read(&path).unwrap();
            assert_eq!(check_bytes(&bytes), Checksum::Matches, "{}", path.display());
            for at in [0, 16, bytes.len() / 2, bytes.len() - 17, bytes.len() - 1] {
                bytes[at] ^= 0x20;
                assert_eq!(check_bytes(&bytes), Checksum::Differs, "{}", path.display());
                bytes[at] ^= 0x20;
            }
            tables += 1;
        }
        assert_eq!(tables, 14);
        // Too short to hold a checksum at all.
        assert_eq!(check_bytes(&[0u8; 15]), Checksum::Differs);
    }

    /// A file beyond the checked size is not read at all.
    #[test]
    fn a_larger_file_is_not_checked() {
        let size = MAX_CHECKED_DATA + 64 + 16;
        assert_eq!(
            check(&mut std::io::empty(), size).unwrap(),
            Checksum::NotChecked
        );
        // Four chunks exactly are read: an empty reader fails to give them.
        assert_eq!(
            check(&mut std::io::empty(), MAX_CHECKED_DATA + 16)
                .unwrap_err()
                .kind(),
            std::io::ErrorKind::UnexpectedEof
        );
    }

    /// CRC-32C's published check value: the CRC of "123456789" (register started at all
    /// ones, inverted at the end) is 0xE3069283.
    #[test]
    fn crc32c_gives_the_check_value() {
        let crc = b"123456789".iter().copied().fold(u32::MAX, crc32c_byte);
        assert_eq!(!crc, 0xe306_9283);
        // The word form is eight byte steps, the first byte the least significant.
        let word = u64::from_le_bytes(*b"12345678");
        let bytewise = b"12345678".iter().copied().fold(u32::MAX, crc32c_byte);
        assert_eq!(
            crc32c_u64_table(u64::from(u32::MAX), word),
            u64::from(bytewise)
        );
        // The instruction, where the build has it, agrees with the table.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let crc = state >> 32;
            assert_eq!(crc32c_u64(crc, state), crc32c_u64_table(crc, state));
        }
    }
}

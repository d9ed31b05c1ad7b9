//! One 16-byte record of a Polyglot `.bin` book, all fields big-endian: key (8 bytes), move
//! (2), weight (2), learn (4).

/// The size of one record in bytes.
pub const ENTRY_BYTES: usize = 16;

/// One book record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The Polyglot key of the position (see [`super::polyglot_key`]).
    pub key: u64,
    /// The move in Polyglot's encoding (see [`super::encode_move`]).
    pub raw_move: u16,
    /// How often the move should be chosen, relative to the other moves of the position.
    pub weight: u16,
    /// Learning data; unused here.
    pub learn: u32,
}

impl Entry {
    /// Reads a record.
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// Writes the record as it is stored in a book file.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_big_endian_and_round_trip() {
        let bytes = [
            0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x01, 0x02, 0, 0, 0, 7,
        ];
        let entry = Entry::from_bytes(&bytes);
        assert_eq!(
            entry,
            Entry {
                key: 0x463b96181691fc9c,
                raw_move: 0x031c,
                weight: 0x0102,
                learn: 7,
            }
        );
        assert_eq!(entry.to_bytes(), bytes);
    }
}

//! The material a Syzygy table's header names, checked against its file name. The prober
//! finds a table by its file name and then trusts the file's contents to be that
//! material: a real table saved under another table's name (`KPvK.rtbw` copied to
//! `KRvK.rtbw`) passes the magic, the size and the checksum, and then crashes the prober
//! on its first probe. The header gives it away.
//!
//! Layout (as Fathom and Pyrrhic read it): after the 4-byte magic, a flags byte, then per
//! sub-table an order byte, a second order byte when both sides have pawns, and one byte
//! per piece whose low four bits are the piece's code: 1–6 for White's pawn, knight,
//! bishop, rook, queen and king, 9–14 for Black's (the colours of the file name, White's
//! side first).

/// The header bytes [`check`] reads: the magic, the flags, two order bytes and seven
/// pieces.
pub const HEADER_LEN: usize = 4 + 1 + 2 + 7;

/// The piece code of `letter` (one of `KQRBNP`) in a table's header, for White.
fn code(letter: char) -> Option<u8> {
    Some(match letter {
        'P' => 1,
        'N' => 2,
        'B' => 3,
        'R' => 4,
        'Q' => 5,
        'K' => 6,
        _ => return None,
    })
}

/// Checks that `header` (a table file's first [`HEADER_LEN`] bytes) holds the pieces of
/// `material` (a table's name such as `KRPvKR`, already known to be well formed), in any
/// order. The error says what the header holds instead.
pub fn check(header: &[u8; HEADER_LEN], material: &str) -> Result<(), String> {
    let (white, black) = material
        .split_once('v')
        .ok_or_else(|| format!("{material} names no material"))?;
    let mut expected = Vec::with_capacity(white.len() + black.len());
    for (side, colour_bit) in [(white, 0), (black, 8)] {
        for letter in side.chars() {
            let code = code(letter).ok_or_else(|| format!("{material} names no material"))?;
            expected.push(code | colour_bit);
        }
    }
    let both_have_pawns = white.contains('P') && black.contains('P');
    let first = 4 + 1 + 1 + usize::from(both_have_pawns);
    let mut found: Vec<u8> = header
        .get(first..first + expected.len())
        .ok_or_else(|| format!("{material} has more pieces than a table holds"))?
        .iter()
        .map(|byte| byte & 0x0f)
        .collect();
    expected.sort_unstable();
    found.sort_unstable();
    if found == expected {
        Ok(())
    } else {
        Err(format!(
            "its header holds the pieces {}, not those of {material}",
            describe(&found)
        ))
    }
}

/// The pieces of header codes as letters (White's upper case), or the codes themselves
/// where they are no piece.
fn describe(codes: &[u8]) -> String {
    codes
        .iter()
        .map(|&c| match c {
            1..=6 => "PNBRQK"[usize::from(c - 1)..usize::from(c)].to_string(),
            9..=14 => "pnbrqk"[usize::from(c - 9)..usize::from(c - 8)].to_string(),
            other => format!("#{other}"),
        })
        .collect::<Vec<_>>()
        .join("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first bytes of the repository's test table `name`.
    fn header_of(name: &str) -> [u8; HEADER_LEN] {
        let path = format!("{}/tests/data/syzygy/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        bytes[..HEADER_LEN].try_into().unwrap()
    }

    #[test]
    fn every_test_table_holds_the_material_of_its_name() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let mut checked = 0;
        for entry in std::fs::read_dir(folder).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some((material, "rtbw" | "rtbz")) = name.rsplit_once('.') else {
                continue;
            };
            assert_eq!(check(&header_of(&name), material), Ok(()), "{name}");
            checked += 1;
        }
        assert_eq!(checked, 14);
    }

    #[test]
    fn a_table_under_another_tables_name_is_refused() {
        let kpk = header_of("KPvK.rtbw");
        assert_eq!(
            check(&kpk, "KRvK"),
            Err("its header holds the pieces PKk, not those of KRvK".into())
        );
        // Same pieces, other colours: the name says which side holds the rook.
        assert!(check(&header_of("KRvK.rtbz"), "KvKR").is_err());
        // A header with more pieces than the name: the extra one is not read, but the
        // pieces read are not the name's.
        assert!(check(&header_of("KRvKR.rtbw"), "KRvK").is_err());
    }

    #[test]
    fn both_sides_pawns_shift_the_pieces_by_one_byte() {
        let mut header = [0u8; HEADER_LEN];
        // KPvKP: flags, order, second order, then the four pieces.
        header[7..11].copy_from_slice(&[6, 1, 14, 9]);
        assert_eq!(check(&header, "KPvKP"), Ok(()));
        header[6..10].copy_from_slice(&[6, 1, 14, 9]);
        assert!(check(&header, "KPvKP").is_err());
    }
}

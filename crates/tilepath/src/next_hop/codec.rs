//! The row codec: a pair's entry in a target's row (mod-3 residues or step codes).

use super::*;

/// The residue (distance mod 3) stored for `entry` in a [`Encoding::DistanceMod3`] row.
#[inline(always)]
pub(super) fn get_residue(row: &[u8], entry: usize) -> u8 {
    (row[entry >> 2] >> ((entry & 3) * 2)) & 3
}

/// Stores residue `v` for `entry` in a [`Encoding::DistanceMod3`] row.
#[inline(always)]
pub(super) fn set_residue(row: &mut [u8], entry: usize, v: u8) {
    let (i, k) = (entry >> 2, (entry & 3) * 2);
    row[i] = (row[i] & !(3 << k)) | v << k;
}

#[inline(always)]
pub(super) fn get_code(encoding: Encoding, row: &[u8], entry: usize) -> u8 {
    match encoding {
        Encoding::Directions8 => {
            let bit = entry * 3;
            let v = u16::from_le_bytes([row[bit >> 3], row[(bit >> 3) + 1]]);
            ((v >> (bit & 7)) & 7) as u8
        }
        _ => (row[entry >> 2] >> ((entry & 3) * 2)) & 3,
    }
}

#[inline(always)]
pub(super) fn set_code(encoding: Encoding, row: &mut [u8], entry: usize, code: u8) {
    match encoding {
        Encoding::Directions8 => {
            let bit = entry * 3;
            let i = bit >> 3;
            let mut v = u16::from_le_bytes([row[i], row[i + 1]]);
            v = (v & !(7 << (bit & 7))) | (u16::from(code) << (bit & 7));
            let [a, b] = v.to_le_bytes();
            row[i] = a;
            row[i + 1] = b;
        }
        _ => {
            let shift = (entry & 3) * 2;
            row[entry >> 2] = (row[entry >> 2] & !(3 << shift)) | (code << shift);
        }
    }
}

//! The SGML note's byte classes: one 256-entry table, read by every state.

/// A letter: starts a name.
pub(super) const LETTER: u8 = 1;
/// A digit.
pub(super) const DIGIT: u8 = 2;
/// `.` or `-`: name characters that start no name.
pub(super) const NAME_PUNCT: u8 = 4;
/// White space: space, tab, and the record ends `\n` and `\r`.
pub(super) const SPACE: u8 = 8;
/// A name character: a letter, a digit, `.` or `-`.
pub(super) const NAME_CHAR: u8 = LETTER | DIGIT | NAME_PUNCT;

/// The class bits of every byte. Bytes from 0x80 up are data characters only (see the module docs).
static CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if c.is_ascii_alphabetic() {
            LETTER
        } else if c.is_ascii_digit() {
            DIGIT
        } else if c == b'.' || c == b'-' {
            NAME_PUNCT
        } else if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            SPACE
        } else {
            0
        };
        b += 1;
    }
    table
};

/// Whether `b` is in any of the classes `mask`.
#[inline(always)]
pub(super) fn is(b: u8, mask: u8) -> bool {
    CLASSES[b as usize] & mask != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scanner's block test for names reads the same name characters as the table.
    #[test]
    fn name_characters_are_the_scanner_s() {
        for b in 0..=255u8 {
            assert_eq!(
                is(b, NAME_CHAR),
                crate::scan::is_sgml_name_char(b),
                "{b:#x}"
            );
        }
    }
}

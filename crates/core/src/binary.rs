//! Okapi's binary files, one convention for all of them (the weights, the book, book
//! parts, self-play stores and parts, search-label caches, script shards, the games
//! database): they start with 8 magic bytes and a little-endian `u16` format version
//! ([`check_header`], the one place that reads them), integers are little-endian, and the
//! sealed ones keep a zlib-compressed payload and an FNV-1a checksum ([`seal`]; reading
//! them back, and wording why a file is refused, is done here too, for every reader).
//! Atomic writes are [`crate::formats::write_atomic`]. Public because the training
//! commands and the command line write files of their own the same way.

use std::io::{Read, Write};

/// Why a file's start is not the header its reader expects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// It does not start with the magic bytes.
    #[error("not {what} (it does not start with {magic})")]
    Magic {
        /// What the reader expected, e.g. "an Okapi book file".
        what: &'static str,
        /// The magic bytes, as text.
        magic: String,
    },
    /// The format version is not the one this build reads.
    #[error("{what} of format version {found}; this build reads version {expected}")]
    Version {
        /// What the reader expected.
        what: &'static str,
        /// The version in the file.
        found: u16,
        /// The version this build reads.
        expected: u16,
    },
    /// The file ends inside its header.
    #[error("{what} cut short: {len} bytes, shorter than its {need}-byte header")]
    Short {
        /// What the reader expected.
        what: &'static str,
        /// The file's length.
        len: usize,
        /// The header's length.
        need: usize,
    },
}

/// Checks that `bytes` start with `magic`, then (with `version`) the little-endian `u16`
/// format version, and hold at least `header_len` bytes; `what` names the kind of file in
/// the error ("an Okapi book file"). The magic is checked first, so a foreign file is
/// told as foreign, not as short. After this, fixed offsets below `header_len` can be
/// read without a bounds failure.
pub fn check_header(
    bytes: &[u8],
    magic: &[u8; 8],
    version: Option<u16>,
    header_len: usize,
    what: &'static str,
) -> Result<(), HeaderError> {
    if !bytes.starts_with(magic) {
        return Err(HeaderError::Magic {
            what,
            magic: String::from_utf8_lossy(magic).into_owned(),
        });
    }
    let need = header_len.max(magic.len() + if version.is_some() { 2 } else { 0 });
    if bytes.len() < need {
        return Err(HeaderError::Short {
            what,
            len: bytes.len(),
            need,
        });
    }
    if let Some(expected) = version {
        let found = le_u16(bytes, magic.len());
        if found != expected {
            return Err(HeaderError::Version {
                what,
                found,
                expected,
            });
        }
    }
    Ok(())
}

/// 64-bit FNV-1a of `bytes`, continuing from `hash` ([`FNV_OFFSET`] to start).
pub fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}
/// FNV-1a's 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Why [`unseal`] refused a file. Every reader of sealed files turns it into its own
/// error with [`UnsealError::into_error`], so the words are the same for all of them.
#[derive(Debug)]
pub(crate) enum UnsealError {
    /// The file is not as long as its header says (header, payload and checksum).
    Size {
        /// The file's length.
        len: usize,
        /// The length its header gives.
        expected: usize,
    },
    /// The payload is not valid zlib (the message says why).
    Decompress(String),
    /// It decompresses to `got` bytes, where the header gives `expected`.
    Length {
        /// The bytes the payload decompressed to (at most `expected + 1`).
        got: usize,
        /// The bytes the header gives.
        expected: usize,
    },
    /// The checksum does not match the header and the uncompressed payload.
    Checksum {
        /// The checksum stored after the payload.
        stored: u64,
        /// The checksum of what was read.
        computed: u64,
    },
}

impl UnsealError {
    /// This refusal as a reader's own error: a checksum mismatch as `checksum(stored,
    /// computed)`, anything else as `malformed` with what is wrong, worded here once for
    /// every sealed file.
    pub(crate) fn into_error<E>(
        self,
        malformed: impl FnOnce(String) -> E,
        checksum: impl FnOnce(u64, u64) -> E,
    ) -> E {
        match self {
            UnsealError::Size { len, expected } => {
                malformed(format!("{len} bytes, the header says {expected}"))
            }
            UnsealError::Decompress(e) => {
                malformed(format!("the payload does not decompress: {e}"))
            }
            UnsealError::Length { got, expected } => malformed(format!(
                "the payload has {got} bytes, the header says {expected}"
            )),
            UnsealError::Checksum { stored, computed } => checksum(stored, computed),
        }
    }
}

/// The uncompressed payload of a file laid out by [`seal`], checked: the file exactly
/// the header (`header_len` bytes), the payload (`payload_len`) and the 8-byte checksum
/// long, the payload `expected` bytes once decompressed, and the checksum right.
pub(crate) fn unseal(
    bytes: &[u8],
    header_len: usize,
    payload_len: usize,
    expected: usize,
) -> Result<Vec<u8>, UnsealError> {
    let size = header_len + payload_len + 8;
    if bytes.len() != size {
        return Err(UnsealError::Size {
            len: bytes.len(),
            expected: size,
        });
    }
    let mut raw = Vec::with_capacity(expected);
    flate2::read::ZlibDecoder::new(&bytes[header_len..header_len + payload_len])
        .take(expected as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|e| UnsealError::Decompress(e.to_string()))?;
    if raw.len() != expected {
        return Err(UnsealError::Length {
            got: raw.len(),
            expected,
        });
    }
    let stored = u64::from_le_bytes(
        bytes[header_len + payload_len..]
            .try_into()
            .expect("8 bytes"),
    );
    let computed = fnv1a(fnv1a(FNV_OFFSET, &bytes[..header_len]), &raw);
    if stored != computed {
        return Err(UnsealError::Checksum { stored, computed });
    }
    Ok(raw)
}

/// The little-endian `u16` at byte `at` of a header (the caller has checked its length).
pub(crate) fn le_u16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// The little-endian `u32` at byte `at` of a header (the caller has checked its length).
pub(crate) fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The layout shared by Okapi's binary artifacts (weights, book, book parts): the header
/// `header` makes from the compressed payload's length, the zlib-compressed `raw`
/// payload, then the FNV-1a checksum of the header and the uncompressed payload.
pub fn seal(raw: &[u8], header: impl FnOnce(u32) -> Vec<u8>) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(raw).expect("in-memory write");
    let payload = enc.finish().expect("in-memory write");
    let mut out = header(payload.len() as u32);
    let checksum = fnv1a(fnv1a(FNV_OFFSET, &out), raw);
    out.extend_from_slice(&payload);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_checked_magic_first_then_length_then_version() {
        const MAGIC: &[u8; 8] = b"OKAPITST";
        let good = [&MAGIC[..], &3u16.to_le_bytes(), &[0u8; 6]].concat();
        assert_eq!(
            check_header(&good, MAGIC, Some(3), 16, "a test file"),
            Ok(())
        );
        let foreign = b"PK\x03\x04 a zip file";
        let e = check_header(foreign, MAGIC, Some(3), 16, "a test file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "not a test file (it does not start with OKAPITST)"
        );
        let e = check_header(&good[..12], MAGIC, Some(3), 16, "a test file").unwrap_err();
        assert!(
            matches!(
                e,
                HeaderError::Short {
                    len: 12,
                    need: 16,
                    ..
                }
            ),
            "{e}"
        );
        let e = check_header(&good, MAGIC, Some(4), 16, "a test file").unwrap_err();
        assert!(
            matches!(
                e,
                HeaderError::Version {
                    found: 3,
                    expected: 4,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(check_header(&good[..8], MAGIC, None, 8, "a store"), Ok(()));
        assert!(check_header(&[], MAGIC, None, 8, "a store").is_err());
    }
}

//! The weight file: Okapi's trained pattern weights on disk.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | field |
//! |-------|-------|
//! | 8     | magic `OKAPIEVW` |
//! | 2     | format version (1) |
//! | 2     | pattern set id ([`PATTERN_SET_ID`]) |
//! | 2     | number of phases `P` |
//! | 2     | empties per phase `W` (phase of a position = `min(empties / W, P - 1)`) |
//! | 4     | weights per phase `N`: the pattern set's, or those and then the count terms' ([`terms::WEIGHTS`](super::terms::WEIGHTS)) |
//! | 4     | length `L` of the compressed payload |
//! | L     | zlib-compressed payload: for each phase, its bias then its `N` weights, `i16` each, in 1/128 disc |
//! | 8     | checksum: 64-bit FNV-1a of the 24 header bytes followed by the uncompressed payload |
//!
//! Weights are for the side to move's view (index digit 1 = own disc, 2 = opponent's);
//! the pattern order and each pattern's square order are those of
//! [`patterns`](super::patterns). Weights of indices related by a pattern's
//! self-symmetry are equal.

use super::patterns::{PATTERN_SET_ID, PatternSet};
use crate::binary::{HeaderError, check_header, le_u16, le_u32, seal, unseal};

/// The first 8 bytes of a weight file.
pub const MAGIC: &[u8; 8] = b"OKAPIEVW";
/// The weight file format version this build reads and writes.
pub const VERSION: u16 = 1;
const HEADER_LEN: usize = 24;

/// Why a weight file cannot be read; the text says it to a user.
#[derive(Debug, thiserror::Error)]
pub enum WeightFileError {
    /// Not a weight file (no `OKAPIEVW`), one of another format version, or cut inside
    /// its header.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// Weights for another pattern set than this build's: its indices mean other squares.
    #[error("weight file is for pattern set {found}, this build uses {expected}")]
    PatternSet {
        /// The pattern set id in the file.
        found: u16,
        /// This build's ([`PATTERN_SET_ID`]).
        expected: u16,
    },
    /// The header and the data disagree; says how.
    #[error("weight file is truncated or malformed: {0}")]
    Malformed(String),
    /// The checksum at the end of the file does not match its contents: the file is corrupt.
    #[error(
        "weight file checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
    )]
    Checksum {
        /// The checksum stored after the payload.
        stored: u64,
        /// The checksum of what was read.
        computed: u64,
    },
}

/// Weights as stored: per phase a bias and one weight per pattern index (player view).
#[derive(Clone, Debug, PartialEq)]
pub struct WeightFile {
    /// Number of phases `P`.
    pub phases: u16,
    /// Empty squares per phase `W`: a position's phase is `min(empties / W, P - 1)`.
    pub phase_width: u16,
    /// Weights per phase (the pattern set's [`PatternSet::weights_per_phase`]).
    pub weights_per_phase: u32,
    /// `phases` entries.
    pub bias: Vec<i16>,
    /// `phases * weights_per_phase` entries, phase-major.
    pub weights: Vec<i16>,
}

impl WeightFile {
    fn header(&self, payload_len: u32) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&PATTERN_SET_ID.to_le_bytes());
        h[12..14].copy_from_slice(&self.phases.to_le_bytes());
        h[14..16].copy_from_slice(&self.phase_width.to_le_bytes());
        h[16..20].copy_from_slice(&self.weights_per_phase.to_le_bytes());
        h[20..24].copy_from_slice(&payload_len.to_le_bytes());
        h
    }

    fn raw_payload(&self) -> Vec<u8> {
        let n = self.weights_per_phase as usize;
        let mut raw = Vec::with_capacity((self.weights.len() + self.bias.len()) * 2);
        for p in 0..self.phases as usize {
            raw.extend_from_slice(&self.bias[p].to_le_bytes());
            for w in &self.weights[p * n..(p + 1) * n] {
                raw.extend_from_slice(&w.to_le_bytes());
            }
        }
        raw
    }

    /// The file's bytes (the layout in the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        seal(&self.raw_payload(), |len| self.header(len).to_vec())
    }

    /// Reads a weight file's bytes, checking everything: a corrupt or foreign file is refused
    /// with the reason, never half-read.
    pub fn from_bytes(bytes: &[u8]) -> Result<WeightFile, WeightFileError> {
        check_header(
            bytes,
            MAGIC,
            Some(VERSION),
            HEADER_LEN + 8,
            "an Okapi weight file",
        )?;
        let set_id = le_u16(bytes, 10);
        if set_id != PATTERN_SET_ID {
            return Err(WeightFileError::PatternSet {
                found: set_id,
                expected: PATTERN_SET_ID,
            });
        }
        let phases = le_u16(bytes, 12);
        let phase_width = le_u16(bytes, 14);
        let weights_per_phase = le_u32(bytes, 16);
        let payload_len = le_u32(bytes, 20) as usize;
        if phases == 0 || phase_width == 0 {
            return Err(WeightFileError::Malformed(
                "zero phases or phase width".into(),
            ));
        }
        let patterns = PatternSet::get().weights_per_phase;
        let with_terms = patterns + super::terms::WEIGHTS;
        if ![
            patterns,
            with_terms,
            with_terms + super::terms::BOARD_WEIGHTS,
        ]
        .contains(&(weights_per_phase as usize))
        {
            return Err(WeightFileError::Malformed(format!(
                "{weights_per_phase} weights per phase, the pattern set has {patterns} \
                 ({with_terms} with the count terms, {} with the board terms too)",
                with_terms + super::terms::BOARD_WEIGHTS
            )));
        }
        let expected_raw = phases as usize * (weights_per_phase as usize + 1) * 2;
        let raw = unseal(bytes, HEADER_LEN, payload_len, expected_raw).map_err(|e| {
            e.into_error(WeightFileError::Malformed, |stored, computed| {
                WeightFileError::Checksum { stored, computed }
            })
        })?;
        let n = weights_per_phase as usize;
        let mut bias = Vec::with_capacity(phases as usize);
        let mut weights = Vec::with_capacity(phases as usize * n);
        for chunk in raw.chunks_exact((n + 1) * 2) {
            bias.push(i16::from_le_bytes([chunk[0], chunk[1]]));
            weights.extend(
                chunk[2..]
                    .chunks_exact(2)
                    .map(|c| i16::from_le_bytes([c[0], c[1]])),
            );
        }
        Ok(WeightFile {
            phases,
            phase_width,
            weights_per_phase,
            bias,
            weights,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption_detected() {
        let n = PatternSet::get().weights_per_phase;
        let wf = WeightFile {
            phases: 2,
            phase_width: 30,
            weights_per_phase: n as u32,
            bias: vec![3, -4],
            weights: (0..2 * n).map(|i| (i % 200) as i16 - 100).collect(),
        };
        let bytes = wf.to_bytes();
        assert_eq!(WeightFile::from_bytes(&bytes).unwrap(), wf);
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(matches!(
            WeightFile::from_bytes(&bad),
            Err(WeightFileError::Checksum { .. })
        ));
        assert!(matches!(
            WeightFile::from_bytes(&bytes[..40]),
            Err(WeightFileError::Malformed(_))
        ));
        assert!(matches!(
            WeightFile::from_bytes(b"garbage garbage garbage garbage!!"),
            Err(WeightFileError::Header(HeaderError::Magic { .. }))
        ));
    }
}

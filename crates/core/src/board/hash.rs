//! Zobrist keys for [`Position`](super::Position), kept up to date move by move.
//!
//! The keys are split by byte (row) so that the key change of a whole set of flipped
//! discs costs 8 table look-ups rather than one per disc.

/// Pseudo-random 64-bit numbers from SplitMix64, fixed so keys are stable across runs
/// (the opening book stores them).
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Per-square keys: `[0]` for Black discs, `[1]` for White discs.
const SQUARE_KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x4F4B_4150_495F_5A42; // "OKAPI_ZB"
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let (ns, k) = splitmix(state);
            state = ns;
            keys[c][s] = k;
            s += 1;
        }
        c += 1;
    }
    keys
};

/// XOR'd into the key when White is to move.
pub const WHITE_TO_MOVE: u64 = 0x6A09_E667_F3BC_C908;

/// `ROW_KEYS[colour][row][byte]`: XOR of the square keys of the discs in `byte` of `row`.
static ROW_KEYS: [[[u64; 256]; 8]; 2] = {
    let mut t = [[[0u64; 256]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 8 {
            let mut b = 0;
            while b < 256 {
                let mut k = 0u64;
                let mut i = 0;
                while i < 8 {
                    if b >> i & 1 != 0 {
                        k ^= SQUARE_KEYS[c][r * 8 + i];
                    }
                    i += 1;
                }
                t[c][r][b] = k;
                b += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
};

/// Key of a set of discs of one colour (0 Black, 1 White).
#[inline]
pub fn discs_key(colour: usize, discs: u64) -> u64 {
    let t = &ROW_KEYS[colour];
    let mut k = 0;
    for (r, row) in t.iter().enumerate() {
        k ^= row[((discs >> (8 * r)) & 0xFF) as usize];
    }
    k
}

/// Key change when discs in `set` change colour (Black to White or back).
#[inline]
pub fn flip_key(set: u64) -> u64 {
    discs_key(0, set) ^ discs_key(1, set)
}

/// Key of one disc.
#[inline]
pub fn square_key(colour: usize, sq: u32) -> u64 {
    SQUARE_KEYS[colour][sq as usize]
}

/// The full key of a position from scratch.
pub fn full_key(black: u64, white: u64, white_to_move: bool) -> u64 {
    discs_key(0, black) ^ discs_key(1, white) ^ if white_to_move { WHITE_TO_MOVE } else { 0 }
}

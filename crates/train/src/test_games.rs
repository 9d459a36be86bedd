//! Games along fixed move choices, for the tests of the labelling code: every board a
//! game meets, the first of each move (a board where the side to move must pass is met,
//! then the board after the pass), until no one can move.

use okapi_core::board::Board;

/// The boards of fixed game number `game`: at ply `p` the move chosen is the
/// `(5p + 3·game) mod n`-th of the `n` legal ones, in square order.
pub(crate) fn fixed_game(game: u32) -> Vec<Board> {
    let mut boards = Vec::new();
    let mut b = Board::START;
    let mut ply = 0u32;
    while !b.is_game_over() {
        boards.push(b);
        let moves = b.moves();
        if moves == 0 {
            b = b.passed();
            continue;
        }
        let k = (ply * 5 + game * 3) % moves.count_ones();
        let mut m = moves;
        for _ in 0..k {
            m &= m - 1;
        }
        b = b.play(m.trailing_zeros()).unwrap();
        ply += 1;
    }
    boards
}

#!/usr/bin/env python3
"""Positions at a given number of empties from WTHOR game records, as script lines.

    tools/wthor-positions.py FILE.wtb EMPTIES COUNT STRIDE

Replays every STRIDE-th game of FILE (from game 0) and prints the position where
EMPTIES squares are left, side to move as in the game (a side with no move passes),
until COUNT positions are out. Made the endgame tuning set tests/data/wthor-24-26.scr.
WTHOR format: a 16-byte header, then 68-byte games whose last 60 bytes are the moves
(10 * row + column, 1-based; 0 after the game's end).
"""
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(p, o, sq):
    """Discs of o that p's move on sq turns over."""
    flipped = 0
    r, c = divmod(sq, 8)
    for dr, dc in DIRECTIONS:
        rr, cc, line = r + dr, c + dc, 0
        while 0 <= rr < 8 and 0 <= cc < 8 and o >> (rr * 8 + cc) & 1:
            line |= 1 << (rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and p >> (rr * 8 + cc) & 1:
            flipped |= line
    return flipped


def has_move(p, o):
    return any(not ((p | o) >> s & 1) and flips(p, o, s) for s in range(64))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, empties, count, stride = sys.argv[1], *map(int, sys.argv[2:])
    data = open(path, "rb").read()
    games = (len(data) - 16) // 68
    out = 0
    for g in range(0, games, stride):
        if out >= count:
            break
        moves = data[16 + 68 * g + 8:16 + 68 * (g + 1)]
        black, white = 1 << 28 | 1 << 35, 1 << 27 | 1 << 36
        black_to_move = True
        for m in moves:
            if m == 0:
                break
            sq = (m // 10 - 1) * 8 + m % 10 - 1
            p, o = (black, white) if black_to_move else (white, black)
            f = flips(p, o, sq)
            if not f:  # the side to move had passed
                black_to_move = not black_to_move
                p, o = o, p
                f = flips(p, o, sq)
                if not f:
                    break  # an illegal move: skip the game
            p |= f | 1 << sq
            o &= ~f
            black, white = (p, o) if black_to_move else (o, p)
            black_to_move = not black_to_move
            if 64 - bin(black | white).count("1") == empties:
                p, o = (black, white) if black_to_move else (white, black)
                if not has_move(p, o):
                    black_to_move = not black_to_move
                board = "".join(
                    "X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(64)
                )
                side = "X" if black_to_move else "O"
                year = path.rsplit("_", 1)[-1].split(".")[0]
                print(f"{board} {side} % WTHOR {year} game {g} at {empties} empties")
                out += 1
                break


if __name__ == "__main__":
    main()

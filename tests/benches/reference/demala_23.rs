//! Demala diviyan keliya on the 23-point board (`rulesets/demala-diviyan-keliya/pulijudam-23.yaml` over
//! `demala-diviyan-keliya.yaml` and `lib/hunt`) by hand: the board and numbers for the hunt reference of
//! `hunt.rs`. Three leopards start on 1A, 2C and 2D; fifteen dogs, dropped one a turn and moving first,
//! then step; the leopards win with eight captures.

use super::hunt::{Board, Game};

// Points: 1A=0; 2A..2F=1..6; 3A..3F=7..12; 4A..4F=13..18; 5A..5D=19..22.
const EDGES: [(u8, u8); 38] = [
    (0, 2),
    (0, 3),
    (0, 4),
    (0, 5),
    (1, 2),
    (1, 7),
    (2, 3),
    (2, 8),
    (3, 4),
    (3, 9),
    (4, 5),
    (4, 10),
    (5, 6),
    (5, 11),
    (6, 12),
    (7, 8),
    (7, 13),
    (8, 9),
    (8, 14),
    (9, 10),
    (9, 15),
    (10, 11),
    (10, 16),
    (11, 12),
    (11, 17),
    (12, 18),
    (13, 14),
    (14, 15),
    (14, 19),
    (15, 16),
    (15, 20),
    (16, 17),
    (16, 21),
    (17, 18),
    (17, 22),
    (19, 20),
    (20, 21),
    (21, 22),
];
const LINES: [&[u8]; 10] = [
    &[0, 2, 8, 14, 19],
    &[0, 3, 9, 15, 20],
    &[0, 4, 10, 16, 21],
    &[0, 5, 11, 17, 22],
    &[1, 2, 3, 4, 5, 6],
    &[7, 8, 9, 10, 11, 12],
    &[13, 14, 15, 16, 17, 18],
    &[19, 20, 21, 22],
    &[1, 7, 13],
    &[6, 12, 18],
];

pub static DEMALA_23: Game = Game {
    board: Board::new(23, &EDGES, &LINES),
    hunters: 1 << 0 | 1 << 3 | 1 << 4,
    hunters_waiting: 0,
    prey_waiting: 15,
    hunters_first: false,
    win_captures: 8,
};

/// One random game from the start: (plies, winner: 0 the leopards, 1 the dogs, `None` a draw by cap).
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    super::hunt::playout(&DEMALA_23, seed)
}

//! Hat diviyan keliya (`rulesets/hat-diviyan-keliya.yaml` over `lib/hunt`) by hand: the board and numbers
//! for the hunt reference of `hunt.rs`. One tiger, placed first on any point, against seven leopards
//! dropped one a turn and then stepped; the tiger wins with four captures.

use super::hunt::{Board, Game};

// Points: A=0, L1=1, M1=2, R1=3, L2=4, M2=5, R2=6, L3=7, M3=8, R3=9.
const EDGES: [(u8, u8); 15] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (1, 4),
    (2, 3),
    (2, 5),
    (3, 6),
    (4, 5),
    (4, 7),
    (5, 6),
    (5, 8),
    (6, 9),
    (7, 8),
    (8, 9),
];
const LINES: [&[u8]; 6] = [
    &[0, 1, 4, 7],
    &[0, 2, 5, 8],
    &[0, 3, 6, 9],
    &[1, 2, 3],
    &[4, 5, 6],
    &[7, 8, 9],
];

pub static HAT: Game = Game {
    board: Board::new(10, &EDGES, &LINES),
    hunters: 0,
    hunters_waiting: 1,
    prey_waiting: 7,
    hunters_first: true,
    win_captures: 4,
};

/// One random game from the start: (plies, winner: 0 the tiger, 1 the leopards, `None` a draw by cap).
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    super::hunt::playout(&HAT, seed)
}

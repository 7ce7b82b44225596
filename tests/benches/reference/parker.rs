//! Hand-written random playouts of `pancha-keliya/parker-1909`: Pancha Keliya on Parker's vermiform board,
//! as the ruleset `rulesets/pancha-keliya/parker-1909.yaml` resolves over `rulesets/pancha-keliya.yaml`.
//! It exists only as a yardstick for the generic interpreter, so it is written for speed (a handful of
//! bytes of state, fixed arrays, no allocation) and shares nothing with the engine but its dice.
//!
//! The game as coded here:
//!
//! - Two sides, A (player 0, who opens) and B (player 1), with three counters each, all off the board at
//!   the start.
//! - A counter's state is one number: 0 off the board, 1 to 30 its room on its side's route, 31 borne off
//!   (the place beyond Kenda-ge). Rooms 1 to 4 are each side's own end of the base row; from room 5 (the
//!   centre House) onwards both routes run over the same rooms with the same numbers, so room `q` of A is
//!   room `q` of B for `q >= 5`. Rooms 5, 10, 15, 20 and 25 are Houses; room 30 (Kenda-ge) is not.
//! - Six shells, each mouth up with probability 1/2; the throw is the number mouth up (binomial weights
//!   1, 6, 15, 20, 15, 6, 1 over 64, drawn in the table's order 0 to 6). 1, 5 and 6 give a throw again
//!   once used; 0 moves nothing.
//! - Legal moves for a throw `n > 0`: every distinct room holding one of the mover's counters on the route
//!   whose counter can go to `q = room + n <= 31` (exact count to bear off), where `q` is a House or 31, or
//!   holds no counter of the mover's side. Counters sharing a House give one move, not one per counter,
//!   because the ruleset chooses a site, not a counter. Landing on a room other than a House or 31 sends
//!   every enemy counter there back off the board (any throw captures). With a throw of 1, 5 or 6 there is
//!   one more move when the side has a counter off the board and none on its room 1: enter it on room 1,
//!   spending the whole throw.
//! - No legal move: the player passes (a ply), the throw and any throw again it would have given are lost.
//! - The first side to bear off its three counters wins. A turn ends after a pass or after a move whose
//!   throw gives no throw again; after 2,000 turns the game is a draw by cap (never reached in practice).
//!
//! Moves are drawn uniformly among the legal moves of the position, throws by their weights, both from a
//! [`Dice`] seeded by the caller. No simplification changes the rules; only the order in which moves are
//! listed differs from the interpreter, so the same seed gives a different game with the same law.

use keliya_play::Dice;

/// Counters per side.
const PAWNS: usize = 3;
/// The place beyond the last room: reaching it bears a counter off.
const HOME: u8 = 31;
/// The turn cap of the ruleset (`caps: max_turns`).
const MAX_TURNS: u32 = 2000;
/// Chance of each throw, indexed by the number of shells mouth up (C(6, k) / 64).
const THROW_P: [f64; 7] = [
    1.0 / 64.0,
    6.0 / 64.0,
    15.0 / 64.0,
    20.0 / 64.0,
    15.0 / 64.0,
    6.0 / 64.0,
    1.0 / 64.0,
];
/// Throws (by mouths up) after which the thrower throws again: 1, 5 and 6.
const AGAIN: u8 = (1 << 1) | (1 << 5) | (1 << 6);
/// Throws that may enter a counter: 1, 5 and 6.
const ENTERS: u8 = AGAIN;
/// Rooms any number of counters of either side may share: the five Houses and the place beyond.
const OPEN: u32 = (1 << 5) | (1 << 10) | (1 << 15) | (1 << 20) | (1 << 25) | (1 << HOME);
/// Rooms where a landing counter captures the enemy: the common rooms 6 to 30 except the Houses.
const CONTESTED: u32 = ((1u32 << 31) - (1 << 6)) & !OPEN;

/// Plays one game from the opening position with uniformly random moves; returns the number of plies
/// (moves and passes, not throws) and the winner (0 for side A, 1 for side B), or `None` when the turn
/// cap ended it.
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    let mut dice = Dice::new(seed);
    // Room of every counter, per side (0 off the board, HOME borne off).
    let mut rooms = [[0u8; PAWNS]; 2];
    let mut home = [0u8; 2];
    let mut mover = 0usize;
    let mut plies = 0u32;
    let mut turns = 0u32;
    loop {
        if turns >= MAX_TURNS {
            return (plies, None);
        }
        let throw = dice.weighted(THROW_P.iter().copied()) as u8;
        // Each legal move is the room it starts from; 0 stands for entering a counter.
        let mut moves = [0u8; PAWNS + 1];
        let mut count = 0;
        if throw > 0 {
            let mine = &rooms[mover];
            for i in 0..PAWNS {
                let from = mine[i];
                if from == 0 || from == HOME || mine[..i].contains(&from) {
                    continue;
                }
                let to = from + throw;
                if to > HOME || (OPEN & (1 << to) == 0 && mine.contains(&to)) {
                    continue;
                }
                moves[count] = from;
                count += 1;
            }
            if ENTERS & (1 << throw) != 0 && mine.contains(&0) && !mine.contains(&1) {
                moves[count] = 0;
                count += 1;
            }
        }
        plies += 1;
        if count == 0 {
            // A pass: the throw is lost with its throw again, and the turn ends.
            turns += 1;
            mover ^= 1;
            continue;
        }
        let from = moves[dice.below(count)];
        if from == 0 {
            enter(&mut rooms[mover]);
        } else {
            let to = from + throw;
            let mine = &mut rooms[mover];
            let i = mine.iter().position(|&r| r == from).unwrap_or(0);
            mine[i] = to;
            if to == HOME {
                home[mover] += 1;
                if home[mover] as usize == PAWNS {
                    return (plies, Some(mover as u8));
                }
            } else if CONTESTED & (1 << to) != 0 {
                for r in rooms[mover ^ 1].iter_mut() {
                    if *r == to {
                        *r = 0;
                    }
                }
            }
        }
        if AGAIN & (1 << throw) == 0 {
            turns += 1;
            mover ^= 1;
        }
    }
}

/// Puts one counter that is off the board on the side's first room.
fn enter(mine: &mut [u8; PAWNS]) {
    if let Some(r) = mine.iter_mut().find(|r| **r == 0) {
        *r = 1;
    }
}

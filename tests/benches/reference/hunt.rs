//! The hunt games written by hand for speed (`lib/hunt` and the boards of `hat.rs` and `demala_23.rs`):
//! a board of up to 24 points as 32-bit site sets, one for the hunters and one for the prey; moves
//! generated as masks (a hunter's steps are its neighbours that are empty, its leaps a branch-free pass
//! over a list of four (over, landing) pairs per point, padded with a point that never holds prey; the
//! prey's steps are listed from the empty points, each with the prey next to it); exact repetition
//! detection on a short list of positions cleared at each drop or capture. Shares nothing with the engine
//! but its dice (through `bits.rs`).
//!
//! The rules, as `rulesets/lib/hunt.yaml` and the engine apply them:
//!
//! - Hunters waiting off the board are dropped on any empty point, one a turn; once none wait, a hunter
//!   steps to an empty neighbour or leaps along a line over an adjacent prey onto the empty point just
//!   beyond, taking it. Prey waiting off the board are dropped on any empty point, one a turn; once none
//!   wait, a prey steps to an empty neighbour. Each (piece, target) is one move; a side with no move
//!   passes (a ply and a turn, never a drop or capture).
//! - Before each move (and at the start) the position is settled: the prey win when the hunters are to
//!   move and have none (in the drop phase too); then the hunters win with `win_captures` captures; then the
//!   caps, each a draw: 1,000 turns, 100 turns since the last drop or capture, and the third occurrence
//!   of a position (pieces, captures, pieces waiting and the player to move) since the last drop or
//!   capture. A drop or capture changes what waits or what was taken, so no earlier position can come
//!   back: the list of positions starts again there and a key needs only the two site sets and the mover.

use super::bits::Bits;

/// Largest number of points a board may have: site sets are counted 12 bits at a time by a table (the
/// baseline x86-64 target has no population count instruction).
pub const MAX_POINTS: usize = 24;
/// The padding point of the leap list: never holds prey, so a padded entry never gives a leap.
const PAD: u8 = 31;
/// Leaps listed per point (no point of these boards lies on more than two lines, or four rays).
const LEAPS: usize = 4;
/// Longest run of settled positions between two drops or captures: the quiet cap (100) plus one.
const HISTORY: usize = 128;

/// Player numbers, as the rulesets list them (`players: hunter, prey`).
const HUNTER: u8 = 0;
const PREY: u8 = 1;

/// A game: its board, setup and numbers.
pub struct Game {
    pub board: Board,
    /// Hunters on the board at the start (a site set), hunters and prey waiting beside it.
    pub hunters: u32,
    pub hunters_waiting: u32,
    pub prey_waiting: u32,
    /// The hunters move first.
    pub hunters_first: bool,
    /// Captures that win for the hunters.
    pub win_captures: u32,
}

/// A board's tables.
pub struct Board {
    /// Neighbours of each point.
    neighbours: [u32; 32],
    /// Per point, the leaps from it: (point jumped, point landed on), padded with [`PAD`].
    leaps: [[(u8, u8); LEAPS]; 32],
    /// The point jumped over from `from` to land on `to`, by `from * 32 + to`.
    over: [u8; 32 * 32],
    /// Every point.
    all: u32,
}

impl Board {
    /// The tables of a board of `points` points with these edges and straight lines (each a list of
    /// points in order along the line).
    pub const fn new(points: usize, edges: &[(u8, u8)], lines: &[&[u8]]) -> Board {
        assert!(points <= MAX_POINTS);
        let mut neighbours = [0u32; 32];
        let mut i = 0;
        while i < edges.len() {
            let (a, b) = edges[i];
            neighbours[a as usize] |= 1 << b;
            neighbours[b as usize] |= 1 << a;
            i += 1;
        }
        let mut leaps = [[(PAD, 0u8); LEAPS]; 32];
        let mut listed = [0usize; 32];
        let mut over = [PAD; 32 * 32];
        let mut l = 0;
        while l < lines.len() {
            let line = lines[l];
            let mut k = 0;
            while k + 2 < line.len() {
                let (a, m, b) = (line[k], line[k + 1], line[k + 2]);
                leaps[a as usize][listed[a as usize]] = (m, b);
                listed[a as usize] += 1;
                leaps[b as usize][listed[b as usize]] = (m, a);
                listed[b as usize] += 1;
                over[a as usize * 32 + b as usize] = m;
                over[b as usize * 32 + a as usize] = m;
                k += 1;
            }
            l += 1;
        }
        Board {
            neighbours,
            leaps,
            over,
            all: (1u32 << points) - 1,
        }
    }
}

/// Set bits of each 12-bit number.
static POP12: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut i = 0;
    while i < 4096 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Points in a site set of a board of `small` (at most 12 points) or more points.
#[inline]
fn pop(m: u32, small: bool) -> u32 {
    if small {
        POP12[m as usize & 0xfff] as u32
    } else {
        POP12[(m & 0xfff) as usize] as u32 + POP12[(m >> 12 & 0xfff) as usize] as u32
    }
}

/// The `r`-th lowest set bit of `m` (`r < pop(m)`).
#[inline]
fn nth_bit(mut m: u32, r: u32) -> u32 {
    for _ in 0..r {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The moves of a position, listed as masks: per hunter on the board its point, its step targets and its
/// leap landings (with their counts), and per empty point the prey next to it (and how many).
struct Listing {
    from: [u32; 8],
    steps: [u32; 8],
    leaps: [u32; 8],
    counts: [(u32, u32); 8],
    near: [u32; MAX_POINTS],
    near_n: [u32; MAX_POINTS],
}

impl Listing {
    fn new() -> Listing {
        Listing {
            from: [0; 8],
            steps: [0; 8],
            leaps: [0; 8],
            counts: [(0, 0); 8],
            near: [0; MAX_POINTS],
            near_n: [0; MAX_POINTS],
        }
    }

    /// The steps and leaps of the hunters on the board; returns how many.
    #[inline]
    fn hunters(&mut self, g: &Board, hunters: u32, prey: u32, empty: u32, small: bool) -> u32 {
        let (mut listed, mut moves) = (0, 0);
        let mut hs = hunters;
        while hs != 0 {
            let h = hs.trailing_zeros();
            hs &= hs - 1;
            let s = g.neighbours[h as usize] & empty;
            let mut l = 0u32;
            for &(o, t) in &g.leaps[h as usize] {
                l |= (prey >> o & empty >> t & 1) << t;
            }
            self.from[listed] = h;
            self.steps[listed] = s;
            self.leaps[listed] = l;
            self.counts[listed] = (pop(s, small), pop(l, small));
            moves += self.counts[listed].0 + self.counts[listed].1;
            listed += 1;
        }
        moves
    }

    /// The steps of the prey on the board, listed from the empty points; returns how many.
    #[inline]
    fn prey(&mut self, g: &Board, prey: u32, empty: u32, small: bool) -> u32 {
        let (mut n, mut k) = (0, 0);
        let mut es = empty;
        while es != 0 {
            let e = es.trailing_zeros();
            es &= es - 1;
            self.near[k] = g.neighbours[e as usize] & prey;
            self.near_n[k] = pop(self.near[k], small);
            n += self.near_n[k];
            k += 1;
        }
        n
    }
}

/// How many legal moves the side to move has (0: it passes, or the hunters are trapped), the pieces on
/// the board given as site sets. For the check of `tests/tests/references.rs`; the bench does not call
/// it.
#[allow(dead_code)]
pub fn legal_moves(
    game: &Game,
    (hunters, prey): (u32, u32),
    (hunters_waiting, prey_waiting): (u32, u32),
    hunters_move: bool,
) -> u32 {
    let g = &game.board;
    let empty = g.all & !(hunters | prey);
    let small = g.all < 1 << 12;
    let mut list = Listing::new();
    match (
        hunters_move,
        hunters_move && hunters_waiting > 0 || !hunters_move && prey_waiting > 0,
    ) {
        (_, true) => pop(empty, small),
        (true, false) => list.hunters(g, hunters, prey, empty, small),
        (false, false) => list.prey(g, prey, empty, small),
    }
}

/// One random game from the start: (plies, winner: 0 the hunters, 1 the prey, `None` a draw by a cap).
pub fn playout(game: &Game, seed: u64) -> (u32, Option<u8>) {
    let g = &game.board;
    let mut dice = Bits::new(seed);
    let (mut hunters, mut prey) = (game.hunters, 0u32);
    let (mut hunters_waiting, mut prey_waiting) = (game.hunters_waiting, game.prey_waiting);
    let mut hunters_move = game.hunters_first;
    let (mut captures, mut turn, mut quiet, mut plies) = (0u32, 0u32, 0u32, 0u32);
    let mut history = [0u64; HISTORY];
    let mut seen = 0usize;
    let mut list = Listing::new();
    let small = g.all < 1 << 12;
    let pop = |m: u32| pop(m, small);
    loop {
        let empty = g.all & !(hunters | prey);
        // The hunters' moves, needed first to settle the position (are they stuck?).
        let mut moves = 0u32;
        if hunters_move {
            moves = if hunters_waiting > 0 {
                pop(empty)
            } else {
                list.hunters(g, hunters, prey, empty, small)
            };
            if moves == 0 {
                return (plies, Some(PREY));
            }
        }
        if captures >= game.win_captures {
            return (plies, Some(HUNTER));
        }
        if turn >= 1000 || quiet >= 100 {
            return (plies, None);
        }
        let key = prey as u64 | (hunters as u64) << 32 | (hunters_move as u64) << 63;
        let before = history[..seen].iter().filter(|&&k| k == key).count();
        if before >= 2 {
            return (plies, None);
        }
        history[seen] = key;
        seen += 1;
        plies += 1;
        turn += 1;
        let progress = if hunters_move {
            let mut r = dice.below(moves);
            if hunters_waiting > 0 {
                hunters |= 1 << nth_bit(empty, r);
                hunters_waiting -= 1;
                true
            } else {
                let mut i = 0;
                loop {
                    let (s, l) = list.counts[i];
                    if r < s {
                        hunters ^= 1 << list.from[i] | 1 << nth_bit(list.steps[i], r);
                        break false;
                    }
                    r -= s;
                    if r < l {
                        let t = nth_bit(list.leaps[i], r);
                        hunters ^= 1 << list.from[i] | 1 << t;
                        prey ^= 1 << g.over[list.from[i] as usize * 32 + t as usize];
                        captures += 1;
                        break true;
                    }
                    r -= l;
                    i += 1;
                }
            }
        } else if prey_waiting > 0 {
            let r = dice.below(pop(empty));
            prey |= 1 << nth_bit(empty, r);
            prey_waiting -= 1;
            true
        } else {
            // Each empty point with the prey next to it that could step there.
            let n = list.prey(g, prey, empty, small);
            if n > 0 {
                let mut r = dice.below(n);
                let (mut es, mut k) = (empty, 0);
                loop {
                    let e = es.trailing_zeros();
                    es &= es - 1;
                    if r < list.near_n[k] {
                        prey ^= 1 << e | 1 << nth_bit(list.near[k], r);
                        break;
                    }
                    r -= list.near_n[k];
                    k += 1;
                }
            }
            false // a step, or a pass
        };
        if progress {
            quiet = 0;
            seen = 0;
        } else {
            quiet += 1;
        }
        hunters_move = !hunters_move;
    }
}

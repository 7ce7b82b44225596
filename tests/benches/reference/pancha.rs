//! Pancha Keliya on the pancha petha board (`rulesets/pancha-keliya.yaml`, every parameter at its default)
//! by hand, for speed: a pawn is one byte, its route position (0 waiting beside the start square, 1-60 the
//! squares, 61 the throne, [`OFF`] not activated); a pancha's sharings are enumerated directly. Shares
//! nothing with the engine but its dice.
//!
//! The game as the ruleset has it:
//!
//! - Two teams, A (player 0, who starts) and B, of three pawns, all off the board. Each route: the team's
//!   five bar squares, the bar's centre T5 (6), the stem S1-S4 (7-10), the ring from R0 (11) round to
//!   R0 again (51; A one way, B the other, so A's `p` is B's `62 - p` on 12-50), C1-C5 (52-56), four
//!   squares of the team's own (57-60) and the throne (61). Safe: positions 6, 11, ..., 56 (every fifth
//!   from the bar's centre) for both teams; the throne is shared by anyone.
//! - A throw is the number of six fair cowries mouth up: 0 bokka moves 12, 1 onduwa 1, 2-4 their number,
//!   5 pancha, 6 puwak malla nothing. Bokka, onduwa and pancha throw again after a move; a throw with no
//!   move is lost with its throw again, and the turn passes (a pass is a ply and a turn).
//! - A throw other than pancha and puwak malla: each distinct position of the mover's pawns on the route or
//!   waiting (pawns on one square are one move) moves by the whole throw, if the target is at most the
//!   throne and is safe, the throne, or holds no pawn of either team. An onduwa may instead activate a pawn
//!   (it waits, position 0).
//! - A pancha: activate `k` of the pawns off the board (0 to 3, one point each), then share the rest of the
//!   5 among distinct pawns, one part each, front pawn first (pawns on one square by decreasing parts);
//!   a part's target must be at most the throne and safe, the throne, or free of the mover's pawns; an
//!   opponent on a plain target is captured (off the board). A sharing may stop once a point is used; of
//!   all sharings only those using the most points are moves.
//! - The first team with three pawns on the throne wins; 2,000 turns are a draw.

use keliya_play::Dice;

/// A pawn not yet activated.
const OFF: u8 = 0xff;
/// The throne: the end of the route.
const THRONE: u8 = 61;
/// The turn cap (`caps: max_turns`).
const MAX_TURNS: u32 = 2000;
/// Value of each throw, by cowries mouth up; 0 for the puwak malla, which moves nothing.
const VALUE: [u8; 7] = [12, 1, 2, 3, 4, 5, 0];
/// Throws that give a throw again (bokka, onduwa, pancha), by cowries mouth up.
const AGAIN: u8 = 1 | 1 << 1 | 1 << 5;
/// The pancha and the points it shares.
const PANCHA: usize = 5;
/// Most sharings of one pancha: three pawns take parts summing to at most 5 (56 ways), for 0-3 activations.
const MOST_SHARINGS: usize = 256;

/// Positions any number of pawns of either team may share: the safe squares and the throne.
const OPEN: u64 = {
    let mut m = 1u64 << THRONE;
    let mut p = 6;
    while p <= 56 {
        m |= 1 << p;
        p += 5;
    }
    m
};

/// The square of a position, numbered the same for both teams where their routes meet, by team and
/// position; squares no opponent can reach (own bar, own last stretch, waiting places, the throne) get
/// numbers of their own.
const SQUARE: [[u8; 62]; 2] = {
    let mut s = [[0u8; 62]; 2];
    let mut p = 0;
    while p < 62 {
        let common = match p {
            6..=10 | 52..=56 => p,
            11 | 51 => 11,
            12..=50 => p, // A's frame: B's position q is A's 62 - q
            _ => 100,
        };
        s[0][p] = if common == 100 {
            100 + p as u8
        } else {
            common as u8
        };
        s[1][p] = match p {
            12..=50 => 62 - p as u8,
            _ if common == 100 => 170 + p as u8,
            _ => common as u8,
        };
        p += 1;
    }
    s
};

/// Pawns of both teams: team `t`'s pawn `i` is byte `3 * t + i`.
type Pawns = [u8; 6];

/// One random game from the start: (plies: moves and passes, winner: 0 team A, 1 team B, `None` a draw by
/// the cap).
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    let mut dice = Dice::new(seed);
    let mut pawns: Pawns = [OFF; 6];
    let (mut mover, mut turn, mut plies) = (0usize, 0u32, 0u32);
    let mut sharings = [[0u8; 6]; MOST_SHARINGS];
    loop {
        let up = (dice.below(64) as u32).count_ones() as usize;
        let me = 3 * mover;
        let picked = if up == PANCHA {
            let found = pancha(&pawns, mover, &mut sharings);
            if found > 0 {
                pawns = sharings[dice.below(found)];
                true
            } else {
                false
            }
        } else if VALUE[up] > 0 {
            let v = VALUE[up];
            // Distinct starting positions whose target is open, and an activation.
            let mut from = [0u8; 4];
            let mut n = 0;
            for i in 0..3 {
                let p = pawns[me + i];
                if p == OFF || p == THRONE || pawns[me..me + i].contains(&p) {
                    continue;
                }
                let t = p + v;
                if t <= THRONE && (OPEN >> t & 1 == 1 || free(&pawns, mover, t)) {
                    from[n] = p;
                    n += 1;
                }
            }
            let activate = v == 1 && pawns[me..me + 3].contains(&OFF);
            let total = n + activate as usize;
            if total > 0 {
                let r = dice.below(total);
                let p = if r < n { from[r] } else { OFF };
                let i = (0..3).find(|&i| pawns[me + i] == p).unwrap_or(0);
                pawns[me + i] = if r < n { p + v } else { 0 };
                true
            } else {
                false
            }
        } else {
            false
        };
        plies += 1;
        if picked && pawns[me..me + 3] == [THRONE; 3] {
            return (plies, Some(mover as u8));
        }
        if !picked || AGAIN >> up & 1 == 0 {
            turn += 1;
            mover ^= 1;
            if turn >= MAX_TURNS {
                return (plies, None);
            }
        }
    }
}

/// No pawn of either team stands on position `t` of `mover`'s route (a plain square).
#[inline]
fn free(pawns: &Pawns, mover: usize, t: u8) -> bool {
    let me = 3 * mover;
    let them = 3 - me;
    let sq = SQUARE[mover][t as usize];
    !pawns[me..me + 3].contains(&t)
        && (0..3).all(|i| {
            let q = pawns[them + i];
            q == OFF || SQUARE[mover ^ 1][q as usize] != sq
        })
}

/// The sharings of a pancha that use the most points, as the positions they make; returns how many.
fn pancha(pawns: &Pawns, mover: usize, out: &mut [Pawns; MOST_SHARINGS]) -> usize {
    let me = 3 * mover;
    let mut s = Search {
        mover,
        best: 0,
        found: 0,
        out,
    };
    let off = pawns[me..me + 3].iter().filter(|&&p| p == OFF).count();
    let mut start = *pawns;
    for k in 0..=off.min(3) {
        if k > 0 {
            // Activate one more pawn: it waits at position 0.
            let i = (0..3).find(|&i| start[me + i] == OFF).unwrap_or(0);
            start[me + i] = 0;
        }
        s.share(start, 0, k as u8, PANCHA as u8 - k as u8, u8::MAX, u8::MAX);
    }
    s.found
}

struct Search<'a> {
    mover: usize,
    /// Most points used by a sharing found so far, and how many sharings use them.
    best: u8,
    found: usize,
    out: &'a mut [Pawns; MOST_SHARINGS],
}

impl Search<'_> {
    fn keep(&mut self, pawns: Pawns, used: u8) {
        if used > self.best {
            self.best = used;
            self.found = 0;
        }
        if used == self.best {
            self.out[self.found] = pawns;
            self.found += 1;
        }
    }

    /// Shares `left` more points among the pawns not in `moved` (a mask), front pawn first: a part of `n`
    /// from position `p` may follow the last part (`last_p`, `last_n`) when `p < last_p`, or `p == last_p`
    /// and `n <= last_n`.
    fn share(&mut self, pawns: Pawns, moved: u8, used: u8, left: u8, last_p: u8, last_n: u8) {
        if left == 0 || used > 0 {
            self.keep(pawns, used);
        }
        let me = 3 * self.mover;
        let them = 3 - me;
        for n in 1..=left {
            for i in 0..3 {
                let p = pawns[me + i];
                if moved >> i & 1 == 1
                    || p == OFF
                    || p == THRONE
                    || (0..i).any(|j| moved >> j & 1 == 0 && pawns[me + j] == p)
                    || p > last_p
                    || (p == last_p && n > last_n)
                {
                    continue;
                }
                let t = p + n;
                if t > THRONE {
                    continue;
                }
                let mut next = pawns;
                next[me + i] = t;
                if OPEN >> t & 1 == 0 {
                    if pawns[me..me + 3].contains(&t) {
                        continue;
                    }
                    let sq = SQUARE[self.mover][t as usize];
                    for j in them..them + 3 {
                        let q = next[j];
                        if q != OFF && SQUARE[self.mover ^ 1][q as usize] == sq {
                            next[j] = OFF;
                        }
                    }
                }
                self.share(next, moved | 1 << i, used + n, left - n, p, n);
            }
        }
    }
}

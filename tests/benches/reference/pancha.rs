//! Pancha Keliya on the pancha petha board (`rulesets/pancha-keliya.yaml`, every parameter at its default)
//! by hand, for speed: a pawn is one byte, its route position (0 waiting beside the start square, 1-60 the
//! squares, 61 the throne, [`OFF`] not activated); a pancha's sharings are enumerated directly. Shares
//! nothing with the engine but its dice (through `bits.rs`).
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

use super::bits::Bits;

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

/// Cowries mouth up in a cast of six, by the cast's six random bits (bit `i` for cowrie `i`).
const MOUTHS_UP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

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

/// Plain squares both routes cross the same way (the stem, C1-C4) and the ring, as position masks.
const SAME: u64 = 0b1111 << 7 | 0b1111 << 52;
const RING: u64 = ((1 << 51) - (1 << 12)) & !OPEN;

/// Per position of the other team (`OFF` included), the mover's position of the same plain square as a
/// one-bit mask, or 0 where they never meet on a plain square. Position `q` of the ring is the other
/// team's `62 - q`.
const FACING: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut q = 0;
    while q < 62 {
        if SAME >> q & 1 == 1 {
            t[q] = 1 << q;
        } else if RING >> q & 1 == 1 {
            t[q] = 1 << (62 - q);
        }
        q += 1;
    }
    t
};

/// Per position (`OFF` included), its bit in a mask of the positions pawns can move from: the route and
/// the waiting place, not the throne.
const FROM_BIT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut p = 0;
    while p < THRONE as usize {
        t[p] = 1 << p;
        p += 1;
    }
    t
};

/// The other team's position on the square of the mover's plain position `t`, if they share it.
#[inline]
fn facing_one(t: u8) -> Option<u8> {
    match t {
        7..=10 | 52..=55 => Some(t),
        12..=50 if OPEN >> t & 1 == 0 => Some(62 - t),
        _ => None,
    }
}

/// One of a team's three pawns is at `p` (three comparisons, not a search).
#[inline]
fn has(team: &[u8; 3], p: u8) -> bool {
    (team[0] == p) | (team[1] == p) | (team[2] == p)
}

/// One random game from the start: (plies: moves and passes, winner: 0 team A, 1 team B, `None` a draw by
/// the cap).
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    let mut dice = Bits::new(seed);
    // Each team's pawns.
    let mut pawns = [[OFF; 3]; 2];
    let (mut mover, mut turn, mut plies) = (0usize, 0u32, 0u32);
    // Pawns on the throne, per team (they never leave it).
    let mut crowned = [0u8; 2];
    let mut sharings = [[0u8; 3]; MOST_SHARINGS];
    loop {
        let up = MOUTHS_UP[dice.take(6) as usize] as usize;
        let picked = if up == PANCHA {
            let found = pancha(pawns[mover], &mut sharings);
            if found > 0 {
                let mine = sharings[dice.below(found as u32) as usize];
                crowned[mover] = mine.iter().filter(|&&p| p == THRONE).count() as u8;
                pawns[mover] = mine;
                // A pawn on a plain square has taken any opponent there (none share one otherwise).
                for t in mine {
                    if let Some(q) = facing_one(t) {
                        for o in &mut pawns[mover ^ 1] {
                            if *o == q {
                                *o = OFF;
                            }
                        }
                    }
                }
                true
            } else {
                false
            }
        } else if VALUE[up] > 0 {
            let v = VALUE[up];
            let me = pawns[mover];
            let (from, n, activate) = plain_moves(me, pawns[mover ^ 1], v);
            let total = n + activate as u32;
            if total > 0 {
                let r = dice.below(total);
                let (p, to) = if r < n {
                    let rest = from & from.wrapping_sub(1);
                    let m = if r == 0 {
                        from
                    } else if r == 1 {
                        rest
                    } else {
                        rest & (rest - 1)
                    };
                    let p = m.trailing_zeros() as u8;
                    (p, p + v)
                } else {
                    (OFF, 0)
                };
                let i = if me[0] == p {
                    0
                } else if me[1] == p {
                    1
                } else {
                    2
                };
                pawns[mover][i] = to;
                crowned[mover] += (to == THRONE) as u8;
                true
            } else {
                false
            }
        } else {
            false
        };
        plies += 1;
        if crowned[mover] == 3 {
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

/// The moves of a throw other than pancha and puwak malla worth `v`: the positions of the mover's pawns
/// `me` that can move (a mask), how many they are, and whether an activation is one more.
#[inline]
fn plain_moves(me: [u8; 3], them: [u8; 3], v: u8) -> (u64, u32, bool) {
    // Distinct starting positions whose target is at most the throne and open or empty of pawns.
    let mine = FROM_BIT[me[0] as usize] | FROM_BIT[me[1] as usize] | FROM_BIT[me[2] as usize];
    let taken =
        mine | FACING[them[0] as usize] | FACING[them[1] as usize] | FACING[them[2] as usize];
    let from = mine & ((OPEN | !taken) & ((1 << (THRONE + 1)) - 1)) >> v;
    let rest = from & from.wrapping_sub(1);
    let n = (from != 0) as u32 + (rest != 0) as u32 + (rest & rest.wrapping_sub(1) != 0) as u32;
    (from, n, v == 1 && has(&me, OFF))
}

/// How many legal moves the player `mover` has with `up` cowries mouth up, the pawns of each team given
/// as route positions ([`OFF`] for one not activated): 0 when the throw passes. For the check of
/// `tests/tests/references.rs`; the bench does not call it.
#[allow(dead_code)]
pub fn legal_moves(pawns: [[u8; 3]; 2], mover: usize, up: usize) -> usize {
    if up == PANCHA {
        pancha(pawns[mover], &mut [[0; 3]; MOST_SHARINGS])
    } else if VALUE[up] > 0 {
        let (_, n, activate) = plain_moves(pawns[mover], pawns[mover ^ 1], VALUE[up]);
        (n + activate as u32) as usize
    } else {
        0
    }
}

/// The sharings of a pancha that use the most points, as the positions of the mover's pawns they make
/// (captures are worked out for the one chosen); returns how many. Nearly always some sharing uses all
/// five points: those are enumerated directly, as parts for the movable pawns taken front first; only
/// when there is none are the partial sharings searched.
fn pancha(first: [u8; 3], out: &mut [[u8; 3]; MOST_SHARINGS]) -> usize {
    let mut s = Search {
        best: PANCHA as u8,
        found: 0,
        out,
    };
    let off = first.iter().filter(|&&p| p == OFF).count();
    let mut start = first;
    for k in 0..=off {
        if k > 0 {
            activate(&mut start);
        }
        s.full(start, PANCHA as u8 - k as u8);
    }
    if s.found == 0 {
        s.best = 0;
        let mut start = first;
        for k in 0..=off {
            if k > 0 {
                activate(&mut start);
            }
            s.share(start, 0, k as u8, PANCHA as u8 - k as u8, u8::MAX, u8::MAX);
        }
    }
    s.found
}

/// Activates one pawn: it waits at position 0.
fn activate(pawns: &mut [u8; 3]) {
    if let Some(p) = pawns.iter_mut().find(|p| **p == OFF) {
        *p = 0;
    }
}

struct Search<'a> {
    /// Most points used by a sharing found so far, and how many sharings use them.
    best: u8,
    found: usize,
    out: &'a mut [[u8; 3]; MOST_SHARINGS],
}

impl Search<'_> {
    /// Every sharing of exactly `left` points: parts `a` for the movable pawns sorted front first (pawns on
    /// one square by decreasing parts), each part's target checked against the mover's pawns where they
    /// stand when it moves.
    fn full(&mut self, pawns: [u8; 3], left: u8) {
        // Front first; pawns off the board (0xff) and on the throne (61) cannot move: put them last.
        let key = |p: u8| if p >= THRONE { 0 } else { p + 1 };
        let mut q = pawns;
        for (i, j) in [(0, 1), (1, 2), (0, 1)] {
            if key(q[i]) < key(q[j]) {
                q.swap(i, j);
            }
        }
        let movable = q.iter().filter(|&&p| p < THRONE).count();
        let cap = |i: usize| if i < movable { left } else { 0 };
        // Where a part of `n` takes the pawn standing at `p`, if its target is at most the throne and
        // open or free of the mover's pawns `a` and `b` where they stand then; `p` itself for no part.
        let goes = |p: u8, n: u8, a: u8, b: u8| {
            let t = p + n;
            (n == 0 || t <= THRONE && (OPEN >> t & 1 == 1 || t != a && t != b)).then_some(t)
        };
        for a0 in 0..=cap(0) {
            let Some(t0) = goes(q[0], a0, q[1], q[2]) else {
                continue;
            };
            for a1 in 0..=cap(1).min(left - a0) {
                // Pawns on one square take decreasing parts.
                if q[1] == q[0] && a1 > a0 {
                    break;
                }
                let a2 = left - a0 - a1;
                if a2 > cap(2) || q[2] == q[1] && a2 > a1 {
                    continue;
                }
                let Some(t1) = goes(q[1], a1, t0, q[2]) else {
                    continue;
                };
                if let Some(t2) = goes(q[2], a2, t0, t1) {
                    self.out[self.found] = [t0, t1, t2];
                    self.found += 1;
                }
            }
        }
    }

    fn keep(&mut self, pawns: [u8; 3], used: u8) {
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
    /// and `n <= last_n`. A part's targets are a mask: the next `n` positions that are open or hold none
    /// of the mover's pawns (opponents never stop a pancha; they are taken).
    fn share(&mut self, pawns: [u8; 3], moved: u8, used: u8, left: u8, last_p: u8, last_n: u8) {
        if left == 0 || used > 0 {
            self.keep(pawns, used);
        }
        let own = pawns
            .iter()
            .fold(0u64, |m, &p| m | 1u64.checked_shl(p as u32).unwrap_or(0));
        for i in 0..3 {
            let p = pawns[i];
            if moved >> i & 1 == 1
                || p >= THRONE
                || p > last_p
                || (0..i).any(|j| moved >> j & 1 == 0 && pawns[j] == p)
            {
                continue;
            }
            let most = if p == last_p { last_n.min(left) } else { left }.min(THRONE - p);
            let mut targets = ((1u64 << most) - 1) << (p + 1) & (OPEN | !own);
            while targets != 0 {
                let t = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let n = t - p;
                let mut next = pawns;
                next[i] = t;
                self.share(next, moved | 1 << i, used + n, left - n, p, n);
            }
        }
    }
}

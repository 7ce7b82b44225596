//! Raja Pasu by hand: uniformly random playouts of a whole match of the ruleset `raja-pasu`
//! (`rulesets/raja-pasu.yaml`, which extends nothing), written without the keliya engine so that the
//! interpreter's cost can be measured against specialised code.
//!
//! The match follows the ruleset with every parameter at its default:
//!
//! - Holes are numbered along the sowing cycle: 0..=6 are South's row (r1h1..r1h7), 7..=13 North's
//!   (r2h7..r2h1), so the next hole counter-clockwise is `i + 1 mod 14` and each row starts at its
//!   owner's left end. Closed holes are skipped by sowing and by every "next hole" test.
//! - A move lifts a non-empty hole of the mover's row and sows one counter per open hole, the origin
//!   included on long laps. A drop that makes exactly four (the last drop too) sends those four at once
//!   to the owner of that row. When a lap ends, a non-empty next hole is lifted and sown (relay); an
//!   empty one ends the move, and the mover captures the hole beyond it if it holds counters.
//! - Loop guard: before each relay, the configuration (board, reserves, hole about to be lifted) is
//!   remembered for the move; meeting one again, or reaching 10,000 laps, ends the move at once with no
//!   lift and no capture.
//! - A player may sow only while the round has lasted fewer than 1,000 turns and the position (pieces,
//!   variables, player to move) has occurred fewer than three times since the last capture. Otherwise,
//!   or when his row is empty, the fallback move ends the round: a player to move with an empty row
//!   loses the rest to his opponent, who starts the next round (this comes before the caps); else, after
//!   either cap, each player takes his own row and the player to move starts the next round. A player left with fewer than seven counters loses
//!   the match (South is tested first); after 1,000 rounds the larger reserve wins, equal reserves
//!   draw. Otherwise each player fills `min(7, reserve / 7)` of his rightmost holes with seven counters
//!   and the rest of his row is closed for the round. The ruleset's `open-hole` rule (players choosing
//!   their holes) is off by default and never applies.
//! - The draw cap of four repetitions is checked after every move as the engine does, though the round
//!   cap at three always comes first.
//!
//! Written for speed: the 14 holes are the bytes of one `u128`; a lap is one addition of a mask of ones
//! (a full round of the open holes, or the prefix of the holes after the sowing hole, from tables rebuilt
//! when the open holes change), and the holes a lap brings to exactly four are found by testing all bytes
//! at once (no hole ever rests at four: one that reaches it is emptied at once). Random numbers come from
//! the dice of keliya-play through `bits.rs`.
//!
//! Every legal move set has the same members as the interpreter's (listed in another order), every move
//! is drawn uniformly among the legal moves (`Bits::below`), the round-ending fallback included, and a ply is
//! counted per applied move. Round wins, ties and the other statistics-only variables of the ruleset do
//! not influence play and are not kept. Nothing is simplified: positions and loop-guard configurations
//! are compared exactly (packed into 128 bits) instead of by hash, which only removes the interpreter's
//! remote chance of a hash collision.

use super::bits::Bits;
use std::cell::RefCell;
use std::sync::OnceLock;

/// Holes on the board, and in one row.
const HOLES: usize = 14;
const ROW: usize = 7;
/// Counters put into one hole when a round begins.
const PER_HOLE: u32 = 7;
/// Section 4.1: the lap cap of one move.
const MAX_LAPS: u32 = 10_000;
/// Section 4.2: a position met this many times since the last capture ends the round.
const ROUND_REPETITIONS: u32 = 3;
/// Section 4.2: the turn cap of a round.
const MAX_TURNS_PER_ROUND: u32 = 1000;
/// Section 4.3: the match cap.
const MAX_ROUNDS: u32 = 1000;
/// The ruleset's `caps: repetition`, a draw of the whole game.
const REPETITION_CAP: u32 = 4;

/// Loop-guard configurations kept in a plain list before they spill into a hash table; random moves
/// rarely relay more than a few times.
const SEEN_INLINE: usize = 32;
/// Slots of the hash table of loop-guard configurations: at most `MAX_LAPS` entries live at once.
const SEEN_BITS: u32 = 15;
/// Slots of the table of positions since the last capture: at most 1,001 entries live at once.
const HISTORY_BITS: u32 = 11;

/// An open-addressing set of 128-bit keys with an occurrence count per key, emptied in constant time
/// by moving to a new generation.
struct Table {
    keys: Vec<u128>,
    stamps: Vec<u32>,
    counts: Vec<u32>,
    generation: u32,
    shift: u32,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Self {
        let slots = 1usize << bits;
        Table {
            keys: vec![0; slots],
            stamps: vec![0; slots],
            counts: vec![0; slots],
            generation: 1,
            shift: 64 - bits,
            mask: slots - 1,
        }
    }

    fn clear(&mut self) {
        if self.generation == u32::MAX {
            self.stamps.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// Counts one more occurrence of `key` and returns how many there have been since the last clear.
    fn add(&mut self, key: u128) -> u32 {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let mut i = (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        loop {
            if self.stamps[i] != self.generation {
                self.stamps[i] = self.generation;
                self.keys[i] = key;
                self.counts[i] = 1;
                return 1;
            }
            if self.keys[i] == key {
                self.counts[i] += 1;
                return self.counts[i];
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// The two tables, kept per thread so that a playout allocates nothing.
struct Tables {
    seen: Table,
    history: Table,
}

thread_local! {
    static TABLES: RefCell<Tables> = RefCell::new(Tables {
        seen: Table::new(SEEN_BITS),
        history: Table::new(HISTORY_BITS),
    });
}

/// The sowing tables of each way the holes can be closed, by the number of holes closed at the left
/// end of South's row times 7 plus North's, built once.
fn layouts() -> &'static [Layout] {
    static LAYOUTS: OnceLock<Vec<Layout>> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        (0..ROW * ROW)
            .map(|i| Layout::new(closed_holes(i / ROW, i % ROW)))
            .collect()
    })
}

/// The holes closed when South closes `south` holes at the left end of its row, and North `north`.
fn closed_holes(south: usize, north: usize) -> u16 {
    ((1u16 << south) - 1) | ((1u16 << north) - 1) << ROW
}

/// The sowing tables of one set of open holes.
struct Layout {
    /// The next open hole after each hole, counter-clockwise.
    next: [u8; 16],
    /// How many holes are open, and a one in each.
    open: u32,
    all_open: u128,
    /// Per hole `h` and count `r` below `open`: the ones of the `r` open holes after `h`, and the last
    /// of them (`h` itself for none).
    lap: [[u128; HOLES]; HOLES],
    lap_end: [[u8; HOLES]; HOLES],
}

impl Layout {
    /// The tables when the holes whose bit is set in `closed` are closed.
    fn new(closed: u16) -> Layout {
        let mut l = Layout {
            next: [0; 16],
            open: HOLES as u32 - closed.count_ones(),
            all_open: (0..HOLES)
                .filter(|h| closed >> h & 1 == 0)
                .fold(0, |m, h| m | 1 << (8 * h)),
            lap: [[0; HOLES]; HOLES],
            lap_end: [[0; HOLES]; HOLES],
        };
        for h in 0..HOLES {
            let mut n = (h + 1) % HOLES;
            while closed >> n & 1 == 1 {
                n = (n + 1) % HOLES;
            }
            l.next[h] = n as u8;
        }
        for h in 0..HOLES {
            let (mut mask, mut at) = (0u128, h);
            for r in 0..l.open as usize {
                l.lap[h][r] = mask;
                l.lap_end[h][r] = at as u8;
                at = l.next[at] as usize;
                mask |= 1 << (8 * at);
            }
        }
        l
    }
}

/// What the fallback move leaves behind.
enum RoundEnd {
    /// The next round is set up.
    NextRound,
    /// The match is over: its winner, or `None` for a draw.
    MatchOver(Option<u8>),
}

/// Plays one random match from the initial position; returns the plies played and the winner
/// (0 South, 1 North), or `None` for a draw.
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    TABLES.with(|tables| {
        let tables = &mut *tables.borrow_mut();
        Match::new(tables).play(&mut Bits::new(seed))
    })
}

/// A byte of ones in each hole, in each hole of South's row, in each of North's.
const ONES: u128 = (1 << (8 * HOLES)) / 0xff;
const SOUTH: u128 = (1 << (8 * ROW)) / 0xff;
const NORTH: u128 = ONES & !SOUTH;
/// The low seven bits of every byte.
const LOW7: u128 = u128::MAX / 0xff * 0x7f;

/// The seven bytes of a row.
const ROW_BYTES: u64 = (1 << (8 * ROW)) - 1;

/// The holes of a row `x` (bytes below 128) that are not zero, as the top bit of their byte.
#[inline]
fn nonzero64(x: u64) -> u64 {
    const L: u64 = u64::MAX / 0xff * 0x7f;
    (((x & L) + L) | x) & !L
}

/// The holes of `x` (bytes below 128) that are not zero, as the top bit of their byte.
#[inline]
fn nonzero(x: u128) -> u128 {
    (((x & LOW7) + LOW7) | x) & !LOW7
}

/// The holes of a row flagged by `nonzero` (the row's seven bytes at the bottom of `x`), as the low
/// seven bits of a byte.
#[inline]
fn row_flags(x: u64) -> u32 {
    ((x >> 7 & 0x0001_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Set bits of each byte.
const POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The counters of hole `h`.
#[inline]
fn cell(cells: u128, h: usize) -> u8 {
    cells.to_le_bytes()[h & 15]
}

/// The board with hole `h` emptied (a mask from a table: a shift of a `u128` by a variable amount costs
/// several instructions and branches).
#[inline]
fn empty(cells: u128, h: usize) -> u128 {
    const KEEP: [u128; 16] = {
        let mut t = [0u128; 16];
        let mut h = 0;
        while h < 16 {
            t[h] = !(0xff << (8 * h));
            h += 1;
        }
        t
    };
    cells & KEEP[h & 15]
}

struct Match<'t> {
    /// Counters per hole in bytes 0..14; bytes 14 and 15 stay zero and take the extra parts of a key.
    cells: u128,
    /// The sowing tables of this round's open holes.
    layout: &'static Layout,
    /// The reserves (captures, remainders, leftovers), South then North.
    store: [u32; 2],
    mover: usize,
    turn: u32,
    round_start: u32,
    rounds: u32,
    ply: u32,
    /// Occurrences of the current position since the last capture, this one included.
    repetitions: u32,
    /// The first configurations met by the loop guard since the move began or its last pasu; those
    /// past `SEEN_INLINE` go to `tables.seen`.
    seen: [u128; SEEN_INLINE],
    seen_len: usize,
    tables: &'t mut Tables,
}

impl<'t> Match<'t> {
    fn new(tables: &'t mut Tables) -> Self {
        let m = Match {
            cells: ONES * PER_HOLE as u128,
            layout: &layouts()[0],
            store: [0; 2],
            mover: 0,
            turn: 0,
            round_start: 0,
            rounds: 0,
            ply: 0,
            repetitions: 0,
            seen: [0; SEEN_INLINE],
            seen_len: 0,
            tables,
        };
        m.tables.history.clear();
        m
    }

    /// The position as one number: the board and the player to move. The reserves and the round
    /// counters are constant between captures within a round, and the history is emptied whenever
    /// either changes, so they need not be part of it.
    fn position_key(&self) -> u128 {
        self.cells | (self.mover as u128) << 112
    }

    /// Records the position about to be played, as the repetition history does; true when the draw
    /// cap ends the game.
    fn settle(&mut self) -> bool {
        let key = self.position_key();
        self.repetitions = self.tables.history.add(key);
        self.repetitions >= REPETITION_CAP
    }

    fn play(mut self, dice: &mut Bits) -> (u32, Option<u8>) {
        if self.settle() {
            return (self.ply, None);
        }
        loop {
            let mut holes = 0;
            if self.turn - self.round_start < MAX_TURNS_PER_ROUND
                && self.repetitions < ROUND_REPETITIONS
            {
                let row = (self.cells >> (8 * ROW * self.mover)) as u64 & ROW_BYTES;
                holes = row_flags(nonzero64(row));
            }
            let captured = if holes != 0 {
                for _ in 0..dice.below(u32::from(POP8[holes as usize])) {
                    holes &= holes - 1;
                }
                let captured = self.sow(ROW * self.mover + holes.trailing_zeros() as usize);
                self.mover ^= 1;
                captured
            } else {
                // The fallback rule is the only legal move: drawn like any other.
                dice.below(1);
                if let RoundEnd::MatchOver(winner) = self.end_round() {
                    return (self.ply + 1, winner);
                }
                false
            };
            self.ply += 1;
            self.turn += 1;
            if captured {
                self.tables.history.clear();
            }
            if self.settle() {
                return (self.ply, None);
            }
        }
    }

    /// Adds `ones` to the board (at most one counter to a hole) and takes every hole it brings to four
    /// (pasu, for the row's owner); true if there was one.
    #[inline]
    fn drop_lap(&mut self, ones: u128) -> bool {
        self.cells += ones;
        let fours = !nonzero(self.cells ^ (ONES * 4)) & ones << 7;
        if fours == 0 {
            return false;
        }
        // Each four becomes zero: 0x80 >> 5 is the 4 to take off.
        self.cells -= fours >> 5;
        self.store[0] += 4 * u32::from(POP8[row_flags(fours as u64 & ROW_BYTES << 7) as usize]);
        self.store[1] +=
            4 * u32::from(POP8[row_flags((fours >> 56) as u64 & ROW_BYTES << 7) as usize]);
        // The board total drops, so no configuration remembered so far can come back.
        self.seen_len = 0;
        true
    }

    /// One move from hole `h`; true when it captured (pasu or the hole beyond).
    fn sow(&mut self, h: usize) -> bool {
        let mover = self.mover;
        let mut captured = false;
        let mut hand = u32::from(cell(self.cells, h));
        self.cells = empty(self.cells, h);
        let mut pos = h;
        let mut laps = 1;
        self.seen_len = 0;
        loop {
            // Whole rounds of the open holes first (the sowing hole's among them), then the rest.
            while hand >= self.layout.open {
                captured |= self.drop_lap(self.layout.all_open);
                hand -= self.layout.open;
            }
            captured |= self.drop_lap(self.layout.lap[pos][hand as usize]);
            pos = usize::from(self.layout.lap_end[pos][hand as usize]);
            let after = usize::from(self.layout.next[pos]);
            let lifted = cell(self.cells, after);
            if lifted == 0 {
                let beyond = usize::from(self.layout.next[after]);
                let taken = cell(self.cells, beyond);
                if taken > 0 {
                    self.store[mover] += u32::from(taken);
                    self.cells = empty(self.cells, beyond);
                    captured = true;
                }
                return captured;
            }
            if laps >= MAX_LAPS {
                return captured;
            }
            // The reserves are constant since the last clear, so the board and the hole identify the
            // configuration.
            if self.met_before(self.cells | (after as u128) << 120) {
                return captured;
            }
            hand = u32::from(lifted);
            self.cells = empty(self.cells, after);
            pos = after;
            laps += 1;
        }
    }

    /// The loop guard: whether `key` was met since the move began or its last pasu; remembers it.
    fn met_before(&mut self, key: u128) -> bool {
        if self.seen_len < SEEN_INLINE {
            if self.seen[..self.seen_len].contains(&key) {
                return true;
            }
            self.seen[self.seen_len] = key;
            self.seen_len += 1;
            return false;
        }
        if self.seen_len == SEEN_INLINE {
            // The list is full: move it into the table, and use the table from now on.
            self.tables.seen.clear();
            for &k in &self.seen {
                self.tables.seen.add(k);
            }
            self.seen_len += 1;
        }
        self.tables.seen.add(key) > 1
    }

    /// The fallback move: ends the round, and then either the match or sets up the next round.
    fn end_round(&mut self) -> RoundEnd {
        let row = if self.mover == 0 { SOUTH } else { NORTH };
        let row_empty = self.cells & (row * 0xff) == 0;
        let capped = !row_empty
            && (self.turn - self.round_start >= MAX_TURNS_PER_ROUND
                || self.repetitions >= ROUND_REPETITIONS);
        let starter = if capped { self.mover } else { self.mover ^ 1 };
        for h in 0..HOLES {
            let taker = if capped { h / ROW } else { starter };
            self.store[taker] += u32::from(cell(self.cells, h));
        }
        self.cells = 0;
        self.rounds += 1;
        if self.store[0] < PER_HOLE {
            return RoundEnd::MatchOver(Some(1));
        }
        if self.store[1] < PER_HOLE {
            return RoundEnd::MatchOver(Some(0));
        }
        if self.rounds >= MAX_ROUNDS {
            return RoundEnd::MatchOver(match self.store[0].cmp(&self.store[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            });
        }
        let mut closed = [0; 2];
        for (p, shut) in closed.iter_mut().enumerate() {
            let open = (self.store[p] / PER_HOLE).min(ROW as u32) as usize;
            *shut = ROW - open;
            for i in ROW - open..ROW {
                self.cells |= (PER_HOLE as u128) << (8 * (p * ROW + i));
            }
            self.store[p] -= PER_HOLE * open as u32;
        }
        self.layout = &layouts()[closed[0] * ROW + closed[1]];
        self.round_start = self.turn + 1;
        self.mover = starter;
        self.tables.history.clear();
        RoundEnd::NextRound
    }
}

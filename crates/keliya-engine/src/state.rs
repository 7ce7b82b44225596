use std::sync::Arc;

pub use crate::counts::Counts;
use crate::{Game, PlayerId, Successors};

/// Position hashes recorded since the last capture, oldest first, in one list shared by a state and its
/// copies: copying a state copies one pointer. The first position recorded in a copy copies the list
/// (a playout, which changes its one state in place, never does). Reading it (`count`) is a scan of
/// contiguous memory while the list is short, as it is in most games (a capture empties it); past
/// [`INDEXED_FROM`] positions a count per hash is kept beside it, so a turn costs the same however long
/// the game has gone without a capture.
#[derive(Clone, Default)]
pub struct History(Option<Arc<Recorded>>);

/// Positions past which [`History`] keeps a count per hash.
const INDEXED_FROM: usize = 64;

#[derive(Clone, Default)]
struct Recorded {
    hashes: Vec<u64>,
    /// Occurrences of each hash, once there are at least [`INDEXED_FROM`] hashes.
    counts: Option<std::collections::HashMap<u64, u32, PassHash>>,
}

impl Recorded {
    fn push(&mut self, hash: u64) {
        self.hashes.push(hash);
        match &mut self.counts {
            Some(counts) => *counts.entry(hash).or_default() += 1,
            None if self.hashes.len() >= INDEXED_FROM => {
                let mut counts = std::collections::HashMap::default();
                for &h in &self.hashes {
                    *counts.entry(h).or_default() += 1;
                }
                self.counts = Some(counts);
            }
            None => {}
        }
    }
    fn clear(&mut self) {
        self.hashes.clear();
        self.counts = None;
    }
}

/// The keys are position hashes already, but sums of weights whose low bits may repeat: mixed once
/// (a multiply between two folds of the high bits onto the low, as in splitmix64) so that both the low
/// bits (the table's slot) and the high bits (its tag) vary.
type PassHash = std::hash::BuildHasherDefault<PassHasher>;

#[derive(Default)]
struct PassHasher(u64);

impl std::hash::Hasher for PassHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        let x = (v ^ (v >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = x ^ (x >> 31);
    }
}

impl History {
    pub fn push(&mut self, hash: u64) {
        match &mut self.0 {
            Some(list) => match Arc::get_mut(list) {
                Some(only) => only.push(hash),
                None => {
                    let mut copy = Recorded {
                        hashes: Vec::with_capacity(list.hashes.len() + 32),
                        counts: list.counts.clone(),
                    };
                    copy.hashes.extend_from_slice(&list.hashes);
                    copy.push(hash);
                    *list = Arc::new(copy);
                }
            },
            None => {
                // (Room for a game's first turns: a playout records one position a turn.)
                let mut list = Recorded {
                    hashes: Vec::with_capacity(32),
                    counts: None,
                };
                list.push(hash);
                self.0 = Some(Arc::new(list));
            }
        }
    }
    /// Forgets every position (a capture): the list is emptied in place when no copy shares it.
    pub fn clear(&mut self) {
        if let Some(list) = &mut self.0 {
            match Arc::get_mut(list) {
                Some(only) => only.clear(),
                None => self.0 = None,
            }
        }
    }
    fn recorded(&self) -> &[u64] {
        self.0.as_deref().map_or(&[], |r| r.hashes.as_slice())
    }
    /// The most recent position recorded.
    pub fn last(&self) -> Option<u64> {
        self.recorded().last().copied()
    }
    /// Every recorded hash, newest first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.recorded().iter().rev().copied()
    }
    pub fn count(&self, hash: u64) -> usize {
        match self.0.as_deref() {
            Some(Recorded {
                counts: Some(counts),
                ..
            }) => counts.get(&hash).map_or(0, |&n| n as usize),
            _ => self.recorded().iter().filter(|&&h| h == hash).count(),
        }
    }
}

/// Histories are equal when they record the same positions, however they are stored.
impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.recorded() == other.recorded()
    }
}
impl Eq for History {}
impl std::hash::Hash for History {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.recorded().hash(state)
    }
}
impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Throws held (see [`State::held`]), by row, oldest first. Boxed, so that it makes a position one word
/// larger, not three: positions are moved and copied on every move, and most games hold no throws.
#[derive(Clone, Default)]
#[allow(clippy::box_collection)] // the box is the point: one word in the position instead of a list's three
pub struct Held(Option<Box<Vec<u8>>>);

impl Held {
    pub fn push(&mut self, row: u8) {
        self.0.get_or_insert_with(Default::default).push(row);
    }
    /// Takes out the throw at `index`; `None` when there is none there.
    pub fn remove(&mut self, index: usize) -> Option<u8> {
        let list = self.0.as_mut().filter(|list| index < list.len())?;
        let row = list.remove(index);
        if list.is_empty() {
            self.0 = None;
        }
        Some(row)
    }
    /// Puts `row` back at `index` (the undo of [`Held::remove`]); false when `index` is past the end.
    pub fn insert(&mut self, index: usize, row: u8) -> bool {
        let list = self.0.get_or_insert_with(Default::default);
        if index > list.len() {
            if list.is_empty() {
                self.0 = None;
            }
            return false;
        }
        list.insert(index, row);
        true
    }
    pub fn clear(&mut self) {
        self.0 = None;
    }
    /// Keeps the first `len` throws.
    pub fn truncate(&mut self, len: usize) {
        if len == 0 {
            self.0 = None;
        } else if let Some(list) = &mut self.0 {
            list.truncate(len);
        }
    }
}

impl std::ops::Deref for Held {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

/// Held throws are equal when they list the same throws, however they are stored.
impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        **self == **other
    }
}
impl Eq for Held {}
impl std::hash::Hash for Held {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}
impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// Variable values; inline up to 8 (a pooled list like the counts' costs more than it saves here).
pub type Vars = smallvec::SmallVec<[i64; 8]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CapKind {
    MaxTurns,
    NoCapture,
    Repetition,
}

impl CapKind {
    pub fn name(self) -> &'static str {
        match self {
            CapKind::MaxTurns => "max_turns",
            CapKind::NoCapture => "no_capture_turns",
            CapKind::Repetition => "repetition",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// An end condition of the ruleset, by index.
    End(u16),
    /// A `win(...)` or `draw()` effect in a rule, by rule index.
    Rule(u16),
    /// A documented cap ended the game.
    Cap(CapKind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<PlayerId>,
    pub reason: Reason,
}

/// A position and everything needed to continue from it. Cheap to clone; compared and hashed whole.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Pieces per (site, piece kind): `counts[site * kinds + kind]`.
    pub counts: Counts,
    pub vars: Vars,
    pub to_move: PlayerId,
    /// Index into the throw table of the throw being played, once thrown.
    pub throw: Option<u8>,
    /// A throw must be made before the next move.
    pub chance_due: bool,
    /// Throws made and not yet played, by index into the throw table (only with stored throws, see
    /// [`Game::stored_throws`]). While some are held and none is being played, the player to move
    /// chooses which to play next.
    pub held: Held,
    /// Throws made in this turn so far (read by [`Game::max_throws_per_turn`]).
    pub turn_throws: u16,
    pub ply: u32,
    pub turn: u32,
    /// Turns since the last capture or the last piece brought onto the board from off it.
    pub quiet_turns: u32,
    /// Captures made in the game so far (for statistics).
    pub captures: u32,
    /// Position hashes since the last capture (for the repetition cap). Shared between a state and its
    /// copies until one of them records a new position, so copying a state stays cheap.
    pub history: History,
    pub result: Option<Outcome>,
    /// The ordinary moves found when the end conditions asked whether the player to move is `stuck`,
    /// kept for the move search that follows (not part of the position: ignored by comparisons, not
    /// copied with the state).
    pub(crate) found: FoundMoves,
}

/// Moves found for a position, with the game and the parts of the position they were found in, so
/// that a state changed by hand since, or given to another game, does not reuse them.
#[derive(Default)]
pub(crate) struct FoundMoves(std::cell::Cell<Option<Box<Found>>>);

pub(crate) struct Found {
    /// Which game found them: the address of its rules (another game, or a copy, searches afresh).
    game: usize,
    /// The position (counts, variables, player to move) by its hash, as the repetition cap tells
    /// positions apart: copying and comparing the counts every turn cost more than the rest of the
    /// check.
    position: u64,
    throw: Option<u8>,
    ply: u32,
    turn: u32,
    pub(crate) moves: Successors,
}

/// Which game found the moves of a box that holds none (taken, or found elsewhere): no game's rules are
/// at address 0.
const NO_GAME: usize = 0;

impl FoundMoves {
    pub(crate) const fn none() -> FoundMoves {
        FoundMoves(std::cell::Cell::new(None))
    }

    /// Gives this position the box kept in `spare` when it has none (a game's first positions), so
    /// that its `stuck` searches fill a list with room.
    pub(crate) fn borrow_box(&self, spare: &FoundMoves) {
        let own = self.0.take();
        self.0.set(own.or_else(|| {
            let mut lent = spare.0.take()?;
            lent.game = NO_GAME;
            Some(lent)
        }));
    }

    /// Keeps this position's box in `spare` (a game that has ended needs it no more).
    pub(crate) fn return_box(&self, spare: &FoundMoves) {
        if let Some(own) = self.0.take() {
            spare.0.set(Some(own));
        }
    }

    /// This position's box, taken out for the `stuck` search to fill its list, which it empties
    /// first: the list the last [`FoundMoves::take_into`] left there (its caller's previous list), or
    /// a new one; a new box if the position has none. [`FoundMoves::keep`] puts it back. (Moving the
    /// box moves a pointer; moving its list out and back in copied a few hundred bytes each time.)
    pub(crate) fn take_box(&self) -> Box<Found> {
        match self.0.take() {
            Some(mut found) => {
                if found.moves.has_room() {
                    found.moves.clear();
                } else {
                    found.moves = Successors::new();
                }
                found.game = NO_GAME;
                found
            }
            None => Box::new(Found {
                game: NO_GAME,
                position: 0,
                throw: None,
                ply: 0,
                turn: 0,
                moves: Successors::new(),
            }),
        }
    }

    /// A list for a search that keeps nothing (`stuck` asked outside the end conditions): the box's
    /// list when it holds no moves found for the position, for [`FoundMoves::give_back`] to return.
    pub(crate) fn lend_list(&self) -> Successors {
        let mut found = self.0.take();
        let list = match found.as_mut() {
            Some(f) if f.game == NO_GAME => std::mem::take(&mut f.moves),
            _ => Successors::new(),
        };
        self.0.set(found);
        let mut list = list;
        list.clear();
        list
    }

    /// Returns a list lent by [`FoundMoves::lend_list`] to the box, if it holds no moves.
    pub(crate) fn give_back(&self, list: Successors) {
        let mut found = self.0.take();
        if let Some(f) = found.as_mut()
            && f.game == NO_GAME
            && !f.moves.has_room()
        {
            f.moves = list;
        }
        self.0.set(found);
    }

    /// Puts back the box [`FoundMoves::take_box`] took, its list holding the moves of `st`.
    pub(crate) fn keep(&self, game: &Game, st: &State, mut found: Box<Found>) {
        found.game = game.rules.as_ptr() as usize;
        found.position = st.position_hash();
        found.throw = st.throw;
        found.ply = st.ply;
        found.turn = st.turn;
        self.0.set(Some(found));
    }

    /// Swaps the moves kept for `st` into `list`, if they were found in a position like it in every
    /// part the rules read; `list`'s old content stays in the box, for the next search to fill. The box
    /// stays with the position either way, holding no found moves.
    pub(crate) fn take_into(&self, game: &Game, st: &State, list: &mut Successors) -> bool {
        let Some(mut found) = self.0.take() else {
            return false;
        };
        let same = found.game == game.rules.as_ptr() as usize
            && found.position == st.position_hash()
            && found.throw == st.throw
            && found.ply == st.ply
            && found.turn == st.turn;
        if same {
            list.swap_moves(&mut found.moves);
        }
        found.game = NO_GAME;
        self.0.set(Some(found));
        same
    }
}

impl PartialEq for FoundMoves {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for FoundMoves {}
impl std::hash::Hash for FoundMoves {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl std::fmt::Debug for FoundMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FoundMoves")
    }
}

/// Copied by hand: a derived clone would copy the inline lists element by element; these copy them whole.
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            counts: self.counts.clone(),
            vars: Vars::from_slice(&self.vars),
            to_move: self.to_move,
            throw: self.throw,
            chance_due: self.chance_due,
            held: self.held.clone(),
            turn_throws: self.turn_throws,
            ply: self.ply,
            turn: self.turn,
            quiet_turns: self.quiet_turns,
            captures: self.captures,
            history: self.history.clone(),
            result: self.result,
            found: FoundMoves::default(),
        }
    }
}

impl State {
    /// The pieces of one kind on the whole board, off-board places included.
    pub fn total(&self, game: &Game, piece: u8) -> i64 {
        if let Some(total) = self.counts.total(piece as usize) {
            return total as i64;
        }
        // One stride through the list (the sum over sites of `count` checked every index), as a plain
        // loop: `step_by` cost the sowing games' conservation check a third more.
        let k = game.piece_count().max(1);
        let cells: &[u16] = &self.counts;
        let (mut sum, mut i) = (0u64, piece as usize);
        while i < cells.len() {
            sum += u64::from(cells[i]);
            i += k;
        }
        sum as i64
    }
    pub fn count(&self, game: &Game, site: u16, piece: u8) -> u16 {
        self.counts[site as usize * game.piece_count() + piece as usize]
    }
    pub fn site_total(&self, game: &Game, site: u16) -> u32 {
        let k = game.piece_count();
        self.counts[site as usize * k..(site as usize + 1) * k]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }
    /// No piece of any kind on `site`. (Without a loop for games of one or two kinds of piece, as the
    /// hunt games are: this is the test of every step and drop; with more, from the counts' bit set.)
    #[inline]
    pub fn site_is_empty(&self, game: &Game, site: u16) -> bool {
        let cell = site as usize * game.piece_count();
        match game.piece_count() {
            1 => self.counts[cell] == 0,
            2 => self.counts[cell] | self.counts[cell + 1] == 0,
            _ => match self.counts.vacant(site as usize) {
                Some(vacant) => vacant,
                None => self.site_total(game, site) == 0,
            },
        }
    }
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Hash of the position alone (not counters or history), stable across runs and platforms.
    ///
    /// It is taken every turn of a game with a repetition cap, and at every step that asks
    /// `seen_before`. The counts' share is kept by the counts as they change ([`Counts::hash`]); the
    /// variables are summed here the same way (each times a fixed weight of its slot: products that
    /// do not wait for each other, where a chain of one mix per variable made a sowing's many
    /// variables a tenth of its bookkeeping). The two sums, the numbers of counts and variables and
    /// the player to move are then mixed, each half by a 128-bit product folded to 64 bits, so that a
    /// change in any bit moves bits high and low.
    pub fn position_hash(&self) -> u64 {
        self.position_hash_with_mover(self.to_move)
    }

    /// [`State::position_hash`] of this position with `to_move` the player to move.
    pub fn position_hash_with_mover(&self, to_move: PlayerId) -> u64 {
        let vars = self.vars.iter().enumerate().fold(0u64, |sum, (slot, &v)| {
            sum.wrapping_add((v as u64).wrapping_mul(crate::counts::weight(slot)))
        });
        // (The throw is not part of the position: a position repeats whatever was thrown in it.)
        let sizes =
            (self.counts.len() as u64) << 40 | (self.vars.len() as u64) << 20 | u64::from(to_move);
        folded_product(self.counts.hash() ^ sizes ^ 0x243f_6a88_85a3_08d3, K)
            ^ folded_product(vars ^ 0x1319_8a2e_0370_7344, K ^ 0xa409_3822_299f_31d0)
    }
}

/// What [`State::position_hash`] multiplies by.
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// The 128-bit product of `a` and `b`, its two halves joined by exclusive or.
#[inline(always)]
fn folded_product(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

//! Running rules: legal moves by exploring choice points, applying a move, and what follows a move
//! (next player, end conditions, caps).

use crate::exec::{Decided, Executor, Mode};
use crate::ir::*;
use crate::run::{Changes, Run, Scratch, Undo, replay};
use crate::state::{CapKind, FoundMoves, Outcome, Reason, State};
use crate::{Game, NotationPart, ThrowRow};
use smallvec::SmallVec;

/// Rule index used for the forced pass of a player with no legal move.
pub const PASS_RULE: u16 = u16::MAX;
/// The built-in moves that choose which held throw to play next (stored throws, see
/// [`Game::stored_throws`]) are rules `TAKE_RULE + row`, one per row of the throw table.
pub const TAKE_RULE: u16 = PASS_RULE - 256;

/// The throw table row a built-in `use` move chooses.
fn taken(rule: u16) -> Option<u8> {
    (TAKE_RULE..PASS_RULE)
        .contains(&rule)
        .then(|| (rule - TAKE_RULE) as u8)
}

/// One decision at a `choose`: the choice point's id and the chosen values (one or two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    pub point: u16,
    pub values: [Value; 2],
}

/// A complete move: the rule it uses and one choice per choice point it passed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub rule: u16,
    pub choices: SmallVec<[Choice; 2]>,
}

impl Move {
    pub fn pass() -> Move {
        Move {
            rule: PASS_RULE,
            choices: SmallVec::new(),
        }
    }
    pub fn is_pass(&self) -> bool {
        self.rule == PASS_RULE
    }
    /// The move that plays the held throw of row `row` next.
    pub fn take(row: u8) -> Move {
        Move {
            rule: TAKE_RULE + u16::from(row),
            choices: SmallVec::new(),
        }
    }
    /// The held throw this move chooses to play next, if it is such a move.
    pub fn taken_throw(&self) -> Option<u8> {
        taken(self.rule)
    }
}

/// A problem found while running rules: a rule did something impossible (took a piece from an empty site,
/// looped without end). `at` indexes the rules crate's span table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub rule: String,
    pub at: usize,
    pub message: String,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rule `{}`: {}", self.rule, self.message)
    }
}

impl std::error::Error for EngineError {}

/// The interpreter passes errors boxed, so its many small results stay small (an error is rare).
impl From<Box<EngineError>> for EngineError {
    fn from(e: Box<EngineError>) -> Self {
        *e
    }
}

/// A legal move with what its rule changed in the position, before the turn's bookkeeping (next player,
/// end conditions, caps). Move generation computes those changes anyway; a playout that picks one of
/// these and finishes it with [`Game::apply_successor`] does not run the rule a second time.
pub struct Successor {
    pub mv: Move,
    /// Set by `prefer(n)`; only the moves of the highest preference are legal.
    pub(crate) preference: i64,
    pub(crate) decided: Decided,
    pub(crate) made: Made,
    /// The game and the ply it was found in (`Game::stamp`), so that a successor played in another game
    /// or at another point of the game is refused (set by `successors`).
    pub(crate) found_in: u64,
}

/// The legal moves of a position as [`Game::successors_into`] finds them for a playout: a short record
/// per move, and what the moves of one choice point share (the rule, the choices before it, the run to
/// go on with) kept once for all of them, in lists that keep their room from one search to the next. A
/// move is played with [`Game::advance_found`], or taken out whole with [`Successors::get`].
#[derive(Default)]
pub struct Successors {
    moves: MovesFound,
    /// Room that finding the moves and playing one of them work in, kept for the next time (the list
    /// is the caller's workspace: a playout loop keeps one for all its games): the executor's option
    /// lists, and the options of the `for` loops a played move runs.
    pub(crate) options: Vec<[Value; 2]>,
    pub(crate) items: std::cell::Cell<Vec<[Value; 2]>>,
    /// The list of a run's locals, lent to each run a search makes ([`Executor::rule`]); and to the
    /// run that finishes a played move, through `played_locals` (the list is borrowed then).
    pub(crate) run_locals: Vec<Value>,
    pub(crate) played_locals: std::cell::Cell<Vec<Value>>,
    /// The box of moves of a game's last position, with the room of its list, for the first
    /// positions of the next game played from this list (`State::found`).
    pub(crate) spare_box: FoundMoves,
}

/// The moves a search found, and where: the part of [`Successors`] that a `stuck` search keeps with a
/// position and hands to the turn's search (the rest is workspace, which each list keeps).
#[derive(Default)]
struct MovesFound {
    entries: Vec<Entry>,
    groups: Vec<Group>,
    /// The groups' paths, locals and written values, each group's a span of these.
    choices: Vec<Choice>,
    locals: Vec<Value>,
    changes: Vec<Undo>,
    /// As [`Successor::found_in`].
    found_in: u64,
    /// Whether the lists hold more than [`Successors::MAX_BYTES`] (worked out as they grow).
    over: bool,
}

impl MovesFound {
    const fn new() -> MovesFound {
        MovesFound {
            entries: Vec::new(),
            groups: Vec::new(),
            choices: Vec::new(),
            locals: Vec::new(),
            changes: Vec::new(),
            found_in: 0,
            over: false,
        }
    }

    /// The bytes the lists hold (their lengths, not their room).
    fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.entries.len() * size_of::<Entry>()
            + self.groups.len() * size_of::<Group>()
            + self.choices.len() * size_of::<Choice>()
            + self.locals.len() * size_of::<Value>()
            + self.changes.len() * size_of::<Undo>()
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.groups.clear();
        self.choices.clear();
        self.locals.clear();
        self.changes.clear();
        self.over = false;
    }

    /// Field by field: a swap of the whole struct is a generic byte loop out of line, which cost Hat
    /// 0.5% more.
    fn swap(&mut self, other: &mut MovesFound) {
        std::mem::swap(&mut self.entries, &mut other.entries);
        std::mem::swap(&mut self.groups, &mut other.groups);
        std::mem::swap(&mut self.choices, &mut other.choices);
        std::mem::swap(&mut self.locals, &mut other.locals);
        std::mem::swap(&mut self.changes, &mut other.changes);
        std::mem::swap(&mut self.found_in, &mut other.found_in);
        std::mem::swap(&mut self.over, &mut other.over);
    }
}

/// One move: its group and its option at the group's choice point.
#[derive(Clone, Copy)]
struct Entry {
    group: u32,
    values: [Value; 2],
}

/// A stretch of one of the lists of [`Successors`].
#[derive(Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The items pushed to `list` since it was `start` long.
    fn since<T>(start: usize, list: &[T]) -> Span {
        Span {
            start: start as u32,
            end: list.len() as u32,
        }
    }
    fn of<T>(self, list: &[T]) -> &[T] {
        &list[self.start as usize..self.end as usize]
    }
}

/// What the moves of one choice point share: one move (`point` is `None`), or one per option of the
/// choice point where the rule paused.
#[derive(Clone, Copy)]
struct Group {
    rule: u16,
    point: Option<u16>,
    /// The choices before `point` (all of them when there is none).
    path: Span,
    preference: i64,
    decided: Decided,
    kept: Kept,
}

/// [`Made`], its lists kept in [`Successors`].
#[derive(Clone, Copy)]
enum Kept {
    /// Not kept (`legal_moves`).
    Nothing,
    Written(Span),
    Paused {
        locals: Span,
        steps: u32,
    },
}

/// What the executor says of a group of moves besides its options.
pub(crate) struct Head<'a> {
    pub(crate) rule: u16,
    pub(crate) path: &'a [Choice],
    pub(crate) preference: i64,
    pub(crate) decided: Decided,
}

impl<'a> Head<'a> {
    /// The head of the moves `run` of `rule` found along `path`.
    #[inline]
    pub(crate) fn of(rule: u16, path: &'a [Choice], run: &Run<'_>) -> Head<'a> {
        Head {
            rule,
            path,
            preference: run.preference,
            decided: run.decided(),
        }
    }
}

impl Successors {
    pub const fn new() -> Successors {
        Successors {
            moves: MovesFound::new(),
            options: Vec::new(),
            items: std::cell::Cell::new(Vec::new()),
            run_locals: Vec::new(),
            played_locals: std::cell::Cell::new(Vec::new()),
            spare_box: FoundMoves::none(),
        }
    }
    /// Trades the moves found (and where they were found) with `other`, each list keeping its own
    /// workspace: swapping the whole lists moved about twice as many words, on every turn a `stuck`
    /// search had kept its moves.
    pub(crate) fn swap_moves(&mut self, other: &mut Successors) {
        self.moves.swap(&mut other.moves);
    }

    /// The most the lists of one search may hold, in bytes: at most 40 a move where a rule pauses at
    /// its last choice (ten million moves, the most `limits: max_options_per_position` allows, take
    /// 400 MB), more where each move keeps its own choices and changes.
    pub(crate) const MAX_BYTES: usize = 512 << 20;

    /// The bytes the lists hold (their lengths, not their room).
    pub(crate) fn bytes(&self) -> usize {
        self.moves.bytes()
    }

    /// Whether the moves found take more room than one search may have ([`Successors::MAX_BYTES`]).
    pub(crate) fn over_budget(&self) -> bool {
        self.moves.over
    }

    /// Notes whether the lists, just grown by a group and its moves, hold too much: looked at every 64th group, and at every
    /// group once there are a million moves (a group holds a few hundred kB at most, so the bound is
    /// never passed by much), so that the small searches of a playout pay next to nothing for it.
    #[inline]
    fn weigh(&mut self) {
        if self.moves.groups.len().is_multiple_of(64) || self.moves.entries.len() >= 1 << 20 {
            self.moves.over = self.bytes() > Self::MAX_BYTES;
        }
    }

    /// Whether the list has room for moves (it has held some).
    pub(crate) fn has_room(&self) -> bool {
        self.moves.entries.capacity() > 0
    }
    pub fn len(&self) -> usize {
        self.moves.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.moves.entries.is_empty()
    }
    pub(crate) fn clear(&mut self) {
        self.moves.clear();
    }
    /// The `i`th move (`None` past the end).
    pub fn mv(&self, i: usize) -> Option<Move> {
        let entry = self.moves.entries.get(i)?;
        let group = &self.moves.groups[entry.group as usize];
        let mut choices = SmallVec::from_slice(group.path.of(&self.moves.choices));
        if let Some(point) = group.point {
            choices.push(Choice {
                point,
                values: entry.values,
            });
        }
        Some(Move {
            rule: group.rule,
            choices,
        })
    }
    /// Every move, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.len()).filter_map(|i| self.mv(i))
    }
    /// The `i`th move with what makes its position, to play with [`Game::apply_successor`].
    pub fn get(&self, i: usize) -> Option<Successor> {
        let found = self.found(i)?;
        Some(Successor {
            mv: self.mv(i)?,
            preference: found.preference,
            decided: found.decided,
            made: match found.made {
                MadeRef::NotKept => Made::NotKept,
                MadeRef::Written(changes) => Made::Written(Changes::from_slice(changes)),
                MadeRef::Paused { locals, steps } => Made::Paused {
                    locals: SmallVec::from_slice(locals),
                    steps,
                },
            },
            found_in: found.found_in,
        })
    }

    fn found(&self, i: usize) -> Option<FoundMove<'_>> {
        let &Entry { group, values } = self.moves.entries.get(i)?;
        let group = &self.moves.groups[group as usize];
        Some(FoundMove {
            rule: group.rule,
            last: group.point.map(|point| Choice { point, values }),
            preference: group.preference,
            decided: group.decided,
            made: match group.kept {
                Kept::Nothing => MadeRef::NotKept,
                Kept::Written(changes) => MadeRef::Written(changes.of(&self.moves.changes)),
                Kept::Paused { locals, steps } => MadeRef::Paused {
                    locals: locals.of(&self.moves.locals),
                    steps,
                },
            },
            found_in: self.moves.found_in,
        })
    }

    #[inline]
    fn push_group(&mut self, head: Head, point: Option<u16>, kept: Kept) -> u32 {
        let start = self.moves.choices.len();
        self.moves.choices.extend_from_slice(head.path);
        self.moves.groups.push(Group {
            rule: head.rule,
            point,
            path: Span::since(start, &self.moves.choices),
            preference: head.preference,
            decided: head.decided,
            kept,
        });
        self.moves.groups.len() as u32 - 1
    }

    /// Records a complete move, with the values its effects wrote in `st` since `mark` when given.
    pub(crate) fn push_move(&mut self, head: Head, written: Option<(&Scratch, usize)>) {
        let kept = match written {
            Some((st, mark)) => {
                let start = self.moves.changes.len();
                st.write_changes_since(mark, &mut self.moves.changes);
                Kept::Written(Span::since(start, &self.moves.changes))
            }
            None => Kept::Nothing,
        };
        self.push_whole(head, kept);
    }

    /// Records the move of a player with no other: it changes nothing.
    fn push_pass(&mut self) {
        self.push_built_in(PASS_RULE);
    }

    /// Records a built-in move (a pass, a `use`): no rule runs for it and it writes nothing.
    fn push_built_in(&mut self, rule: u16) {
        let head = Head {
            rule,
            path: &[],
            preference: 0,
            decided: Decided::default(),
        };
        let nothing_written = Span::since(self.moves.changes.len(), &self.moves.changes);
        self.push_whole(head, Kept::Written(nothing_written));
    }

    /// Records the moves that choose which of the `held` throws to play next: one per row, in the
    /// table's order.
    fn push_takes(&mut self, held: &[u8], limit: usize) {
        let mut rows: SmallVec<[u8; 8]> = SmallVec::from_slice(held);
        rows.sort_unstable();
        rows.dedup();
        for row in rows.into_iter().take(limit) {
            self.push_built_in(TAKE_RULE + u16::from(row));
        }
    }

    /// Records a move whose choices are all in its head.
    fn push_whole(&mut self, head: Head, kept: Kept) {
        let group = self.push_group(head, None, kept);
        self.moves.entries.push(Entry {
            group,
            values: [Value::None; 2],
        });
        self.weigh();
    }

    /// Records one move per option of choice point `point`, where the run paused with `locals` and
    /// `steps` (nothing is recorded when there is no option).
    pub(crate) fn push_options(
        &mut self,
        head: Head,
        point: u16,
        options: &[[Value; 2]],
        (locals, steps): (&[Value], u32),
    ) {
        if options.is_empty() {
            return;
        }
        let group = self.push_paused(head, Some(point), locals, steps);
        self.moves
            .entries
            .extend(options.iter().map(|&values| Entry { group, values }));
        self.weigh();
    }

    /// Records the one move of a rule paused at its start, with `locals` and `steps`.
    pub(crate) fn push_paused_start(&mut self, head: Head, (locals, steps): (&[Value], u32)) {
        let group = self.push_paused(head, None, locals, steps);
        self.moves.entries.push(Entry {
            group,
            values: [Value::None; 2],
        });
        self.weigh();
    }

    /// The group of moves paused at `point` (`None`: the start of the rule) with `locals` and `steps`.
    #[inline]
    fn push_paused(&mut self, head: Head, point: Option<u16>, locals: &[Value], steps: u32) -> u32 {
        let start = self.moves.locals.len();
        self.moves.locals.extend_from_slice(locals);
        let locals = Span::since(start, &self.moves.locals);
        self.push_group(head, point, Kept::Paused { locals, steps })
    }

    /// Keeps only the moves of the highest preference (`prefer(n)`).
    fn keep_preferred(&mut self) {
        let groups = &self.moves.groups;
        let (low, best) = groups.iter().fold((i64::MAX, i64::MIN), |(low, best), g| {
            (low.min(g.preference), best.max(g.preference))
        });
        if low < best {
            self.moves
                .entries
                .retain(|e| groups[e.group as usize].preference == best);
        }
    }

    /// What the last move found decided (a replay finds one move).
    pub(crate) fn last_decided(&self) -> Option<Decided> {
        self.moves.groups.last().map(|g| g.decided)
    }
}

#[cold]
fn no_such_move(i: usize, found: usize) -> EngineError {
    EngineError {
        rule: String::new(),
        at: 0,
        message: format!("there is no move {i} of the {found} found"),
    }
}

/// One found move, however it is kept: what playing it needs.
pub(crate) struct FoundMove<'a> {
    pub(crate) rule: u16,
    /// The choice made at the choice point the rule paused at (the move's last).
    pub(crate) last: Option<Choice>,
    pub(crate) preference: i64,
    pub(crate) decided: Decided,
    made: MadeRef<'a>,
    found_in: u64,
}

/// [`Made`] borrowed, wherever it is kept.
#[derive(Clone, Copy)]
enum MadeRef<'a> {
    NotKept,
    Written(&'a [Undo]),
    Paused { locals: &'a [Value], steps: u32 },
}

/// How [`Game::apply_successor`] makes the position a found move leads to.
#[derive(Clone)]
pub(crate) enum Made {
    /// Not kept (`legal_moves`): the move can only be played with [`Game::apply`].
    NotKept,
    /// The values the move's effects wrote, to write again on a copy of the position.
    Written(Changes),
    /// The rule stopped at the move's last choice (nothing after it decides which moves exist, see
    /// `ChoiceNode::last`) with these locals and loop steps; it goes on from there when the move is
    /// played.
    Paused {
        locals: SmallVec<[Value; 4]>,
        steps: u32,
    },
}

impl Game {
    pub fn initial_state(&self) -> State {
        self.initial_state_in(&Successors::new())
    }

    /// [`Game::initial_state`] for a loop of games that keeps `list` for all of them: the new position
    /// takes the room the last game played from `list` left there (the box its `stuck` searches keep
    /// their moves in).
    pub fn initial_state_in(&self, list: &Successors) -> State {
        let mut st = State {
            counts: crate::state::Counts::new(&self.setup, self.piece_count()),
            vars: Default::default(),
            to_move: self.turn_order[0],
            throw: None,
            chance_due: false,
            held: Default::default(),
            turn_throws: 0,
            ply: 0,
            turn: 0,
            quiet_turns: 0,
            captures: 0,
            history: Default::default(),
            result: None,
            found: Default::default(),
        };
        st.found.borrow_box(&list.spare_box);
        for v in &self.vars {
            let n = if v.per_player { self.players.len() } else { 1 };
            st.vars.extend(std::iter::repeat_n(v.initial, n));
        }
        // An initial position that is already decided (a test position, say) reports it at once.
        let _ = self.begin_turn(&mut st, false);
        st
    }

    /// Every outcome of the throw that is due, with its probability; empty when no throw is due.
    pub fn chance_outcomes(&self, st: &State) -> Vec<(u8, f64)> {
        self.throw_due(st).map_or_else(Vec::new, |rows| {
            rows.iter()
                .enumerate()
                .map(|(i, r)| (i as u8, r.probability))
                .collect()
        })
    }

    /// The throw table when a throw is due: its rows are the outcomes of [`Game::chance_outcomes`], in
    /// the same order, without making a list of them.
    pub fn throw_due(&self, st: &State) -> Option<&[ThrowRow]> {
        match &self.throws {
            Some(rows) if st.chance_due && st.result.is_none() => Some(rows),
            _ => None,
        }
    }

    pub fn apply_chance(&self, st: &State, outcome: u8) -> State {
        self.advance_chance(st.clone(), outcome)
    }

    /// [`Game::apply_chance`] on a position the caller gives up (no copy, as [`Game::advance`]).
    pub fn advance_chance(&self, mut st: State, outcome: u8) -> State {
        self.throw_in_place(&mut st, outcome);
        st
    }

    /// [`Game::apply_chance`] in place: the position is changed where it is, not moved (a playout's loop
    /// then copies nothing on a throw).
    pub fn throw_in_place(&self, st: &mut State, outcome: u8) {
        st.chance_due = false;
        st.turn_throws = st.turn_throws.saturating_add(1);
        if self.stored_throws {
            self.hold(st, outcome);
        } else {
            st.throw = Some(outcome);
        }
    }

    /// Stored throws: a throw that gives a throw again is held and the player throws at once; the throw
    /// that ends the run is held too, and playing the held throws begins.
    fn hold(&self, st: &mut State, outcome: u8) {
        st.held.push(outcome);
        if let Some(n) = self.void_runs_of {
            let n = usize::from(n);
            let value = self.throw_row(outcome).value;
            if st.held.len() >= n
                && st.held[st.held.len() - n..]
                    .iter()
                    .all(|&r| self.throw_row(r).value == value)
            {
                let keep = st.held.len() - n;
                st.held.truncate(keep);
            }
        }
        if self.throw_row(outcome).again && !self.throws_capped(st) {
            st.chance_due = true;
        } else {
            take_held(st);
        }
    }

    /// The position after the player chose to play the held throw `row` next: nothing else changes.
    fn take_throw(&self, st: &mut State, row: u8) -> Result<(), EngineError> {
        let refused = |message: &str| EngineError {
            rule: self.rule_name(TAKE_RULE + u16::from(row)).to_string(),
            at: 0,
            message: message.into(),
        };
        let Some(i) = st.held.iter().position(|&r| r == row) else {
            return Err(refused("no such throw is held"));
        };
        if st.throw.is_some() {
            return Err(refused("a throw is being played already"));
        }
        st.throw = st.held.remove(i);
        st.ply += 1;
        Ok(())
    }

    /// All legal moves of the player to move. A player with no move gets the single move `pass`.
    /// Empty when the game is over or a throw is due.
    pub fn legal_moves(&self, st: &State) -> Result<Vec<Move>, EngineError> {
        if st.result.is_some() || st.chance_due {
            return Ok(Vec::new());
        }
        let mut found = Successors::new();
        self.real_moves(st, false, &mut found)?;
        let mut moves: Vec<Move> = found.moves().collect();
        if moves.is_empty() {
            moves.push(Move::pass());
        }
        Ok(moves)
    }

    /// [`Game::legal_moves`], each with the values its rule wrote, which make the position it leads to
    /// (finished by [`Game::apply_successor`]). In the same order as `legal_moves`.
    pub fn successors(&self, st: &State) -> Result<Vec<Successor>, EngineError> {
        let mut found = Successors::new();
        self.successors_into(st, &mut found)?;
        Ok((0..found.len()).filter_map(|i| found.get(i)).collect())
    }

    /// [`Game::successors`] into `found`, which is cleared first and keeps its room: a playout that
    /// passes the same list for every move allocates no list per move. The moves are played with
    /// [`Game::advance_found`].
    pub fn successors_into(&self, st: &State, found: &mut Successors) -> Result<(), EngineError> {
        found.clear();
        if st.result.is_some() || st.chance_due {
            return Ok(());
        }
        self.real_moves(st, true, found)?;
        if found.is_empty() {
            found.push_pass();
        }
        // (A list the kept moves were swapped into has the stamp of the search that made it.)
        found.moves.found_in = self.stamp(st);
        Ok(())
    }

    /// Where successors were found: the game (the address of its rules) and the position's ply, mixed
    /// into one number. A check against playing a successor elsewhere, not a proof that it belongs.
    fn stamp(&self, st: &State) -> u64 {
        (self.rules.as_ptr() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(st.ply)
    }

    /// The position after a move that [`Game::successors`] found in `st`: the same as `apply(st, &s.mv)`.
    /// A successor found in another game, or at another ply of this one, is refused.
    pub fn apply_successor(&self, st: &State, s: Successor) -> Result<State, EngineError> {
        self.advance(st.clone(), &s)
    }

    /// [`Game::apply_successor`] on a position the caller gives up, which is changed into the next one
    /// instead of copied (a playout keeps only its latest position). On an error the position is lost
    /// with the move.
    pub fn advance(&self, st: State, s: &Successor) -> Result<State, EngineError> {
        let found = FoundMove {
            rule: s.mv.rule,
            last: s.mv.choices.last().copied(),
            preference: s.preference,
            decided: s.decided,
            made: match &s.made {
                Made::NotKept => MadeRef::NotKept,
                Made::Written(changes) => MadeRef::Written(changes),
                Made::Paused { locals, steps } => MadeRef::Paused {
                    locals,
                    steps: *steps,
                },
            },
            found_in: s.found_in,
        };
        let mut st = st;
        // (A successor taken out of its list plays with room of its own.)
        self.advance_by(&mut st, found, &Successors::new())?;
        Ok(st)
    }

    /// The position after the `i`th move of `found`, which [`Game::successors_into`] found in `st`,
    /// changed into the next one as [`Game::advance`] does.
    pub fn advance_found(
        &self,
        mut st: State,
        found: &Successors,
        i: usize,
    ) -> Result<State, EngineError> {
        self.advance_found_in_place(&mut st, found, i)?;
        Ok(st)
    }

    /// [`Game::advance_found`] on a position changed in place (a playout's loop: the position is not
    /// moved in and out of the call). On an error the position is left unfinished, and is lost with the
    /// move as it is there.
    pub fn advance_found_in_place(
        &self,
        st: &mut State,
        found: &Successors,
        i: usize,
    ) -> Result<(), EngineError> {
        match found.found(i) {
            Some(move_found) => self.advance_by(st, move_found, found),
            None => Err(no_such_move(i, found.len())),
        }
    }

    /// Plays `found`, a move of `list`, whose room the move uses: its loops' option list, and the box
    /// of moves a position's `stuck` search keeps, handed from a game's last position to the next
    /// game's first.
    fn advance_by(
        &self,
        st: &mut State,
        found: FoundMove,
        list: &Successors,
    ) -> Result<(), EngineError> {
        st.found.borrow_box(&list.spare_box);
        let played = self.play_found(st, found, list);
        if st.result.is_some() {
            st.found.return_box(&list.spare_box);
        }
        played
    }

    fn play_found(
        &self,
        st: &mut State,
        found: FoundMove,
        list: &Successors,
    ) -> Result<(), EngineError> {
        let not_found = || EngineError {
            rule: self.rule_name(found.rule).to_string(),
            at: 0,
            message: "this move was not found in this position by `successors` (use `apply`)"
                .into(),
        };
        if found.found_in != self.stamp(st) {
            return Err(not_found());
        }
        if let Some(row) = taken(found.rule) {
            return self.take_throw(st, row);
        }
        match found.made {
            MadeRef::Written(changes) => {
                if !replay(st, changes) {
                    return Err(not_found());
                }
                self.finish(st, found.decided, found.rule == PASS_RULE)
            }
            MadeRef::Paused { locals, steps } => {
                let decided =
                    self.unpause(&mut Scratch::played(st), &found, locals, steps, list)?;
                self.finish(st, decided, false)
            }
            MadeRef::NotKept => Err(not_found()),
        }
    }

    /// Runs `mv`'s rule along its choices, each checked to be an option where it is made: the position
    /// the rule leaves and what it decided, before the turn's bookkeeping.
    fn run_along(&self, st: &State, mv: &Move) -> Result<(State, Decided), EngineError> {
        let mut found = Successors::new();
        let mut replay = Executor::new(self, Mode::Replay, false, &mut found);
        let mut scratch = Scratch::new(st);
        replay.rule(&mut scratch, mv.rule, &mv.choices)?;
        match replay.last_decided() {
            Some(decided) => Ok((scratch.into_state(), decided)),
            None => Err(EngineError {
                rule: self.rule_name(mv.rule).to_string(),
                at: 0,
                message: "the move's choices do not match the rule".into(),
            }),
        }
    }

    /// The moves of the ordinary rules, or of the fallback rules when the ordinary ones give none; of
    /// those, the ones `prefer(n)` ranks highest; into `found`, which is empty.
    fn real_moves(
        &self,
        st: &State,
        keep_changes: bool,
        found: &mut Successors,
    ) -> Result<(), EngineError> {
        // The moves `stuck` kept were found as successors, so only a search that keeps changes takes
        // them (`legal_moves` runs every rule to its end, see `Executor::can_pause`); the list given
        // goes into the position's box for the next `stuck` search to fill.
        if !(keep_changes && st.found.take_into(self, st, found)) {
            self.search(st, false, keep_changes, usize::MAX, found)?;
        }
        if found.is_empty() {
            self.search(st, true, keep_changes, usize::MAX, found)?;
        }
        if self.prefers {
            found.keep_preferred();
        }
        Ok(())
    }

    /// `stuck`: no ordinary rule gives the player to move a move (fallback rules do not count).
    pub(crate) fn has_ordinary_move(&self, st: &State) -> Result<bool, EngineError> {
        self.has_move(st, false)
    }

    /// Whether the ordinary (or the fallback) rules give the player to move a move: the search stops
    /// at the first one.
    fn has_move(&self, st: &State, fallback: bool) -> Result<bool, EngineError> {
        // The list the position's box keeps for the next search, lent (no list per question).
        let mut found = st.found.lend_list();
        let answer = self.search(st, fallback, false, 1, &mut found);
        let any = !found.is_empty();
        st.found.give_back(found);
        answer.map(|()| any)
    }

    /// `stuck` asked by the end conditions of the position a player is about to move in: the move search
    /// that follows needs every move anyway, so find them all now and keep them with the position.
    pub(crate) fn has_ordinary_move_settling(&self, st: &State) -> Result<bool, EngineError> {
        let mut found = st.found.take_box();
        self.search(st, false, true, usize::MAX, &mut found.moves)?;
        let any = !found.moves.is_empty();
        st.found.keep(self, st, found);
        Ok(any)
    }

    /// The complete paths through every rule (ordinary or fallback) that the player to move may use now,
    /// added to `found`.
    fn search(
        &self,
        st: &State,
        fallback: bool,
        keep_changes: bool,
        limit: usize,
        found: &mut Successors,
    ) -> Result<(), EngineError> {
        if st.throw.is_none() {
            // Throws are held and none is being played: the only moves choose which to play next.
            if !st.held.is_empty() {
                if !fallback {
                    found.push_takes(&st.held, limit);
                }
                return Ok(());
            }
            // A run of throws struck out to the last (`void_runs_of`) leaves nothing to play: the
            // turn passes.
            if self.void_runs_of.is_some() && st.turn_throws > 0 {
                return Ok(());
            }
        }
        let mut search = Executor::new(self, Mode::Search, keep_changes, found);
        search.set_limit(limit);
        let mut scratch = Scratch::new(st);
        // One run evaluates every rule's condition (conditions read no locals), named after the rule
        // whose condition it evaluates, its record of configurations cleared for each.
        let mut condition = Run::condition(self, 0);
        for (i, rule) in self.rules.iter().enumerate() {
            if search.full() {
                break;
            }
            if rule.fallback != fallback || rule.player.is_some_and(|p| p != st.to_move) {
                continue;
            }
            if let Some(when) = &rule.when {
                condition.rule = i as u16;
                condition.forget_seen();
                let holds = match self.rule_condition(i) {
                    Some(generated) => generated(&condition, st)?,
                    None => condition.truthy(st, when)?,
                };
                if !holds {
                    continue;
                }
            }
            search.rule(&mut scratch, i as u16, &[])?;
        }
        search.within_bound()?;
        Ok(())
    }

    /// The position after `mv`. The move must be legal here; an illegal move (one its rule does not
    /// allow, or one that `prefer(n)` ranks below another) is an error, not a panic.
    pub fn apply(&self, st: &State, mv: &Move) -> Result<State, EngineError> {
        let illegal = |message: String| EngineError {
            rule: self.rule_name(mv.rule).to_string(),
            at: 0,
            message,
        };
        if st.result.is_some() {
            return Err(illegal("the game is over".into()));
        }
        if st.chance_due {
            return Err(illegal("a throw is due before the next move".into()));
        }
        if let Some(row) = mv.taken_throw() {
            let mut next = st.clone();
            self.take_throw(&mut next, row)?;
            return Ok(next);
        }
        if mv.is_pass() {
            if self.has_move(st, false)? || self.has_move(st, true)? {
                return Err(illegal(
                    "a player may pass only when no other move is legal".into(),
                ));
            }
            let mut next = st.clone();
            self.finish(&mut next, Decided::default(), true)?;
            return Ok(next);
        }
        let Some(rule) = self.rules.get(mv.rule as usize) else {
            return Err(illegal(format!("no rule number {}", mv.rule)));
        };
        if rule.player.is_some_and(|p| p != st.to_move) {
            return Err(illegal("this rule is not for the player to move".into()));
        }
        if let Some(when) = &rule.when
            && !Run::condition(self, mv.rule).truthy(st, when)?
        {
            return Err(illegal("the rule's condition does not hold".into()));
        }
        let (mut next, decided) = self.run_along(st, mv)?;
        // A move its rule allows may still be outranked by another's `prefer(n)`, and a fallback rule
        // is used only when no ordinary rule gives a move: both need the other moves to tell.
        if (self.prefers || rule.fallback) && !self.legal_moves(st)?.contains(mv) {
            return Err(illegal(
                "another move takes precedence over this one (`prefer`, or a fallback rule while \
                 ordinary moves exist): it is not legal here"
                    .into(),
            ));
        }
        self.finish(&mut next, decided, false)?;
        Ok(next)
    }

    /// The turn's bookkeeping after a move: the throw is spent, the game may be decided, the next player
    /// (or the same, on an extra throw) is settled in.
    fn finish(&self, next: &mut State, decided: Decided, pass: bool) -> Result<(), EngineError> {
        // A throw that cannot be used (a pass) is lost with any extra throw it would have given. (Stored
        // throws gave theirs when they were thrown.)
        let again = !pass
            && !self.throws_capped(next)
            && (decided.again
                || !self.stored_throws && next.throw.is_some_and(|t| self.throw_row(t).again));
        let captured = decided.captured;
        next.ply += 1;
        next.throw = None;
        if captured {
            next.quiet_turns = 0;
            next.history.clear();
        }
        if let Some(outcome) = decided.result {
            next.result = Some(outcome);
            return Ok(());
        }
        // Held throws keep the turn with the player until they are played (or another is set to move).
        let turn_over = decided.next_mover.is_some() || !again && next.held.is_empty();
        if let Some(p) = decided.next_mover {
            next.to_move = p;
            next.held.clear();
        } else if turn_over {
            next.to_move = self.next_player(next.to_move);
        }
        if turn_over {
            next.turn_throws = 0;
            next.turn += 1;
            if !captured {
                next.quiet_turns += 1;
            }
        }
        self.begin_turn(next, again)
    }

    /// The player has made as many throws in this turn as the ruleset allows (`throws.max_per_turn`).
    pub fn throws_capped(&self, st: &State) -> bool {
        self.max_throws_per_turn
            .is_some_and(|most| st.turn_throws >= most)
    }

    pub(crate) fn throw_row(&self, t: u8) -> &ThrowRow {
        &self
            .throws
            .as_ref()
            .expect("a throw is recorded only when the game has throws")[t as usize]
    }

    pub fn rule_name(&self, rule: u16) -> &str {
        if rule == PASS_RULE {
            "pass"
        } else if taken(rule).is_some() {
            "use"
        } else {
            self.rules
                .get(rule as usize)
                .map_or("?", |r| r.name.as_str())
        }
    }

    /// The names of the ruleset's invariants that do not hold in `st`.
    pub fn broken_invariants(&self, st: &State) -> Result<Vec<String>, EngineError> {
        let run = Run::new(self, PASS_RULE);
        let mut broken = Vec::new();
        for invariant in &self.invariants {
            if !run.truthy(st, &invariant.holds)? {
                broken.push(invariant.name.clone());
            }
        }
        Ok(broken)
    }

    /// Settles a position made by hand (a state file, a test): checks end conditions and caps, and marks a
    /// throw as due where the game has throws.
    pub fn settle(&self, st: &mut State) -> Result<(), EngineError> {
        st.result = None;
        self.begin_turn(st, false)
    }

    /// Settles the position a player is about to move in: end conditions first, then caps, then a due
    /// throw (`throw_again`: a fresh one even while throws are held, for `again()`).
    fn begin_turn(&self, st: &mut State, throw_again: bool) -> Result<(), EngineError> {
        // End conditions read no locals: one run serves them all, its record of configurations
        // (`seen_before`) cleared for each.
        let mut run = Run::new(self, PASS_RULE);
        run.settling = true;
        for (i, end) in self.ends.iter().enumerate() {
            run.forget_seen();
            let holds = match self.end_condition(i) {
                Some(generated) => generated(&run, st)?,
                None => run.truthy(st, &end.when)?,
            };
            if holds {
                let winner = match &end.winner {
                    None => None,
                    Some(w) => match run.eval(st, w)? {
                        Value::Player(p) => Some(p),
                        _ => None,
                    },
                };
                st.result = Some(Outcome {
                    winner,
                    reason: Reason::End(i as u16),
                });
                return Ok(());
            }
        }
        let cap = |kind| {
            Some(Outcome {
                winner: None,
                reason: Reason::Cap(kind),
            })
        };
        if self.caps.max_turns.is_some_and(|m| st.turn >= m) {
            st.result = cap(CapKind::MaxTurns);
            return Ok(());
        }
        if self
            .caps
            .no_capture_turns
            .is_some_and(|m| st.quiet_turns >= m)
        {
            st.result = cap(CapKind::NoCapture);
            return Ok(());
        }
        if let Some(limit) = self.caps.repetition {
            let h = st.position_hash();
            let seen = st.history.count(h) as u32 + 1;
            st.history.push(h);
            if seen >= limit {
                st.result = cap(CapKind::Repetition);
                return Ok(());
            }
        }
        if self.throws.is_some() && st.throw.is_none() {
            if st.held.is_empty() || throw_again || st.chance_due {
                st.chance_due = true;
            } else {
                take_held(st);
            }
        }
        Ok(())
    }

    /// How a move is written: the rule's notation template, or the rule name and the chosen values.
    pub fn notation(&self, mv: &Move) -> String {
        if mv.is_pass() {
            return "pass".into();
        }
        if let Some(row) = mv.taken_throw() {
            let name = self.throws.as_ref().and_then(|rows| rows.get(row as usize));
            return format!("use {}", name.map_or("?", |r| r.name.as_str()));
        }
        let rule = &self.rules[mv.rule as usize];
        let mut named: Vec<(&str, Value)> = Vec::new();
        for c in &mv.choices {
            for (name, v) in self.choice_names[c.point as usize].iter().zip(c.values) {
                named.push((name, v));
            }
        }
        match &rule.notation {
            Some(parts) => {
                let mut out = String::new();
                for part in parts {
                    match part {
                        NotationPart::Text(t) => out.push_str(t),
                        NotationPart::Last(name) => {
                            match named.iter().rev().find(|(n, _)| n == name) {
                                Some((_, v)) => out.push_str(&self.value_text(*v)),
                                // Not chosen in this move (a `choose` in a branch not taken): the
                                // placeholder stays as written, which shows the gap.
                                None => {
                                    out.push('{');
                                    out.push_str(name);
                                    out.push('}');
                                }
                            }
                        }
                        // No value at all gives no text, so a separator never stands alone.
                        NotationPart::Every { name, sep } => {
                            let values: Vec<String> = named
                                .iter()
                                .filter(|(n, _)| n == name)
                                .map(|(_, v)| self.value_text(*v))
                                .collect();
                            out.push_str(&values.join(sep));
                        }
                    }
                }
                out
            }
            None => {
                let mut out = rule.name.clone();
                for (_, v) in named {
                    out.push(' ');
                    out.push_str(&self.value_text(v));
                }
                out
            }
        }
    }

    pub fn value_text(&self, v: Value) -> String {
        match v {
            Value::None => "none".into(),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Site(s) => self.board.name(s).to_string(),
            Value::Player(p) => self.players[p as usize].name.clone(),
            Value::Piece(p) => self.pieces[p as usize].name.clone(),
            Value::Track(t) => self.board.tracks[t as usize].name.clone(),
        }
    }

    /// Finds the legal move written as `text` (its notation, or `rule v1 v2`, ignoring case and spacing).
    /// The moves are looked at one at a time from the list [`Game::successors_into`] fills (the same
    /// moves in the same order as [`Game::legal_moves`], kept in less room), never all at once.
    pub fn parse_move(&self, st: &State, text: &str) -> Result<Option<Move>, EngineError> {
        let want = normalise(text);
        if st.result.is_some() || st.chance_due {
            return Ok(None);
        }
        let mut found = Successors::new();
        self.successors_into(st, &mut found)?;
        Ok(found.moves().find(|mv| {
            normalise(&self.notation(mv)) == want || normalise(&self.long_notation(mv)) == want
        }))
    }

    fn long_notation(&self, mv: &Move) -> String {
        if mv.taken_throw().is_some() {
            return self.notation(mv);
        }
        let mut out = self.rule_name(mv.rule).to_string();
        for c in &mv.choices {
            for (name, v) in self.choice_names[c.point as usize].iter().zip(c.values) {
                let _ = name;
                out.push(' ');
                out.push_str(&self.value_text(v));
            }
        }
        out
    }
}

fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Stored throws: when every held throw is the same (one throw, say), there is nothing to choose and
/// it is played at once.
fn take_held(st: &mut State) {
    if let Some(&first) = st.held.first()
        && st.held.iter().all(|&r| r == first)
    {
        st.throw = st.held.remove(0);
    }
}

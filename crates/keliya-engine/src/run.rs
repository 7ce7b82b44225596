//! One run of a rule along one path of choices: evaluating expressions, listing and checking the options of
//! a choice point, and the effects and assignments that change the position. Choice points and loops are
//! driven by the executor (`exec.rs`), which forks a run at every choice point.

use keliya_board::SiteId;

use crate::compile::Scope;
use crate::compiled::Filter;
use crate::exec::Decided;
use crate::interp::EngineError;
use crate::ir::*;
use crate::program::Options;
use crate::state::{Outcome, Reason, State};
use crate::{Game, PieceId, PlayerId};
use smallvec::SmallVec;

/// The position rules run on while moves are searched: the searched position itself until an effect
/// first changes it, then one working copy per search, changed in place by effects, with a trail of the
/// old values so that the executor can take a change back when it goes on to the next option of a
/// choice point (no copy of the position per option). Most searches of the hunt games change nothing
/// before their moves pause, and copy nothing.
pub(crate) struct Scratch<'p> {
    state: Working<'p>,
    trail: SmallVec<[Undo; 32]>,
}

// (One per search, on the stack: a boxed copy would allocate in every search that copies. The tag
// is a byte of its own: kept in a spare value of the copy's first word, it took six instructions to
// read at every access to the position.)
#[allow(clippy::large_enum_variant)]
#[repr(u8)]
enum Working<'p> {
    Searched(&'p State),
    Copy(State),
    /// A position given up to a move being played: changed in place, with no trail, since nothing is
    /// taken back (a long sowing would otherwise grow the trail by a value per drop). Borrowed, so that
    /// the position is not moved in and out of the scratch.
    Played(&'p mut State),
}

/// Values a move's effects wrote, in order: replayed on a copy of the position the move was found in,
/// they make the position it leads to.
pub(crate) type Changes = SmallVec<[Undo; 4]>;

/// Replays `changes` (from [`Scratch::write_changes_since`]) on `st`; false when one does not fit it (a
/// position of another game).
pub(crate) fn replay(st: &mut State, changes: &[Undo]) -> bool {
    let mut spent = false;
    for change in changes {
        match *change {
            Undo::Count(c, n) => {
                if !st.counts.try_set(c as usize, n) {
                    return false;
                }
            }
            Undo::Var(slot, v) => match st.vars.get_mut(slot as usize) {
                Some(x) => *x = v,
                None => return false,
            },
            Undo::Captures(n) => st.captures = n,
            // Replayed after the rest, in their order (they change only the held throws), so that the
            // loop every move played runs makes no call.
            Undo::Spent(..) => spent = true,
        }
    }
    !spent || spend_again(st, changes)
}

/// Replays the spends of `changes`, in order: each held throw taken out again; false when one is not
/// there. (Out of line: most moves spend nothing.)
#[cold]
#[inline(never)]
fn spend_again(st: &mut State, changes: &[Undo]) -> bool {
    for change in changes {
        if let Undo::Spent(index, row) = *change {
            if st.held.get(index as usize) != Some(&row) {
                return false;
            }
            st.held.remove(index as usize);
        }
    }
    true
}

/// One value an effect overwrote (on the trail), or wrote (in [`Changes`]).
///
/// (The tags are set by hand so that `Spent`'s stands apart from the others': a match on the tag is
/// then a short chain of tests, as it was with three kinds, not a jump table, whose registers cost the
/// playouts of games that never spend a few instructions on every move played.)
#[derive(Clone, Copy, Debug)]
#[repr(u8)]
pub(crate) enum Undo {
    Count(u32, u16) = 0,
    Var(u32, i64) = 1,
    Captures(u32) = 2,
    /// The held throw of a row taken out of `State::held` at a place (`spend`): on the trail, put back
    /// there; in [`Changes`], taken out again.
    Spent(u32, u8) = 0x80,
}

impl<'p> Scratch<'p> {
    pub(crate) fn new(st: &'p State) -> Self {
        Scratch {
            state: Working::Searched(st),
            trail: SmallVec::new(),
        }
    }
    /// A working copy that is the position itself (a move played on a position given up).
    pub(crate) fn played(state: &'p mut State) -> Self {
        Scratch {
            state: Working::Played(state),
            trail: SmallVec::new(),
        }
    }
    /// The position, copied first if it is still the searched one.
    fn state_mut(&mut self) -> &mut State {
        if let Working::Searched(st) = self.state {
            self.state = Working::Copy(st.clone());
        }
        match &mut self.state {
            Working::Copy(state) => state,
            Working::Played(state) => state,
            Working::Searched(_) => unreachable!("copied just above"),
        }
    }
    /// A point to come back to with [`Scratch::undo_to`].
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }
    pub(crate) fn undo_to(&mut self, mark: usize) {
        if self.trail.len() <= mark {
            return;
        }
        // Something was written, so the position is a copy by now (or the played one): it is looked
        // up once, not for each value put back.
        self.state_mut();
        let Scratch { state, trail } = self;
        let state = match state {
            Working::Copy(state) => state,
            Working::Played(state) => &mut **state,
            // (Not reached: `state_mut` made a copy.)
            Working::Searched(_) => return trail.truncate(mark),
        };
        for undo in trail.drain(mark..).rev() {
            match undo {
                Undo::Count(c, n) => state.counts.set(c as usize, n),
                Undo::Var(slot, v) => state.vars[slot as usize] = v,
                Undo::Captures(n) => state.captures = n,
                Undo::Spent(index, row) => {
                    state.held.insert(index as usize, row);
                }
            }
        }
    }
    pub(crate) fn into_state(self) -> State {
        match self.state {
            Working::Copy(state) => state,
            Working::Played(state) => state.clone(),
            Working::Searched(st) => st.clone(),
        }
    }
    /// What the effects since `mark` changed, as final values, added to `out` (a value changed twice
    /// appears twice, the same both times).
    pub(crate) fn write_changes_since(&self, mark: usize, out: &mut Vec<Undo>) {
        let state: &State = self;
        let start = out.len();
        out.extend_from_slice(&self.trail[mark..]);
        for u in &mut out[start..] {
            match u {
                Undo::Count(c, n) => *n = state.counts[*c as usize],
                Undo::Var(slot, v) => *v = state.vars[*slot as usize],
                Undo::Captures(n) => *n = state.captures,
                // A spend is written as it was made, to be made again in order.
                Undo::Spent(..) => {}
            }
        }
    }
    fn set_count(&mut self, cell: usize, n: u16) {
        if let Working::Played(state) = &mut self.state {
            state.counts.set(cell, n);
            return;
        }
        let state = self.state_mut();
        let old = state.counts[cell];
        state.counts.set(cell, n);
        self.trail.push(Undo::Count(cell as u32, old));
    }
    /// `var = n`, `var += n` or `var -= n` on the variable in `slot`; a value left as it was is not
    /// written (nor put on the trail).
    #[inline]
    pub(crate) fn assign_var(&mut self, slot: usize, op: AssignOp, n: i64) {
        let new = combine(op, self.vars[slot], n);
        if new != self.vars[slot] {
            self.set_var(slot, new);
        }
    }
    fn set_var(&mut self, slot: usize, v: i64) {
        if let Working::Played(state) = &mut self.state {
            state.vars[slot] = v;
            return;
        }
        let state = self.state_mut();
        let old = std::mem::replace(&mut state.vars[slot], v);
        self.trail.push(Undo::Var(slot as u32, old));
    }
    /// Takes the held throw at `index` out of the held throws (`spend`).
    fn spend_held(&mut self, index: usize) {
        if let Working::Played(state) = &mut self.state {
            state.held.remove(index);
            return;
        }
        let state = self.state_mut();
        if let Some(row) = state.held.remove(index) {
            self.trail.push(Undo::Spent(index as u32, row));
        }
    }
    fn count_capture(&mut self) {
        if let Working::Played(state) = &mut self.state {
            state.captures += 1;
            return;
        }
        let state = self.state_mut();
        let old = state.captures;
        state.captures += 1;
        self.trail.push(Undo::Captures(old));
    }
}

impl std::ops::Deref for Scratch<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        match &self.state {
            Working::Searched(st) => st,
            Working::Copy(state) => state,
            Working::Played(state) => state,
        }
    }
}

/// Everything a rule's run has made besides the position: its locals and what its effects decided.
/// Copied whenever the executor forks the run at a choice point.
pub(crate) struct Run<'a> {
    pub(crate) game: &'a Game,
    pub(crate) rule: u16,
    /// A plain list, not a small vector: the executor reads and writes the locals at every step,
    /// and a small vector asks where its items are at each access. Its room is lent from run to run
    /// ([`Run::with_locals_in`], [`Run::take_locals`]), so a search allocates no list of its own.
    pub(crate) locals: Vec<Value>,
    pub(crate) again: bool,
    /// The move captured, or brought a piece onto the board: something that cannot be undone, which
    /// restarts the quiet-turn count and the repetition history.
    pub(crate) captured: bool,
    pub(crate) result: Option<Outcome>,
    pub(crate) next_mover: Option<PlayerId>,
    /// Set by `prefer(n)`; of all legal moves only those with the highest preference are kept.
    pub(crate) preference: i64,
    pub(crate) steps: u32,
    /// Evaluating the end conditions of the position about to be played (`stuck` keeps the moves it
    /// finds with the position).
    pub(crate) settling: bool,
    /// What few runs need (`seen_before`'s record, an expression's memo cells), made when first
    /// needed ([`Run::scope`]).
    scope: std::cell::OnceCell<Box<Scope>>,
}

/// What a run has decided and its loop steps, where a fork stands ([`Run::standing`]), for each
/// option to go on from.
#[derive(Clone, Copy)]
pub(crate) struct Standing {
    decided: Decided,
    preference: i64,
    steps: u32,
}

/// A `for` loop a path is in: its options (a range of the executor's option list) and the next one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) next: u32,
}

/// Copied by hand, for `clone_from`'s reuse of the list of locals.
impl Clone for Run<'_> {
    fn clone(&self) -> Self {
        Run {
            game: self.game,
            rule: self.rule,
            locals: self.locals.clone(),
            again: self.again,
            captured: self.captured,
            result: self.result,
            next_mover: self.next_mover,
            preference: self.preference,
            steps: self.steps,
            settling: self.settling,
            scope: self.scope_copied(),
        }
    }

    /// A copy into a run made before (a fork's copy for its next option), whose list of locals keeps
    /// its room: the fork allocates once, not once per option.
    fn clone_from(&mut self, source: &Self) {
        self.game = source.game;
        self.rule = source.rule;
        self.locals.clear();
        self.locals.extend_from_slice(&source.locals);
        self.again = source.again;
        self.captured = source.captured;
        self.result = source.result;
        self.next_mover = source.next_mover;
        self.preference = source.preference;
        self.steps = source.steps;
        self.settling = source.settling;
        self.scope = source.scope_copied();
    }
}

impl<'a> Run<'a> {
    /// The scope a copy of the run starts with: the configurations `seen_before` met so far (the
    /// memo cells are the copy's own).
    fn scope_copied(&self) -> std::cell::OnceCell<Box<Scope>> {
        match self.scope.get() {
            Some(scope) if !scope.seen.borrow().is_empty() => Box::new(scope.copied()).into(),
            _ => std::cell::OnceCell::new(),
        }
    }

    /// A run of `rule`'s body, with room for its locals.
    pub(crate) fn new(game: &'a Game, rule: u16) -> Self {
        let locals = game.rules.get(rule as usize).map_or(0, |r| r.locals);
        Run::with_locals(game, rule, locals)
    }

    /// A run that only evaluates a condition of `rule` (its `when`), which reads no locals.
    pub(crate) fn condition(game: &'a Game, rule: u16) -> Self {
        Run::with_locals(game, rule, 0)
    }

    /// A run of `rule` going on from where a search paused it (see `Game::unpause`), with the
    /// locals, loop steps and decisions it had there, its list of locals in `room` (lent).
    pub(crate) fn resumed(
        game: &'a Game,
        rule: u16,
        locals: &[Value],
        steps: u32,
        decided: Decided,
        mut room: Vec<Value>,
    ) -> Self {
        room.clear();
        room.extend_from_slice(locals);
        // One literal, so that the run is built where the caller keeps it, not copied there.
        Run {
            game,
            rule,
            locals: room,
            again: decided.again,
            captured: decided.captured,
            result: decided.result,
            next_mover: decided.next_mover,
            preference: 0,
            steps,
            settling: false,
            scope: std::cell::OnceCell::new(),
        }
    }

    /// What the run has decided and its loop steps (all but its locals and `seen_before`'s record).
    #[inline]
    pub(crate) fn standing(&self) -> Standing {
        Standing {
            decided: self.decided(),
            preference: self.preference,
            steps: self.steps,
        }
    }

    /// Back to what the run had decided, and its loop steps, at `here`.
    #[inline]
    pub(crate) fn stand(&mut self, here: Standing) {
        let d = here.decided;
        (self.again, self.captured, self.result, self.next_mover) =
            (d.again, d.captured, d.result, d.next_mover);
        self.preference = here.preference;
        self.steps = here.steps;
    }

    /// What the run has decided besides the position.
    pub(crate) fn decided(&self) -> Decided {
        Decided {
            again: self.again,
            captured: self.captured,
            result: self.result,
            next_mover: self.next_mover,
        }
    }

    /// A run with room for `locals` locals (the rule's body for the player to move may use fewer than
    /// the rule declares, see `Game::body_for`).
    pub(crate) fn with_locals(game: &'a Game, rule: u16, locals: usize) -> Self {
        Run::with_locals_in(game, rule, locals, Vec::new())
    }

    /// [`Run::with_locals`], its list of locals in `room` (lent, and given back by
    /// [`Run::take_locals`]: a list that has held as many allocates nothing).
    #[inline]
    pub(crate) fn with_locals_in(
        game: &'a Game,
        rule: u16,
        locals: usize,
        mut room: Vec<Value>,
    ) -> Self {
        room.clear();
        room.resize(locals, Value::None);
        Run {
            game,
            rule,
            locals: room,
            again: false,
            captured: false,
            result: None,
            next_mover: None,
            preference: 0,
            steps: 0,
            settling: false,
            scope: std::cell::OnceCell::new(),
        }
    }

    /// The run's list of locals, to lend to the next run (the run keeps an empty one).
    #[inline]
    pub(crate) fn take_locals(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.locals)
    }

    /// The run's [`Scope`], made the first time it is asked for.
    #[inline]
    pub(crate) fn scope(&self) -> &Scope {
        self.scope.get_or_init(Box::default)
    }

    /// The run's [`Scope`] if it has one yet.
    #[inline]
    pub(crate) fn existing_scope(&self) -> Option<&Scope> {
        self.scope.get().map(|s| &**s)
    }

    /// Whether `seen_before` has recorded nothing in this run.
    pub(crate) fn nothing_seen(&self) -> bool {
        self.scope.get().is_none_or(|s| s.seen.borrow().is_empty())
    }

    /// Forgets what `seen_before` recorded (a run reused for another rule's condition).
    pub(crate) fn forget_seen(&mut self) {
        if let Some(scope) = self.scope.get_mut() {
            scope.seen.get_mut().clear();
        }
    }

    pub(crate) fn error(&self, at: usize, message: String) -> Box<EngineError> {
        Box::new(EngineError {
            rule: self.game.rule_name(self.rule).to_string(),
            at,
            message,
        })
    }

    /// A local's value after `x += n` or `x -= n`.
    #[inline]
    pub(crate) fn combined(&self, slot: usize, op: AssignOp, n: i64) -> Value {
        Value::Int(combine(op, self.locals[slot].int(), n))
    }

    /// The slot in [`State::vars`] of variable `var`, of the player `player` names for a per-player one.
    #[inline]
    pub(crate) fn var_slot(
        &self,
        st: &State,
        var: u16,
        player: Option<&Expr>,
        at: usize,
    ) -> Result<usize, Box<EngineError>> {
        match player {
            Some(e) => self.var_slot_of(var, self.eval(st, e)?, at),
            None => Ok(self.game.var_slot(var as usize, None)),
        }
    }

    /// The slot of per-player variable `var` of the player `player` is.
    #[inline]
    pub(crate) fn var_slot_of(
        &self,
        var: u16,
        player: Value,
        at: usize,
    ) -> Result<usize, Box<EngineError>> {
        match player {
            Value::Player(p) => Ok(self.game.var_slot(var as usize, Some(p))),
            _ => Err(self.error(at, "a per-player variable needs a player".into())),
        }
    }

    /// The error of an `assert` that does not hold.
    #[cold]
    pub(crate) fn assert_failed(&self, at: usize) -> Box<EngineError> {
        self.error(at, "an `assert` of the rules does not hold".into())
    }

    pub(crate) fn tick(&mut self, at: usize) -> Result<(), Box<EngineError>> {
        self.steps += 1;
        if self.steps > self.game.max_steps_per_move {
            return Err(self.error(
                at,
                format!(
                    "a move took more than {} loop steps",
                    self.game.max_steps_per_move
                ),
            ));
        }
        Ok(())
    }

    /// Sets a choice's or loop's variables (one or two) to an option's values.
    #[inline]
    pub(crate) fn bind(&mut self, slots: &[u16], values: [Value; 2]) {
        // By the number of variables, not by zipping: the zip copied the option and walked it as an
        // iterator, a few dozen instructions for every option followed.
        let locals = self.locals.as_mut_slice();
        match *slots {
            [a] => locals[a as usize] = values[0],
            [a, b, ..] => {
                locals[a as usize] = values[0];
                locals[b as usize] = values[1];
            }
            _ => {}
        }
    }

    /// Whether `values` is one of the options `options` would list, computed directly.
    pub(crate) fn is_option(
        &mut self,
        st: &State,
        slots: &[u16],
        domain: &Domain,
        filter: Option<&Expr>,
        values: [Value; 2],
    ) -> Result<bool, Box<EngineError>> {
        let g = self.game;
        let on_board = |v: Value| matches!(v, Value::Site(s) if (s as usize) < g.board.len() && !g.board.offboard[s as usize]);
        let in_domain = match domain {
            Domain::Sites => on_board(values[0]),
            Domain::SitesWith(piece) => match (self.eval(st, piece)?, values[0]) {
                (Value::Piece(p), Value::Site(s)) => on_board(values[0]) && st.count(g, s, p) > 0,
                _ => false,
            },
            Domain::Neighbours(e) => match (self.eval(st, e)?, values[0]) {
                (Value::Site(from), Value::Site(to)) => g.board.neighbours(from).contains(&to),
                _ => false,
            },
            Domain::Leaps(e) => match (self.eval(st, e)?, values) {
                (Value::Site(from), [Value::Site(o), Value::Site(l)]) => {
                    g.board.leaps(from).contains(&(o, l))
                }
                _ => false,
            },
            Domain::Range(a, b) => {
                let (a, b) = (self.int(st, a)?, self.int(st, b)?);
                matches!(values[0], Value::Int(v) if a <= v && v <= b.min(a.saturating_add(10_000)))
            }
            Domain::Track(t) => match (self.eval(st, t)?, values[0]) {
                (Value::Track(t), Value::Site(s)) => g.board.tracks[t as usize].points.contains(&s),
                _ => false,
            },
            Domain::Players => matches!(values[0], Value::Player(p) if g.turn_order.contains(&p)),
            Domain::Occupied => {
                on_board(values[0])
                    && matches!(values[0], Value::Site(s) if st.site_total(g, s) > 0)
            }
            Domain::Just(e) => on_board(values[0]) && self.eval(st, e)? == values[0],
        };
        if !in_domain {
            return Ok(false);
        }
        self.bind(slots, values);
        match filter {
            Some(f) => self.truthy(st, f),
            None => Ok(true),
        }
    }

    /// Lists the options of a choice point or loop at the end of `items` (the executor's one list for
    /// every choice point on the path, so listing copies nothing and allocates only to grow it).
    /// `generated`: the program's generated filters, which test the filter in place of its closures.
    pub(crate) fn options(
        &mut self,
        st: &State,
        options: &Options,
        generated: Option<Filter>,
        items: &mut Vec<[Value; 2]>,
    ) -> Result<(), Box<EngineError>> {
        let Options {
            slots,
            domain,
            filter,
            plan,
            which,
            ..
        } = options;
        let g = self.game;
        let site_arg = |run: &Self, e: &Expr| -> Result<Option<SiteId>, Box<EngineError>> {
            Ok(match run.eval(st, e)? {
                Value::Site(s) => Some(s),
                _ => None,
            })
        };
        let start = items.len();
        // A drop's `sites() where empty(x)`: the vacant points straight from the bit sets.
        if let (Domain::Sites, Some(SiteTest::One(SiteIs::Empty(0)))) = (domain, plan.test) {
            listings::vacant(g, st, items);
            return Ok(());
        }
        match domain {
            Domain::Sites => items.extend(
                g.board
                    .playing_sites()
                    .map(|s| [Value::Site(s), Value::None]),
            ),
            Domain::SitesWith(piece) => {
                // The commonest domain of all, its piece most often written in the rules.
                let piece = match piece {
                    Expr::Const(v) => *v,
                    e => self.eval(st, e)?,
                };
                if let Value::Piece(p) = piece {
                    listings::sites_with(g, st, p, items);
                }
            }
            Domain::Neighbours(e) => {
                if let Some(s) = site_arg(self, e)? {
                    items.extend(
                        g.board
                            .neighbours(s)
                            .iter()
                            .map(|&n| [Value::Site(n), Value::None]),
                    );
                }
            }
            Domain::Leaps(e) => {
                if let Some(s) = site_arg(self, e)? {
                    items.extend(
                        g.board
                            .leaps(s)
                            .iter()
                            .map(|&(o, l)| [Value::Site(o), Value::Site(l)]),
                    );
                }
            }
            Domain::Range(a, b) => {
                let (a, b) = (self.int(st, a)?, self.int(st, b)?);
                // Bounded so a careless range cannot exhaust memory.
                let b = b.min(a.saturating_add(10_000));
                items.extend((a..=b).map(|i| [Value::Int(i), Value::None]));
            }
            Domain::Track(t) => {
                if let Value::Track(t) = self.eval(st, t)? {
                    items.extend(
                        g.board.tracks[t as usize]
                            .points
                            .iter()
                            .map(|&s| [Value::Site(s), Value::None]),
                    )
                }
            }
            Domain::Just(e) => {
                if let Some(s) = site_arg(self, e)?
                    && !g.board.offboard[s as usize]
                {
                    items.push([Value::Site(s), Value::None]);
                }
            }
            Domain::Occupied => {
                if let (Some(playing), Some(occupied)) =
                    (g.board.playing_bits(), st.counts.occupied_sites())
                {
                    list_bits(playing & occupied, items);
                } else {
                    list_sites(g.board.playing_list(), |s| st.site_total(g, s) > 0, items)
                }
            }
            Domain::Players => items.extend(
                g.turn_order
                    .iter()
                    .map(|&p| [Value::Player(p), Value::None]),
            ),
        }
        match filter {
            // The commonest filters (`empty(to)`, `has(over, prey) and empty(to)`) are tested on each
            // option's values directly, without binding them and calling the compiled filter.
            Some(_) if let Some(test) = plan.test => {
                // Without a branch per option, as above.
                let mut kept = start;
                for k in start..items.len() {
                    let values = items[k];
                    items[kept] = values;
                    kept += usize::from(test.holds(values, g, st));
                }
                items.truncate(kept);
            }
            Some(_) if let Some(filter) = generated => {
                self.keep_passing(slots, items, start, |run| filter(run, st, *which))?
            }
            Some(f) => self.keep_passing(slots, items, start, |run| run.truthy(st, f))?,
            None => {}
        }
        Ok(())
    }

    /// Keeps, in order, the options of `items` from `start` on that pass `holds` with their values
    /// bound to `slots`.
    #[inline(always)]
    fn keep_passing(
        &mut self,
        slots: &[u16],
        items: &mut Vec<[Value; 2]>,
        start: usize,
        holds: impl Fn(&Self) -> Result<bool, Box<EngineError>>,
    ) -> Result<(), Box<EngineError>> {
        let mut kept = start;
        for k in start..items.len() {
            let values = items[k];
            self.bind(slots, values);
            if holds(self)? {
                items[kept] = values;
                kept += 1;
            }
        }
        items.truncate(kept);
        Ok(())
    }

    /// `spend(v)`: the oldest held throw worth `v` is used up by the move. (Not inlined into
    /// [`Run::effect`]: few rulesets spend, and the executor's loop stays as it was for the others.)
    #[inline(never)]
    fn spend(&self, st: &mut Scratch, want: i64, at: usize) -> Result<(), Box<EngineError>> {
        let worth = |row: u8| self.game.throw_row(row).value == want;
        let Some(index) = st.held.iter().position(|&row| worth(row)) else {
            return Err(self.error(at, format!("no throw worth {want} is held to spend")));
        };
        st.spend_held(index);
        Ok(())
    }

    /// Carries out an effect on its arguments' values. Inlined into the executor's loop.
    #[inline(always)]
    pub(crate) fn effect(
        &mut self,
        st: &mut Scratch,
        effect: Effect,
        vals: [Value; 3],
        at: usize,
    ) -> Result<(), Box<EngineError>> {
        let g = self.game;
        let k = g.piece_count();
        let cell = |piece: Value, site: Value| -> Option<usize> {
            match (piece, site) {
                (Value::Piece(p), Value::Site(s)) => Some(s as usize * k + p as usize),
                _ => None,
            }
        };
        let name = |v: Value| g.value_text(v);
        match effect {
            Effect::Place => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "place needs a piece and a site".into()))?;
                let n = st.counts[c]
                    .checked_add(1)
                    .ok_or_else(|| self.error(at, "too many pieces".into()))?;
                st.set_count(c, n);
            }
            Effect::Remove | Effect::Capture => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "needs a piece and a site".into()))?;
                if st.counts[c] == 0 {
                    return Err(self.error(
                        at,
                        format!("no {} on {} to remove", name(vals[0]), name(vals[1])),
                    ));
                }
                st.set_count(c, st.counts[c] - 1);
                if effect == Effect::Capture {
                    self.captured = true;
                    st.count_capture();
                }
            }
            Effect::Move => {
                let from = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "move needs piece, from, to".into()))?;
                let to = cell(vals[0], vals[2])
                    .ok_or_else(|| self.error(at, "move needs piece, from, to".into()))?;
                if st.counts[from] == 0 {
                    return Err(self.error(
                        at,
                        format!("no {} on {} to move", name(vals[0]), name(vals[1])),
                    ));
                }
                if from == to {
                    // A piece moved to where it stands stays there, alone.
                    return Ok(());
                }
                let n = st.counts[to]
                    .checked_add(1)
                    .ok_or_else(|| self.error(at, "too many pieces".into()))?;
                if let (Value::Site(a), Value::Site(b)) = (vals[1], vals[2]) {
                    // Entering from an off-board place (a drop, an entry) is progress, like a capture.
                    if g.board.offboard[a as usize] && !g.board.offboard[b as usize] {
                        self.captured = true;
                    }
                }
                st.set_count(from, st.counts[from] - 1);
                st.set_count(to, n);
            }
            Effect::SetCount => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "set_count needs piece, site, n".into()))?;
                let n = vals[2].int();
                let n = u16::try_from(n)
                    .map_err(|_| self.error(at, format!("{n} pieces cannot stand on one site")))?;
                if st.counts[c] != n {
                    st.set_count(c, n);
                }
            }
            Effect::Again => self.again = true,
            Effect::Prefer => self.preference = vals[0].int(),
            Effect::Win => {
                let winner = match vals[0] {
                    Value::Player(p) => Some(p),
                    _ => return Err(self.error(at, "win needs a player".into())),
                };
                self.result = Some(Outcome {
                    winner,
                    reason: Reason::Rule(self.rule),
                });
            }
            Effect::SetMover => match vals[0] {
                Value::Player(p) => self.next_mover = Some(p),
                _ => return Err(self.error(at, "set_mover needs a player".into())),
            },
            Effect::Assert => {
                if !vals[0].truthy() {
                    return Err(self.assert_failed(at));
                }
            }
            Effect::Draw => {
                self.result = Some(Outcome {
                    winner: None,
                    reason: Reason::Rule(self.rule),
                })
            }
            // The executor abandons the path before it gets here (`Executor::rejected`).
            Effect::Reject => {}
            Effect::Spend => self.spend(st, vals[0].int(), at)?,
        }
        Ok(())
    }
}

/// How the options of a choice point or loop are listed: worked out when a prepared game's programs are
/// built (program.rs), from the choice's variables, domain and filter; the default lists the domain and
/// runs the filter on every option, which is right for any choice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ListPlan {
    /// The filter, when it is one of the tests made on the options' values directly.
    test: Option<SiteTest>,
    /// Whether the listing has a loop of its own.
    direct: Direct,
}

impl ListPlan {
    /// Whether the options are listed the plain way: the whole domain, then the filter (if any) on
    /// each option bound in the run; no test made on the values directly, no listing of its own.
    pub(crate) fn plain(&self) -> bool {
        self.test.is_none() && self.direct == Direct::None
    }

    pub(crate) fn of(slots: &[u16], domain: &Domain, filter: Option<&Expr>) -> ListPlan {
        let test = filter.and_then(|f| SiteTest::of(f.source(), slots));
        let direct = match (domain, test) {
            (Domain::Neighbours(Expr::Local(x)), Some(SiteTest::One(SiteIs::Empty(0)))) => {
                Direct::Steps(*x)
            }
            (
                Domain::Leaps(Expr::Local(x)),
                Some(SiteTest::Both(SiteIs::Has(0, piece), SiteIs::Empty(1))),
            ) => Direct::Leaps(*x, piece),
            (Domain::Neighbours(Expr::Local(x)) | Domain::Leaps(Expr::Local(x)), Some(test)) => {
                Direct::Tested(*x, test)
            }
            _ => Direct::None,
        };
        ListPlan { test, direct }
    }
}

/// The options of a choice point listed again for each option of an outer one (see `Executor::fork`).
#[derive(Clone, Copy)]
pub(crate) struct Listing<'e> {
    options: &'e Options,
    generated: Option<Filter>,
}

/// The listings with a loop of their own, the variable whose point they start from in a local.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Direct {
    /// `neighbours(x) where empty(to)`: a step to a vacant point.
    Steps(u16),
    /// `leaps(x) where has(over, piece) and empty(to)`: a leap over a piece onto a vacant point.
    Leaps(u16, PieceId),
    /// The neighbours or the leaps of a variable under another direct filter.
    Tested(u16, SiteTest),
    #[default]
    None,
}

impl<'e> Listing<'e> {
    #[inline]
    pub(crate) fn new(options: &'e Options, generated: Option<Filter>) -> Self {
        Listing { options, generated }
    }

    /// Adds the options, in order, to `items`: the same as [`Run::options`].
    pub(crate) fn list(
        &self,
        run: &mut Run<'_>,
        st: &State,
        items: &mut Vec<[Value; 2]>,
    ) -> Result<(), Box<EngineError>> {
        let g = run.game;
        let from = |x: u16| match run.locals.get(x as usize) {
            Some(&Value::Site(s)) => Some(s),
            _ => None,
        };
        match self.options.plan.direct {
            // The two commonest listings of the hunt games, each test inlined for its case.
            Direct::Steps(x) => {
                if let Some(s) = from(x) {
                    listings::steps(g, st, s, items);
                }
            }
            Direct::Leaps(x, piece) => {
                if let Some(s) = from(x) {
                    listings::leaps(g, st, s, piece, items);
                }
            }
            Direct::Tested(x, test) => {
                if let Some(s) = from(x) {
                    match self.options.domain {
                        Domain::Leaps(_) => {
                            for &(over, to) in g.board.leaps(s) {
                                let values = [Value::Site(over), Value::Site(to)];
                                if test.holds(values, g, st) {
                                    items.push(values);
                                }
                            }
                        }
                        _ => {
                            for &n in g.board.neighbours(s) {
                                let values = [Value::Site(n), Value::None];
                                if test.holds(values, g, st) {
                                    items.push(values);
                                }
                            }
                        }
                    }
                }
            }
            Direct::None => {
                return run.options(st, self.options, self.generated, items);
            }
        }
        Ok(())
    }
}

/// A filter tested on an option's values directly: `empty(x)` or `has(x, piece)` of one of the
/// choice's own variables, or two of those joined by `and`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum SiteTest {
    One(SiteIs),
    Both(SiteIs, SiteIs),
}

/// `empty(x)` or `has(x, piece)`, `x` the option's value at an index.
#[derive(Clone, Copy, Debug, PartialEq)]
enum SiteIs {
    Empty(usize),
    Has(usize, PieceId),
}

impl SiteTest {
    #[inline]
    fn of(filter: &Expr, slots: &[u16]) -> Option<SiteTest> {
        let leaf = |e: &Expr| {
            let index = |slot: &u16| slots.iter().position(|s| s == slot);
            match e {
                Expr::EmptyAt(slot) => index(slot).map(SiteIs::Empty),
                Expr::HasAt(slot, piece) => index(slot).map(|i| SiteIs::Has(i, *piece)),
                _ => None,
            }
        };
        match filter {
            Expr::Bin(BinOp::And, a, b) => Some(SiteTest::Both(leaf(a)?, leaf(b)?)),
            e => leaf(e).map(SiteTest::One),
        }
    }

    // (Always: it is the body of the tightest listing loops, and whether the compiler inlines it
    // otherwise changed with unrelated code.)
    #[inline(always)]
    fn holds(self, values: [Value; 2], g: &Game, st: &State) -> bool {
        match self {
            SiteTest::One(a) => a.holds(values, g, st),
            // Both tested, without a branch between them (neither has an effect).
            SiteTest::Both(a, b) => a.holds(values, g, st) & b.holds(values, g, st),
        }
    }
}

impl SiteIs {
    #[inline(always)]
    fn holds(self, values: [Value; 2], g: &Game, st: &State) -> bool {
        match self {
            SiteIs::Empty(i) => matches!(values[i], Value::Site(s) if st.site_is_empty(g, s)),
            SiteIs::Has(i, piece) => {
                matches!(values[i], Value::Site(s) if st.count(g, s, piece) > 0)
            }
        }
    }
}

/// A listing that generated code makes without the executor (codegen.rs): the plans of
/// [`listings`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Shape {
    /// `sites() where empty(x)`.
    Vacant,
    /// `sites_with(piece)`, no filter.
    SitesWith(PieceId),
    /// `neighbours(x) where empty(to)`, `x` a local.
    Steps(u16),
    /// `leaps(x) where has(over, piece) and empty(to)`, `x` a local.
    Leaps(u16, PieceId),
}

impl Shape {
    /// The shape of a choice's listing, if it has one of [`listings`].
    pub(crate) fn of(domain: &Domain, filter: Option<&Expr>, plan: ListPlan) -> Option<Shape> {
        match (domain, filter, plan.test, plan.direct) {
            (_, _, _, Direct::Steps(x)) => Some(Shape::Steps(x)),
            (_, _, _, Direct::Leaps(x, piece)) => Some(Shape::Leaps(x, piece)),
            (Domain::Sites, Some(_), Some(SiteTest::One(SiteIs::Empty(0))), _) => {
                Some(Shape::Vacant)
            }
            (Domain::SitesWith(Expr::Const(Value::Piece(p))), None, _, _) => {
                Some(Shape::SitesWith(*p))
            }
            _ => None,
        }
    }
}

/// The listings of the commonest plans, shared by the executor and the generated code (codegen.rs):
/// one implementation each, so that the two backends list the same options in the same order.
pub(crate) mod listings {
    use super::{list_bits, list_sites, list_wide};
    use crate::ir::Value;
    use crate::state::State;
    use crate::{Game, PieceId};
    use keliya_board::{Reach, SiteId};

    /// `sites() where empty(x)`: the vacant on-board sites, from the bit sets where they are kept.
    #[inline]
    pub(crate) fn vacant(g: &Game, st: &State, items: &mut Vec<[Value; 2]>) {
        match (g.board.playing_bits(), st.counts.occupied_sites()) {
            (Some(playing), Some(occupied)) => list_bits(playing & !occupied, items),
            _ => match (g.board.playing_wide(), st.counts.occupied_wide()) {
                (Some(playing), Some(occupied)) => list_wide(playing & !occupied, items),
                _ => list_sites(g.board.playing_list(), |s| st.site_is_empty(g, s), items),
            },
        }
    }

    /// `sites_with(piece)`: the on-board sites holding the piece.
    #[inline]
    pub(crate) fn sites_with(g: &Game, st: &State, piece: PieceId, items: &mut Vec<[Value; 2]>) {
        if let (Some(playing), Some(with)) =
            (g.board.playing_bits(), st.counts.sites_with(piece as usize))
        {
            list_bits(playing & with, items);
        } else if let (Some(playing), Some(with)) = (
            g.board.playing_wide(),
            st.counts.sites_with_wide(piece as usize),
        ) {
            list_wide(playing & with, items);
        } else {
            let k = g.piece_count();
            let holds = |s: SiteId| st.counts[s as usize * k + piece as usize] > 0;
            list_sites(g.board.playing_list(), holds, items);
        }
    }

    /// `neighbours(s) where empty(to)`: a step to a vacant point.
    #[inline]
    pub(crate) fn steps(g: &Game, st: &State, s: SiteId, items: &mut Vec<[Value; 2]>) {
        let near = g.board.neighbours(s);
        match st.counts.occupied_sites() {
            // From the bit sets, where they tell the answer whole: a piece hemmed in (common once
            // the board fills), one way out, or every way open. Each neighbour once in the list, so
            // that its bits say the same as the list.
            Some(occupied) if g.board.neighbour_bits_exact() => {
                let reach = g.board.reach(s).neighbours;
                let free = reach & !occupied;
                if free & free.wrapping_sub(1) == 0 {
                    if free != 0 {
                        let to = free.trailing_zeros() as SiteId;
                        items.push([Value::Site(to), Value::None]);
                    }
                } else if free == reach {
                    items.extend(near.iter().map(|&to| [Value::Site(to), Value::None]));
                } else {
                    for &to in near {
                        if occupied >> to & 1 == 0 {
                            items.push([Value::Site(to), Value::None]);
                        }
                    }
                }
            }
            _ => {
                for &to in near {
                    if st.site_is_empty(g, to) {
                        items.push([Value::Site(to), Value::None]);
                    }
                }
            }
        }
    }

    /// `leaps(s) where has(over, piece) and empty(to)`: a leap over a piece onto a vacant point.
    #[inline]
    pub(crate) fn leaps(
        g: &Game,
        st: &State,
        s: SiteId,
        piece: PieceId,
        items: &mut Vec<[Value; 2]>,
    ) {
        // (Most turns a hunter has no leap: no piece to go over, or nowhere to land.)
        let possible = |reach: Reach| {
            (reach.leaps_over & st.counts.holding_or_all(piece as usize) != 0)
                & (reach.leaps_land & st.counts.vacant_or_all() != 0)
        };
        if possible(g.board.reach(s)) {
            for &(over, to) in g.board.leaps(s) {
                // Both tested, without a branch between them (neither has an effect).
                if (st.count(g, over, piece) > 0) & st.site_is_empty(g, to) {
                    items.push([Value::Site(over), Value::Site(to)]);
                }
            }
        }
    }
}

/// Adds the sites of `sites` that satisfy `holds` to `items`, in order. Pieces stand on random-looking
/// sites, so a branch per site would often be mispredicted: the test is made on 64 sites at a time
/// first, into a bit set, and the sites are then listed from its bits.
#[inline]
pub(crate) fn list_sites(
    sites: &[SiteId],
    holds: impl Fn(SiteId) -> bool,
    items: &mut Vec<[Value; 2]>,
) {
    for chunk in sites.chunks(64) {
        let mut set = 0u64;
        for (i, &s) in chunk.iter().enumerate() {
            set |= u64::from(holds(s)) << i;
        }
        while set != 0 {
            items.push([
                Value::Site(chunk[set.trailing_zeros() as usize]),
                Value::None,
            ]);
            set &= set - 1;
        }
    }
}

/// Adds the sites of the bit set `bits` (bit `s` for site `s`) to `items`, in id order.
#[inline]
fn list_bits(mut bits: u64, items: &mut Vec<[Value; 2]>) {
    while bits != 0 {
        items.push([Value::Site(bits.trailing_zeros() as SiteId), Value::None]);
        bits &= bits - 1;
    }
}

/// [`list_bits`] for boards of up to 128 places: the low word's sites, then the high word's.
#[inline]
fn list_wide(bits: u128, items: &mut Vec<[Value; 2]>) {
    list_bits(bits as u64, items);
    let mut high = (bits >> 64) as u64;
    while high != 0 {
        items.push([
            Value::Site(64 + high.trailing_zeros() as SiteId),
            Value::None,
        ]);
        high &= high - 1;
    }
}

/// A number assigned (`=`), added (`+=`) or taken away (`-=`), saturating.
pub(crate) fn combine(op: AssignOp, cur: i64, v: i64) -> i64 {
    match op {
        AssignOp::Set => v,
        AssignOp::Add => cur.saturating_add(v),
        AssignOp::Sub => cur.saturating_sub(v),
    }
}

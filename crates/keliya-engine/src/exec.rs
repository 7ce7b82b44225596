//! The executor: runs a rule's [`Program`] for each of the three jobs a rule has.
//!
//! - **Search** lists the rule's moves. At a choice node the run is copied once per option (the last
//!   option takes the run itself) and each copy goes on from the operation after the node (a generated
//!   search that holds the locals copies only them, [`Executor::choose_held`]); the position is one
//!   working copy whose changes are taken back between options (`Scratch`, with its undo trail).
//!   At a `last` choice node, when nothing has been changed or recorded yet, the search pauses: one move
//!   per option, each keeping the run as it is, finished when played.
//! - **Replay** plays a given move: at each choice node it follows the move's choice, checked to be an
//!   option there.
//! - **Finish** plays a move a search paused: it goes on from the paused choice's body (or from the
//!   start, for a rule paused before it began) to the end.
//!
//! The run (locals, flags, the loops it is in) lives in [`Run`]; expressions, option listings and effects
//! are the run's (run.rs, eval.rs, compile.rs). The Rust stack grows only with the choice points of the
//! path being explored, which are bounded (`MAX_CHOICES_PER_MOVE`).

use crate::interp::{Choice, EngineError, FoundMove, Head, Successors};
use crate::ir::*;
use crate::program::{Backend, ChoiceNode, Op, Options, Program};
use crate::run::{Frame, Listing, Run, Scratch, Standing};
use crate::state::Outcome;
use crate::{Game, PlayerId};
use smallvec::SmallVec;
use std::ops::Range;

/// What a complete run decided besides the position and its choices.
#[derive(Clone, Copy, Default)]
pub(crate) struct Decided {
    pub(crate) again: bool,
    pub(crate) captured: bool,
    pub(crate) result: Option<Outcome>,
    pub(crate) next_mover: Option<PlayerId>,
}

/// Which paths to follow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Every option of every choice point.
    Search,
    /// Only the given choices, in order; a choice point beyond them, or a choice that is not an option, is
    /// an error (applying a move).
    Replay,
    /// The rest of a paused move: no choice point may come.
    Finish,
}

type Done = Result<(), Box<EngineError>>;

/// The rest of a generated search from an operation on, with the locals it holds
/// ([`Executor::choose_held`]).
#[cfg_attr(test, allow(unused))] // only generated code calls it
pub(crate) type Held<'g, 's, const N: usize> = for<'p> fn(
    &mut Executor<'g, 's>,
    &mut Run<'g>,
    &mut Scratch<'p>,
    usize,
    &mut [Value; N],
) -> Done;

pub(crate) struct Executor<'g, 's> {
    game: &'g Game,
    program: &'g Program,
    /// The program's generated runner (compiled/), which [`Executor::run_from`] hands its work to;
    /// none on the VM backend.
    runner: Option<crate::compiled::Runner>,
    /// The program's generated filters and listings; none on the VM backend.
    filter: Option<crate::compiled::Filter>,
    lister: Option<crate::compiled::Lister>,
    rule: u16,
    mode: Mode,
    /// The choices to replay (in [`Mode::Replay`]).
    given: &'s [Choice],
    /// The choices of the path being explored.
    path: SmallVec<[Choice; 4]>,
    /// The `for` loops the path is in, innermost last.
    frames: Frames,
    /// The options of every choice point and loop on the path, each a range of this list, innermost last.
    pub(crate) options: Vec<[Value; 2]>,
    keep_changes: bool,
    /// The options of the choice points followed so far (each a path explored further), and the most
    /// that may be followed, or found as moves, in one search (`Game::max_options_per_position`):
    /// choices nested in choices multiply, and a careless rule could otherwise take more time or
    /// memory than there is.
    followed: usize,
    most: usize,
    /// The length of `found` past which this search has found too many moves.
    found_most: usize,
    /// The last choice point reached (its place in the rules), where finding too many moves is shown.
    pub(crate) choice_at: usize,
    /// The trail's length when the rule began: a path's changes are the trail after it.
    start: usize,
    limit: usize,
    /// The complete paths found, in order (the caller's list, filled in place); none when finishing a
    /// paused move.
    found: Option<&'s mut Successors>,
    /// Where the option list goes back to when finishing a paused move.
    room: Option<&'s std::cell::Cell<Vec<[Value; 2]>>>,
}

/// The `for` loops a path is in, innermost last.
type Frames = SmallVec<[Frame; 2]>;

impl Drop for Executor<'_, '_> {
    fn drop(&mut self) {
        // The option list goes back to where it came from, for the next run.
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        match (&mut self.found, self.room) {
            (Some(found), _) => found.options = options,
            (None, Some(room)) => room.set(options),
            (None, None) => {}
        }
    }
}

impl<'g, 's> Executor<'g, 's> {
    /// An executor that adds the moves it finds (or the one it replays) to `found`.
    pub(crate) fn new(
        game: &'g Game,
        mode: Mode,
        keep_changes: bool,
        found: &'s mut Successors,
    ) -> Self {
        let options = std::mem::take(&mut found.options);
        Executor::working_in(game, mode, keep_changes, options, Some(found), None)
    }

    /// An executor working in `options` (given back to `found`, or else to `room`, when it is done),
    /// before it runs a rule.
    fn working_in(
        game: &'g Game,
        mode: Mode,
        keep_changes: bool,
        options: Vec<[Value; 2]>,
        found: Option<&'s mut Successors>,
        room: Option<&'s std::cell::Cell<Vec<[Value; 2]>>>,
    ) -> Self {
        let most = game.max_options_per_position as usize;
        let found_most = found.as_ref().map_or(0, |f| f.len()).saturating_add(most);
        Executor {
            game,
            program: &EMPTY,
            runner: None,
            filter: None,
            lister: None,
            rule: 0,
            mode,
            given: &[],
            path: SmallVec::new(),
            frames: SmallVec::new(),
            options,
            keep_changes,
            followed: 0,
            most,
            found_most,
            choice_at: 0,
            start: 0,
            // One move past the most a search may find, so that finding too many is seen.
            limit: found_most.saturating_add(1),
            found,
            room,
        }
    }

    /// Stop once this many moves are found.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = self.limit.min(limit);
    }

    fn found_len(&self) -> usize {
        self.found.as_ref().map_or(0, |f| f.len())
    }

    pub(crate) fn full(&self) -> bool {
        self.found_len() >= self.limit || self.found.as_ref().is_some_and(|f| f.over_budget())
    }

    /// The last move found (a replay finds one), what it decided.
    pub(crate) fn last_decided(&self) -> Option<Decided> {
        self.found.as_ref()?.last_decided()
    }

    /// An error if the search found more moves than one position may have (it stopped one past them),
    /// shown at the choice point last reached.
    pub(crate) fn within_bound(&self) -> Done {
        if self.found.as_ref().is_some_and(|f| f.over_budget()) {
            let run = Run::new(self.game, self.rule);
            return Err(too_much_to_keep(&run, self.choice_at, self.found_len()));
        }
        if self.found_len() <= self.found_most {
            return Ok(());
        }
        let run = Run::new(self.game, self.rule);
        Err(too_many_options(&run, self.choice_at, self.most))
    }

    /// Points the executor at `rule`'s `program`, with its generated runner, filters and listings if
    /// any.
    fn set_program(&mut self, rule: u16, program: &'g Program) {
        self.program = program;
        // The generated code of the program, on the compiled backend.
        let compiled = self.game.programs.backend == Backend::Compiled;
        self.runner = program.runner.filter(|_| compiled);
        self.filter = program.filter.filter(|_| compiled);
        self.lister = program.lister.filter(|_| compiled);
        self.rule = rule;
    }

    /// Follows every path of `rule` (or, in [`Mode::Replay`], the path of `given`) from the base position.
    /// `st` is the working copy of the base position; it is as it was when this returns, but in
    /// [`Mode::Replay`], where it is left as the move leaves it.
    pub(crate) fn rule(&mut self, st: &mut Scratch, rule: u16, given: &'s [Choice]) -> Done {
        if self.full() {
            return Ok(());
        }
        let Some(program) = self.game.program(rule, st.to_move) else {
            return Err(Run::new(self.game, rule).error(0, "no such rule".into()));
        };
        self.set_program(rule, program);
        self.given = given;
        // A search the generated code can make (compiled/): the same moves, found without a run.
        if let Some(search) = program.compiled
            && self.mode == Mode::Search
            && self.keep_changes
            && self.game.programs.backend == Backend::Compiled
        {
            let options = self.options.len();
            let done = search(self, st, program);
            self.options.truncate(options);
            return done;
        }
        self.path.clear();
        self.frames.clear();
        // The list of locals is lent by the caller's list of moves (only a run takes it: a generated
        // search that makes none pays nothing).
        let room =
            (self.found.as_mut()).map_or_else(Vec::new, |f| std::mem::take(&mut f.run_locals));
        let mut run = Run::with_locals_in(self.game, rule, program.locals, room);
        let mark = st.mark();
        self.start = mark;
        // A rule without choice points has one move, whatever it does: a search records it paused at
        // the start, and the body runs only when the move is played.
        if program.whole && self.mode == Mode::Search && self.can_pause(&run, st) {
            let head = Head::of(self.rule, &self.path, &run);
            if let Some(found) = &mut self.found {
                found.push_paused_start(head, (&run.locals, run.steps));
            }
            self.lend_back(&mut run);
            return Ok(());
        }
        let options = self.options.len();
        let done = self.run_from(&mut run, st, 0);
        self.options.truncate(options);
        self.lend_back(&mut run);
        done?;
        self.take_back(st, mark);
        Ok(())
    }

    /// Runs the operations from `pc` on: to the end of the rule, or to a choice node, whose options
    /// each go on to the end.
    fn run_from(&mut self, run: &mut Run<'g>, st: &mut Scratch, mut pc: usize) -> Done {
        if let Some(runner) = self.runner {
            return runner(self, run, st, pc);
        }
        let program = self.program;
        loop {
            match &program.ops[pc] {
                Op::Set { slot, value } => run.locals[*slot as usize] = run.eval(st, value)?,
                Op::Add { slot, op, value } => {
                    let slot = *slot as usize;
                    let n = match value {
                        Expr::Const(v) => v.int(),
                        value => run.int(st, value)?,
                    };
                    run.locals[slot] = run.combined(slot, *op, n);
                }
                Op::SetVar {
                    var,
                    slot,
                    player,
                    op,
                    value,
                    at,
                } => {
                    let slot = match slot {
                        Some(slot) => *slot,
                        None => run.var_slot(st, *var, player.as_ref(), *at)?,
                    };
                    let n = run.int(st, value)?;
                    st.assign_var(slot, *op, n);
                }
                Op::Effect {
                    effect: Effect::Reject,
                    at,
                    ..
                } => return self.rejected(run, *at),
                Op::Effect { effect, args, at } => {
                    let mut vals = [Value::None; 3];
                    for (slot, a) in vals.iter_mut().zip(args) {
                        *slot = operand(run, st, a)?;
                    }
                    run.effect(st, *effect, vals, *at)?;
                    if run.result.is_some() {
                        // A decided game ends the rule: nothing after `win` or `draw` runs.
                        pc = program.end as usize;
                        continue;
                    }
                }
                Op::Assert { cond, at } => {
                    if !run.truthy(st, cond)? {
                        return Err(run.assert_failed(*at));
                    }
                }
                Op::Unless { cond, to } => {
                    if !run.truthy(st, cond)? {
                        pc = *to as usize;
                        continue;
                    }
                }
                Op::Jump { to } => {
                    pc = *to as usize;
                    continue;
                }
                Op::Tick { at } => run.tick(*at)?,
                Op::ForList { node } => self.for_list(run, st, *node)?,
                Op::ForNext { node, exit } => {
                    if !self.for_next(run, *node)? {
                        pc = *exit as usize;
                        continue;
                    }
                }
                Op::Choose { node } => {
                    return self.choose(run, st, &program.choices[*node as usize]);
                }
                Op::End if self.mode == Mode::Finish => return Ok(()),
                Op::End => return self.leaf(run, st),
            }
            pc += 1;
        }
    }

    /// Adds the options of a choice or loop to the option list: by the program's generated listing
    /// where it has one, else by [`Run::options`] (the two list alike).
    #[inline(always)]
    fn list(&mut self, run: &mut Run<'g>, st: &Scratch, o: &Options) -> Done {
        if let Some(lister) = self.lister
            && lister(run, st, o.which, &mut self.options)?
        {
            return Ok(());
        }
        run.options(st, o, self.filter, &mut self.options)
    }

    /// `for`: lists the options of loop `node` and starts going through them.
    #[inline(always)]
    pub(crate) fn for_list(&mut self, run: &mut Run<'g>, st: &Scratch, node: u16) -> Done {
        let o = &self.program.loops[node as usize];
        let start = self.options.len();
        self.list(run, st, o)?;
        self.frames.push(Frame {
            start: start as u32,
            end: self.options.len() as u32,
            next: start as u32,
        });
        Ok(())
    }

    /// The next pass of the innermost loop, `node`: its next option bound (true), or the loop left
    /// (false) when none is left.
    #[inline(always)]
    pub(crate) fn for_next(
        &mut self,
        run: &mut Run<'g>,
        node: u16,
    ) -> Result<bool, Box<EngineError>> {
        let Some(frame) = self.frames.last_mut() else {
            return Err(run.error(0, "a loop's next pass outside the loop".into()));
        };
        if frame.next == frame.end {
            let frame = *frame;
            self.frames.pop();
            // The loop's options are dropped, unless a choice point's are above them (a path of a
            // choice made inside the loop): those go when the choice is done.
            if self.options.len() == frame.end as usize {
                self.options.truncate(frame.start as usize);
            }
            return Ok(false);
        }
        let values = self.options[frame.next as usize];
        frame.next += 1;
        let o = &self.program.loops[node as usize];
        run.tick(o.at)?;
        run.bind(&o.slots, values);
        Ok(true)
    }

    /// A choice node: its options listed (or, in a replay, the move's choice checked), each followed to
    /// the end of the rule; or, at a last one, the search paused.
    pub(crate) fn choose(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
    ) -> Done {
        let Some(listed) = self.listed(run, st, node)? else {
            return Ok(());
        };
        let start = listed.start;
        let forked = self.fork(run, st, node, listed);
        self.options.truncate(start);
        forked
    }

    /// [`Executor::choose`] in a generated search ([`crate::compiled::Search`]) that holds the locals
    /// in `l` (stored in the run for the listing): each option goes on in `go` with a copy of `l`
    /// that binds it, not with a copy of the run.
    #[cfg_attr(test, allow(unused))] // only generated code calls it
    pub(crate) fn choose_held<const N: usize>(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
        l: &mut [Value; N],
        go: Held<'g, 's, N>,
    ) -> Done {
        let Some(listed) = self.listed(run, st, node)? else {
            return Ok(());
        };
        let start = listed.start;
        let forked = self.fork_held(run, st, node, listed, l, go);
        self.options.truncate(start);
        forked
    }

    /// The options of a choice node, listed at the end of the option list (in a replay, the move's
    /// choice, checked); none when the search paused there, its moves recorded.
    #[inline(always)]
    fn listed(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
    ) -> Result<Option<Range<usize>>, Box<EngineError>> {
        let o = &node.options;
        let start = self.options.len();
        self.choice_at = o.at;
        match self.mode {
            Mode::Search if node.last && self.can_pause(run, st) => {
                self.list(run, st, o)?;
                self.paused_leaves(run, node.id, start);
                self.options.truncate(start);
                return Ok(None);
            }
            Mode::Search => self.list(run, st, o)?,
            Mode::Replay => {
                let Some(&choice) = self.given.get(self.path.len()) else {
                    return Err(run.error(0, "the move's choices do not match the rule".into()));
                };
                if choice.point != node.id
                    || !run.is_option(st, &o.slots, &o.domain, o.filter.as_ref(), choice.values)?
                {
                    return Err(run.error(
                        o.at,
                        "the move's choice is not one of the options here".into(),
                    ));
                }
                self.options.push(choice.values);
            }
            Mode::Finish => {
                // A last choice has no choice point after it; a ruleset built by hand might.
                return Err(run.error(o.at, "a choice where none was expected".into()));
            }
        }
        let listed = start..self.options.len();
        // (A last choice's options are moves, counted as they are found.)
        if !node.last {
            self.followed += listed.len();
            if self.followed > self.most {
                return Err(too_many_options(run, o.at, self.most));
            }
        }
        Ok(Some(listed))
    }

    /// Follows each option of a choice point: the run as it stood at the node (put back, or a copy of
    /// it), the option bound, then everything after the node.
    fn fork(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
        options: Range<usize>,
    ) -> Done {
        if self.paused_within(run, st, node, &options)? {
            return Ok(());
        }
        // Each option goes on in the loops the path is in, from where they are now.
        let frames = (!self.frames.is_empty()).then(|| self.frames.clone());
        // A run that has recorded no configuration is its locals and decisions: those are kept here
        // and put back before each option after the first, so that the options share the run and
        // nothing is allocated.
        if options.len() > 1 && run.nothing_seen() {
            let locals = SmallVec::<[Value; 32]>::from_slice(&run.locals);
            let here = run.standing();
            for k in options.clone() {
                if self.full() {
                    break;
                }
                if k > options.start {
                    self.stand_again(run, &frames, here);
                    run.locals.copy_from_slice(&locals);
                    run.forget_seen();
                }
                self.go_on(run, st, node, k, options.end)?;
            }
            return Ok(());
        }
        // Otherwise one copy of the run serves every option but the last, copied afresh for each.
        let mut copy: Option<Run<'g>> = None;
        for k in options.clone() {
            if self.full() {
                break;
            }
            if let Some(frames) = &frames
                && k > options.start
            {
                self.frames.clone_from(frames);
            }
            let run_k = if k + 1 == options.end {
                &mut *run
            } else if let Some(copy) = copy.as_mut() {
                copy.clone_from(run);
                copy
            } else {
                copy.insert(run.clone())
            };
            self.go_on(run_k, st, node, k, options.end)?;
        }
        Ok(())
    }

    /// Before a fork's option after the first: the loops the path is in, and what the run had
    /// decided and its loop steps, as they stood at the fork.
    #[inline(always)]
    fn stand_again(&mut self, run: &mut Run<'g>, frames: &Option<Frames>, here: Standing) {
        if let Some(frames) = frames {
            self.frames.clone_from(frames);
        }
        run.stand(here);
    }

    /// The run's list of locals back to the caller's list of moves, for the next run.
    #[inline]
    fn lend_back(&mut self, run: &mut Run<'g>) {
        if let Some(found) = &mut self.found {
            found.run_locals = run.take_locals();
        }
    }

    /// Option `k` of a fork whose options end at `end`: bound in `run` and followed to the end of the
    /// rule, then its changes taken back.
    #[inline(always)]
    fn go_on(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
        k: usize,
        end: usize,
    ) -> Done {
        let values = self.options[k];
        self.path.push(Choice {
            point: node.id,
            values,
        });
        let mark = st.mark();
        run.bind(&node.options.slots, values);
        self.run_from(run, st, node.body as usize)?;
        // Whatever the path left listed (a loop it left by a decided game) goes with it.
        self.options.truncate(end);
        self.take_back(st, mark);
        self.path.pop();
        Ok(())
    }

    /// [`Executor::fork`] in a generated search holding the locals in `l`: each option goes on in `go`
    /// from a copy of `l` with the option bound, and the run's decisions and loop steps as they are
    /// here (the run's own locals are only where listings read them, stored before each).
    #[cfg_attr(test, allow(unused))]
    fn fork_held<const N: usize>(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        node: &'g ChoiceNode,
        options: Range<usize>,
        l: &mut [Value; N],
        go: Held<'g, 's, N>,
    ) -> Done {
        if self.paused_within(run, st, node, &options)? {
            return Ok(());
        }
        let slots = &node.options.slots;
        let frames = (!self.frames.is_empty()).then(|| self.frames.clone());
        let here = run.standing();
        for k in options.clone() {
            if self.full() {
                break;
            }
            if k > options.start {
                self.stand_again(run, &frames, here);
            }
            let values = self.options[k];
            self.path.push(Choice {
                point: node.id,
                values,
            });
            // The last option takes the locals themselves: nothing reads them after the fork.
            let mut copy;
            let lk = if k + 1 == options.end {
                &mut *l
            } else {
                copy = *l;
                &mut copy
            };
            match *slots.as_slice() {
                [a] => lk[a as usize] = values[0],
                [a, b, ..] => {
                    lk[a as usize] = values[0];
                    lk[b as usize] = values[1];
                }
                _ => {}
            }
            let mark = st.mark();
            go(self, run, st, node.body as usize, lk)?;
            self.options.truncate(options.end);
            self.take_back(st, mark);
            self.path.pop();
        }
        Ok(())
    }

    /// What both forks do first: a body that pauses at once (a `last` choice first) is listed here,
    /// each option's inner options paused (true: nothing more to follow); a path of too many choices
    /// is an error.
    #[inline(always)]
    fn paused_within(
        &mut self,
        run: &mut Run<'g>,
        st: &Scratch,
        node: &'g ChoiceNode,
        options: &Range<usize>,
    ) -> Result<bool, Box<EngineError>> {
        let slots = &node.options.slots;
        // A body that pauses at once (a `last` choice first) changes nothing in the run but the choice's
        // variables, which each option binds afresh: the options share the run, and each lists the inner
        // choice's options and pauses there, without going through it.
        if let Some(inner) = node.then_pauses
            && self.mode == Mode::Search
            && self.can_pause(run, st)
        {
            let inner = &self.program.choices[inner as usize];
            let o = &inner.options;
            self.choice_at = o.at;
            let listing = Listing::new(o, self.filter);
            // The path's last choice is rewritten for each option, not pushed and popped.
            self.path.push(Choice {
                point: node.id,
                values: [Value::None; 2],
            });
            for k in options.clone() {
                if self.full() {
                    break;
                }
                let values = self.options[k];
                if let Some(last) = self.path.last_mut() {
                    last.values = values;
                }
                run.bind(slots, values);
                let start = self.options.len();
                listing.list(run, st, &mut self.options)?;
                // (An outer option often has none: a piece with no vacant neighbour, a hunter with no leap.)
                if self.options.len() > start {
                    self.paused_leaves(run, inner.id, start);
                    self.options.truncate(start);
                }
            }
            self.path.pop();
            return Ok(true);
        }
        // Each choice of a move nests the search one level deeper: a loop that chooses on every turn
        // without end would overflow the stack long before the loop-step limit.
        if self.path.len() >= MAX_CHOICES_PER_MOVE {
            return Err(run.error(
                self.choice_at,
                format!(
                    "a move made of more than {MAX_CHOICES_PER_MOVE} choices (a loop that chooses on \
                     every turn and does not end?)"
                ),
            ));
        }
        Ok(false)
    }

    /// Undoes the changes made since `mark`, to explore another option from the same position (in a
    /// search; a replay follows one path and keeps its changes).
    pub(crate) fn take_back(&self, st: &mut Scratch, mark: usize) {
        if self.mode == Mode::Search {
            st.undo_to(mark);
        }
    }

    /// The end of the rule: records a complete path (but for a paused move finished, which has nothing
    /// to record).
    fn leaf(&mut self, run: &Run<'g>, st: &Scratch) -> Done {
        if self.mode == Mode::Replay && self.path.len() != self.given.len() {
            return Err(run.error(0, "the move's choices do not match the rule".into()));
        }
        let head = Head::of(self.rule, &self.path, run);
        let written = self.keep_changes.then_some((st, self.start));
        if let Some(found) = &mut self.found {
            found.push_move(head, written);
        }
        Ok(())
    }

    /// `reject()`: the path is no move. A search drops it and goes on with the next option; a move
    /// replayed or finished that reaches it was not a legal move.
    pub(crate) fn rejected(&self, run: &Run<'g>, at: usize) -> Done {
        match self.mode {
            Mode::Search => Ok(()),
            Mode::Replay | Mode::Finish => {
                Err(run.error(at, "the rules reject this move (`reject()`)".into()))
            }
        }
    }

    /// Whether the run may stop at a `last` choice point, its moves to be finished only when played: only
    /// when finding successors (`legal_moves` runs every rule to its end, so that an effect that fails is
    /// reported with the moves), and only when the run is all there is to keep (the rule has changed
    /// nothing yet and recorded no configuration).
    fn can_pause(&self, run: &Run<'g>, st: &Scratch) -> bool {
        self.keep_changes && st.mark() == self.start && run.nothing_seen()
    }

    /// Records one move per option of a `last` choice point listed from `start` on. Nothing after the
    /// choice decides which moves exist, so the rule stops here; the run as it is (locals, steps, what it
    /// has decided) is kept with each move to go on from when the move is played ([`Game::unpause`]).
    fn paused_leaves(&mut self, run: &Run<'g>, point: u16, start: usize) {
        let room = self.limit.saturating_sub(self.found_len());
        let end = self.options.len().min(start.saturating_add(room));
        let head = Head::of(self.rule, &self.path, run);
        let options = self.options.get(start..end).unwrap_or_default();
        if let Some(found) = &mut self.found {
            found.push_options(head, point, options, (&run.locals, run.steps));
        }
    }
}

/// What generated code (compiled/) calls: the executor's bookkeeping of a search, the same
/// for both backends.
#[cfg_attr(test, allow(unused))]
impl<'g> Executor<'g, '_> {
    #[inline(always)]
    pub(crate) fn game(&self) -> &'g Game {
        self.game
    }

    #[inline(always)]
    pub(crate) fn program(&self) -> &'g Program {
        self.program
    }

    /// A run of the rule, begun as [`Executor::rule`] begins one, for a generated search that runs it
    /// itself: no choices on its path yet, and its changes to the position those after `st`'s mark.
    #[inline]
    pub(crate) fn begin_run(&mut self, st: &Scratch) -> Run<'g> {
        self.path.clear();
        self.frames.clear();
        self.start = st.mark();
        Run::with_locals(self.game, self.rule, self.program.locals)
    }

    /// The end of the rule, as [`Executor::run_from`] meets it.
    #[inline]
    pub(crate) fn end(&mut self, run: &mut Run<'g>, st: &Scratch) -> Done {
        match self.mode {
            Mode::Finish => Ok(()),
            _ => self.leaf(run, st),
        }
    }

    /// Counts the `listed` options of a choice point that is not last against the bound on a search,
    /// as [`Executor::choose`] does.
    #[inline]
    pub(crate) fn follow(&mut self, listed: usize, at: usize) -> Done {
        self.followed += listed;
        if self.followed > self.most {
            return Err(too_many_options(
                &Run::new(self.game, self.rule),
                at,
                self.most,
            ));
        }
        Ok(())
    }

    /// [`Executor::paused_leaves`] for a run that has changed nothing but its choices' variables:
    /// one move per option listed from `start` on, each paused at choice point `point` with `locals`.
    #[inline]
    pub(crate) fn pause_fresh(
        &mut self,
        path: &[Choice],
        point: u16,
        locals: &[Value],
        start: usize,
    ) {
        let room = self.limit.saturating_sub(self.found_len());
        let end = self.options.len().min(start.saturating_add(room));
        let head = Head {
            rule: self.rule,
            path,
            preference: 0,
            decided: Decided::default(),
        };
        let options = self.options.get(start..end).unwrap_or_default();
        if let Some(found) = &mut self.found {
            found.push_options(head, point, options, (locals, 0));
        }
    }
}

/// The program a fresh executor points at before it runs a rule.
static EMPTY: Program = Program::EMPTY;

/// An operand's value: a constant or a local (a piece kind, a site chosen) read here, anything else
/// evaluated.
#[inline(always)]
fn operand(run: &Run<'_>, st: &Scratch, e: &Expr) -> Result<Value, Box<EngineError>> {
    match e {
        Expr::Const(v) => Ok(*v),
        Expr::Local(slot) => Ok(run.locals[*slot as usize]),
        _ => run.eval(st, e),
    }
}

impl Game {
    /// Plays a move found paused at its last choice point: the run is rebuilt as it was there, the
    /// move's option is bound, and the rest of the rule runs to its end. A move with no choice was
    /// paused at the start of a rule without choice points, and its whole body runs. `st` is left as
    /// the move leaves it; the result says what the move decided. `list`, where the move was found,
    /// lends its room for the options of loops and for the run's locals.
    pub(crate) fn unpause(
        &self,
        st: &mut Scratch,
        found: &FoundMove,
        locals: &[Value],
        steps: u32,
        list: &Successors,
    ) -> Result<Decided, Box<EngineError>> {
        let mismatch = || {
            Box::new(EngineError {
                rule: self.rule_name(found.rule).to_string(),
                at: 0,
                message: "the move's choices do not match the rule".into(),
            })
        };
        let Some(program) = self.program(found.rule, st.to_move) else {
            return Err(mismatch());
        };
        // A move with no choice paused at the start of a rule without choice points.
        let (pc, slots, values) = match found.last {
            Some(choice) => match program.paused_at(choice.point) {
                Some(node) => (node.body, &node.options.slots[..], choice.values),
                None => return Err(mismatch()),
            },
            None if program.whole => (0, &[][..], [Value::None; 2]),
            None => return Err(mismatch()),
        };
        if locals.len() != program.locals {
            return Err(mismatch());
        }
        let room = list.played_locals.take();
        let mut run = Run::resumed(self, found.rule, locals, steps, found.decided, room);
        run.preference = found.preference;
        run.bind(slots, values);
        let items = &list.items;
        let mut finish =
            Executor::working_in(self, Mode::Finish, false, items.take(), None, Some(items));
        finish.set_program(found.rule, program);
        let done = finish.run_from(&mut run, st, pc as usize);
        let decided = run.decided();
        list.played_locals.set(run.take_locals());
        done.map(|()| decided)
    }
}

#[cold]
fn too_much_to_keep(run: &Run<'_>, at: usize, found: usize) -> Box<EngineError> {
    run.error(
        at,
        format!(
            "the moves of one position take more than {} MiB to keep ({found} found so far, each \
             with its own choices and changes); give the position fewer moves \
             (`limits: max_options_per_position`) or decide them with fewer choices",
            Successors::MAX_BYTES >> 20
        ),
    )
}

/// Choices in one move, at most (the bundled games make a few; each nests the search one level).
const MAX_CHOICES_PER_MOVE: usize = 100;

#[cold]
fn too_many_options(run: &Run<'_>, at: usize, most: usize) -> Box<EngineError> {
    run.error(
        at,
        format!(
            "finding the moves of one position went through more than {most} options of its choices \
             (`limits: max_options_per_position`)"
        ),
    )
}

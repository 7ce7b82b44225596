//! Finding moves: a depth-first walk over a rule's choice points that forks the run at each one.
//!
//! A rule body is run once. When it reaches a `choose`, the run (its locals and flags) is copied once per
//! option, and each copy goes on from the chosen option to the end of the rule; the position is one
//! working copy whose changes are taken back between options (`Scratch`, with its undo trail). "Going on" needs
//! to know what follows the `choose`: the rest of its block, the remaining iterations of the loops around
//! it, and so on up to the end of the rule. That is [`Next`], a chain of frames kept on the Rust stack.
//! Loops without a choice point inside run as plain loops; the Rust stack grows only with the choice points
//! of the path being explored.

use crate::interp::{Choice, EngineError, Head, Successors};
use crate::ir::*;
use crate::run::{Listing, Run, Scratch};
use crate::state::Outcome;
use crate::{Game, PlayerId};
use smallvec::SmallVec;
use std::ops::Range;

/// What runs after the current block ends normally.
enum Next<'g, 'f> {
    /// The end of the rule: the path is a complete move.
    End,
    /// The statements left in an enclosing block, then `then`.
    Rest {
        stmts: &'g [Stmt],
        then: &'f Next<'g, 'f>,
    },
    /// The iterations of a `for` after `index`, then `then`. The options are `options` of the explorer's
    /// option list.
    For {
        slots: &'g [u16],
        body: &'g [Stmt],
        options: Range<usize>,
        index: usize,
        at: usize,
        then: &'f Next<'g, 'f>,
    },
    /// The next test of a `while`, then `then`.
    While {
        cond: &'g Expr,
        body: &'g [Stmt],
        at: usize,
        then: &'f Next<'g, 'f>,
    },
}

/// How a block ended.
enum Flow {
    /// It ran to its end: the caller goes on with what follows.
    Done,
    /// It reached a choice point, and every option was followed to the end of the rule (or the search
    /// stopped): the caller has nothing left to do.
    Forked,
}

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
}

pub(crate) struct Explorer<'g, 's> {
    game: &'g Game,
    rule: u16,
    mode: Mode,
    /// The choices to replay (in [`Mode::Replay`]).
    given: &'s [Choice],
    /// The choices of the path being explored.
    path: SmallVec<[Choice; 4]>,
    /// The options of every choice point and loop on the path, each a range of this list, innermost last.
    options: Vec<[Value; 2]>,
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
    choice_at: usize,
    /// The trail's length when the rule began: a path's changes are the trail after it.
    start: usize,
    limit: usize,
    /// The complete paths found, in order (the caller's list, filled in place).
    pub(crate) found: &'s mut Successors,
}

type Found = Result<Flow, Box<EngineError>>;

impl Drop for Explorer<'_, '_> {
    fn drop(&mut self) {
        // The option list goes back to the caller's list of moves, for its next search.
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        self.found.options = options;
    }
}

impl<'g, 's> Explorer<'g, 's> {
    /// An explorer that adds the moves it finds to `found`.
    pub(crate) fn new(
        game: &'g Game,
        mode: Mode,
        keep_changes: bool,
        found: &'s mut Successors,
    ) -> Self {
        let most = game.max_options_per_position as usize;
        Explorer {
            game,
            rule: 0,
            mode,
            given: &[],
            path: SmallVec::new(),
            options: std::mem::take(&mut found.options),
            keep_changes,
            followed: 0,
            most,
            found_most: found.len().saturating_add(most),
            choice_at: 0,
            start: 0,
            // One move past the most a search may find, so that finding too many is seen.
            limit: found.len().saturating_add(most).saturating_add(1),
            found,
        }
    }

    /// Stop once this many moves are found.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = self.limit.min(limit);
    }

    pub(crate) fn full(&self) -> bool {
        self.found.len() >= self.limit || self.found.over_budget()
    }

    /// An error if the search found more moves than one position may have (it stopped one past them),
    /// shown at the choice point last reached.
    pub(crate) fn within_bound(&self) -> Result<(), Box<EngineError>> {
        if self.found.len() <= self.found_most && !self.found.over_budget() {
            return Ok(());
        }
        let run = Run::new(self.game, self.rule);
        if self.found.over_budget() {
            return Err(too_much_to_keep(&run, self.choice_at, self.found.len()));
        }
        Err(too_many_options(&run, self.choice_at, self.most))
    }

    /// Follows every path of `rule` (or, in [`Mode::Replay`], the path of `given`) from the base position.
    /// `st` is the working copy of the base position; it is as it was when this returns, but in
    /// [`Mode::Replay`], where it is left as the move leaves it.
    pub(crate) fn rule(
        &mut self,
        st: &mut Scratch,
        rule: u16,
        given: &'s [Choice],
    ) -> Result<(), Box<EngineError>> {
        if self.full() {
            return Ok(());
        }
        self.rule = rule;
        self.given = given;
        self.path.clear();
        let prepared = self
            .game
            .body_for(&self.game.rules[rule as usize], st.to_move);
        let mut run = Run::with_locals(self.game, rule, prepared.locals);
        let mark = st.mark();
        self.start = mark;
        // A rule without choice points has one move, whatever it does: a search records it paused at
        // the start, and the compiled body runs only when the move is played.
        if prepared.whole.is_some() && self.mode == Mode::Search && self.can_pause(&run, st) {
            self.paused_start(&run);
            return Ok(());
        }
        if let Flow::Done = self.block(&mut run, st, prepared.body, &Next::End)? {
            self.leaf(&run, st)?;
        }
        self.take_back(st, mark);
        Ok(())
    }

    /// Runs `stmts`; at a choice point, follows each option through `then` to the end of the rule.
    fn block(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        stmts: &'g [Stmt],
        then: &Next<'g, '_>,
    ) -> Found {
        for (i, s) in stmts.iter().enumerate() {
            if run.result.is_some() {
                // A decided game ends the rule: nothing after `win` or `draw` runs.
                return Ok(Flow::Done);
            }
            let rest = Next::Rest {
                stmts: &stmts[i + 1..],
                then,
            };
            match s {
                Stmt::Choose {
                    id,
                    slots,
                    domain,
                    filter,
                    body,
                    at,
                    last,
                    plan,
                } => {
                    let start = self.options.len();
                    self.choice_at = *at;
                    if *last && self.mode == Mode::Search && self.can_pause(run, st) {
                        run.options(st, slots, domain, filter.as_ref(), *plan, &mut self.options)?;
                        self.paused_leaves(run, *id, start);
                        self.options.truncate(start);
                        return Ok(Flow::Forked);
                    }
                    if self.mode == Mode::Replay {
                        let Some(&choice) = self.given.get(self.path.len()) else {
                            return Err(
                                run.error(0, "the move's choices do not match the rule".into())
                            );
                        };
                        if choice.point != *id
                            || !run.is_option(st, slots, domain, filter.as_ref(), choice.values)?
                        {
                            return Err(run.error(
                                *at,
                                "the move's choice is not one of the options here".into(),
                            ));
                        }
                        self.options.push(choice.values);
                    } else {
                        run.options(st, slots, domain, filter.as_ref(), *plan, &mut self.options)?;
                    }
                    let listed = start..self.options.len();
                    // (A last choice's options are moves, counted as they are found.)
                    if !*last {
                        self.followed += listed.len();
                        if self.followed > self.most {
                            return Err(too_many_options(run, *at, self.most));
                        }
                    }
                    self.fork(run, st, *id, slots, listed, body, &rest)?;
                    self.options.truncate(start);
                    return Ok(Flow::Forked);
                }
                Stmt::For {
                    slots,
                    domain,
                    filter,
                    body,
                    at,
                    plan,
                } => {
                    let start = self.options.len();
                    run.options(st, slots, domain, filter.as_ref(), *plan, &mut self.options)?;
                    let frame = (
                        slots.as_slice(),
                        body.as_slice(),
                        start..self.options.len(),
                        *at,
                    );
                    let flow = self.iterate(run, st, frame, start, &rest)?;
                    self.options.truncate(start);
                    if let Flow::Forked = flow {
                        return Ok(Flow::Forked);
                    }
                }
                Stmt::If {
                    cond,
                    then: yes,
                    otherwise,
                } => {
                    let branch = if run.truthy(st, cond)? {
                        yes
                    } else {
                        otherwise
                    };
                    if let Flow::Forked = self.block(run, st, branch, &rest)? {
                        return Ok(Flow::Forked);
                    }
                }
                Stmt::While { cond, body, at } => {
                    if let Flow::Forked = self.repeat(run, st, cond, body, *at, &rest)? {
                        return Ok(Flow::Forked);
                    }
                }
                // The commonest statement, `let x = ...`, without the call.
                Stmt::SetLocal {
                    slot,
                    op: AssignOp::Set,
                    value,
                } => run.locals[*slot as usize] = run.eval(st, value)?,
                _ => run.simple(st, s)?,
            }
        }
        Ok(Flow::Done)
    }

    /// Follows each option of a choice point: a copy of the run per option (the last takes the run
    /// itself), the option bound, the body and then everything after it.
    #[allow(clippy::too_many_arguments)]
    fn fork(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        point: u16,
        slots: &'g [u16],
        options: Range<usize>,
        body: &'g [Stmt],
        rest: &Next<'g, '_>,
    ) -> Result<(), Box<EngineError>> {
        // A body that pauses at once (a `last` choice first) changes nothing in the run but the choice's
        // variables, which each option binds afresh: the options share the run, and each lists the inner
        // choice's options and pauses there, as `block` would, without going through it.
        if let Some(Stmt::Choose {
            id,
            slots: inner,
            domain,
            filter,
            last: true,
            plan,
            at,
            ..
        }) = body.first()
            && self.mode == Mode::Search
            && self.can_pause(run, st)
        {
            self.choice_at = *at;
            let listing = Listing::new(inner, domain, filter.as_ref(), *plan);
            // The path's last choice is rewritten for each option, not pushed and popped.
            self.path.push(Choice {
                point,
                values: [Value::None; 2],
            });
            for k in options {
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
                    self.paused_leaves(run, *id, start);
                    self.options.truncate(start);
                }
            }
            self.path.pop();
            return Ok(());
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
        for k in options.clone() {
            if self.full() {
                break;
            }
            let values = self.options[k];
            self.path.push(Choice { point, values });
            let mut copy;
            let run_k = if k + 1 == options.end {
                &mut *run
            } else {
                copy = run.clone();
                &mut copy
            };
            let mark = st.mark();
            run_k.bind(slots, values);
            if let Flow::Done = self.block(run_k, st, body, rest)? {
                self.resume(run_k, st, rest)?;
            }
            self.take_back(st, mark);
            self.path.pop();
        }
        Ok(())
    }

    /// Iterations `from..` of a `for`, each followed (should it fork) by the later iterations and `then`.
    fn iterate(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        (slots, body, options, at): (&'g [u16], &'g [Stmt], Range<usize>, usize),
        from: usize,
        then: &Next<'g, '_>,
    ) -> Found {
        for index in from..options.end {
            if run.result.is_some() {
                break;
            }
            let values = self.options[index];
            run.tick(at)?;
            run.bind(slots, values);
            let next = Next::For {
                slots,
                body,
                options: options.clone(),
                index,
                at,
                then,
            };
            if let Flow::Forked = self.block(run, st, body, &next)? {
                return Ok(Flow::Forked);
            }
        }
        Ok(Flow::Done)
    }

    /// A `while` from its next test on, each pass followed (should it fork) by the later passes and `then`.
    fn repeat(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        cond: &'g Expr,
        body: &'g [Stmt],
        at: usize,
        then: &Next<'g, '_>,
    ) -> Found {
        while run.result.is_none() && run.truthy(st, cond)? {
            run.tick(at)?;
            let next = Next::While {
                cond,
                body,
                at,
                then,
            };
            if let Flow::Forked = self.block(run, st, body, &next)? {
                return Ok(Flow::Forked);
            }
        }
        Ok(Flow::Done)
    }

    /// Goes on after a block that ended normally: through the chain of what follows, to the end of the
    /// rule.
    fn resume(
        &mut self,
        run: &mut Run<'g>,
        st: &mut Scratch,
        mut next: &Next<'g, '_>,
    ) -> Result<(), Box<EngineError>> {
        loop {
            let flow = match *next {
                Next::End => return self.leaf(run, st),
                Next::Rest { stmts, then } => {
                    let flow = self.block(run, st, stmts, then)?;
                    next = then;
                    flow
                }
                Next::For {
                    slots,
                    body,
                    ref options,
                    index,
                    at,
                    then,
                } => {
                    let frame = (slots, body, options.clone(), at);
                    let flow = self.iterate(run, st, frame, index + 1, then)?;
                    next = then;
                    flow
                }
                Next::While {
                    cond,
                    body,
                    at,
                    then,
                } => {
                    let flow = self.repeat(run, st, cond, body, at, then)?;
                    next = then;
                    flow
                }
            };
            if let Flow::Forked = flow {
                return Ok(());
            }
        }
    }

    /// Undoes the changes made since `mark`, to explore another option from the same position (in a
    /// search; a replay follows one path and keeps its changes).
    fn take_back(&self, st: &mut Scratch, mark: usize) {
        if self.mode == Mode::Search {
            st.undo_to(mark);
        }
    }

    /// Records a complete path.
    fn leaf(&mut self, run: &Run<'g>, st: &Scratch) -> Result<(), Box<EngineError>> {
        if self.mode == Mode::Replay && self.path.len() != self.given.len() {
            return Err(run.error(0, "the move's choices do not match the rule".into()));
        }
        let head = Head::of(self.rule, &self.path, run);
        let written = self.keep_changes.then_some((st, self.start));
        self.found.push_move(head, written);
        Ok(())
    }

    /// Whether the run may stop at a `last` choice point, its moves to be finished only when played: only
    /// when finding successors (`legal_moves` runs every rule to its end, so that an effect that fails is
    /// reported with the moves), and only when the run is all there is to keep (the rule has changed
    /// nothing yet and recorded no configuration).
    fn can_pause(&self, run: &Run<'g>, st: &Scratch) -> bool {
        self.keep_changes && st.mark() == self.start && run.nothing_seen()
    }

    /// Records the one move of a rule paused before its first statement.
    fn paused_start(&mut self, run: &Run<'g>) {
        let head = Head::of(self.rule, &self.path, run);
        self.found.push_paused_start(head, (&run.locals, run.steps));
    }

    /// Records one move per option of a `last` choice point listed from `start` on. Nothing after the
    /// choice decides which moves exist, so the rule stops here; the run as it is (locals, steps, what it
    /// has decided) is kept with each move to go on from when the move is played ([`Game::unpause`]).
    fn paused_leaves(&mut self, run: &Run<'g>, point: u16, start: usize) {
        let room = self.limit.saturating_sub(self.found.len());
        let end = self.options.len().min(start.saturating_add(room));
        let head = Head::of(self.rule, &self.path, run);
        let options = self.options.get(start..end).unwrap_or_default();
        self.found
            .push_options(head, point, options, (&run.locals, run.steps));
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

//! What a paused move runs when it is played, compiled to closures.
//!
//! A search stops each move at its last choice point and keeps the run as it was there
//! (`Explorer::paused_leaves`). Playing the move runs the rest of the rule: the choice's body, then what
//! follows the choice in each enclosing block, innermost first. Nothing there forks, so it is
//! straight-line code, run once for every move played; for a sowing game it is most of a playout (a lap
//! of drops, a few statements each).
//!
//! When a ruleset is compiled, that rest is compiled, once per last choice point (and, for a rule with
//! no choice point, its whole body, which a search pauses before running), to one list of closures
//! ("steps"), one per statement: each knows its statement's kind, its effect, its variable's slot
//! and its operands, so running a statement is one indirect call and the work, with no dispatch on the
//! statement and no walk down the rule to find where the choice was. The meaning of each statement
//! stays in one place, the run's helpers (`Run::effect`, `Run::combined`, `Run::var_slot`,
//! `Scratch::assign_var`) that the explorer's `Run::simple` calls too.

use std::panic::RefUnwindSafe;
use std::sync::Arc;

use crate::explore::Decided;
use crate::interp::{EngineError, FoundMove};
use crate::ir::*;
use crate::run::{Run, Scratch};
use crate::state::State;
use crate::{Game, PlayerId};

type Done = Result<(), Box<EngineError>>;
/// One compiled statement. The list holds the options of the `for` loops it is in.
type Step = Box<
    dyn for<'a, 'p> Fn(&mut Run<'a>, &mut Scratch<'p>, &mut Vec<[Value; 2]>) -> Done
        + Send
        + Sync
        + RefUnwindSafe,
>;

/// The compiled rest of a rule after one of its last choice points (see the module).
#[derive(Clone)]
pub struct Tail {
    /// The choice point's variables, bound to the move's option first.
    slots: Box<[u16]>,
    steps: Arc<[Step]>,
    /// Some step lists the options of a `for`, which need a list.
    lists: bool,
}

impl std::fmt::Debug for Tail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tail({} steps)", self.steps.len())
    }
}

impl Tail {
    /// Binds `values` to the choice's variables and runs the rest of the rule, up to its end or to a
    /// decided game.
    /// `room` is the list of options its loops use, lent by the caller's list of moves.
    fn run(
        &self,
        run: &mut Run<'_>,
        st: &mut Scratch<'_>,
        values: [Value; 2],
        room: &std::cell::Cell<Vec<[Value; 2]>>,
    ) -> Done {
        run.bind(&self.slots, values);
        if !self.lists {
            return steps(&self.steps, run, st, &mut Vec::new());
        }
        let mut items = room.take();
        let done = steps(&self.steps, run, st, &mut items);
        items.clear();
        room.set(items);
        done
    }
}

impl Game {
    /// Plays a move found paused at its last choice point: the run is rebuilt as it was there, the
    /// move's option is bound, and the rest of the rule runs to its end. A move with no choice was
    /// paused at the start of a rule without choice points, and its whole body runs. `st` is left as the move leaves
    /// it; the result says what the move decided. `room` is the list of moves' room for loops' options.
    pub(crate) fn unpause(
        &self,
        st: &mut Scratch,
        found: &FoundMove,
        locals: &[Value],
        steps: u32,
        room: &std::cell::Cell<Vec<[Value; 2]>>,
    ) -> Result<Decided, Box<EngineError>> {
        let mismatch = || {
            Box::new(EngineError {
                rule: self.rule_name(found.rule).to_string(),
                at: 0,
                message: "the move's choices do not match the rule".into(),
            })
        };
        let Some(rule) = self.rules.get(found.rule as usize) else {
            return Err(mismatch());
        };
        let prepared = self.body_for(rule, st.to_move);
        // A move with no choice paused at the start of a rule without choice points.
        let (tail, values) = match found.last {
            Some(choice) => (
                prepared
                    .tails
                    .get(choice.point as usize)
                    .and_then(Option::as_ref),
                choice.values,
            ),
            None => (prepared.whole, [Value::None; 2]),
        };
        let Some(tail) = tail else {
            return Err(mismatch());
        };
        if locals.len() != prepared.locals {
            return Err(mismatch());
        }
        let mut run = Run::resumed(self, found.rule, locals, steps, found.decided);
        run.preference = found.preference;
        tail.run(&mut run, st, values, room)?;
        Ok(run.decided())
    }
}

/// Runs a block's steps; a decided game (`win`, `draw`) ends the rule, so nothing after it runs.
#[inline]
fn steps(
    list: &[Step],
    run: &mut Run<'_>,
    st: &mut Scratch<'_>,
    items: &mut Vec<[Value; 2]>,
) -> Done {
    for step in list {
        if run.result.is_some() {
            return Ok(());
        }
        step(run, st, items)?;
    }
    Ok(())
}

/// The tail of every last choice point of `body`, by choice-point id (`None` for the others).
pub(crate) fn tails(game: &Game, body: &[Stmt], points: usize) -> Vec<Option<Tail>> {
    let mut tails = vec![None; points];
    let compiler = Compiler { game };
    compiler.record(body, &mut Vec::new(), &mut tails);
    tails
}

/// A whole body compiled as one tail with no choice to bind, for a rule without choice points: its
/// one move is then played like a move paused at a last choice.
pub(crate) fn whole_tail(game: &Game, body: &[Stmt]) -> Tail {
    Tail {
        slots: Box::default(),
        steps: Compiler { game }.block(body).into(),
        lists: has_for(body),
    }
}

struct Compiler<'g> {
    game: &'g Game,
}

impl<'g> Compiler<'g> {
    /// Compiles the tail of each last choice point in `stmts`; `after` holds what follows `stmts` in
    /// each enclosing block, outermost first. A search pauses only at choice points nested in choices
    /// and `if`s alone, so loops are not entered.
    fn record<'s>(
        &self,
        stmts: &'s [Stmt],
        after: &mut Vec<&'s [Stmt]>,
        tails: &mut [Option<Tail>],
    ) {
        for (i, s) in stmts.iter().enumerate() {
            after.push(&stmts[i + 1..]);
            match s {
                Stmt::Choose {
                    id,
                    slots,
                    body,
                    last,
                    ..
                } => {
                    if *last && let Some(tail) = tails.get_mut(*id as usize) {
                        let mut list = self.block(body);
                        for rest in after.iter().rev() {
                            list.extend(self.block(rest));
                        }
                        let lists = has_for(body) || after.iter().any(|rest| has_for(rest));
                        *tail = Some(Tail {
                            slots: slots.as_slice().into(),
                            steps: list.into(),
                            lists,
                        });
                    }
                    self.record(body, after, tails);
                }
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.record(then, after, tails);
                    self.record(otherwise, after, tails);
                }
                _ => {}
            }
            after.pop();
        }
    }

    fn block(&self, stmts: &[Stmt]) -> Vec<Step> {
        stmts.iter().map(|s| self.statement(s)).collect()
    }

    fn statement(&self, s: &Stmt) -> Step {
        match s.clone() {
            Stmt::SetLocal {
                slot,
                op: AssignOp::Set,
                value,
            } => {
                let slot = slot as usize;
                match value {
                    Expr::Compiled(c) => Box::new(move |run, st, _| {
                        run.locals[slot] = c.eval(run, st)?;
                        Ok(())
                    }),
                    value => Box::new(move |run, st, _| {
                        run.locals[slot] = run.eval(st, &value)?;
                        Ok(())
                    }),
                }
            }
            Stmt::SetLocal { slot, op, value } => {
                let slot = slot as usize;
                match value {
                    Expr::Const(v) => {
                        let n = v.int();
                        Box::new(move |run, _, _| {
                            run.locals[slot] = run.combined(slot, op, n);
                            Ok(())
                        })
                    }
                    value => Box::new(move |run, st, _| {
                        run.locals[slot] = run.combined(slot, op, run.int(st, &value)?);
                        Ok(())
                    }),
                }
            }
            Stmt::SetVar {
                var,
                player,
                op,
                value,
                at,
            } => match self.var_slot(var, player.as_ref()) {
                // A game-wide variable, or a player's named in the rules: its slot is known now.
                Some(slot) => Box::new(move |run, st, _| {
                    let n = run.int(st, &value)?;
                    st.assign_var(slot, op, n);
                    Ok(())
                }),
                None => Box::new(move |run, st, _| {
                    let slot = run.var_slot(st, var, player.as_ref(), at)?;
                    let n = run.int(st, &value)?;
                    st.assign_var(slot, op, n);
                    Ok(())
                }),
            },
            Stmt::Effect {
                effect: Effect::Assert,
                args,
                at,
            } if let Ok([condition]) = <[Expr; 1]>::try_from(args.clone()) => {
                // Tested for its truth, without building its value.
                Box::new(move |run, st, _| match run.truthy(st, &condition)? {
                    true => Ok(()),
                    false => Err(run.assert_failed(at)),
                })
            }
            Stmt::Effect {
                effect,
                mut args,
                at,
            } => {
                // An effect takes three values at most; any argument past them is not evaluated.
                args.truncate(3);
                // The commonest effects get a closure of their own, the effect a constant in it.
                match (effect, args.len()) {
                    (Effect::Place, 2) => effect_step::<2>(args, at, |run, st, vals, at| {
                        run.effect(st, Effect::Place, vals, at)
                    }),
                    (Effect::Capture, 2) => effect_step::<2>(args, at, |run, st, vals, at| {
                        run.effect(st, Effect::Capture, vals, at)
                    }),
                    (Effect::Move, 3) => effect_step::<3>(args, at, |run, st, vals, at| {
                        run.effect(st, Effect::Move, vals, at)
                    }),
                    (Effect::SetCount, 3) => effect_step::<3>(args, at, |run, st, vals, at| {
                        run.effect(st, Effect::SetCount, vals, at)
                    }),
                    (_, n) => {
                        let any = move |run: &mut Run<'_>, st: &mut Scratch<'_>, vals, at| {
                            run.effect(st, effect, vals, at)
                        };
                        match n {
                            0 => effect_step::<0>(args, at, any),
                            1 => effect_step::<1>(args, at, any),
                            2 => effect_step::<2>(args, at, any),
                            _ => effect_step::<3>(args, at, any),
                        }
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let (then, otherwise): (Box<[Step]>, Box<[Step]>) =
                    (self.block(&then).into(), self.block(&otherwise).into());
                Box::new(move |run, st, items| match run.truthy(st, &cond)? {
                    true => steps(&then, run, st, items),
                    false => steps(&otherwise, run, st, items),
                })
            }
            Stmt::While { cond, body, at } => {
                let body: Box<[Step]> = self.block(&body).into();
                Box::new(move |run, st, items| {
                    while run.result.is_none() && run.truthy(st, &cond)? {
                        run.tick(at)?;
                        steps(&body, run, st, items)?;
                    }
                    Ok(())
                })
            }
            Stmt::For {
                slots,
                domain,
                filter,
                body,
                at,
                plan,
            } => {
                let body: Box<[Step]> = self.block(&body).into();
                Box::new(move |run, st, items| {
                    let start = items.len();
                    run.options(st, &slots, &domain, filter.as_ref(), plan, items)?;
                    for k in start..items.len() {
                        if run.result.is_some() {
                            break;
                        }
                        run.tick(at)?;
                        run.bind(&slots, items[k]);
                        steps(&body, run, st, items)?;
                    }
                    items.truncate(start);
                    Ok(())
                })
            }
            // A last choice has no choice point after it; a ruleset built by hand might.
            Stmt::Choose { at, .. } => Box::new(move |run, _, _| {
                Err(run.error(at, "a choice where none was expected".into()))
            }),
        }
    }

    /// The slot of a variable named with no player, or with a player named in the rules: known now.
    fn var_slot(&self, var: u16, player: Option<&Expr>) -> Option<usize> {
        let player: Option<PlayerId> = match player.map(Expr::source) {
            None => None,
            Some(Expr::Const(Value::Player(p))) => Some(*p),
            Some(_) => return None,
        };
        (usize::from(var) < self.game.vars.len()).then(|| self.game.var_slot(var as usize, player))
    }
}

/// Whether a block has a `for` anywhere.
fn has_for(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::For { .. } => true,
        Stmt::Choose { body, .. } | Stmt::While { body, .. } => has_for(body),
        Stmt::If {
            then, otherwise, ..
        } => has_for(then) || has_for(otherwise),
        Stmt::SetLocal { .. } | Stmt::SetVar { .. } | Stmt::Effect { .. } => false,
    })
}

/// An effect on `N` arguments, each evaluated in order into the values `apply` takes.
fn effect_step<const N: usize>(
    args: Vec<Expr>,
    at: usize,
    apply: impl Fn(&mut Run<'_>, &mut Scratch<'_>, [Value; 3], usize) -> Done
    + Send
    + Sync
    + RefUnwindSafe
    + 'static,
) -> Step {
    let Ok(args) = <[Expr; N]>::try_from(args) else {
        unreachable!("called with the arguments' count")
    };
    Box::new(move |run, st, _| {
        let mut vals = [Value::None; 3];
        for (slot, a) in vals.iter_mut().zip(&args) {
            *slot = operand(run, st, a)?;
        }
        apply(run, st, vals, at)
    })
}

/// An operand's value: a constant or a local (a piece kind, a site chosen) read here, anything else
/// evaluated.
#[inline(always)]
fn operand(run: &Run<'_>, st: &State, e: &Expr) -> Result<Value, Box<EngineError>> {
    match e {
        Expr::Const(v) => Ok(*v),
        Expr::Local(slot) => Ok(run.locals[*slot as usize]),
        _ => run.eval(st, e),
    }
}

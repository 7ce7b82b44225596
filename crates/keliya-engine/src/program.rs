//! The prepared program: each rule body as the executor (exec.rs) runs it.
//!
//! The IR ([`Stmt`]) is the ruleset as written: nested blocks that `show`, `diff` and the as-written
//! checks read. A [`Program`] is built from it once per body (the rule's, or one per player for a rule
//! folded for each mover, see fold.rs): one flat list of operations, where `if`, `while` and `for` are
//! jumps and loop operations, and a `choose` is a choice node whose options each go on from the
//! operation after it. What follows a choice point is then simply the rest of the list, so the same list
//! serves the three jobs of a rule: listing its moves (forking at each choice node), playing a given
//! move (following its choices), and finishing a move paused at its last choice (going on from that
//! choice's body).
//!
//! What the builder decides once, and no IR node carries: where a search may pause (a body with no
//! choice point is paused before it starts; a `last` choice point pauses with one move per option), how
//! each choice's and loop's options are listed (a [`ListPlan`]), and the jump targets. A game as
//! written gets neither pauses nor plans: its programs run every rule to its end, listing every
//! option of the domain and testing the filter on each, the plain meaning the prepared game is
//! checked against.

use crate::fold::records_nothing;
use crate::ir::*;
use crate::run::ListPlan;
use crate::{Game, PlayerId};
use smallvec::SmallVec;
use std::sync::{Arc, OnceLock};

/// One operation of a [`Program`].
#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// `x = e` (and `let x = e`).
    Set {
        slot: u16,
        value: Expr,
    },
    /// `x += e` or `x -= e`.
    Add {
        slot: u16,
        op: AssignOp,
        value: Expr,
    },
    /// An assignment to a variable of the position; `slot` is known when no player, or a constant
    /// one, is named.
    SetVar {
        var: u16,
        slot: Option<usize>,
        player: Option<Expr>,
        op: AssignOp,
        value: Expr,
        at: usize,
    },
    /// An effect on at most three arguments (any past them is not evaluated).
    Effect {
        effect: Effect,
        args: SmallVec<[Expr; 3]>,
        at: usize,
    },
    /// `assert(c)`, tested for its truth.
    Assert {
        cond: Expr,
        at: usize,
    },
    /// Goes on at `to` when `cond` does not hold.
    Unless {
        cond: Expr,
        to: u32,
    },
    Jump {
        to: u32,
    },
    /// One more pass of a `while`, counted against the step limit.
    Tick {
        at: usize,
    },
    /// Lists the options of loop `node` and starts going through them.
    ForList {
        node: u16,
    },
    /// Binds the next option of the innermost loop, `node`, or leaves it for `exit` when none is left.
    ForNext {
        node: u16,
        exit: u32,
    },
    /// Choice point `node`: each option goes on from the next operation.
    Choose {
        node: u16,
    },
    /// The end of the rule.
    End,
}

impl Op {
    /// The operation's place in the rules, where its errors are shown (0 for one that has none).
    fn at(&self) -> usize {
        match self {
            Op::SetVar { at, .. }
            | Op::Effect { at, .. }
            | Op::Assert { at, .. }
            | Op::Tick { at } => *at,
            _ => 0,
        }
    }
}

/// What a choice point or a loop ranges over.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) slots: SmallVec<[u16; 2]>,
    pub(crate) domain: Domain,
    pub(crate) filter: Option<Expr>,
    /// How the options are listed (the default serves any choice).
    pub(crate) plan: ListPlan,
    pub(crate) at: usize,
    /// Its number among the program's choices and loops, in the order they are written: which filter
    /// of the program's generated filters is its own.
    pub(crate) which: u16,
}

#[derive(Clone, Debug)]
pub(crate) struct ChoiceNode {
    /// The choice point's id in the ruleset (what a [`crate::Choice`] names).
    pub(crate) id: u16,
    pub(crate) options: Options,
    /// No choice point and no `prefer(n)` may come after this one, in its body or after it, and its
    /// options are listed without recording anything (`seen_before`): each option is a complete move,
    /// and a search pauses here, one move per option, finished when played.
    pub(crate) last: bool,
    /// Where its options go on: the operation after it.
    pub(crate) body: u32,
    /// The choice node its body starts with, when that one is last: each option then lists that
    /// node's options and pauses there (the hunt games' `from`, then `to`).
    pub(crate) then_pauses: Option<u16>,
}

/// One rule body, prepared (see the module).
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub(crate) ops: Vec<Op>,
    pub(crate) choices: Vec<ChoiceNode>,
    pub(crate) loops: Vec<Options>,
    /// Locals the body uses.
    pub(crate) locals: usize,
    /// The body has no choice point and no `prefer(n)`: it has one move, recorded by a search without
    /// running the body, which runs when the move is played.
    pub(crate) whole: bool,
    /// The index of the `End` operation.
    pub(crate) end: u32,
    /// The search generated from this program, when there is one (compiled/): found by the key of
    /// its text when the program is built.
    pub(crate) compiled: Option<crate::compiled::Search>,
    /// The program's operations generated as Rust, when the engine was built with them: what the
    /// executor runs instead of its own loop over `ops` (compiled/).
    pub(crate) runner: Option<crate::compiled::Runner>,
    /// The filters of its choices and loops generated as Rust, when the engine was built with them.
    pub(crate) filter: Option<crate::compiled::Filter>,
    /// The listings of its plainly listed choices and loops generated as Rust, when the engine was
    /// built with them.
    pub(crate) lister: Option<crate::compiled::Lister>,
    /// Each operation's place in the rules (0 for one without), read by generated code, whose text
    /// leaves places out so that the same rule written in two files shares one runner.
    pub(crate) ats: Vec<usize>,
}

impl Program {
    /// A program with nothing in it (what an executor points at before it runs a rule).
    pub(crate) const EMPTY: Program = Program {
        ops: Vec::new(),
        choices: Vec::new(),
        loops: Vec::new(),
        locals: 0,
        whole: false,
        end: 0,
        compiled: None,
        runner: None,
        filter: None,
        lister: None,
        ats: Vec::new(),
    };

    /// The program of `body`, with `locals` locals. `prepared`: a search may pause and options are
    /// listed by plan (a prepared game; see the module).
    pub(crate) fn build(game: &Game, body: &[Stmt], locals: usize, prepared: bool) -> Program {
        let mut last = Vec::new();
        if prepared {
            last_choices(body, true, &mut last);
        }
        let mut b = Builder {
            game,
            ops: Vec::new(),
            choices: Vec::new(),
            loops: Vec::new(),
            last: last.into_iter(),
            prepared,
            met: 0,
        };
        b.block(body);
        let end = b.ops.len() as u32;
        b.ops.push(Op::End);
        let mut choices = b.choices;
        let paused_at: Vec<Option<u16>> = choices
            .iter()
            .map(|c| match b.ops.get(c.body as usize) {
                Some(Op::Choose { node }) if choices[*node as usize].last => Some(*node),
                _ => None,
            })
            .collect();
        for (c, then) in choices.iter_mut().zip(paused_at) {
            c.then_pauses = then;
        }
        let mut program = Program {
            ops: b.ops,
            choices,
            loops: b.loops,
            locals,
            whole: prepared && !forks_or_ranks(body),
            end,
            compiled: None,
            runner: None,
            filter: None,
            lister: None,
            ats: Vec::new(),
        };
        program.ats = program.ops.iter().map(Op::at).collect();
        if prepared {
            program.compiled = crate::compiled::search_for(&program);
            program.runner = crate::compiled::runner_for(&program);
            program.filter = crate::compiled::filter_for(&program);
            program.lister = crate::compiled::lister_for(&program);
        }
        program
    }

    /// The options of every choice and loop of the program, the choices' first.
    pub(crate) fn all_options(&self) -> impl Iterator<Item = &Options> {
        self.choices.iter().map(|c| &c.options).chain(&self.loops)
    }

    /// The last choice node with id `point`, where a search paused a move.
    pub(crate) fn paused_at(&self, point: u16) -> Option<&ChoiceNode> {
        self.choices.iter().find(|c| c.id == point && c.last)
    }
}

struct Builder<'g> {
    game: &'g Game,
    ops: Vec<Op>,
    choices: Vec<ChoiceNode>,
    loops: Vec<Options>,
    /// Whether each choice point is last, in the order they are met (empty: none is).
    last: std::vec::IntoIter<bool>,
    prepared: bool,
    /// The choices and loops met so far.
    met: u16,
}

impl Builder<'_> {
    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn block(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.statement(s);
        }
    }

    /// Sets the target of the jump at `op` to the next operation.
    fn land(&mut self, op: u32) {
        let here = self.here();
        match &mut self.ops[op as usize] {
            Op::Unless { to, .. } | Op::Jump { to } => *to = here,
            Op::ForNext { exit, .. } => *exit = here,
            _ => unreachable!("only jumps are landed"),
        }
    }

    fn statement(&mut self, s: &Stmt) {
        match s {
            Stmt::Choose {
                id,
                slots,
                domain,
                filter,
                body,
                at,
            } => {
                let node = self.choices.len() as u16;
                let options = self.options(slots, domain, filter, *at);
                self.choices.push(ChoiceNode {
                    id: *id,
                    options,
                    last: self.last.next().unwrap_or(false),
                    body: self.here() + 1,
                    then_pauses: None,
                });
                self.ops.push(Op::Choose { node });
                self.block(body);
            }
            Stmt::For {
                slots,
                domain,
                filter,
                body,
                at,
            } => {
                let node = self.loops.len() as u16;
                let options = self.options(slots, domain, filter, *at);
                self.loops.push(options);
                self.ops.push(Op::ForList { node });
                let top = self.here();
                self.ops.push(Op::ForNext { node, exit: 0 });
                self.block(body);
                self.ops.push(Op::Jump { to: top });
                self.land(top);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let test = self.here();
                self.ops.push(Op::Unless {
                    cond: cond.clone(),
                    to: 0,
                });
                self.block(then);
                if otherwise.is_empty() {
                    self.land(test);
                } else {
                    let skip = self.here();
                    self.ops.push(Op::Jump { to: 0 });
                    self.land(test);
                    self.block(otherwise);
                    self.land(skip);
                }
            }
            Stmt::While { cond, body, at } => {
                let top = self.here();
                self.ops.push(Op::Unless {
                    cond: cond.clone(),
                    to: 0,
                });
                self.ops.push(Op::Tick { at: *at });
                self.block(body);
                self.ops.push(Op::Jump { to: top });
                self.land(top);
            }
            Stmt::SetLocal {
                slot,
                op: AssignOp::Set,
                value,
            } => self.ops.push(Op::Set {
                slot: *slot,
                value: value.clone(),
            }),
            Stmt::SetLocal { slot, op, value } => self.ops.push(Op::Add {
                slot: *slot,
                op: *op,
                value: value.clone(),
            }),
            Stmt::SetVar {
                var,
                player,
                op,
                value,
                at,
            } => self.ops.push(Op::SetVar {
                var: *var,
                slot: self.var_slot(*var, player.as_ref()),
                player: player.clone(),
                op: *op,
                value: value.clone(),
                at: *at,
            }),
            Stmt::Effect {
                effect: Effect::Assert,
                args,
                at,
            } if args.len() == 1 => self.ops.push(Op::Assert {
                cond: args[0].clone(),
                at: *at,
            }),
            Stmt::Effect { effect, args, at } => self.ops.push(Op::Effect {
                effect: *effect,
                args: args.iter().take(3).cloned().collect(),
                at: *at,
            }),
        }
    }
}

impl Builder<'_> {
    /// The slot of a variable named with no player, or with a player named in the rules: known now.
    fn var_slot(&self, var: u16, player: Option<&Expr>) -> Option<usize> {
        let player: Option<PlayerId> = match player.map(Expr::source) {
            None => None,
            Some(Expr::Const(Value::Player(p))) => Some(*p),
            Some(_) => return None,
        };
        (usize::from(var) < self.game.vars.len()).then(|| self.game.var_slot(var as usize, player))
    }

    /// A choice's or loop's options, with how they are listed.
    fn options(
        &mut self,
        slots: &[u16],
        domain: &Domain,
        filter: &Option<Expr>,
        at: usize,
    ) -> Options {
        self.met += 1;
        Options {
            slots: SmallVec::from_slice(slots),
            domain: domain.clone(),
            filter: filter.clone(),
            plan: match self.prepared {
                true => ListPlan::of(slots, domain, filter.as_ref()),
                false => ListPlan::default(),
            },
            at,
            which: self.met - 1,
        }
    }
}

/// Whether each choice point of `stmts` is last, in the order the builder meets them (a choice
/// before its body, a `then` before its `else`): no choice point and no `prefer(n)` can run after it,
/// in its body or in anything that may run after it, and its options are listed without recording
/// anything. `then_settled` says so of what follows the block (the end of the rule, or the rest of an
/// enclosing block; for a loop body, also the loop's later passes).
fn last_choices(stmts: &[Stmt], then_settled: bool, out: &mut Vec<bool>) {
    // Whether what follows each statement is settled, found from the end of the block backwards.
    let mut settled_after = vec![false; stmts.len()];
    let mut settled = then_settled;
    for (i, s) in stmts.iter().enumerate().rev() {
        settled_after[i] = settled;
        settled = settled && !forks_or_ranks(std::slice::from_ref(s));
    }
    for (s, after) in stmts.iter().zip(settled_after) {
        match s {
            Stmt::Choose {
                body,
                domain,
                filter,
                ..
            } => {
                // A choice whose options are listed by recording configurations (`seen_before`) is
                // never last: a paused run must have recorded nothing, and options that share a run
                // (see `Executor::fork`) must not see each other's records.
                let listed_quietly =
                    filter.as_ref().is_none_or(records_nothing) && domain_records_nothing(domain);
                out.push(after && !forks_or_ranks(body) && listed_quietly);
                last_choices(body, after, out);
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                last_choices(body, after && !forks_or_ranks(body), out);
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                last_choices(then, after, out);
                last_choices(otherwise, after, out);
            }
            Stmt::SetLocal { .. } | Stmt::SetVar { .. } | Stmt::Effect { .. } => {}
        }
    }
}

/// Whether listing a domain records nothing (`seen_before`).
fn domain_records_nothing(domain: &Domain) -> bool {
    match domain {
        Domain::Sites | Domain::Players | Domain::Occupied => true,
        Domain::SitesWith(e)
        | Domain::Neighbours(e)
        | Domain::Leaps(e)
        | Domain::Track(e)
        | Domain::Just(e) => records_nothing(e),
        Domain::Range(a, b) => records_nothing(a) && records_nothing(b),
    }
}

/// Whether a block has a choice point, a `prefer(n)` or a `reject()` anywhere: something that decides
/// which moves exist.
pub(crate) fn forks_or_ranks(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Choose { .. } => true,
        Stmt::Effect { effect, .. } => matches!(effect, Effect::Prefer | Effect::Reject),
        Stmt::For { body, .. } | Stmt::While { body, .. } => forks_or_ranks(body),
        Stmt::If {
            then, otherwise, ..
        } => forks_or_ranks(then) || forks_or_ranks(otherwise),
        Stmt::SetLocal { .. } | Stmt::SetVar { .. } => false,
    })
}

/// The programs of one rule: one for every player, or one per player (a rule any player may use that
/// reads `mover`, folded for each).
#[derive(Clone, Debug)]
pub(crate) struct RulePrograms {
    pub(crate) general: Program,
    pub(crate) by_mover: Vec<Program>,
    /// The bodies the per-player programs were built from, for tools and tests to inspect.
    pub(crate) mover_bodies: Vec<(Vec<Stmt>, usize)>,
}

/// Every rule's programs: built when a ruleset is prepared ([`Game::fold_constants`]), or, for a game
/// as written or built by hand, the first time one is needed (from the rules as they are, with no
/// pausing).
#[derive(Clone, Debug, Default)]
pub struct Programs {
    built: OnceLock<Arc<[RulePrograms]>>,
    pub(crate) backend: Backend,
    /// The generated tests of the conditions of the turn the engine was built with: each rule's
    /// `when`, then each end condition's, in order (set when a ruleset is prepared; empty otherwise).
    pub(crate) conditions: Arc<[Option<crate::compiled::Condition>]>,
}

impl Programs {
    pub(crate) fn of(rules: Vec<RulePrograms>) -> Programs {
        let built = OnceLock::new();
        let _ = built.set(rules.into());
        Programs {
            built,
            backend: Backend::default(),
            conditions: Arc::default(),
        }
    }
}

/// What runs a prepared rule's search: the executor over its program, or the Rust generated from
/// that program (compiled/) where there is some. Both find the same moves in the same order; the
/// differential test holds them to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The executor (exec.rs) runs every rule: the reference.
    Vm,
    /// Generated code searches the rules it was generated for; the executor runs the rest.
    #[default]
    Compiled,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Vm => "vm",
            Backend::Compiled => "compiled",
        }
    }
}

impl std::str::FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "vm" => Ok(Backend::Vm),
            "compiled" => Ok(Backend::Compiled),
            _ => Err(format!("no backend `{s}`: `vm` or `compiled`")),
        }
    }
}

impl Game {
    /// The rules' programs (see [`Programs`]).
    #[inline]
    pub(crate) fn programs(&self) -> &[RulePrograms] {
        self.programs.built.get_or_init(|| {
            self.rules
                .iter()
                .map(|r| RulePrograms {
                    general: Program::build(self, &r.body, r.locals, false),
                    by_mover: Vec::new(),
                    mover_bodies: Vec::new(),
                })
                .collect()
        })
    }

    /// The program `rule` runs when `mover` is to move.
    #[inline]
    pub(crate) fn program(&self, rule: u16, mover: PlayerId) -> Option<&Program> {
        let r = self.programs().get(rule as usize)?;
        Some(r.by_mover.get(mover as usize).unwrap_or(&r.general))
    }

    /// Forgets the prepared programs and the generated tests of the conditions, after the rules or the
    /// end conditions were changed by hand: the next use builds the programs anew from the rules as
    /// they are then, with no pausing, and the conditions are evaluated as they are then.
    pub fn forget_programs(&mut self) {
        self.programs = Programs {
            backend: self.programs.backend,
            ..Programs::default()
        };
    }

    /// Chooses what runs the rules' searches (see [`Backend`]); the moves found are the same.
    pub fn set_backend(&mut self, backend: Backend) {
        self.programs.backend = backend;
    }

    pub fn backend(&self) -> Backend {
        self.programs.backend
    }

    /// The generated test of rule `rule`'s condition on this game's backend.
    #[inline]
    pub(crate) fn rule_condition(&self, rule: usize) -> Option<crate::compiled::Condition> {
        self.generated_condition(rule)
    }

    /// The generated test of end condition `end` on this game's backend.
    #[inline]
    pub(crate) fn end_condition(&self, end: usize) -> Option<crate::compiled::Condition> {
        self.generated_condition(self.rules.len() + end)
    }

    #[inline]
    fn generated_condition(&self, i: usize) -> Option<crate::compiled::Condition> {
        match self.programs.backend {
            Backend::Compiled => self.programs.conditions.get(i).copied().flatten(),
            Backend::Vm => None,
        }
    }

    /// How many of the rules' programs (one per rule, or one per player for a rule folded for each
    /// mover) the engine was built with generated code for, of how many.
    pub fn compiled_programs(&self) -> (usize, usize) {
        let all = self
            .programs()
            .iter()
            .flat_map(|r| std::iter::once(&r.general).chain(&r.by_mover));
        all.fold((0, 0), |(compiled, total), p| {
            let generated = p.runner.is_some() || p.compiled.is_some();
            (compiled + usize::from(generated), total + 1)
        })
    }

    /// The conditions the turn evaluates, in the order `Programs::conditions` keeps their generated
    /// tests: each rule's `when` (`None` for a rule without one), then each end condition.
    pub(crate) fn turn_conditions(&self) -> impl Iterator<Item = Option<&Expr>> {
        let rules = self.rules.iter().map(|r| r.when.as_ref());
        rules.chain(self.ends.iter().map(|e| Some(&e.when)))
    }

    /// How many of the conditions the turn evaluates (the rules' `when`, the end conditions) the engine
    /// was built with a generated test for, of how many.
    pub fn compiled_conditions(&self) -> (usize, usize) {
        let all = self.turn_conditions().flatten().count();
        let generated = self.programs.conditions.iter().flatten().count();
        (generated, all)
    }

    /// For a rule any player may use that reads `mover`, its body folded for each player, with the number
    /// of locals each uses (empty for other rules, and for a game not prepared).
    pub fn bodies_by_mover(&self, rule: usize) -> &[(Vec<Stmt>, usize)] {
        self.programs()
            .get(rule)
            .map_or(&[], |r| r.mover_bodies.as_slice())
    }

    /// Whether a search records `rule`'s one move without running it (no choice point, no `prefer`;
    /// prepared games only).
    pub fn paused_whole(&self, rule: usize) -> bool {
        self.programs().get(rule).is_some_and(|r| r.general.whole)
    }

    /// Whether each choice point of `rule` (for any player) is last, where a search pauses, in the
    /// order they are written (prepared games only: none is in a game as written).
    pub fn last_choices(&self, rule: usize) -> Vec<bool> {
        self.programs().get(rule).map_or(Vec::new(), |r| {
            r.general.choices.iter().map(|c| c.last).collect()
        })
    }
}

//! Evaluating expressions, and preparing them when a ruleset is compiled.
//!
//! `eval` is small so that the common leaves (constants, locals, variables) and compiled expressions cost
//! a call and a branch; other nodes (in games built by hand, not through `fold_constants`) go through
//! `eval_node`. What each node means is written once, in the helpers `binary`, `call_values`,
//! `ambient`, `empty_at`, ..., which both `eval_node` and the compiled closures of compile.rs call. The
//! functions that read only the ruleset (`hand`, `route`, `along`, `tagged`, ...) are in `pure_call`,
//! which the folder uses too.
//!
//! [`Game::fold_constants`] prepares a compiled ruleset: it evaluates whatever does not depend on the
//! position, drops the branches that constants decide, narrows `choose x in sites() where x == E` to
//! the one site `E`, gives common calls on locals their own forms, and compiles every expression left
//! to closures.

use keliya_board::SiteId;

use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;
use crate::{ChoicePath, Game, PieceId, RuleDef};

type Eval = Result<Value, Box<EngineError>>;

impl Run<'_> {
    #[inline]
    pub(crate) fn eval(&self, st: &State, e: &Expr) -> Eval {
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(slot) => Ok(self.locals[*slot as usize]),
            Expr::Var { slot } => Ok(Value::Int(st.vars[*slot as usize])),
            Expr::Compiled(c) => c.eval(self, st),
            _ => self.eval_node(st, e),
        }
    }

    #[inline(never)]
    fn eval_node(&self, st: &State, e: &Expr) -> Eval {
        Ok(match e {
            Expr::Const(_) | Expr::Local(_) | Expr::Var { .. } | Expr::Compiled(_) => {
                self.eval(st, e)?
            }
            Expr::EmptyAt(slot) => self.empty_at(st, *slot),
            Expr::HasAt(slot, piece) => self.has_at(st, *slot, *piece),
            Expr::CountAt(slot, piece) => self.count_at(st, *slot, *piece),
            Expr::AlongAt(track, slot, n) => self.along_at(*track, *slot, *n),
            Expr::VarOf { var, player } => self.var_of(st, *var, self.eval(st, player)?),
            Expr::Ambient(a) => self.ambient(st, *a)?,
            Expr::Not(x) => Value::Bool(!self.eval(st, x)?.truthy()),
            Expr::Neg(x) => Value::Int(self.eval(st, x)?.int().wrapping_neg()),
            // `and` / `or` short-circuit: a later operand may be costly (`stuck`).
            Expr::Bin(BinOp::And, a, b) => {
                Value::Bool(self.eval(st, a)?.truthy() && self.eval(st, b)?.truthy())
            }
            Expr::Bin(BinOp::Or, a, b) => {
                Value::Bool(self.eval(st, a)?.truthy() || self.eval(st, b)?.truthy())
            }
            Expr::Bin(op, a, b) => binary(*op, self.eval(st, a)?, self.eval(st, b)?),
            Expr::Call(f, args) => self.call(st, *f, args)?,
        })
    }

    fn call(&self, st: &State, f: Func, args: &[Expr]) -> Eval {
        let mut v = [Value::None; 3];
        for (slot, a) in v.iter_mut().zip(args) {
            *slot = self.eval(st, a)?;
        }
        Ok(self.call_values(st, f, v))
    }

    // The meaning of each kind of node, shared by `eval_node` and the compiled closures (compile.rs).

    pub(crate) fn empty_at(&self, st: &State, slot: u16) -> Value {
        Value::Bool(match self.locals[slot as usize] {
            Value::Site(s) => st.site_total(self.game, s) == 0,
            _ => false,
        })
    }
    pub(crate) fn has_at(&self, st: &State, slot: u16, piece: PieceId) -> Value {
        Value::Bool(match self.locals[slot as usize] {
            Value::Site(s) => st.count(self.game, s, piece) > 0,
            _ => false,
        })
    }
    pub(crate) fn count_at(&self, st: &State, slot: u16, piece: PieceId) -> Value {
        Value::Int(match self.locals[slot as usize] {
            Value::Site(s) => st.count(self.game, s, piece) as i64,
            _ => 0,
        })
    }
    pub(crate) fn along_at(&self, track: u16, slot: u16, n: i64) -> Value {
        match self.locals[slot as usize] {
            Value::Site(s) => self
                .game
                .board
                .along(track as usize, s, n)
                .map_or(Value::None, Value::Site),
            _ => Value::None,
        }
    }
    pub(crate) fn var_of(&self, st: &State, var: u16, player: Value) -> Value {
        match player {
            Value::Player(p) => Value::Int(st.vars[self.game.var_slot(var as usize, Some(p))]),
            _ => Value::None,
        }
    }
    pub(crate) fn ambient(&self, st: &State, a: Ambient) -> Eval {
        let g = self.game;
        Ok(match a {
            Ambient::Mover => Value::Player(st.to_move),
            Ambient::Throw => st
                .throw
                .map_or(Value::Int(0), |t| Value::Int(g.throw_row(t).value)),
            Ambient::Stuck if st.chance_due => Value::Bool(false),
            Ambient::Stuck if self.settling => Value::Bool(!g.has_ordinary_move_settling(st)?),
            Ambient::Stuck => Value::Bool(!g.has_ordinary_move(st)?),
            Ambient::Ply => Value::Int(st.ply as i64),
            Ambient::Turn => Value::Int(st.turn as i64),
        })
    }

    /// A function on its argument values. Inlined, so that a compiled call of one function keeps only
    /// that function's arm (compile.rs).
    #[inline(always)]
    pub(crate) fn call_values(&self, st: &State, f: Func, v: [Value; 3]) -> Value {
        let g = self.game;
        match f {
            Func::Count => match (v[0], v[1]) {
                (Value::Site(s), Value::Piece(p)) => Value::Int(st.count(g, s, p) as i64),
                (Value::Site(s), _) => Value::Int(st.site_total(g, s) as i64),
                _ => Value::Int(0),
            },
            Func::Empty => match v[0] {
                Value::Site(s) => Value::Bool(st.site_total(g, s) == 0),
                _ => Value::Bool(false),
            },
            Func::Has => match (v[0], v[1]) {
                (Value::Site(s), Value::Piece(p)) => Value::Bool(st.count(g, s, p) > 0),
                _ => Value::Bool(false),
            },
            Func::Total => match v[0] {
                Value::Piece(p) => Value::Int(
                    (0..g.board.len())
                        .map(|s| st.count(g, s as SiteId, p) as i64)
                        .sum(),
                ),
                _ => Value::Int(0),
            },
            Func::Repetitions => {
                // Occurrences so far, this one included whether or not the turn has recorded it yet
                // (end conditions are checked before it is recorded, rules after).
                let h = st.position_hash();
                let seen = st.history.count(h) as i64;
                Value::Int(seen + i64::from(st.history.last() != Some(h)))
            }
            Func::SeenBefore => {
                let key = st.position_hash() ^ site_key(v[0]);
                let mut seen = self.seen.borrow_mut();
                let before = seen.contains(&key);
                if !before {
                    seen.push(key);
                }
                Value::Bool(before)
            }
            Func::MostOnAPoint => Value::Int(
                g.board
                    .playing_sites()
                    .map(|s| st.site_total(g, s) as i64)
                    .max()
                    .unwrap_or(0),
            ),
            _ => pure_call(g, f, v).unwrap_or(Value::None),
        }
    }
}

/// A function that reads only the ruleset, on its argument values; `None` for a function that reads the
/// position.
#[inline(always)]
fn pure_call(g: &Game, f: Func, v: [Value; 3]) -> Option<Value> {
    Some(match f {
        Func::Hand => match v[0] {
            Value::Player(p) => g.hands[p as usize].map_or(Value::None, Value::Site),
            _ => Value::None,
        },
        Func::NextPlayer => match v[0] {
            Value::Player(p) => Value::Player(g.next_player(p)),
            _ => Value::None,
        },
        Func::PieceOwner => match v[0] {
            Value::Piece(p) => g.pieces[p as usize]
                .owner
                .map_or(Value::None, Value::Player),
            _ => Value::None,
        },
        Func::Along => match (v[0], v[1]) {
            (Value::Track(t), Value::Site(s)) => g
                .board
                .along(t as usize, s, v[2].int())
                .map_or(Value::None, Value::Site),
            _ => Value::None,
        },
        Func::IndexOn => match (v[0], v[1]) {
            (Value::Track(t), Value::Site(s)) => {
                Value::Int(g.board.index_on(t as usize, s).map_or(-1, |i| i as i64))
            }
            _ => Value::Int(-1),
        },
        Func::Length => match v[0] {
            Value::Track(t) => Value::Int(g.board.tracks[t as usize].points.len() as i64),
            _ => Value::Int(0),
        },
        Func::SiteOwner => match v[0] {
            Value::Site(s) => g.site_owner[s as usize].map_or(Value::None, Value::Player),
            _ => Value::None,
        },
        Func::Route => match v[0] {
            Value::Player(p) => g.routes[p as usize].map_or(Value::None, Value::Track),
            _ => Value::None,
        },
        Func::Tagged => match (v[0], v[1]) {
            (Value::Site(s), Value::Int(bit)) => {
                Value::Bool(g.site_tags[s as usize] >> bit & 1 == 1)
            }
            _ => Value::Bool(false),
        },
        Func::Min => Value::Int(v[0].int().min(v[1].int())),
        Func::Max => Value::Int(v[0].int().max(v[1].int())),
        Func::Abs => Value::Int(v[0].int().wrapping_abs()),
        Func::Count
        | Func::Empty
        | Func::Has
        | Func::Total
        | Func::Repetitions
        | Func::SeenBefore
        | Func::MostOnAPoint => return None,
    })
}

#[inline]
pub(crate) fn binary(op: BinOp, x: Value, y: Value) -> Value {
    let (i, j) = (x.int(), y.int());
    match op {
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Le => Value::Bool(i <= j),
        BinOp::Ge => Value::Bool(i >= j),
        BinOp::Lt => Value::Bool(i < j),
        BinOp::Gt => Value::Bool(i > j),
        BinOp::Add => Value::Int(i.saturating_add(j)),
        BinOp::Sub => Value::Int(i.saturating_sub(j)),
        BinOp::Mul => Value::Int(i.saturating_mul(j)),
        // Division by zero gives 0 rather than a crash; documented in docs/dsl.md.
        BinOp::Div => Value::Int(i.checked_div(j).unwrap_or(0)),
        BinOp::Rem => Value::Int(i.checked_rem(j).unwrap_or(0)),
        BinOp::And => Value::Bool(x.truthy() && y.truthy()),
        BinOp::Or => Value::Bool(x.truthy() || y.truthy()),
    }
}

fn site_key(v: Value) -> u64 {
    match v {
        Value::Site(s) => (s as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
        _ => 0,
    }
}

impl Game {
    /// Replaces every expression part that does not depend on the position by its value: calls of
    /// ruleset-only functions on constants (`hand(hunter)`), operators on constants, and a per-player
    /// variable of a constant player (`captures[hunter]`) by its slot; then compiles each expression to
    /// closures. Called once, when a ruleset is compiled; playing the prepared game gives the same
    /// results, faster (tests compare the two move by move).
    pub fn fold_constants(&mut self) {
        let mut rules = std::mem::take(&mut self.rules);
        for RuleDef { when, body, .. } in &mut rules {
            if let Some(w) = when {
                self.prepare(w);
            }
            self.fold_block(body);
            mark_last_choices(body, true);
        }
        self.prefers = rules.iter().any(|r| uses_prefer(&r.body));
        self.choice_paths = vec![None; self.choice_names.len()];
        for r in &rules {
            record_choice_paths(&r.body, &mut Vec::new(), &mut self.choice_paths);
        }
        self.rules = rules;
        let mut ends = std::mem::take(&mut self.ends);
        for end in &mut ends {
            self.prepare(&mut end.when);
            if let Some(w) = &mut end.winner {
                self.prepare(w);
            }
        }
        self.ends = ends;
        let mut invariants = std::mem::take(&mut self.invariants);
        for (_, e) in &mut invariants {
            self.prepare(e);
        }
        self.invariants = invariants;
    }

    /// Folds every expression of a block, then drops what constants decide: an `if` on a constant is
    /// replaced by the branch it takes, a `while` on a constant false by nothing (rulesets test their
    /// parameters this way, `if capture_again == 1 { ... }`, and each delta sets them differently).
    fn fold_block(&self, stmts: &mut Vec<Stmt>) {
        for s in stmts.iter_mut() {
            match s {
                Stmt::Choose {
                    slots,
                    domain,
                    filter,
                    body,
                    ..
                }
                | Stmt::For {
                    slots,
                    domain,
                    filter,
                    body,
                    ..
                } => {
                    match domain {
                        Domain::Sites | Domain::Players | Domain::Occupied => {}
                        Domain::SitesWith(e)
                        | Domain::Neighbours(e)
                        | Domain::Leaps(e)
                        | Domain::Track(e)
                        | Domain::Just(e) => self.prepare(e),
                        Domain::Range(a, b) => {
                            self.prepare(a);
                            self.prepare(b);
                        }
                    }
                    if let Some(f) = filter {
                        self.fold(f);
                        if let (Domain::Sites, [slot]) = (&domain, slots.as_slice()) {
                            if let Some(site) = named_site(f, *slot) {
                                let mut site = site.clone();
                                compile_in_place(&mut site);
                                *domain = Domain::Just(site);
                            } else if let Some(narrower) = occupied_sites(f, *slot) {
                                *domain = narrower;
                            }
                        }
                        compile_in_place(f);
                    }
                    self.fold_block(body);
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.prepare(cond);
                    self.fold_block(then);
                    self.fold_block(otherwise);
                }
                Stmt::While { cond, body, .. } => {
                    self.prepare(cond);
                    self.fold_block(body);
                }
                Stmt::SetLocal { value, .. } => self.prepare(value),
                Stmt::SetVar { player, value, .. } => {
                    if let Some(p) = player {
                        self.prepare(p);
                    }
                    self.prepare(value);
                }
                Stmt::Effect { args, .. } => {
                    for a in args {
                        self.prepare(a);
                    }
                }
            }
        }
        let mut kept = Vec::with_capacity(stmts.len());
        for s in std::mem::take(stmts) {
            match s {
                Stmt::If {
                    cond: Expr::Const(v),
                    then,
                    otherwise,
                } => kept.extend(if v.truthy() { then } else { otherwise }),
                Stmt::While {
                    cond: Expr::Const(v),
                    ..
                } if !v.truthy() => {}
                other => kept.push(other),
            }
        }
        *stmts = kept;
    }

    /// Folds an expression, then compiles what is left of it to closures.
    fn prepare(&self, e: &mut Expr) {
        self.fold(e);
        compile_in_place(e);
    }

    fn fold(&self, e: &mut Expr) {
        let constant = |e: &Expr| match e {
            Expr::Const(v) => Some(*v),
            _ => None,
        };
        let folded = match e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Var { .. }
            | Expr::Ambient(_)
            | Expr::EmptyAt(_)
            | Expr::HasAt(..)
            | Expr::CountAt(..)
            | Expr::AlongAt(..)
            | Expr::Compiled(_) => None,
            Expr::VarOf { var, player } => {
                self.fold(player);
                match constant(player) {
                    Some(Value::Player(p)) => Some(Expr::Var {
                        slot: self.var_slot(*var as usize, Some(p)) as u16,
                    }),
                    _ => None,
                }
            }
            Expr::Not(x) | Expr::Neg(x) => {
                self.fold(x);
                let negate = matches!(e, Expr::Neg(_));
                match e {
                    Expr::Not(x) | Expr::Neg(x) => constant(x).map(|v| {
                        Expr::Const(if negate {
                            Value::Int(v.int().wrapping_neg())
                        } else {
                            Value::Bool(!v.truthy())
                        })
                    }),
                    _ => None,
                }
            }
            Expr::Bin(op, a, b) => {
                self.fold(a);
                self.fold(b);
                match (*op, constant(a), constant(b)) {
                    (_, Some(x), Some(y)) => Some(Expr::Const(binary(*op, x, y))),
                    // `and` / `or` with one side known (operands are conditions: the type check sees
                    // to it). A known right side drops the left only when the left records nothing.
                    (BinOp::And, Some(x), None) | (BinOp::Or, Some(x), None) => {
                        let decided = (*op == BinOp::And) != x.truthy();
                        Some(if decided {
                            Expr::Const(Value::Bool(x.truthy()))
                        } else {
                            std::mem::replace(b.as_mut(), Expr::Const(Value::None))
                        })
                    }
                    (BinOp::And, None, Some(y)) | (BinOp::Or, None, Some(y)) => {
                        let decided = (*op == BinOp::And) != y.truthy();
                        if !decided {
                            Some(std::mem::replace(a.as_mut(), Expr::Const(Value::None)))
                        } else if records_nothing(a) {
                            Some(Expr::Const(Value::Bool(y.truthy())))
                        } else {
                            None
                        }
                    }
                    _ => None,
                }
            }
            Expr::Call(f, args) => {
                let mut values = [Value::None; 3];
                let mut all_constant = args.len() <= values.len();
                for (i, a) in args.iter_mut().enumerate() {
                    self.fold(a);
                    match (constant(a), values.get_mut(i)) {
                        (Some(v), Some(slot)) => *slot = v,
                        _ => all_constant = false,
                    }
                }
                match (*f, args.as_slice()) {
                    _ if all_constant => pure_call(self, *f, values).map(Expr::Const),
                    (Func::Empty, [Expr::Local(slot)]) => Some(Expr::EmptyAt(*slot)),
                    (Func::Has, [Expr::Local(slot), Expr::Const(Value::Piece(p))]) => {
                        Some(Expr::HasAt(*slot, *p))
                    }
                    (Func::Count, [Expr::Local(slot), Expr::Const(Value::Piece(p))]) => {
                        Some(Expr::CountAt(*slot, *p))
                    }
                    (
                        Func::Along,
                        [
                            Expr::Const(Value::Track(t)),
                            Expr::Local(slot),
                            Expr::Const(Value::Int(n)),
                        ],
                    ) => Some(Expr::AlongAt(*t, *slot, *n)),
                    _ => None,
                }
            }
        };
        if let Some(f) = folded {
            *e = f;
        }
    }
}

/// Marks the choice points after which nothing can change which moves a rule gives (`Stmt::Choose::last`):
/// no further choice point and no `prefer(n)`, in the choice's body or in anything that may run after it.
/// `then_settled` says so of what follows the block (the end of the rule, or the rest of an enclosing block;
/// for a loop body, also the loop's later passes).
fn mark_last_choices(stmts: &mut [Stmt], then_settled: bool) {
    let mut settled = then_settled;
    for s in stmts.iter_mut().rev() {
        let after = settled;
        settled = settled && !forks_or_ranks(std::slice::from_ref(s));
        match s {
            Stmt::Choose {
                body,
                last,
                domain,
                filter,
                ..
            } => {
                // A choice whose options are listed by recording configurations (`seen_before`) is
                // never last: a paused run must have recorded nothing, and options that share a run
                // (see `Explorer::fork`) must not see each other's records.
                let listed_quietly =
                    filter.as_ref().is_none_or(records_nothing) && domain_records_nothing(domain);
                *last = after && !forks_or_ranks(body) && listed_quietly;
                mark_last_choices(body, after);
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                let passes_settled = after && !forks_or_ranks(body);
                mark_last_choices(body, passes_settled);
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                mark_last_choices(then, after);
                mark_last_choices(otherwise, after);
            }
            Stmt::SetLocal { .. } | Stmt::SetVar { .. } | Stmt::Effect { .. } => {}
        }
    }
}

/// Records the path to every choice point of `stmts` nested in choices and `if`s alone (see
/// `Game::choice_paths`); `path` leads to `stmts`.
fn record_choice_paths(
    stmts: &[Stmt],
    path: &mut Vec<(u16, u8)>,
    paths: &mut [Option<ChoicePath>],
) {
    for (i, s) in stmts.iter().enumerate() {
        match s {
            Stmt::Choose { id, body, .. } => {
                path.push((i as u16, 0));
                if let Some(slot) = paths.get_mut(*id as usize) {
                    *slot = Some(path.as_slice().into());
                }
                record_choice_paths(body, path, paths);
                path.pop();
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                for (branch, stmts) in [then, otherwise].into_iter().enumerate() {
                    path.push((i as u16, branch as u8));
                    record_choice_paths(stmts, path, paths);
                    path.pop();
                }
            }
            _ => {}
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

/// Whether a block has a choice point or a `prefer(n)` anywhere: something that decides which moves exist.
fn forks_or_ranks(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Choose { .. } => true,
        Stmt::Effect { effect, .. } => *effect == Effect::Prefer,
        Stmt::For { body, .. } | Stmt::While { body, .. } => forks_or_ranks(body),
        Stmt::If {
            then, otherwise, ..
        } => forks_or_ranks(then) || forks_or_ranks(otherwise),
        Stmt::SetLocal { .. } | Stmt::SetVar { .. } => false,
    })
}

/// Whether a block has a `prefer(n)` effect anywhere.
fn uses_prefer(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Effect { effect, .. } => *effect == Effect::Prefer,
        Stmt::Choose { body, .. } | Stmt::For { body, .. } | Stmt::While { body, .. } => {
            uses_prefer(body)
        }
        Stmt::If {
            then, otherwise, ..
        } => uses_prefer(then) || uses_prefer(otherwise),
        Stmt::SetLocal { .. } | Stmt::SetVar { .. } => false,
    })
}

/// Replaces an expression by its compiled form, but for the leaves `eval` reads directly (and the
/// constants the folder's callers test for).
fn compile_in_place(e: &mut Expr) {
    if !matches!(
        e,
        Expr::Const(_) | Expr::Local(_) | Expr::Var { .. } | Expr::Compiled(_)
    ) {
        let source = std::mem::replace(e, Expr::Const(Value::None));
        *e = Expr::Compiled(Compiled::new(source));
    }
}

/// In a filter `a and b and ...`, a part `x == E` (or `E == x`) where `x` is the local `slot` and `E` does
/// not read it: the one value `x` can take. `E` must also have no effect (`seen_before` records), since
/// it will be evaluated once instead of once per site.
fn named_site(filter: &Expr, slot: u16) -> Option<&Expr> {
    match filter {
        Expr::Bin(BinOp::And, a, b) => named_site(a, slot).or_else(|| named_site(b, slot)),
        Expr::Bin(BinOp::Eq, a, b) => match (a.as_ref(), b.as_ref()) {
            (Expr::Local(s), e) | (e, Expr::Local(s)) if *s == slot && independent(e, slot) => {
                Some(e)
            }
            _ => None,
        },
        _ => None,
    }
}

/// In a filter `a and b and ...` that records nothing, a part that holds only on an occupied site:
/// `has(x, piece)` or `count(x, piece) > 0` of the local `slot` narrows the sites to those holding the
/// piece, `count(x) > 0` or `not empty(x)` to those holding any piece. The filter still tests every
/// part on the sites left, so the options and their order are the same; only the sites the part
/// excludes are no longer tried, which is why nothing may be recorded for them.
fn occupied_sites(filter: &Expr, slot: u16) -> Option<Domain> {
    fn part(e: &Expr, slot: u16) -> Option<Domain> {
        let positive = |op: BinOp, n: &Expr| {
            matches!(
                (op, n),
                (BinOp::Gt | BinOp::Ne, Expr::Const(Value::Int(0)))
                    | (BinOp::Ge, Expr::Const(Value::Int(1)))
            )
        };
        let kind = |piece: PieceId| Domain::SitesWith(Expr::Const(Value::Piece(piece)));
        match e {
            Expr::Bin(BinOp::And, a, b) => part(a, slot).or_else(|| part(b, slot)),
            Expr::HasAt(s, piece) if *s == slot => Some(kind(*piece)),
            Expr::Bin(op, count, n) if positive(*op, n) => match count.as_ref() {
                Expr::CountAt(s, piece) if *s == slot => Some(kind(*piece)),
                Expr::Call(Func::Count, args) if matches!(args.as_slice(), [Expr::Local(s)] if *s == slot) => {
                    Some(Domain::Occupied)
                }
                _ => None,
            },
            Expr::Not(x) if matches!(x.as_ref(), Expr::EmptyAt(s) if *s == slot) => {
                Some(Domain::Occupied)
            }
            _ => None,
        }
    }
    if !records_nothing(filter) {
        return None;
    }
    part(filter, slot)
}

/// `e` records nothing (`seen_before` is the one expression that does).
fn records_nothing(e: &Expr) -> bool {
    independent(e, u16::MAX)
}

/// `e` neither reads local `slot` nor records anything.
fn independent(e: &Expr, slot: u16) -> bool {
    match e {
        Expr::Compiled(c) => independent(c.source(), slot),
        Expr::Local(s)
        | Expr::EmptyAt(s)
        | Expr::HasAt(s, _)
        | Expr::CountAt(s, _)
        | Expr::AlongAt(_, s, _) => *s != slot,
        Expr::Const(_) | Expr::Var { .. } | Expr::Ambient(_) => true,
        Expr::VarOf { player, .. } => independent(player, slot),
        Expr::Not(x) | Expr::Neg(x) => independent(x, slot),
        Expr::Bin(_, a, b) => independent(a, slot) && independent(b, slot),
        Expr::Call(f, args) => *f != Func::SeenBefore && args.iter().all(|a| independent(a, slot)),
    }
}

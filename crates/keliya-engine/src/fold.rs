//! Preparing a compiled ruleset ([`Game::fold_constants`]): whatever does not depend on the position is
//! worked out once. Expressions on constants are evaluated; the locals a rule sets to constants are
//! replaced by their values where they are read, and the `let`s no expression reads any more are dropped;
//! a rule any player may use that reads `mover` gets a body of its own for each player, folded with the
//! mover known (a race rule's `if tagged(hand(mover), team_b) { ... }` is then decided, and its
//! pieces and routes are constants); branches that constants decide are dropped; `choose x in sites()
//! where x == E` is narrowed to the one site `E`; common calls on locals get forms of their own; and
//! every expression left is compiled to closures.

use crate::compile::Compiled;
use crate::eval::binary;
use crate::ir::*;
use crate::program::{Program, Programs, RulePrograms};
use crate::{Game, PieceId, PlayerId, RuleDef};

impl Game {
    /// Prepares the game as the module says. Called once, when a ruleset is compiled; playing the
    /// prepared game gives the same results, faster (tests compare the two move by move).
    pub fn fold_constants(&mut self) {
        let mut rules = std::mem::take(&mut self.rules);
        let mut programs = Vec::with_capacity(rules.len());
        for rule in &mut rules {
            let RuleDef {
                player,
                when,
                body,
                locals,
                ..
            } = rule;
            if let Some(w) = when {
                Folder::new(self, None, 0).prepare(w);
            }
            let mut general = body.clone();
            let declared = *locals;
            (*body, *locals) = self.folded(&general, *player, declared);
            let mut mover_bodies = Vec::new();
            if player.is_none() && reads_mover(&mut general) {
                for p in 0..self.players.len() {
                    mover_bodies.push(self.folded(&general, Some(p as PlayerId), declared));
                }
            }
            programs.push(RulePrograms {
                general: Program::build(self, body, *locals, true),
                by_mover: mover_bodies
                    .iter()
                    .map(|(body, locals)| Program::build(self, body, *locals, true))
                    .collect(),
                mover_bodies,
            });
        }
        self.rules = rules;
        let backend = self.programs.backend;
        self.programs = Programs::of(programs);
        self.programs.backend = backend;
        self.prefers = self.ranks_moves();
        let mut ends = std::mem::take(&mut self.ends);
        for end in &mut ends {
            let folder = Folder::new(self, None, 0);
            folder.prepare(&mut end.when);
            if let Some(w) = &mut end.winner {
                folder.prepare(w);
            }
        }
        self.ends = ends;
        self.programs.conditions = self
            .turn_conditions()
            .map(|e| e.and_then(crate::compiled::condition_for))
            .collect();
        let mut invariants = std::mem::take(&mut self.invariants);
        for invariant in &mut invariants {
            Folder::new(self, None, 0).prepare(&mut invariant.holds);
        }
        self.invariants = invariants;
    }

    /// Whether some rule ranks its moves with `prefer(n)` (see [`Game::prefers`]).
    pub fn ranks_moves(&self) -> bool {
        self.rules.iter().any(|r| uses_prefer(&r.body))
    }

    /// A rule's body folded for `mover` (`None`: any player), its locals renumbered, its expressions
    /// compiled; with the number of locals it uses.
    fn folded(&self, body: &[Stmt], mover: Option<PlayerId>, locals: usize) -> (Vec<Stmt>, usize) {
        let mut body = body.to_vec();
        Folder::new(self, mover, locals).block(&mut body);
        let mut read = vec![false; locals];
        reads_in_block(&mut body, &mut read);
        drop_unread_lets(&mut body, &read);
        let locals = renumber_locals(&mut body, locals);
        each_expr(&mut body, &mut compile_in_place);
        (body, locals)
    }
}

/// Folds one body: the game, the mover when known, and the locals whose values are known at the
/// statement being folded.
struct Folder<'g> {
    game: &'g Game,
    mover: Option<PlayerId>,
    known: Vec<Option<Value>>,
}

impl<'g> Folder<'g> {
    fn new(game: &'g Game, mover: Option<PlayerId>, locals: usize) -> Self {
        Folder {
            game,
            mover,
            known: vec![None; locals],
        }
    }

    /// Folds a block statement by statement, following the locals set to constants; an `if` on a
    /// constant is replaced by the branch it takes, a `while` on a constant false by nothing (rulesets
    /// test their parameters this way, `if capture_again == 1 { ... }`, and each delta sets them
    /// differently).
    fn block(&mut self, stmts: &mut Vec<Stmt>) {
        let mut kept = Vec::with_capacity(stmts.len());
        for s in std::mem::take(stmts) {
            self.statement(s, &mut kept);
            forward_copy(&mut kept);
        }
        *stmts = kept;
    }

    fn statement(&mut self, mut s: Stmt, kept: &mut Vec<Stmt>) {
        let passes = matches!(s, Stmt::For { .. });
        match &mut s {
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
                // A loop's options are listed before its first pass. A choice's body runs once on each
                // path, from what is known here, and what it sets is known after it the same way on
                // every path; a loop's body may run any number of times.
                self.options(slots, domain, filter);
                if passes {
                    self.forget_set_in(body);
                }
                self.block(body);
                if passes {
                    self.forget_set_in(body);
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.fold(cond);
                if let Expr::Const(v) = cond {
                    let taken = std::mem::take(if v.truthy() { then } else { otherwise });
                    for s in taken {
                        self.statement(s, kept);
                    }
                    return;
                }
                let before = self.known.clone();
                self.block(then);
                let after_then = std::mem::replace(&mut self.known, before);
                self.block(otherwise);
                for (k, t) in self.known.iter_mut().zip(after_then) {
                    if *k != t {
                        *k = None;
                    }
                }
            }
            Stmt::While { cond, body, .. } => {
                // Tested before every pass: nothing the body sets is known there.
                self.forget_set_in(body);
                self.fold(cond);
                if matches!(cond, Expr::Const(v) if !v.truthy()) {
                    return;
                }
                self.block(body);
                self.forget_set_in(body);
            }
            Stmt::SetLocal { slot, op, value } => {
                self.fold(value);
                let now = match (op, &value) {
                    (AssignOp::Set, Expr::Const(v)) => Some(*v),
                    _ => None,
                };
                if let Some(k) = self.known.get_mut(*slot as usize) {
                    *k = now;
                }
            }
            Stmt::SetVar { player, value, .. } => {
                if let Some(p) = player {
                    self.fold(p);
                }
                self.fold(value);
            }
            Stmt::Effect { args, .. } => {
                for a in args {
                    self.fold(a);
                }
            }
        }
        kept.push(s);
    }

    /// Folds what a choice or a loop ranges over; its own variables are not known in its filter.
    fn options(&mut self, slots: &[u16], domain: &mut Domain, filter: &mut Option<Expr>) {
        domain.each_expr(&mut |e| self.fold(e));
        self.forget(slots);
        if let Some(f) = filter {
            self.filter(slots, domain, f);
        }
    }

    /// Folds a choice's filter and narrows the choice's sites by it where it can.
    fn filter(&mut self, slots: &[u16], domain: &mut Domain, f: &mut Expr) {
        self.fold(f);
        if let (Domain::Sites, [slot]) = (&domain, slots) {
            if let Some(site) = named_site(f, *slot) {
                *domain = Domain::Just(site.clone());
            } else if let Some(narrower) = occupied_sites(f, *slot) {
                *domain = narrower;
            }
        }
    }

    fn forget(&mut self, slots: &[u16]) {
        for &slot in slots {
            if let Some(k) = self.known.get_mut(slot as usize) {
                *k = None;
            }
        }
    }

    /// Forgets every local that `stmts` may set (a loop's later passes, or after it).
    fn forget_set_in(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::SetLocal { slot, .. } => self.forget(&[*slot]),
                Stmt::Choose { slots, body, .. } | Stmt::For { slots, body, .. } => {
                    self.forget(slots);
                    self.forget_set_in(body);
                }
                Stmt::While { body, .. } => self.forget_set_in(body),
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.forget_set_in(then);
                    self.forget_set_in(otherwise);
                }
                Stmt::SetVar { .. } | Stmt::Effect { .. } => {}
            }
        }
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
            Expr::Local(slot) => self
                .known
                .get(*slot as usize)
                .copied()
                .flatten()
                .map(Expr::Const),
            Expr::Ambient(Ambient::Mover) => self.mover.map(|m| Expr::Const(Value::Player(m))),
            Expr::Const(_)
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
                        slot: self.game.var_slot(*var as usize, Some(p)) as u16,
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
                            Value::Int(v.int().saturating_neg())
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
                    _ if all_constant => f.apply(self.game, None, values).map(Expr::Const),
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

/// Whether a block reads `mover` anywhere.
fn reads_mover(stmts: &mut [Stmt]) -> bool {
    let mut found = false;
    each_expr(stmts, &mut |e| {
        found |= e.any_node(&|e| matches!(e, Expr::Ambient(Ambient::Mover)))
    });
    found
}

/// Marks in `read` every local a block's expressions read.
fn reads_in_block(stmts: &mut [Stmt], read: &mut [bool]) {
    each_expr(stmts, &mut |e| mark_reads(e, read));
}

/// Numbers the locals a block uses (reads, sets or chooses) from 0, in their order, dropping the
/// others, so that a run makes room for those alone (a run keeps 8 inline); returns how many there are.
fn renumber_locals(stmts: &mut [Stmt], locals: usize) -> usize {
    // Compiled expressions keep the slots they were compiled with: a body prepared before (a game
    // prepared twice) keeps its numbering.
    let mut compiled = false;
    each_expr(stmts, &mut |e| {
        compiled |= e.any_node(&|e| matches!(e, Expr::Compiled(_)))
    });
    if compiled {
        return locals;
    }
    let mut used = vec![false; locals];
    let mut outside = false;
    each_expr(stmts, &mut |e| {
        each_read(e, &mut |slot| match used.get_mut(*slot as usize) {
            Some(u) => *u = true,
            None => outside = true,
        })
    });
    each_stmt(stmts, &mut |s| {
        for slot in assigned(s) {
            match used.get_mut(*slot as usize) {
                Some(u) => *u = true,
                None => outside = true,
            }
        }
    });
    // (The lowerer never gives a slot past the rule's count; should one appear, the body is left as it
    // is rather than renumbered wrongly, and nothing here indexes past a list.)
    if outside {
        return locals;
    }
    let mut new = vec![0u16; locals];
    let mut count = 0;
    for (slot, used) in used.iter().enumerate() {
        if *used {
            new[slot] = count;
            count += 1;
        }
    }
    if usize::from(count) < locals {
        each_stmt(stmts, &mut |s| {
            for slot in assigned(s) {
                *slot = new[*slot as usize];
            }
        });
        each_expr(stmts, &mut |e| {
            each_read(e, &mut |slot| *slot = new[*slot as usize])
        });
    }
    usize::from(count)
}

fn mark_reads(e: &mut Expr, read: &mut [bool]) {
    each_read(e, &mut |slot| {
        if let Some(r) = read.get_mut(*slot as usize) {
            *r = true;
        }
    });
}

/// `a = b` followed by `a = f(a)` becomes `a = f(b)`: a local started from another and moved on at
/// once (`let after = pos` then a part's `hole = along(cycle, hole, 1)`) is set once, not twice.
fn forward_copy(kept: &mut Vec<Stmt>) {
    let [
        ..,
        Stmt::SetLocal {
            slot: a,
            op: AssignOp::Set,
            value: Expr::Local(b),
        },
        Stmt::SetLocal {
            slot: a2,
            op: AssignOp::Set,
            value,
        },
    ] = &mut kept[..]
    else {
        return;
    };
    // (A compiled expression keeps the slots it was made with: one is left as it is.)
    if a != a2 || a == b || value.any_node(&|e| matches!(e, Expr::Compiled(_))) {
        return;
    }
    let (a, b) = (*a, *b);
    each_read(value, &mut |s| {
        if *s == a {
            *s = b;
        }
    });
    let last = kept.pop().expect("two statements");
    kept.pop();
    kept.push(last);
}

/// Calls `f` on every local slot an expression reads. (A compiled part is read from a copy of its
/// source: its closures keep the slots they were made with, see `renumber_locals`.)
fn each_read(e: &mut Expr, f: &mut impl FnMut(&mut u16)) {
    match e {
        Expr::Local(s)
        | Expr::EmptyAt(s)
        | Expr::HasAt(s, _)
        | Expr::CountAt(s, _)
        | Expr::AlongAt(_, s, _) => f(s),
        Expr::Const(_) | Expr::Var { .. } | Expr::Ambient(_) => {}
        Expr::VarOf { player, .. } => each_read(player, f),
        Expr::Not(x) | Expr::Neg(x) => each_read(x, f),
        Expr::Bin(_, a, b) => {
            each_read(a, f);
            each_read(b, f);
        }
        Expr::Call(_, args) => args.iter_mut().for_each(|a| each_read(a, f)),
        Expr::Compiled(c) => each_read(&mut c.source().clone(), f),
    }
}

/// Drops the assignments of locals that nothing reads (their values were folded into every reader),
/// unless the value records something (`seen_before`).
fn drop_unread_lets(stmts: &mut Vec<Stmt>, read: &[bool]) {
    stmts.retain(|s| match s {
        Stmt::SetLocal { slot, value, .. } => {
            read.get(*slot as usize).copied().unwrap_or(true) || !records_nothing(value)
        }
        _ => true,
    });
    for s in stmts {
        match s {
            Stmt::Choose { body, .. } | Stmt::For { body, .. } | Stmt::While { body, .. } => {
                drop_unread_lets(body, read)
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                drop_unread_lets(then, read);
                drop_unread_lets(otherwise, read);
            }
            Stmt::SetLocal { .. } | Stmt::SetVar { .. } | Stmt::Effect { .. } => {}
        }
    }
}

/// The locals a statement itself sets or chooses (not those of the statements nested in it).
fn assigned(s: &mut Stmt) -> &mut [u16] {
    match s {
        Stmt::SetLocal { slot, .. } => std::slice::from_mut(slot),
        Stmt::Choose { slots, .. } | Stmt::For { slots, .. } => slots,
        _ => &mut [],
    }
}

/// Calls `f` on every statement of a block, nested ones included, each before those nested in it.
fn each_stmt(stmts: &mut [Stmt], f: &mut impl FnMut(&mut Stmt)) {
    for s in stmts {
        f(s);
        match s {
            Stmt::Choose { body, .. } | Stmt::For { body, .. } | Stmt::While { body, .. } => {
                each_stmt(body, f)
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                each_stmt(then, f);
                each_stmt(otherwise, f);
            }
            Stmt::SetLocal { .. } | Stmt::SetVar { .. } | Stmt::Effect { .. } => {}
        }
    }
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
pub(crate) fn records_nothing(e: &Expr) -> bool {
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
        Expr::Call(f, args) => {
            f.access() != Access::Records && args.iter().all(|a| independent(a, slot))
        }
    }
}

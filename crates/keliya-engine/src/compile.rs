//! Expressions compiled to closures when a ruleset is compiled.
//!
//! A tree-walking evaluator pays, at every node, a call, a match on the node kind and, for an operator or
//! a function, another match on which one. A compiled expression is a tree of closures made once: each
//! knows its operator, its function or its constant operand, so evaluating it is one indirect call per
//! node and the work itself. The meaning of each node stays in one place: the closures call the same
//! helpers as `eval` (`compare`, `arith`, `call_values`, `position_ambient`, ...).
//!
//! Each expression is compiled three ways, by what its reader needs: its value, its truth (a condition,
//! a filter) or its number (an operand of `+` or `<`, a count added to a variable). A condition such as
//! `count(pos, seed) == 4 and hand > 0` then runs on plain booleans and numbers, with no value built,
//! tagged and taken apart again between its nodes. By construction a number is the value's `int()` and
//! a truth is the value's `truthy()`.
//!
//! Only `stuck` can fail (it runs a search). Its closure keeps the error in a cell of the thread and
//! answers `false`; an expression that reads `stuck` returns the error when it ends, so no other
//! expression tests for one at every node.
//!
//! A call written more than once in one expression with the same arguments (`along(path, from, throw)`
//! five times in a race game's filter) is worked out once per evaluation: its first value is kept in a
//! memo cell of the thread, which the expression clears when it starts. Expressions have no effects but
//! `seen_before`'s record, which is never kept this way, so the value cannot change in between; and no
//! other expression is evaluated in between on the thread but in a search that `stuck` starts, so an
//! expression that reads `stuck` keeps nothing.

use std::cell::{Cell, RefCell};
use std::panic::RefUnwindSafe;
use std::sync::Arc;

use crate::builtins::EachFunc;
use crate::eval::{arith, compare};
use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;

type Eval<T> = Result<T, Box<EngineError>>;
type Form<T> = dyn for<'a> Fn(&Run<'a>, &State) -> T + Send + Sync + RefUnwindSafe;
/// A node's closure, owned by its parent's: a `Box` is called through its data pointer directly (an
/// `Arc<dyn Fn>` would first find the data past the counts, at every call).
type F<T> = Box<Form<T>>;

/// An expression with its compiled forms. Compared, printed and inspected as the expression it was made
/// from ([`Compiled::source`]).
#[derive(Clone)]
pub struct Compiled {
    source: Box<Expr>,
    /// Shared, so that a game and its copies share their compiled expressions.
    forms: Arc<Forms>,
}

struct Forms {
    value: F<Value>,
    test: F<bool>,
    number: F<i64>,
    /// Whether the expression reads `stuck`, whose search may fail.
    fallible: bool,
}

impl Compiled {
    pub(crate) fn new(source: Expr) -> Compiled {
        let repeated = repeated_calls(&source);
        let compiler = Compiler {
            repeated: &repeated,
        };
        let forms = Forms {
            value: root(compiler.value(&source), repeated.len()),
            test: root(compiler.test(&source), repeated.len()),
            number: root(compiler.number(&source), repeated.len()),
            fallible: reads_stuck(&source),
        };
        Compiled {
            forms: Arc::new(forms),
            source: Box::new(source),
        }
    }
    /// The expression this was compiled from.
    pub fn source(&self) -> &Expr {
        &self.source
    }
    #[inline]
    pub(crate) fn eval(&self, run: &Run<'_>, st: &State) -> Eval<Value> {
        self.checked(run, (self.forms.value)(run, st))
    }
    /// Whether the expression holds (its value's `truthy()`).
    #[inline]
    pub(crate) fn truthy(&self, run: &Run<'_>, st: &State) -> Eval<bool> {
        self.checked(run, (self.forms.test)(run, st))
    }
    /// The expression as a number (its value's `int()`).
    #[inline]
    pub(crate) fn int(&self, run: &Run<'_>, st: &State) -> Eval<i64> {
        self.checked(run, (self.forms.number)(run, st))
    }
    #[inline(always)]
    fn checked<T>(&self, run: &Run<'_>, answer: T) -> Eval<T> {
        match self.forms.fallible {
            false => Ok(answer),
            true => match run.stuck_error() {
                None => Ok(answer),
                Some(error) => Err(error),
            },
        }
    }
}

/// What a run keeps beside its locals that few runs need, made the first time one does
/// ([`Run::scope`]): the configurations `seen_before` met in the move, and the error of a `stuck`
/// whose search failed, for the expression that read it to return when it ends (no other expression
/// is evaluated with the run in between).
#[derive(Default)]
pub(crate) struct Scope {
    pub(crate) seen: RefCell<Vec<u64>>,
    stuck_error: Cell<Option<Box<EngineError>>>,
}

impl Run<'_> {
    /// The error of a `stuck` that failed since the last call, if any.
    fn stuck_error(&self) -> Option<Box<EngineError>> {
        self.existing_scope()?.stuck_error.take()
    }
}

impl Scope {
    /// A scope for a copy of a run: the configurations met so far, nothing of an evaluation.
    pub(crate) fn copied(&self) -> Scope {
        Scope {
            seen: self.seen.clone(),
            ..Scope::default()
        }
    }
}

/// See [`Compiler::arg`].
enum Arg {
    Const(Value),
    Local(usize),
    Other(F<Value>),
}

impl Arg {
    #[inline(always)]
    fn get(&self, r: &Run<'_>, st: &State) -> Value {
        match self {
            Arg::Const(v) => *v,
            Arg::Local(slot) => r.locals[*slot],
            Arg::Other(f) => f(r, st),
        }
    }
}

/// The root closure of one form: it clears the memo cells first when the expression has any.
fn root<T: 'static>(body: F<T>, cells: usize) -> F<T> {
    match cells {
        0 => body,
        n => Box::new(move |r, st| {
            MEMO.with(|memo| memo[..n].iter().for_each(|cell| cell.set(None)));
            body(r, st)
        }),
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.source.fmt(f)
    }
}

impl PartialEq for Compiled {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Expr {
    /// The expression as written (after folding): the source of a compiled expression, or itself.
    pub fn source(&self) -> &Expr {
        match self {
            Expr::Compiled(c) => c.source(),
            e => e,
        }
    }

    /// Whether `test` holds of this expression or of any part of it (compiled parts by their source).
    pub fn any_node(&self, test: &impl Fn(&Expr) -> bool) -> bool {
        test(self)
            || match self {
                Expr::Call(_, args) => args.iter().any(|a| a.any_node(test)),
                Expr::VarOf { player, .. } => player.any_node(test),
                Expr::Not(x) | Expr::Neg(x) => x.any_node(test),
                Expr::Bin(_, a, b) => a.any_node(test) || b.any_node(test),
                Expr::Compiled(c) => c.source().any_node(test),
                _ => false,
            }
    }
}

/// How many repeated calls of one expression are kept.
const MEMO_CELLS: usize = 4;

thread_local! {
    /// The values of the repeated calls of the expression being evaluated on this thread (see the
    /// module's comment). The one thread-local of the engine, kept for what it measurably saves: the
    /// cells in each run cost 2% more instructions per game on the hunt games (a run is made and copied
    /// often, and most never evaluate such a call), made for a run when first needed 3% more on the
    /// race games (docs/architecture.md).
    static MEMO: [Cell<Option<Value>>; MEMO_CELLS] =
        const { [const { Cell::new(None) }; MEMO_CELLS] };
}

/// Calls worked out once per evaluation, by memo cell: the calls written at least twice in `e` (the
/// first [`MEMO_CELLS`] of them); none when `e` reads `stuck`.
pub(crate) fn repeated_calls(e: &Expr) -> Vec<Expr> {
    fn calls<'e>(e: &'e Expr, found: &mut Vec<&'e Expr>) {
        match e {
            Expr::Call(_, args) => {
                found.push(e);
                args.iter().for_each(|a| calls(a, found));
            }
            Expr::VarOf { player, .. } => calls(player, found),
            Expr::Not(x) | Expr::Neg(x) => calls(x, found),
            Expr::Bin(_, a, b) => {
                calls(a, found);
                calls(b, found);
            }
            Expr::Compiled(c) => calls(c.source(), found),
            _ => {}
        }
    }
    if reads_stuck(e) {
        return Vec::new();
    }
    let mut found = Vec::new();
    calls(e, &mut found);
    let mut repeated: Vec<Expr> = Vec::new();
    for (i, call) in found.iter().enumerate() {
        let again = found[i + 1..].contains(call);
        if again && !repeated.contains(call) && !records(call) && repeated.len() < MEMO_CELLS {
            repeated.push((*call).clone());
        }
    }
    repeated
}

/// Whether evaluating `e` records something (`seen_before`): such a call must run every time.
fn records(e: &Expr) -> bool {
    e.any_node(&|e| matches!(e, Expr::Call(f, _) if f.access() == Access::Records))
}

/// Whether `e` reads `stuck`, which runs a move search (evaluating other expressions on this thread).
fn reads_stuck(e: &Expr) -> bool {
    e.any_node(&|e| matches!(e, Expr::Ambient(Ambient::Stuck)))
}

/// The compiler of one expression's three forms.
#[derive(Clone, Copy)]
struct Compiler<'e> {
    /// The calls worked out once per evaluation, by memo cell.
    repeated: &'e [Expr],
}

impl Compiler<'_> {
    fn cell(&self, e: &Expr) -> Option<usize> {
        self.repeated.iter().position(|r| r == e)
    }

    /// A call of `repeated` read from its memo cell once worked out.
    fn memo(&self, cell: usize, e: &Expr) -> F<Value> {
        let work = self.value_node(e);
        Box::new(move |r, st| match MEMO.with(|memo| memo[cell].get()) {
            Some(v) => v,
            None => {
                let v = work(r, st);
                MEMO.with(|memo| memo[cell].set(Some(v)));
                v
            }
        })
    }

    fn value(&self, e: &Expr) -> F<Value> {
        match self.cell(e) {
            Some(cell) => self.memo(cell, e),
            None => self.value_node(e),
        }
    }

    fn value_node(&self, e: &Expr) -> F<Value> {
        match e {
            Expr::Const(v) => {
                let v = *v;
                Box::new(move |_, _| v)
            }
            Expr::Local(slot) => {
                let slot = *slot as usize;
                Box::new(move |r, _| r.locals[slot])
            }
            Expr::Var { slot } => {
                let slot = *slot as usize;
                Box::new(move |_, st| Value::Int(st.vars[slot]))
            }
            Expr::VarOf { var, player } => {
                let (var, player) = (*var, self.value(player));
                Box::new(move |r, st| r.var_of(st, var, player(r, st)))
            }
            Expr::Ambient(Ambient::Stuck) => Box::new(|r, st| {
                r.stuck(st).unwrap_or_else(|error| {
                    r.scope().stuck_error.set(Some(error));
                    Value::Bool(false)
                })
            }),
            Expr::Ambient(a) => {
                let a = *a;
                Box::new(move |r, st| r.position_ambient(st, a))
            }
            Expr::Neg(_)
            | Expr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, ..) => {
                let n = self.number(e);
                Box::new(move |r, st| Value::Int(n(r, st)))
            }
            Expr::Not(_) | Expr::Bin(..) | Expr::EmptyAt(_) | Expr::HasAt(..) => {
                let t = self.test(e);
                Box::new(move |r, st| Value::Bool(t(r, st)))
            }
            Expr::Call(f, args) => self.call(*f, args),
            Expr::CountAt(slot, piece) => {
                let (slot, piece) = (*slot, *piece);
                Box::new(move |r, st| r.count_at(st, slot, piece))
            }
            Expr::AlongAt(track, slot, n) => {
                let (track, slot, n) = (*track, *slot, *n);
                Box::new(move |r, _| r.along_at(track, slot, n))
            }
            Expr::Compiled(c) => self.value(c.source()),
        }
    }

    /// `e`'s value converted by `to` (`int`, `truthy`): a form's closure for a node it has none of its
    /// own for, or for a call kept in a memo cell (which keeps the value, whatever form reads it).
    fn converted<T: 'static>(
        &self,
        e: &Expr,
        to: impl Fn(Value) -> T + Send + Sync + RefUnwindSafe + 'static,
    ) -> F<T> {
        let v = self.value(e);
        Box::new(move |r, st| to(v(r, st)))
    }

    /// `e` as a number: its value's `int()`.
    fn number(&self, e: &Expr) -> F<i64> {
        if self.cell(e).is_some() {
            return self.converted(e, Value::int);
        }
        match e {
            Expr::Const(v) => {
                let n = v.int();
                Box::new(move |_, _| n)
            }
            Expr::Local(slot) => {
                let slot = *slot as usize;
                Box::new(move |r, _| r.locals[slot].int())
            }
            Expr::Var { slot } => {
                let slot = *slot as usize;
                Box::new(move |_, st| st.vars[slot])
            }
            Expr::Neg(x) => {
                let x = self.number(x);
                Box::new(move |r, st| x(r, st).saturating_neg())
            }
            Expr::Bin(
                op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
                a,
                b,
            ) => self.arith(*op, a, b),
            Expr::Not(_) | Expr::Bin(..) | Expr::EmptyAt(_) | Expr::HasAt(..) => {
                let t = self.test(e);
                Box::new(move |r, st| i64::from(t(r, st)))
            }
            Expr::CountAt(slot, piece) => {
                let (slot, piece) = (*slot, *piece);
                Box::new(move |r, st| r.count_at(st, slot, piece).int())
            }
            // A count on a fixed place (a rule's `when`: `count(hand(hunter), hunter) > 0`), one load.
            Expr::Call(Func::Count, args)
                if let [Expr::Const(Value::Site(s)), Expr::Const(Value::Piece(p))] =
                    args.as_slice() =>
            {
                let (s, p) = (*s, *p);
                Box::new(move |r, st| i64::from(st.count(r.game, s, p)))
            }
            Expr::Call(f, args) => self.call_as(*f, args, Value::int),
            Expr::Compiled(c) => self.number(c.source()),
            _ => self.converted(e, Value::int),
        }
    }

    /// `e` as a truth: its value's `truthy()`.
    fn test(&self, e: &Expr) -> F<bool> {
        if self.cell(e).is_some() {
            return self.converted(e, Value::truthy);
        }
        match e {
            Expr::Const(v) => {
                let t = v.truthy();
                Box::new(move |_, _| t)
            }
            Expr::Local(slot) => {
                let slot = *slot as usize;
                Box::new(move |r, _| r.locals[slot].truthy())
            }
            Expr::Not(x) => {
                let x = self.test(x);
                Box::new(move |r, st| !x(r, st))
            }
            // `and` / `or` short-circuit: a later operand may be costly (`stuck`) or record
            // (`seen_before`).
            Expr::Bin(BinOp::And, a, b) => {
                let (a, b) = (self.test(a), self.test(b));
                Box::new(move |r, st| a(r, st) && b(r, st))
            }
            Expr::Bin(BinOp::Or, a, b) => {
                let (a, b) = (self.test(a), self.test(b));
                Box::new(move |r, st| a(r, st) || b(r, st))
            }
            Expr::Bin(op @ (BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt), a, b) => {
                self.compare(*op, a, b)
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let same = *op == BinOp::Eq;
                self.equal(a, b, same)
            }
            Expr::EmptyAt(slot) => {
                let slot = *slot;
                Box::new(move |r, st| r.empty_at(st, slot).truthy())
            }
            Expr::HasAt(slot, piece) => {
                let (slot, piece) = (*slot, *piece);
                Box::new(move |r, st| r.has_at(st, slot, piece).truthy())
            }
            Expr::Call(f, args) => self.call_as(*f, args, Value::truthy),
            Expr::Compiled(c) => self.test(c.source()),
            _ => self.converted(e, Value::truthy),
        }
    }

    /// `a op b` for an arithmetic operator, one closure per operator (`arith` with it as a constant).
    fn arith(&self, op: BinOp, a: &Expr, b: &Expr) -> F<i64> {
        match op {
            BinOp::Add => self.numbers(a, b, |i, j| arith(BinOp::Add, i, j)),
            BinOp::Sub => self.numbers(a, b, |i, j| arith(BinOp::Sub, i, j)),
            BinOp::Mul => self.numbers(a, b, |i, j| arith(BinOp::Mul, i, j)),
            BinOp::Div => self.numbers(a, b, |i, j| arith(BinOp::Div, i, j)),
            BinOp::Rem => self.numbers(a, b, |i, j| arith(BinOp::Rem, i, j)),
            op => self.numbers(a, b, move |i, j| arith(op, i, j)),
        }
    }

    /// `a op b` for an ordering, one closure per operator (`compare` with it as a constant).
    fn compare(&self, op: BinOp, a: &Expr, b: &Expr) -> F<bool> {
        match op {
            BinOp::Le => self.numbers(a, b, |i, j| compare(BinOp::Le, i, j)),
            BinOp::Ge => self.numbers(a, b, |i, j| compare(BinOp::Ge, i, j)),
            BinOp::Lt => self.numbers(a, b, |i, j| compare(BinOp::Lt, i, j)),
            BinOp::Gt => self.numbers(a, b, |i, j| compare(BinOp::Gt, i, j)),
            op => self.numbers(a, b, move |i, j| compare(op, i, j)),
        }
    }

    /// An operator on the numbers of `a` and `b`, `op` being that operator as a constant, which the
    /// compiler reduces to its own code. A constant right operand (the usual `x == 4`, `n > 0`) is
    /// captured instead of evaluated, and a local on the left is read directly.
    fn numbers<T: 'static>(
        &self,
        a: &Expr,
        b: &Expr,
        op: impl Fn(i64, i64) -> T + Copy + Send + Sync + RefUnwindSafe + 'static,
    ) -> F<T> {
        match (a, b) {
            (Expr::Local(slot), Expr::Const(c)) => {
                let (slot, c) = (*slot as usize, c.int());
                Box::new(move |r, _| op(r.locals[slot].int(), c))
            }
            (a, Expr::Const(c)) => {
                let (a, c) = (self.number(a), c.int());
                Box::new(move |r, st| op(a(r, st), c))
            }
            // A local or a variable on the right (the terms of a sum such as `total(seed) + hand +
            // store[south]`) is read directly, not called.
            (a, Expr::Local(slot)) => {
                let (a, slot) = (self.number(a), *slot as usize);
                Box::new(move |r, st| op(a(r, st), r.locals[slot].int()))
            }
            (a, Expr::Var { slot }) => {
                let (a, slot) = (self.number(a), *slot as usize);
                Box::new(move |r, st| op(a(r, st), st.vars[slot]))
            }
            (a, b) => {
                let (a, b) = (self.number(a), self.number(b));
                Box::new(move |r, st| op(a(r, st), b(r, st)))
            }
        }
    }

    /// `a == b` (`same`) or `a != b`. Values are equal when their kinds and payloads are: two numbers
    /// are compared as numbers, and a local against a constant number without building its value.
    fn equal(&self, a: &Expr, b: &Expr, same: bool) -> F<bool> {
        if is_number(a) && is_number(b) {
            return self.numbers(a, b, move |i, j| (i == j) == same);
        }
        match (a, b) {
            (Expr::Local(slot), Expr::Const(c)) => {
                let (slot, c) = (*slot as usize, *c);
                Box::new(move |r, _| (r.locals[slot] == c) == same)
            }
            (a, Expr::Const(c)) => {
                let (a, c) = (self.value(a), *c);
                Box::new(move |r, st| (a(r, st) == c) == same)
            }
            (a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                Box::new(move |r, st| (a(r, st) == b(r, st)) == same)
            }
        }
    }

    /// A call evaluates its arguments (one closure each, no loop) and applies the function to their
    /// values. Each function gets closures of its own, calling `call_values` with that function as a
    /// constant, which the compiler reduces to the function's own code (no dispatch at run time).
    fn call(&self, f: Func, args: &[Expr]) -> F<Value> {
        self.call_as(f, args, |v| v)
    }

    /// [`Compiler::call`] with its value converted by `to` in the same closure (`int`, `truthy`), so
    /// that a call read as a number or a truth (`has(x, p)` in a filter) is not a closure more.
    fn call_as<T: 'static>(
        &self,
        f: Func,
        args: &[Expr],
        to: impl Fn(Value) -> T + Copy + Send + Sync + RefUnwindSafe + 'static,
    ) -> F<T> {
        struct Specialised<'c, 'e, 'a, To> {
            compiler: &'c Compiler<'e>,
            args: &'a [Expr],
            to: To,
        }
        impl<T: 'static, To> EachFunc for Specialised<'_, '_, '_, To>
        where
            To: Fn(Value) -> T + Copy + Send + Sync + RefUnwindSafe + 'static,
        {
            type Out = F<T>;
            fn with<const FUNC: u8>(self) -> F<T> {
                let to = self.to;
                self.compiler.call_with(
                    move |r: &Run<'_>, st: &State, v: [Value; 3]| {
                        to(r.call_values(st, Func::at_index(FUNC), v))
                    },
                    self.args,
                )
            }
        }
        f.specialised(Specialised {
            compiler: self,
            args,
            to,
        })
    }

    fn call_with<C, T: 'static>(&self, call: C, args: &[Expr]) -> F<T>
    where
        C: Fn(&Run<'_>, &State, [Value; 3]) -> T + Copy + Send + Sync + RefUnwindSafe + 'static,
    {
        let none = Value::None;
        // A call on constants (`count(@HA, a_pawn)` once a ruleset is folded) keeps its arguments'
        // values, without a closure each.
        if args.len() <= 3 && args.iter().all(|a| matches!(a, Expr::Const(_))) {
            let mut values = [none; 3];
            for (v, a) in values.iter_mut().zip(args) {
                if let Expr::Const(c) = a {
                    *v = *c;
                }
            }
            return Box::new(move |r, st| call(r, st, values));
        }
        match args {
            [] => Box::new(move |r, st| call(r, st, [none; 3])),
            [a] => {
                let a = self.arg(a);
                Box::new(move |r, st| call(r, st, [a.get(r, st), none, none]))
            }
            [a, b] => {
                let (a, b) = (self.arg(a), self.arg(b));
                Box::new(move |r, st| call(r, st, [a.get(r, st), b.get(r, st), none]))
            }
            [a, b, c, ..] => {
                let (a, b, c) = (self.arg(a), self.arg(b), self.arg(c));
                Box::new(move |r, st| call(r, st, [a.get(r, st), b.get(r, st), c.get(r, st)]))
            }
        }
    }

    /// A call's argument: a constant or a local is read where the call is made (the commonest
    /// arguments: `tagged(from, throne)`, `along(path, from, throw)`), anything else is called.
    fn arg(&self, e: &Expr) -> Arg {
        match e {
            Expr::Const(v) => Arg::Const(*v),
            Expr::Local(slot) => Arg::Local(*slot as usize),
            e => Arg::Other(self.value(e)),
        }
    }
}

/// Whether `e`'s value is always a number (`Value::Int`), so that two of them are equal exactly when
/// their numbers are.
fn is_number(e: &Expr) -> bool {
    match e {
        Expr::Const(v) => matches!(v, Value::Int(_)),
        Expr::Var { .. } | Expr::Neg(_) | Expr::CountAt(..) => true,
        Expr::Bin(op, ..) => matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
        ),
        Expr::Ambient(a) => matches!(a, Ambient::Throw | Ambient::Ply | Ambient::Turn),
        Expr::Call(f, _) => f.result() == Ty::Int,
        Expr::Compiled(c) => is_number(c.source()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: Func, args: Vec<Expr>) -> Expr {
        Expr::Call(f, args)
    }

    #[test]
    fn only_calls_written_twice_without_a_record_or_a_search_are_kept() {
        let along = call(
            Func::Along,
            vec![Expr::Local(0), Expr::Local(1), Expr::Const(Value::Int(2))],
        );
        let tagged = |site: Expr| call(Func::Tagged, vec![site, Expr::Const(Value::Int(0))]);
        let twice = Expr::Bin(
            BinOp::Or,
            Box::new(tagged(along.clone())),
            Box::new(Expr::Not(Box::new(tagged(along.clone())))),
        );
        // `along(...)` and `tagged(along(...), 0)` are both written twice.
        assert_eq!(
            repeated_calls(&twice),
            [tagged(along.clone()), along.clone()]
        );
        assert!(
            repeated_calls(&tagged(along.clone())).is_empty(),
            "written once"
        );

        let seen = call(Func::SeenBefore, vec![Expr::Local(0)]);
        let recorded = Expr::Bin(BinOp::And, Box::new(seen.clone()), Box::new(seen));
        assert!(
            repeated_calls(&recorded).is_empty(),
            "each `seen_before` records"
        );

        let searching = Expr::Bin(
            BinOp::And,
            Box::new(twice.clone()),
            Box::new(Expr::Ambient(Ambient::Stuck)),
        );
        assert!(
            repeated_calls(&searching).is_empty(),
            "`stuck` evaluates other expressions"
        );

        let many: Vec<Expr> = (0..6)
            .map(|i| call(Func::Abs, vec![Expr::Const(Value::Int(i))]))
            .collect();
        let sum = many
            .iter()
            .chain(&many)
            .cloned()
            .reduce(|a, b| Expr::Bin(BinOp::Add, Box::new(a), Box::new(b)))
            .unwrap();
        assert_eq!(repeated_calls(&sum).len(), MEMO_CELLS);
    }
}

//! Expressions compiled to closures when a ruleset is compiled.
//!
//! A tree-walking evaluator pays, at every node, a call, a match on the node kind and, for an operator or
//! a function, another match on which one. A compiled expression is a tree of closures made once: each
//! knows its operator, its function or its constant operand, so evaluating it is one indirect call per
//! node and the work itself. The meaning of each node stays in one place: the closures call the same
//! helpers as `eval` (`binary`, `call_values`, `ambient`, ...).
//!
//! A call written more than once in one expression with the same arguments (`along(path, from, throw)`
//! five times in a race game's filter) is worked out once per evaluation: its first value is kept in a
//! memo cell of the thread, which the expression clears when it starts. Expressions have no effects but
//! `seen_before`'s record, which is never kept this way, so the value cannot change in between; and no
//! other expression is evaluated in between on the thread but in a search that `stuck` starts, so an
//! expression that reads `stuck` keeps nothing.

use std::sync::Arc;

use crate::eval::binary;
use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;
use std::cell::Cell;

type Eval = Result<Value, Box<EngineError>>;
type Closure = dyn for<'a> Fn(&Run<'a>, &State) -> Eval + Send + Sync + std::panic::RefUnwindSafe;
/// A node's closure, owned by its parent's: a `Box` is called through its data pointer directly (an
/// `Arc<dyn Fn>` would first find the data past the counts, at every call).
type F = Box<Closure>;

/// An expression with its compiled form. Compared, printed and inspected as the expression it was made
/// from ([`Compiled::source`]).
#[derive(Clone)]
pub struct Compiled {
    source: Box<Expr>,
    /// Shared, so that a game and its copies share their compiled expressions.
    run: Arc<Closure>,
}

impl Compiled {
    pub(crate) fn new(source: Expr) -> Compiled {
        let repeated = repeated_calls(&source);
        let body = compile(&source, &repeated);
        let run: Arc<Closure> = match repeated.len() {
            0 => Arc::from(body),
            n => Arc::new(move |r, st| {
                MEMO.with(|memo| memo[..n].iter().for_each(|cell| cell.set(None)));
                body(r, st)
            }),
        };
        Compiled {
            run,
            source: Box::new(source),
        }
    }
    /// The expression this was compiled from.
    pub fn source(&self) -> &Expr {
        &self.source
    }
    #[inline]
    pub(crate) fn eval(&self, run: &Run<'_>, st: &State) -> Eval {
        (self.run)(run, st)
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
    /// The values of the repeated calls of the expression being evaluated on this thread.
    static MEMO: [Cell<Option<Value>>; MEMO_CELLS] =
        const { [const { Cell::new(None) }; MEMO_CELLS] };
}

/// Calls worked out once per evaluation, by memo cell: the calls written at least twice in `e` (the
/// first [`MEMO_CELLS`] of them); none when `e` reads `stuck`.
fn repeated_calls(e: &Expr) -> Vec<Expr> {
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
    e.any_node(&|e| matches!(e, Expr::Call(Func::SeenBefore, _)))
}

/// Whether `e` reads `stuck`, which runs a move search (evaluating other expressions on this thread).
fn reads_stuck(e: &Expr) -> bool {
    e.any_node(&|e| matches!(e, Expr::Ambient(Ambient::Stuck)))
}

/// `e` compiled, reading a call of `repeated` from its memo cell once it has been worked out.
fn compile(e: &Expr, repeated: &[Expr]) -> F {
    let Some(cell) = repeated.iter().position(|r| r == e) else {
        return compile_node(e, repeated);
    };
    let work = compile_node(e, repeated);
    Box::new(move |r, st| match MEMO.with(|memo| memo[cell].get()) {
        Some(v) => Ok(v),
        None => {
            let v = work(r, st)?;
            MEMO.with(|memo| memo[cell].set(Some(v)));
            Ok(v)
        }
    })
}

fn compile_node(e: &Expr, repeated: &[Expr]) -> F {
    let compile = |e: &Expr| compile(e, repeated);
    match e {
        Expr::Const(v) => {
            let v = *v;
            Box::new(move |_, _| Ok(v))
        }
        Expr::Local(slot) => {
            let slot = *slot as usize;
            Box::new(move |r, _| Ok(r.locals[slot]))
        }
        Expr::Var { slot } => {
            let slot = *slot as usize;
            Box::new(move |_, st| Ok(Value::Int(st.vars[slot])))
        }
        Expr::VarOf { var, player } => {
            let (var, player) = (*var, compile(player));
            Box::new(move |r, st| Ok(r.var_of(st, var, player(r, st)?)))
        }
        Expr::Ambient(a) => {
            let a = *a;
            Box::new(move |r, st| r.ambient(st, a))
        }
        Expr::Not(x) => {
            let x = compile(x);
            Box::new(move |r, st| Ok(Value::Bool(!x(r, st)?.truthy())))
        }
        Expr::Neg(x) => {
            let x = compile(x);
            Box::new(move |r, st| Ok(Value::Int(x(r, st)?.int().wrapping_neg())))
        }
        Expr::Bin(op, a, b) => compile_binary(*op, a, b, repeated),
        Expr::Call(f, args) => compile_call(*f, args, repeated),
        Expr::EmptyAt(slot) => {
            let slot = *slot;
            Box::new(move |r, st| Ok(r.empty_at(st, slot)))
        }
        Expr::HasAt(slot, piece) => {
            let (slot, piece) = (*slot, *piece);
            Box::new(move |r, st| Ok(r.has_at(st, slot, piece)))
        }
        Expr::CountAt(slot, piece) => {
            let (slot, piece) = (*slot, *piece);
            Box::new(move |r, st| Ok(r.count_at(st, slot, piece)))
        }
        Expr::AlongAt(track, slot, n) => {
            let (track, slot, n) = (*track, *slot, *n);
            Box::new(move |r, _| Ok(r.along_at(track, slot, n)))
        }
        Expr::Compiled(c) => compile(c.source()),
    }
}

/// One closure per operator, and per shape of operands: a constant right operand (the usual `x == 4`,
/// `n > 0`) is captured instead of evaluated, and a local on the left is read directly.
fn compile_binary(op: BinOp, a: &Expr, b: &Expr, repeated: &[Expr]) -> F {
    let compile = |e: &Expr| compile(e, repeated);
    macro_rules! per_op {
        ($($name:ident),* $(,)?) => {
            match op {
                // `and` / `or` short-circuit: a later operand may be costly (`stuck`) or record
                // (`seen_before`).
                BinOp::And => {
                    let (a, b) = (compile(a), compile(b));
                    Box::new(move |r, st| Ok(Value::Bool(a(r, st)?.truthy() && b(r, st)?.truthy())))
                }
                BinOp::Or => {
                    let (a, b) = (compile(a), compile(b));
                    Box::new(move |r, st| Ok(Value::Bool(a(r, st)?.truthy() || b(r, st)?.truthy())))
                }
                $(BinOp::$name => binary_with(|x, y| binary(BinOp::$name, x, y), a, b, repeated),)*
            }
        };
    }
    per_op!(Eq, Ne, Le, Ge, Lt, Gt, Add, Sub, Mul, Div, Rem)
}

/// The closures of one operator, `op` being `binary` with that operator as a constant, which the compiler
/// reduces to the operator's own code (no dispatch on the operator at run time).
fn binary_with<O>(op: O, a: &Expr, b: &Expr, repeated: &[Expr]) -> F
where
    O: Fn(Value, Value) -> Value + Copy + Send + Sync + std::panic::RefUnwindSafe + 'static,
{
    let compile = |e: &Expr| compile(e, repeated);
    match (a, b) {
        (Expr::Local(slot), Expr::Const(c)) => {
            let (slot, c) = (*slot as usize, *c);
            Box::new(move |r, _| Ok(op(r.locals[slot], c)))
        }
        (a, Expr::Const(c)) => {
            let (a, c) = (compile(a), *c);
            Box::new(move |r, st| Ok(op(a(r, st)?, c)))
        }
        (a, b) => {
            let (a, b) = (compile(a), compile(b));
            Box::new(move |r, st| Ok(op(a(r, st)?, b(r, st)?)))
        }
    }
}

/// A call evaluates its arguments (one closure each, no loop) and applies the function to their values.
/// Each function gets closures of its own, calling `call_values` with that function as a constant, which
/// the compiler reduces to the function's own code (no dispatch on the function at run time).
fn compile_call(f: Func, args: &[Expr], repeated: &[Expr]) -> F {
    macro_rules! per_func {
        ($($name:ident),* $(,)?) => {
            match f {
                $(Func::$name => call_with(
                    |r: &Run<'_>, st: &State, v: [Value; 3]| r.call_values(st, Func::$name, v),
                    args,
                    repeated,
                ),)*
            }
        };
    }
    per_func!(
        Count,
        Empty,
        Has,
        Hand,
        NextPlayer,
        Min,
        Max,
        Abs,
        PieceOwner,
        Total,
        MostOnAPoint,
        Along,
        IndexOn,
        SiteOwner,
        Route,
        Tagged,
        SeenBefore,
        Length,
        Repetitions,
    )
}

fn call_with<C>(call: C, args: &[Expr], repeated: &[Expr]) -> F
where
    C: Fn(&Run<'_>, &State, [Value; 3]) -> Value
        + Copy
        + Send
        + Sync
        + std::panic::RefUnwindSafe
        + 'static,
{
    let compile = |e: &Expr| compile(e, repeated);
    let none = Value::None;
    // A call on constants (`count(@HA, a_pawn)` once a ruleset is folded) keeps its arguments' values,
    // without a closure each.
    if args.len() <= 3 && args.iter().all(|a| matches!(a, Expr::Const(_))) {
        let mut values = [none; 3];
        for (v, a) in values.iter_mut().zip(args) {
            if let Expr::Const(c) = a {
                *v = *c;
            }
        }
        return Box::new(move |r, st| Ok(call(r, st, values)));
    }
    match args {
        [] => Box::new(move |r, st| Ok(call(r, st, [none; 3]))),
        [a] => {
            let a = compile(a);
            Box::new(move |r, st| Ok(call(r, st, [a(r, st)?, none, none])))
        }
        [a, b] => {
            let (a, b) = (compile(a), compile(b));
            Box::new(move |r, st| Ok(call(r, st, [a(r, st)?, b(r, st)?, none])))
        }
        [a, b, c, ..] => {
            let (a, b, c) = (compile(a), compile(b), compile(c));
            Box::new(move |r, st| Ok(call(r, st, [a(r, st)?, b(r, st)?, c(r, st)?])))
        }
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

//! Expressions compiled to closures when a ruleset is compiled.
//!
//! A tree-walking evaluator pays, at every node, a call, a match on the node kind and, for an operator or
//! a function, another match on which one. A compiled expression is a tree of closures made once: each
//! knows its operator, its function or its constant operand, so evaluating it is one indirect call per
//! node and the work itself. The meaning of each node stays in one place: the closures call the same
//! helpers as `eval` (`binary`, `call_values`, `ambient`, ...).

use std::sync::Arc;

use crate::eval::binary;
use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;

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
        Compiled {
            run: Arc::from(compile(&source)),
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
}

fn compile(e: &Expr) -> F {
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
        Expr::Bin(op, a, b) => compile_binary(*op, a, b),
        Expr::Call(f, args) => compile_call(*f, args),
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
fn compile_binary(op: BinOp, a: &Expr, b: &Expr) -> F {
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
                $(BinOp::$name => binary_with(|x, y| binary(BinOp::$name, x, y), a, b),)*
            }
        };
    }
    per_op!(Eq, Ne, Le, Ge, Lt, Gt, Add, Sub, Mul, Div, Rem)
}

/// The closures of one operator, `op` being `binary` with that operator as a constant, which the compiler
/// reduces to the operator's own code (no dispatch on the operator at run time).
fn binary_with<O>(op: O, a: &Expr, b: &Expr) -> F
where
    O: Fn(Value, Value) -> Value + Copy + Send + Sync + std::panic::RefUnwindSafe + 'static,
{
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
fn compile_call(f: Func, args: &[Expr]) -> F {
    macro_rules! per_func {
        ($($name:ident),* $(,)?) => {
            match f {
                $(Func::$name => call_with(
                    |r: &Run<'_>, st: &State, v: [Value; 3]| r.call_values(st, Func::$name, v),
                    args,
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

fn call_with<C>(call: C, args: &[Expr]) -> F
where
    C: Fn(&Run<'_>, &State, [Value; 3]) -> Value
        + Copy
        + Send
        + Sync
        + std::panic::RefUnwindSafe
        + 'static,
{
    let none = Value::None;
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

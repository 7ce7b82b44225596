//! Evaluating expressions, and preparing them when a ruleset is compiled.
//!
//! `eval` is small so that the common leaves (constants, locals, variables) and compiled expressions cost
//! a call and a branch; other nodes (in games built by hand, not through `fold_constants`) go through
//! `eval_node`. What each node means is written once, in the helpers `binary`, `call_values`,
//! `ambient`, `empty_at`, ..., which both `eval_node` and the compiled closures of compile.rs call.
//!
//! Preparing a compiled ruleset (`Game::fold_constants`) is in fold.rs.

use crate::PieceId;
use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;

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

    /// Whether `e` holds: its value's `truthy()`, without building the value of a compiled expression.
    #[inline]
    pub(crate) fn truthy(&self, st: &State, e: &Expr) -> Result<bool, Box<EngineError>> {
        match e {
            Expr::Compiled(c) => c.truthy(self, st),
            _ => Ok(self.eval(st, e)?.truthy()),
        }
    }

    /// `e` as a number: its value's `int()`, without building the value of a compiled expression.
    #[inline]
    pub(crate) fn int(&self, st: &State, e: &Expr) -> Result<i64, Box<EngineError>> {
        match e {
            Expr::Compiled(c) => c.int(self, st),
            Expr::Var { slot } => Ok(st.vars[*slot as usize]),
            _ => Ok(self.eval(st, e)?.int()),
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
            Expr::Neg(x) => Value::Int(self.eval(st, x)?.int().saturating_neg()),
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
            Value::Site(s) => st.site_is_empty(self.game, s),
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
        match a {
            Ambient::Stuck => self.stuck(st),
            a => Ok(self.position_ambient(st, a)),
        }
    }
    /// `stuck`: whether the player to move has no ordinary move, found by a search, which may fail.
    pub(crate) fn stuck(&self, st: &State) -> Eval {
        let g = self.game;
        Ok(Value::Bool(if st.chance_due {
            false
        } else if self.settling {
            !g.has_ordinary_move_settling(st)?
        } else {
            !g.has_ordinary_move(st)?
        }))
    }
    /// The ambient values read from the position alone: all but `stuck` (answered by [`Run::stuck`]).
    #[inline(always)]
    pub(crate) fn position_ambient(&self, st: &State, a: Ambient) -> Value {
        match a {
            Ambient::Mover => Value::Player(st.to_move),
            Ambient::Throw => st
                .throw
                .map_or(Value::Int(0), |t| Value::Int(self.game.throw_row(t).value)),
            Ambient::Ply => Value::Int(st.ply as i64),
            Ambient::Turn => Value::Int(st.turn as i64),
            Ambient::Stuck => Value::None,
        }
    }

    /// A function on its argument values (the table of builtins.rs). Inlined, so that a compiled call
    /// of one function keeps only that function's code (compile.rs).
    #[inline(always)]
    pub(crate) fn call_values(&self, st: &State, f: Func, v: [Value; 3]) -> Value {
        f.apply(self.game, Some((self, st)), v)
            .unwrap_or(Value::None)
    }
}

#[inline]
pub(crate) fn binary(op: BinOp, x: Value, y: Value) -> Value {
    match op {
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt => Value::Bool(compare(op, x.int(), y.int())),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
            Value::Int(arith(op, x.int(), y.int()))
        }
        BinOp::And => Value::Bool(x.truthy() && y.truthy()),
        BinOp::Or => Value::Bool(x.truthy() || y.truthy()),
    }
}

/// An ordering of two numbers (`<=`, `>=`, `<`, `>`; false for any other operator).
#[inline(always)]
pub(crate) fn compare(op: BinOp, i: i64, j: i64) -> bool {
    match op {
        BinOp::Le => i <= j,
        BinOp::Ge => i >= j,
        BinOp::Lt => i < j,
        BinOp::Gt => i > j,
        _ => false,
    }
}

/// Arithmetic on two numbers (`+ - * / %`, saturating; 0 for any other operator).
#[inline(always)]
pub(crate) fn arith(op: BinOp, i: i64, j: i64) -> i64 {
    match op {
        BinOp::Add => i.saturating_add(j),
        BinOp::Sub => i.saturating_sub(j),
        BinOp::Mul => i.saturating_mul(j),
        // Division by zero gives 0 rather than a crash; documented in docs/dsl.md. (The one quotient
        // past the limits, the least number divided by -1, saturates; its remainder is 0.)
        BinOp::Div if j == 0 => 0,
        BinOp::Div => i.saturating_div(j),
        BinOp::Rem => i.checked_rem(j).unwrap_or(0),
        _ => 0,
    }
}

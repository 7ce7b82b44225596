//! Evaluating expressions, and preparing them when a ruleset is compiled.
//!
//! `eval` is small so that the common leaves (constants, locals, variables) and compiled expressions cost
//! a call and a branch; other nodes (in games built by hand, not through `fold_constants`) go through
//! `eval_node`. What each node means is written once, in the helpers `binary`, `call_values`,
//! `ambient`, `empty_at`, ..., which both `eval_node` and the compiled closures of compile.rs call. The
//! functions that read only the ruleset (`hand`, `route`, `along`, `tagged`, ...) are in `pure_call`,
//! which the folder uses too.
//!
//! Preparing a compiled ruleset (`Game::fold_constants`) is in fold.rs.

use crate::interp::EngineError;
use crate::ir::*;
use crate::run::Run;
use crate::state::State;
use crate::{Game, PieceId};

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
                Value::Site(s) => Value::Bool(st.site_is_empty(g, s)),
                _ => Value::Bool(false),
            },
            Func::Has => match (v[0], v[1]) {
                (Value::Site(s), Value::Piece(p)) => Value::Bool(st.count(g, s, p) > 0),
                _ => Value::Bool(false),
            },
            Func::Total => match v[0] {
                Value::Piece(p) => Value::Int(st.total(g, p)),
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
pub(crate) fn pure_call(g: &Game, f: Func, v: [Value; 3]) -> Option<Value> {
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

fn site_key(v: Value) -> u64 {
    match v {
        Value::Site(s) => (s as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
        _ => 0,
    }
}

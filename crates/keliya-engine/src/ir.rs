//! The compiled form of DSL text: names resolved to indices, types checked, parameters folded in.
//! `at` fields index the span table the rules crate keeps, so runtime errors can point at source.

use keliya_board::SiteId;

pub use crate::builtins::{Access, Effect, Func, Ty};
pub use crate::compile::Compiled;
use crate::{PieceId, PlayerId};

/// A whole word for the kind, so that every payload sits in the second word: a value is then copied as
/// two words. (With a one-byte kind the small payloads share the first word, and copying a value just
/// written reads it back in odd pieces, which stalls.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u64)]
pub enum Value {
    None,
    Int(i64),
    Bool(bool),
    Site(SiteId),
    Player(PlayerId),
    Piece(PieceId),
    Track(u16),
}

impl Value {
    pub fn int(self) -> i64 {
        match self {
            Value::Int(v) => v,
            Value::Bool(b) => b as i64,
            _ => 0,
        }
    }
    pub fn truthy(self) -> bool {
        matches!(self, Value::Bool(true)) || matches!(self, Value::Int(v) if v != 0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Values known only while a turn is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ambient {
    Mover,
    Throw,
    /// The player to move has no legal move (only meaningful in end conditions).
    Stuck,
    Ply,
    Turn,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    Local(u16),
    Var {
        slot: u16,
    },
    VarOf {
        var: u16,
        player: Box<Expr>,
    },
    Ambient(Ambient),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    /// `empty(x)` of a local `x`: folded from `Call(Empty, [Local])` when a ruleset is compiled (the most
    /// common filter, evaluated without a call).
    EmptyAt(u16),
    /// `has(x, piece)` of a local `x` and a piece kind named in the rules, folded the same way.
    HasAt(u16, PieceId),
    /// `count(x, piece)` of a local `x` and a named piece kind, folded the same way.
    CountAt(u16, PieceId),
    /// `along(track, x, n)` of a named track, a local `x` and a constant `n`, folded the same way.
    AlongAt(u16, u16, i64),
    /// An expression compiled to closures when the ruleset is compiled (compile.rs); it reads as the
    /// expression it was made from.
    Compiled(Compiled),
}

/// What a `choose` or `for` ranges over.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// Every on-board site.
    Sites,
    /// On-board sites holding at least one piece of the kind (also narrowed to, when the ruleset is
    /// compiled, from `choose x in sites() where ... has(x, piece) ...` or `count(x, piece) > 0`).
    SitesWith(Expr),
    Neighbours(Expr),
    /// (over, land) pairs along straight lines.
    Leaps(Expr),
    /// Integers from..=to.
    Range(Expr, Expr),
    /// The points of a track, in order.
    Track(Expr),
    /// Every player, in turn order.
    Players,
    /// On-board sites holding at least one piece of any kind. Not written by authors: a
    /// `choose x in sites() where ... count(x) > 0 ...` is narrowed to it when the ruleset is compiled.
    Occupied,
    /// The one site an expression gives, when it is an on-board site. Not written by authors: a
    /// `choose x in sites() where ... x == E ...` (E not reading `x`) is narrowed to it when the ruleset
    /// is compiled, so the options are found without testing every site.
    Just(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Choose {
        id: u16,
        slots: Vec<u16>,
        domain: Domain,
        filter: Option<Expr>,
        body: Vec<Stmt>,
        at: usize,
    },
    For {
        slots: Vec<u16>,
        domain: Domain,
        filter: Option<Expr>,
        body: Vec<Stmt>,
        at: usize,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
        at: usize,
    },
    SetLocal {
        slot: u16,
        op: AssignOp,
        value: Expr,
    },
    SetVar {
        var: u16,
        player: Option<Expr>,
        op: AssignOp,
        value: Expr,
        at: usize,
    },
    Effect {
        effect: Effect,
        args: Vec<Expr>,
        at: usize,
    },
}

impl Domain {
    /// Calls `f` on each expression the domain is made of.
    pub fn each_expr(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match self {
            Domain::Sites | Domain::Players | Domain::Occupied => {}
            Domain::SitesWith(e)
            | Domain::Neighbours(e)
            | Domain::Leaps(e)
            | Domain::Track(e)
            | Domain::Just(e) => f(e),
            Domain::Range(a, b) => {
                f(a);
                f(b);
            }
        }
    }
}

/// Calls `f` on every expression of a block, nested blocks included: conditions, domains, filters, values
/// and arguments (each whole; `f` goes into their parts if it needs to).
pub fn each_expr(stmts: &mut [Stmt], f: &mut impl FnMut(&mut Expr)) {
    for s in stmts {
        match s {
            Stmt::Choose {
                domain,
                filter,
                body,
                ..
            }
            | Stmt::For {
                domain,
                filter,
                body,
                ..
            } => {
                domain.each_expr(f);
                filter.iter_mut().for_each(&mut *f);
                each_expr(body, f);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                f(cond);
                each_expr(then, f);
                each_expr(otherwise, f);
            }
            Stmt::While { cond, body, .. } => {
                f(cond);
                each_expr(body, f);
            }
            Stmt::SetLocal { value, .. } => f(value),
            Stmt::SetVar { player, value, .. } => {
                player.iter_mut().for_each(&mut *f);
                f(value);
            }
            Stmt::Effect { args, .. } => args.iter_mut().for_each(&mut *f),
        }
    }
}

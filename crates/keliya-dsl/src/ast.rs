//! The syntax tree. Every node keeps the byte range it came from, relative to the start of the DSL text.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
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

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
    /// Binding strength; higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    /// `@name`: a site named literally, for names that are not identifiers (`@1A`).
    Site(String),
    /// A bare name: a local, a parameter, a variable, a player, a piece kind or a site.
    Name(String),
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    Index {
        name: Ident,
        index: Box<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// A decision of the player: one branch per element of `domain` that passes `filter`.
    Choose {
        vars: Vec<Ident>,
        domain: Expr,
        filter: Option<Expr>,
        body: Vec<Stmt>,
    },
    /// Deterministic iteration over every element.
    For {
        vars: Vec<Ident>,
        domain: Expr,
        filter: Option<Expr>,
        body: Vec<Stmt>,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    Let {
        name: Ident,
        value: Expr,
    },
    Assign {
        target: Ident,
        index: Option<Expr>,
        op: AssignOp,
        value: Expr,
    },
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// Structural equality that ignores spans, so reformatting a rule is not a change.
pub trait SameShape {
    fn same_shape(&self, other: &Self) -> bool;
}

impl SameShape for Vec<Stmt> {
    fn same_shape(&self, other: &Self) -> bool {
        crate::print::program_to_string(self) == crate::print::program_to_string(other)
    }
}

impl SameShape for Expr {
    fn same_shape(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

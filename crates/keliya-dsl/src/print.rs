//! Canonical text of the AST: one statement per line, two-space indents, minimal parentheses.
//! Parsing the printed text gives the same tree (up to spans); `keliya show` and `diff` print with it.

use std::fmt::{self, Display, Write};

use crate::ast::*;

impl Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, 0)
    }
}

fn write_expr(f: &mut impl Write, e: &Expr, min_prec: u8) -> fmt::Result {
    match &e.kind {
        ExprKind::Int(v) => write!(f, "{v}"),
        ExprKind::Bool(b) => write!(f, "{b}"),
        ExprKind::Site(s) => write!(f, "@{s}"),
        ExprKind::Name(n) => f.write_str(n),
        ExprKind::Call { name, args } => {
            write!(f, "{}(", name.name)?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_expr(f, a, 0)?;
            }
            f.write_char(')')
        }
        ExprKind::Index { name, index } => {
            write!(f, "{}[", name.name)?;
            write_expr(f, index, 0)?;
            f.write_char(']')
        }
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => {
            f.write_char('-')?;
            write_expr(f, operand, 6)
        }
        ExprKind::Unary {
            op: UnOp::Not,
            operand,
        } => {
            let paren = min_prec > 3;
            if paren {
                f.write_char('(')?;
            }
            f.write_str("not ")?;
            write_expr(f, operand, 3)?;
            if paren {
                f.write_char(')')?;
            }
            Ok(())
        }
        ExprKind::Binary { op, left, right } => {
            let prec = op.precedence();
            let paren = prec < min_prec;
            if paren {
                f.write_char('(')?;
            }
            write_expr(f, left, prec)?;
            write!(f, " {} ", op.symbol())?;
            write_expr(f, right, prec + 1)?;
            if paren {
                f.write_char(')')?;
            }
            Ok(())
        }
    }
}

pub fn program_to_string(stmts: &[Stmt]) -> String {
    let mut out = String::new();
    write_block(&mut out, stmts, 0).expect("writing to a String cannot fail");
    out
}

impl Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_stmt(&mut s, self, 0)?;
        f.write_str(s.trim_end())
    }
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_block(out: &mut String, stmts: &[Stmt], level: usize) -> fmt::Result {
    for s in stmts {
        write_stmt(out, s, level)?;
    }
    Ok(())
}

fn write_body(out: &mut String, body: &[Stmt], level: usize) -> fmt::Result {
    out.push_str("{\n");
    write_block(out, body, level + 1)?;
    indent(out, level);
    out.push('}');
    Ok(())
}

fn write_stmt(out: &mut String, s: &Stmt, level: usize) -> fmt::Result {
    indent(out, level);
    write_stmt_inline(out, s, level)?;
    out.push('\n');
    Ok(())
}

fn write_stmt_inline(out: &mut String, s: &Stmt, level: usize) -> fmt::Result {
    match &s.kind {
        StmtKind::Choose {
            vars,
            domain,
            filter,
            body,
        }
        | StmtKind::For {
            vars,
            domain,
            filter,
            body,
        } => {
            let kw = if matches!(s.kind, StmtKind::Choose { .. }) {
                "choose"
            } else {
                "for"
            };
            let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
            write!(out, "{kw} {} in ", names.join(", "))?;
            write_expr(out, domain, 0)?;
            if let Some(w) = filter {
                out.push_str(" where ");
                write_expr(out, w, 0)?;
            }
            out.push(' ');
            write_body(out, body, level)
        }
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            out.push_str("if ");
            write_expr(out, cond, 0)?;
            out.push(' ');
            write_body(out, then, level)?;
            match otherwise.as_slice() {
                [] => Ok(()),
                [only] if matches!(only.kind, StmtKind::If { .. }) => {
                    out.push_str(" else ");
                    write_stmt_inline(out, only, level)
                }
                _ => {
                    out.push_str(" else ");
                    write_body(out, otherwise, level)
                }
            }
        }
        StmtKind::While { cond, body } => {
            out.push_str("while ");
            write_expr(out, cond, 0)?;
            out.push(' ');
            write_body(out, body, level)
        }
        StmtKind::Let { name, value } => {
            write!(out, "let {} = ", name.name)?;
            write_expr(out, value, 0)
        }
        StmtKind::Assign {
            target,
            index,
            op,
            value,
        } => {
            out.push_str(&target.name);
            if let Some(i) = index {
                out.push('[');
                write_expr(out, i, 0)?;
                out.push(']');
            }
            out.push_str(match op {
                AssignOp::Set => " = ",
                AssignOp::Add => " += ",
                AssignOp::Sub => " -= ",
            });
            write_expr(out, value, 0)
        }
        StmtKind::Call { name, args } => {
            let e = Expr {
                kind: ExprKind::Call {
                    name: name.clone(),
                    args: args.clone(),
                },
                span: s.span,
            };
            write_expr(out, &e, 0)
        }
    }
}

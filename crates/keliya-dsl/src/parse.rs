use pest::Parser;
use pest::iterators::Pair;

use crate::ast::*;

#[derive(pest_derive::Parser)]
#[grammar = "keliya.pest"]
struct KeliyaParser;

/// A syntax error, with the byte range it concerns (relative to the DSL text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DslError {
    pub span: Span,
    pub message: String,
    pub hint: Option<String>,
}

/// Longest DSL text accepted: a bound against hostile input.
pub const MAX_SOURCE_LEN: usize = 64 * 1024;
/// Deepest tree accepted. Every level counts alike: a bracket, an operator (`1 + 1 + 1` is two levels: the
/// operators of a chain nest), a `not` or `-`, a call, an index, a block and an `else if`. Every later pass
/// over the tree (lowering, folding, printing, compiling, evaluating, the diff) recurses along it, so
/// this one bound keeps their stacks small; a text deeper than this is refused here, with its place.
pub const MAX_DEPTH: usize = 256;

pub fn parse_program(src: &str) -> Result<Vec<Stmt>, DslError> {
    let pair = parse_rule(Rule::program, src)?;
    let mut out = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() != Rule::EOI {
            out.push(statement(p, 0)?);
        }
    }
    Ok(out)
}

pub fn parse_expression(src: &str) -> Result<Expr, DslError> {
    let pair = parse_rule(Rule::expression, src)?;
    let inner = pair
        .into_inner()
        .next()
        .expect("grammar: expression holds expr");
    expr(inner, 0)
}

fn parse_rule(rule: Rule, src: &str) -> Result<Pair<'_, Rule>, DslError> {
    if src.len() > MAX_SOURCE_LEN {
        return Err(DslError {
            span: Span { start: 0, end: 0 },
            message: format!(
                "rule text is {} bytes; at most {MAX_SOURCE_LEN} are accepted",
                src.len()
            ),
            hint: None,
        });
    }
    if let Some(at) = nesting_too_deep(src) {
        return Err(DslError {
            span: Span {
                start: at,
                end: at + 1,
            },
            message: too_deep_message(),
            hint: Some(too_deep_hint()),
        });
    }
    // Bounds the parser's work on pathological input; a normal rule needs far fewer calls.
    pest::set_call_limit(std::num::NonZeroUsize::new(5_000_000));
    let result = KeliyaParser::parse(rule, src);
    pest::set_call_limit(None);
    match result {
        Ok(mut pairs) => Ok(pairs.next().expect("grammar: entry rule matched")),
        Err(e) => Err(convert_error(e, src)),
    }
}

fn too_deep_message() -> String {
    format!("nesting deeper than {MAX_DEPTH} levels")
}

fn too_deep_hint() -> String {
    "split the rule into smaller rules, or the expression into `let`s".into()
}

fn too_deep(span: Span) -> DslError {
    DslError {
        span,
        message: too_deep_message(),
        hint: Some(too_deep_hint()),
    }
}

/// The brackets alone, before parsing, so that the parser itself never recurses deeper than the limit.
fn nesting_too_deep(src: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in src.char_indices() {
        match c {
            '(' | '{' | '[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn convert_error(e: pest::error::Error<Rule>, src: &str) -> DslError {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let (message, hint) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            expected.sort_unstable();
            expected.dedup();
            // The atoms of an expression listed one by one read badly; say what they add up to.
            if expected.contains(&"a number") && expected.contains(&"a name") {
                expected.retain(|e| {
                    !matches!(
                        *e,
                        "a number" | "a name" | "a site (`@name`)" | "`true` or `false`"
                    )
                });
                expected.insert(0, "an expression");
            }
            let found = match src[start..].chars().next() {
                None => "the end of the text".to_string(),
                // A character that shows as nothing, or as a plain space, is named and numbered.
                Some(c) if c.is_whitespace() || c.is_control() || is_invisible(c) => {
                    format!("{} (U+{:04X})", invisible_name(c), c as u32)
                }
                Some(_) => {
                    let word: String = src[start..]
                        .chars()
                        .take_while(|c| !c.is_whitespace())
                        .take(20)
                        .collect();
                    format!("`{word}`")
                }
            };
            let message = if expected.is_empty() {
                format!("unexpected {found}")
            } else {
                format!("expected {}, found {found}", join_or(&expected))
            };
            let rest = &src[start..];
            // The word before the error, for `elif` (read as a variable about to be assigned).
            let before = src[..start].trim_end();
            let hint = if rest.starts_with('=') && !rest.starts_with("==") {
                Some("comparison is written `==`".to_string())
            } else if rest.starts_with("&&") {
                Some("`and` joins two conditions: `a and b`".to_string())
            } else if rest.starts_with("||") {
                Some("`or` joins two conditions: `a or b`".to_string())
            } else if rest.starts_with('!') && !rest.starts_with("!=") {
                Some("a condition is negated with `not`: `not a`".to_string())
            } else if before.ends_with("elif")
                && before[..before.len() - 4]
                    .chars()
                    .last()
                    .is_none_or(|c| !c.is_alphanumeric() && c != '_')
            {
                Some("write `else if`: `} else if condition {`".to_string())
            } else if src[..start].matches('{').count() > src[..start].matches('}').count()
                && start == src.len()
            {
                Some("a `{` is not closed".to_string())
            } else {
                None
            };
            (message, hint)
        }
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    DslError {
        span: Span {
            start,
            end: end.max(start),
        },
        message,
        hint,
    }
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::expr | Rule::primary => "an expression",
        Rule::statement
        | Rule::choose_stmt
        | Rule::for_stmt
        | Rule::if_stmt
        | Rule::while_stmt
        | Rule::let_stmt => "a statement",
        Rule::assign_stmt | Rule::call_stmt | Rule::call => "a statement",
        Rule::block => "`{`",
        Rule::ident | Rule::place_ref | Rule::binding => "a name",
        Rule::int => "a number",
        Rule::site => "a site (`@name`)",
        Rule::boolean => "`true` or `false`",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::where_clause | Rule::kw_where => "`where`",
        Rule::kw_in => "`in`",
        Rule::kw_else => "`else`",
        Rule::or | Rule::and | Rule::eq | Rule::ne | Rule::le | Rule::ge | Rule::lt | Rule::gt => {
            "an operator"
        }
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem => "an operator",
        Rule::EOI => "the end of the text",
        _ => return None,
    })
}

fn span_of(p: &Pair<'_, Rule>) -> Span {
    let s = p.as_span();
    Span {
        start: s.start(),
        end: s.end(),
    }
}

fn ident(p: Pair<'_, Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span_of(&p),
    }
}

fn block(p: Pair<'_, Rule>, depth: usize) -> Result<Vec<Stmt>, DslError> {
    p.into_inner().map(|s| statement(s, depth + 1)).collect()
}

/// `depth`: the levels above this statement (blocks and `else if`s); its expressions nest below it.
fn statement(p: Pair<'_, Rule>, depth: usize) -> Result<Stmt, DslError> {
    let span = span_of(&p);
    if depth >= MAX_DEPTH {
        return Err(too_deep(Span {
            start: span.start,
            end: span.start + 1,
        }));
    }
    // This statement's own level; its expressions and its blocks nest below it.
    let depth = depth + 1;
    let rule = p.as_rule();
    let mut inner = p.into_inner().filter(|q| !is_keyword(q.as_rule()));
    let kind = match rule {
        Rule::choose_stmt | Rule::for_stmt => {
            let vars: Vec<Ident> = inner
                .next()
                .expect("binding")
                .into_inner()
                .map(ident)
                .collect();
            let domain = expr(inner.next().expect("domain"), depth)?;
            let mut filter = None;
            let mut body = Vec::new();
            for q in inner {
                match q.as_rule() {
                    Rule::where_clause => {
                        let e = q
                            .into_inner()
                            .find(|x| x.as_rule() == Rule::expr)
                            .expect("where expr");
                        filter = Some(expr(e, depth)?);
                    }
                    _ => body = block(q, depth)?,
                }
            }
            if rule == Rule::choose_stmt {
                StmtKind::Choose {
                    vars,
                    domain,
                    filter,
                    body,
                }
            } else {
                StmtKind::For {
                    vars,
                    domain,
                    filter,
                    body,
                }
            }
        }
        Rule::if_stmt => {
            let cond = expr(inner.next().expect("cond"), depth)?;
            let then = block(inner.next().expect("then"), depth)?;
            let otherwise = match inner.next() {
                None => Vec::new(),
                Some(q) if q.as_rule() == Rule::if_stmt => vec![statement(q, depth + 1)?],
                Some(q) => block(q, depth)?,
            };
            StmtKind::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::while_stmt => {
            let cond = expr(inner.next().expect("cond"), depth)?;
            StmtKind::While {
                cond,
                body: block(inner.next().expect("body"), depth)?,
            }
        }
        Rule::let_stmt => {
            let name = ident(inner.next().expect("name"));
            StmtKind::Let {
                name,
                value: expr(inner.next().expect("value"), depth)?,
            }
        }
        Rule::assign_stmt => {
            let mut place = inner.next().expect("place").into_inner();
            let target = ident(place.next().expect("target"));
            let index = place.next().map(|e| expr(e, depth)).transpose()?;
            let op = match inner.next().expect("op").as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StmtKind::Assign {
                target,
                index,
                op,
                value: expr(inner.next().expect("value"), depth)?,
            }
        }
        Rule::call_stmt => {
            let call = inner.next().expect("call");
            let mut parts = call.into_inner();
            let name = ident(parts.next().expect("name"));
            let args = parts.map(|a| expr(a, depth)).collect::<Result<_, _>>()?;
            StmtKind::Call { name, args }
        }
        other => unreachable!("grammar: unexpected statement rule {other:?}"),
    };
    Ok(Stmt { kind, span })
}

fn is_keyword(r: Rule) -> bool {
    matches!(
        r,
        Rule::kw_choose
            | Rule::kw_for
            | Rule::kw_in
            | Rule::kw_if
            | Rule::kw_else
            | Rule::kw_while
            | Rule::kw_let
    )
}

/// An expression below `depth` levels (statements, or the expressions it is inside).
fn expr(p: Pair<'_, Rule>, depth: usize) -> Result<Expr, DslError> {
    expr_with_height(p, depth).map(|(e, _)| e)
}

/// Precedence climbing over the flat `prefix* primary (infix prefix* primary)*` sequence, giving the tree
/// and its height (a leaf is 1). A chain of one precedence is built in a loop, so the climb recurses once
/// per precedence level and per prefix, never per operator; the height is checked at every node built.
fn expr_with_height(p: Pair<'_, Rule>, depth: usize) -> Result<(Expr, usize), DslError> {
    let items: Vec<Pair<'_, Rule>> = p.into_inner().collect();
    let mut pos = 0;
    climb(&items, &mut pos, 0, depth)
}

/// Refuses a node of height `height` below `depth` levels, at `span`, past the limit.
fn bounded(depth: usize, height: usize, span: Span) -> Result<usize, DslError> {
    if depth + height > MAX_DEPTH {
        Err(too_deep(span))
    } else {
        Ok(height)
    }
}

fn binop(r: Rule) -> Option<BinOp> {
    Some(match r {
        Rule::or => BinOp::Or,
        Rule::and => BinOp::And,
        Rule::eq => BinOp::Eq,
        Rule::ne => BinOp::Ne,
        Rule::le => BinOp::Le,
        Rule::ge => BinOp::Ge,
        Rule::lt => BinOp::Lt,
        Rule::gt => BinOp::Gt,
        Rule::add => BinOp::Add,
        Rule::sub => BinOp::Sub,
        Rule::mul => BinOp::Mul,
        Rule::div => BinOp::Div,
        Rule::rem => BinOp::Rem,
        _ => return None,
    })
}

fn climb(
    items: &[Pair<'_, Rule>],
    pos: &mut usize,
    min_prec: u8,
    depth: usize,
) -> Result<(Expr, usize), DslError> {
    let (mut left, mut height) = unary(items, pos, depth)?;
    while let Some(op) = items.get(*pos).and_then(|p| binop(p.as_rule())) {
        let prec = op.precedence();
        if prec < min_prec {
            break;
        }
        let op_span = span_of(&items[*pos]);
        *pos += 1;
        let (right, right_height) = climb(items, pos, prec + 1, depth)?;
        height = bounded(depth, height.max(right_height) + 1, op_span)?;
        let span = Span {
            start: left.span.start,
            end: right.span.end,
        };
        left = Expr {
            kind: ExprKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            span,
        };
    }
    Ok((left, height))
}

fn unary(
    items: &[Pair<'_, Rule>],
    pos: &mut usize,
    depth: usize,
) -> Result<(Expr, usize), DslError> {
    let p = &items[*pos];
    *pos += 1;
    let op = match p.as_rule() {
        Rule::not => UnOp::Not,
        Rule::neg => UnOp::Neg,
        _ => return primary(p.clone(), depth),
    };
    let op_span = span_of(p);
    // A run of prefixes nests as deep as it is long: refused before the recursion below goes that deep.
    let prefixes = items[*pos - 1..]
        .iter()
        .take_while(|q| matches!(q.as_rule(), Rule::not | Rule::neg))
        .count();
    bounded(depth, prefixes + 1, op_span)?;
    // `not` binds looser than comparison (`not a == b` is `not (a == b)`); `-` binds tightest.
    let (operand, height) = if op == UnOp::Not {
        climb(items, pos, 3, depth)?
    } else {
        unary(items, pos, depth)?
    };
    let height = bounded(depth, height + 1, op_span)?;
    let span = Span {
        start: op_span.start,
        end: operand.span.end,
    };
    Ok((
        Expr {
            kind: ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
            span,
        },
        height,
    ))
}

fn primary(p: Pair<'_, Rule>, depth: usize) -> Result<(Expr, usize), DslError> {
    let span = span_of(&p);
    // The height of what is inside a call's or an index's brackets.
    let mut inner = 0;
    let kind = match p.as_rule() {
        Rule::int => match p.as_str().parse::<i64>() {
            Ok(v) if v <= i32::MAX as i64 => ExprKind::Int(v),
            _ => {
                return Err(DslError {
                    span,
                    message: format!("number `{}` is too large", p.as_str()),
                    hint: Some(format!("numbers go up to {}", i32::MAX)),
                });
            }
        },
        Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
        Rule::site => ExprKind::Site(p.as_str()[1..].to_string()),
        Rule::ident => ExprKind::Name(p.as_str().to_string()),
        Rule::call => {
            let mut parts = p.into_inner();
            let name = ident(parts.next().expect("name"));
            let mut args = Vec::new();
            for a in parts {
                let (arg, height) = expr_with_height(a, depth)?;
                inner = inner.max(height);
                args.push(arg);
            }
            ExprKind::Call { name, args }
        }
        Rule::index => {
            let mut parts = p.into_inner();
            let name = ident(parts.next().expect("name"));
            let (index, height) = expr_with_height(parts.next().expect("index"), depth)?;
            inner = height;
            ExprKind::Index {
                name,
                index: Box::new(index),
            }
        }
        Rule::expr => {
            // A bracket makes no node, but counts as a level, as it does in the check before parsing.
            let (e, height) = expr_with_height(p, depth)?;
            let height = bounded(depth, height + 1, span)?;
            return Ok((e, height));
        }
        other => unreachable!("grammar: unexpected primary {other:?}"),
    };
    let height = bounded(depth, inner + 1, span)?;
    Ok((Expr { kind, span }, height))
}

/// Characters that show as nothing (or as something else) in a message.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
    )
}

fn invisible_name(c: char) -> &'static str {
    match c {
        '\u{00A0}' | '\u{202F}' => "a non-breaking space",
        '\t' => "a tab",
        '\u{200B}' => "a zero-width space",
        '\u{FEFF}' => "a byte-order mark",
        '\u{00AD}' => "a soft hyphen",
        c if c.is_whitespace() => "a space character",
        _ => "an invisible character",
    }
}

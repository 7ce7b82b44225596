//! The code generator of compiled rules: Rust source written from a prepared program (program.rs),
//! which the build compiles into the engine (compiled/).
//!
//! Three kinds of function are generated from each prepared program: a *runner*, the executor's loop
//! over its operations written out, which serves all three jobs (listing moves, playing one,
//! finishing a paused one) and calls back into the executor for choices and bookkeeping; its
//! *filters*, the `where` of each choice and loop as one function answering by the choice's number;
//! and, for the hunt games' shapes, a whole *search* that lists the same options in the same order as
//! the executor and records the same moves through the executor's own bookkeeping
//! ([`crate::exec::Executor::follow`], [`crate::exec::Executor::pause_fresh`]). A program without
//! generated code runs on the executor. A program's plainly listed choices and loops also get a
//! *lister* ([`lister_source`]); and beside the programs, each condition the turn tests (a rule's
//! `when`, an end condition) gets a *condition* function ([`condition_source`]).
//!
//! A function is found by the key of its own text ([`key`]), not by the ruleset's name: the text
//! holds everything the code depends on (piece kinds, variables, choice nodes by index), and reads
//! the rest (the board, choice ids, places in the rules) at run time, so every ruleset whose rule
//! prepares to the same text shares one function, and a program whose text has changed finds none
//! and runs on the executor.

use crate::Game;
use crate::program::{Op, Program};
use crate::run::Shape;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The name generated functions are written with in [`search_source`]; each gets its own in a file.
const NAME: &str = "search";

/// The source of the search generated from `program`: of the hunt games' rule shapes
/// ([`shaped_search_source`]) where the program is one, else one that holds the locals
/// ([`held_search_source`]) where that pays; `None` for other programs (the executor searches them,
/// through their runners).
pub(crate) fn search_source(program: &Program) -> Option<String> {
    shaped_search_source(program).or_else(|| held_search_source(program))
}

/// The source of a search of one of these shapes, or `None` when the program is not one:
/// - a last choice first (`choose to in sites() where empty(to) { ... }`): the search pauses there,
///   one move per option;
/// - a choice whose options each pause at once at a last choice (`choose from in sites_with(p) {
///   choose to in neighbours(from) where empty(to) { ... } }`).
///
/// Each listing must be one of [`Shape`]'s.
fn shaped_search_source(program: &Program) -> Option<String> {
    let Some(Op::Choose { node }) = program.ops.first() else {
        return None;
    };
    let outer = program.choices.get(*node as usize)?;
    let shape = |n: &crate::program::ChoiceNode| {
        let o = &n.options;
        Shape::of(&o.domain, o.filter.as_ref(), o.plan)
    };
    let locals = program.locals;
    let mut s = String::new();
    let head = |s: &mut String| {
        s.push_str(&format!(
            "fn {NAME}(ex: &mut Executor<'_, '_>, st: &mut Scratch<'_>, program: &Program) -> Done {{\n"
        ));
        s.push_str("    let g = ex.game();\n");
    };
    if outer.last {
        // The locals are all unset here: only listings that read none.
        let listing = match shape(outer)? {
            Shape::Vacant | Shape::SitesWith(_) => listing(shape(outer)?),
            Shape::Steps(_) | Shape::Leaps(..) => return None,
        };
        head(&mut s);
        let _ = writeln!(s, "    let node = &program.choices[{node}];");
        s.push_str("    let start = ex.options.len();\n");
        s.push_str("    ex.choice_at = node.options.at;\n");
        let _ = writeln!(s, "    {listing}");
        let _ = writeln!(
            s,
            "    ex.pause_fresh(&[], node.id, &[Value::None; {locals}], start);"
        );
        s.push_str("    Ok(())\n}\n");
        return Some(s);
    }
    let inner_node = outer.then_pauses?;
    let inner = program.choices.get(inner_node as usize)?;
    let outer_listing = match shape(outer)? {
        Shape::Vacant | Shape::SitesWith(_) => listing(shape(outer)?),
        Shape::Steps(_) | Shape::Leaps(..) => return None,
    };
    let inner_listing = listing(shape(inner)?);
    let bind = match outer.options.slots.as_slice() {
        [a] => format!("locals[{a}] = values[0];"),
        [a, b] => format!("locals[{a}] = values[0];\n        locals[{b}] = values[1];"),
        _ => return None,
    };
    head(&mut s);
    let _ = writeln!(s, "    let outer = &program.choices[{node}];");
    let _ = writeln!(s, "    let inner = &program.choices[{inner_node}];");
    s.push_str("    let start = ex.options.len();\n");
    s.push_str("    ex.choice_at = outer.options.at;\n");
    let _ = writeln!(s, "    {outer_listing}");
    s.push_str("    let listed = ex.options.len() - start;\n");
    s.push_str("    ex.follow(listed, outer.options.at)?;\n");
    s.push_str("    ex.choice_at = inner.options.at;\n");
    let _ = writeln!(s, "    let mut locals = [Value::None; {locals}];");
    s.push_str("    for k in start..start + listed {\n");
    s.push_str("        if ex.full() {\n            break;\n        }\n");
    s.push_str("        let values = ex.options[k];\n");
    let _ = writeln!(s, "        {bind}");
    s.push_str("        let from = ex.options.len();\n");
    let _ = writeln!(s, "        {inner_listing}");
    s.push_str("        if ex.options.len() > from {\n");
    s.push_str("            let path = [Choice { point: outer.id, values }];\n");
    s.push_str("            ex.pause_fresh(&path, inner.id, &locals, from);\n");
    s.push_str("            ex.options.truncate(from);\n");
    s.push_str("        }\n    }\n    Ok(())\n}\n");
    Some(s)
}

/// The statement that adds a listing's options to the executor's list.
fn listing(shape: Shape) -> String {
    match shape {
        Shape::Vacant => "listings::vacant(g, st, &mut ex.options);".into(),
        Shape::SitesWith(p) => format!("listings::sites_with(g, st, {p}, &mut ex.options);"),
        Shape::Steps(x) => format!(
            "if let Value::Site(s) = locals[{x}] {{\n            \
             listings::steps(g, st, s, &mut ex.options);\n        }}"
        ),
        Shape::Leaps(x, p) => format!(
            "if let Value::Site(s) = locals[{x}] {{\n            \
             listings::leaps(g, st, s, {p}, &mut ex.options);\n        }}"
        ),
    }
}

/// The key a generated function is found by: FNV-1a of its text (stable across builds and machines).
pub(crate) fn key(source: &str) -> u64 {
    source.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The generated searches, runners, filters and listers of every prepared program of `games`, and
/// the tests of their conditions, whose key `skip` does not pass over, each once, as the text of one
/// module of compiled/ (what `keliya compile` writes).
pub fn generate(games: &[&Game], skip: &dyn Fn(u64) -> bool) -> String {
    let mut searches = BTreeMap::new();
    let mut runners = BTreeMap::new();
    let mut filters = BTreeMap::new();
    let mut conditions = BTreeMap::new();
    let mut listers = BTreeMap::new();
    let add = |found: &mut BTreeMap<u64, String>, source: Option<String>| {
        if let Some(source) = source {
            let key = key(&source);
            if !skip(key) {
                found.insert(key, source);
            }
        }
    };
    for game in games {
        for source in game_conditions(game) {
            add(&mut conditions, source);
        }
        for rule in game.programs() {
            for program in std::iter::once(&rule.general).chain(&rule.by_mover) {
                let [search, runner, filter, lister] = program_sources(program);
                add(&mut searches, search);
                add(&mut runners, runner);
                add(&mut filters, filter);
                add(&mut listers, lister);
            }
        }
    }
    let mut out = String::from(
        "// Generated by keliya's code generator (crates/keliya-engine/src/codegen.rs) from the prepared\n\
         // rules of the rulesets it was given; `keliya compile` writes it. Do not edit by hand.\n\n\
         use crate::compiled::prelude::*;\n\n",
    );
    for (table, kind, name, found) in [
        ("SEARCHES", "Search", NAME, &searches),
        ("RUNNERS", "Runner", RUNNER, &runners),
        ("FILTERS", "Filter", FILTER, &filters),
        ("CONDITIONS", "Condition", CONDITION, &conditions),
        ("LISTERS", "Lister", LISTER, &listers),
    ] {
        let _ = writeln!(
            out,
            "/// The {}, by the key of their text, in order.",
            table.to_lowercase()
        );
        let _ = writeln!(out, "pub(crate) static {table}: &[(u64, {kind})] = &[");
        for key in found.keys() {
            let _ = writeln!(out, "    (0x{key:016x}, {name}_{key:016x}),");
        }
        out.push_str("];\n\n");
    }
    for (name, found) in [
        (NAME, &searches),
        (RUNNER, &runners),
        (FILTER, &filters),
        (CONDITION, &conditions),
        (LISTER, &listers),
    ] {
        for (key, source) in found {
            out.push_str(&source.replacen(
                &format!("fn {name}"),
                &format!("fn {name}_{key:016x}"),
                1,
            ));
            out.push('\n');
        }
    }
    out
}

/// Whether the engine was built with the generated function of this key among the bundled rulesets'
/// (what a user's `keliya compile` leaves out of its own module).
pub fn is_bundled(key: u64) -> bool {
    crate::compiled::is_bundled(key)
}

/// The keys of the generated functions `game`'s programs and conditions would use.
pub fn keys(game: &Game) -> Vec<u64> {
    game.programs()
        .iter()
        .flat_map(|r| std::iter::once(&r.general).chain(&r.by_mover))
        .flat_map(program_sources)
        .chain(game_conditions(game))
        .flatten()
        .map(|s| key(&s))
        .collect()
}

/// The sources generated from one program, where it has them: its search, runner, filters and
/// listers.
fn program_sources(program: &Program) -> [Option<String>; 4] {
    [
        search_source(program),
        runner_source(program),
        filter_source(program),
        lister_source(program),
    ]
}

/// The name a generated condition is written with in [`condition_source`].
const CONDITION: &str = "condition";

/// The sources of the tests of `game`'s conditions that the turn evaluates, in the order of
/// [`Game::turn_conditions`] (`None` for a rule without one).
pub(crate) fn game_conditions(game: &Game) -> Vec<Option<String>> {
    game.turn_conditions()
        .map(|e| e.and_then(condition_source))
        .collect()
}

/// The source of the test of a condition of the turn (a rule's `when`, an end condition), which reads
/// the position and no locals, as `Run::truthy` evaluates it: `None` for one that reads a local.
pub(crate) fn condition_source(e: &crate::ir::Expr) -> Option<String> {
    let (cells, test) = truthy(e, &[]);
    if locals_read(&test).is_some() {
        return None;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fn {CONDITION}(run: &Run<'_>, st: &State) -> Result<bool, Box<EngineError>> {{"
    );
    s.push_str("    let g = run.game;\n    let _ = g;\n");
    for cell in cells.lines() {
        let _ = writeln!(s, "    {cell}");
    }
    let _ = writeln!(s, "    Ok({test})");
    s.push_str("}\n");
    Some(s)
}

/// The name a generated lister is written with in [`lister_source`].
const LISTER: &str = "lister";

/// The source of the listers generated from `program`: one function listing the options of the
/// program's choices and loops that are listed the plain way (`ListPlan::plain`) from a domain it
/// knows (`sites()`, `sites_with(p)` of a piece written in the rules, `range(a, b)`, a single site),
/// by their number, as `Run::options` lists them: the domain in order, then the filter on each
/// option bound in the run, the options that pass kept in order. It answers `false` for a choice it
/// has no listing for, which `Run::options` lists. `None` when it has none.
pub(crate) fn lister_source(program: &Program) -> Option<String> {
    use crate::ir::{Domain, Expr as X, Value as V};
    let mut arms = String::new();
    for o in program.all_options() {
        if !o.plan.plain() {
            continue;
        }
        // The domain, listed into `items` (its expressions read the locals before any is bound).
        let domain = match &o.domain {
            Domain::Sites => {
                "items.extend(g.board.playing_sites().map(|s| [Value::Site(s), Value::None]));"
                    .to_string()
            }
            Domain::SitesWith(X::Const(V::Piece(p))) => {
                format!("listings::sites_with(g, st, {p}, items);")
            }
            Domain::Range(a, b) => {
                let (a_cells, a) = int(a, &[]);
                let (b_cells, b) = int(b, &[]);
                format!(
                    "{a_cells}let a = {a};\n{b_cells}let b = {b};\n\
                     // Bounded so a careless range cannot exhaust memory.\n\
                     let b = b.min(a.saturating_add(10_000));\n\
                     items.extend((a..=b).map(|i| [Value::Int(i), Value::None]));"
                )
            }
            Domain::Just(e) => {
                let (cells, site) = val(e, &[]);
                format!(
                    "{cells}if let Value::Site(s) = {site} && !g.board.offboard[s as usize] {{\n    \
                     items.push([Value::Site(s), Value::None]);\n}}"
                )
            }
            _ => continue,
        };
        let domain = borrowing(&domain);
        let mut arm = format!("{{\n{}}}\n", indent(&domain));
        if let Some(f) = &o.filter {
            arm.insert_str(0, "let start = items.len();\n");
            let bind = match o.slots.as_slice() {
                [a] => format!("run.locals[{a}] = values[0];"),
                [a, b] => format!("run.locals[{a}] = values[0];\nrun.locals[{b}] = values[1];"),
                _ => continue,
            };
            let (cells, test) = truthy(f, &[]);
            let holds = borrowing(&format!("{cells}{test}"));
            let _ = write!(
                arm,
                "let mut kept = start;\n\
                 for k in start..items.len() {{\n\
                 {}\
                 {}\
                 }}\n\
                 items.truncate(kept);\n",
                indent(&format!("let values = items[k];\n{bind}")),
                indent(&format!(
                    "let holds = {{\n{}}};\nif holds {{\n    items[kept] = values;\n    kept += 1;\n}}",
                    indent(&holds)
                )),
            );
        }
        let _ = writeln!(arms, "        {} => {{", o.which);
        for line in arm.lines() {
            let _ = writeln!(arms, "            {line}");
        }
        arms.push_str("        }\n");
    }
    if arms.is_empty() {
        return None;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fn {LISTER}(run: &mut Run<'_>, st: &State, which: u16, items: &mut Vec<[Value; 2]>) -> Result<bool, Box<EngineError>> {{"
    );
    s.push_str("    let g = run.game;\n    match which {\n");
    s.push_str(&arms);
    s.push_str("        _ => return Ok(false),\n    }\n    Ok(true)\n}\n");
    Some(s)
}

/// `text` with each line indented by four spaces, each line ended.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// The name a generated runner is written with in [`runner_source`].
const RUNNER: &str = "runner";

/// The name generated filters are written with in [`filter_source`].
const FILTER: &str = "filter";

/// The source of the filters generated from `program`: one function answering for every choice and
/// loop of the program that has a filter, by its number (`Options::which`), with the options already
/// bound in the run; `None` when none has one. (The executor still tests the filters it tests on an
/// option's values directly, `Run::options`.)
pub(crate) fn filter_source(program: &Program) -> Option<String> {
    let mut arms = String::new();
    for o in program.all_options() {
        if let Some(f) = &o.filter {
            let (cells, test) = truthy(f, &[]);
            if cells.is_empty() {
                let _ = writeln!(arms, "        {} => {test},", o.which);
            } else {
                let _ = writeln!(arms, "        {} => {{", o.which);
                for cell in cells.lines() {
                    let _ = writeln!(arms, "            {cell}");
                }
                let _ = writeln!(arms, "            {test}\n        }}");
            }
        }
    }
    if arms.is_empty() {
        return None;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fn {FILTER}(run: &Run<'_>, st: &State, which: u16) -> Result<bool, Box<EngineError>> {{"
    );
    s.push_str("    let g = run.game;\n    let _ = g;\n");
    if let Some(n) = locals_read(&arms) {
        let _ = writeln!(s, "    let l = &run.locals[..{n}];");
    }
    s.push_str("    Ok(match which {\n");
    s.push_str(&arms);
    s.push_str(
        "        _ => false,
    })
}
",
    );
    Some(s)
}

/// The source of a runner generated from `program`: the executor's loop over the program's operations
/// ([`crate::exec::Executor::run_from`]), each operation written out with its expressions as Rust over
/// the run and the position, calling what the executor calls (the functions of builtins.rs through
/// `Run::call_values`, `Run::effect`, the executor's own `choose`, `for_list`, `for_next`, `end`).
/// Every operation and expression of a prepared program has a form here, so every program gets one.
/// Its jumps become Rust's loops and branches where they have the shapes the program builder writes
/// ([`structured_arms`]), else one arm per block of straight-line operations ([`arms`]).
///
/// The locals are read in one of two ways. A program with at most one choice that loops without a
/// choice in the loop (a sowing's laps) holds them in an array of its size, `l`, read and written at
/// fixed places without a check: copied from the run on entry, back to the run before the executor
/// reads them (a choice, a loop's listing), a loop's variables read again after it binds them. Any
/// other program runs a few operations between choices, each entry costing the copies, so each
/// operation borrows the run's locals it reads once instead ([`locals_read`]).
pub(crate) fn runner_source(program: &Program) -> Option<String> {
    let held = holds_locals(program);
    if held {
        let kinds = local_kinds(program);
        if kinds.iter().any(|&k| k != Kind::Value)
            && let Some(typed) = runner_text(program, true, &kinds)
            && reads_typed_locals_typed(&typed, &kinds)
        {
            return Some(typed);
        }
    }
    runner_text(program, held, &[])
}

/// What a local holds all through a run, where generated code may keep it as a plain Rust value
/// (`li3: i64`, `lb4: bool`) rather than a [`crate::ir::Value`] in the array of locals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Anything, or not known: kept as a `Value`.
    Value,
    Int,
    Bool,
}

/// The kind of value an expression gives, as [`Exprs::val`] writes it: a number or a truth where
/// the text is `Value::Int(..)` or `Value::Bool(..)` of a plain Rust one.
fn kind_of(e: &crate::ir::Expr) -> Kind {
    use crate::ir::{BinOp as B, Expr as X, Value as V};
    match e {
        X::Const(V::Int(_)) | X::Var { .. } | X::CountAt(..) => Kind::Int,
        X::Const(V::Bool(_)) | X::EmptyAt(..) | X::HasAt(..) => Kind::Bool,
        X::Not(_) | X::Bin(B::And | B::Or | B::Eq | B::Ne | B::Le | B::Ge | B::Lt | B::Gt, ..) => {
            Kind::Bool
        }
        X::Neg(_) | X::Bin(..) => Kind::Int,
        X::Compiled(c) => kind_of(c.source()),
        _ => Kind::Value,
    }
}

/// The kind of each local of `program` (a type pass over its assignments): a number where every
/// assignment gives one (`+=` and `-=` do), a truth where every one gives one; a choice's or loop's
/// variable, or a local given values of two kinds, or none, is a `Value`.
fn local_kinds(program: &Program) -> Vec<Kind> {
    let mut kinds: Vec<Option<Kind>> = vec![None; program.locals];
    let mut merge = |slot: u16, kind: Kind| {
        if let Some(known) = kinds.get_mut(slot as usize) {
            *known = Some(match *known {
                Some(k) if k != kind => Kind::Value,
                _ => kind,
            });
        }
    };
    for op in &program.ops {
        match op {
            Op::Set { slot, value } => merge(*slot, kind_of(value)),
            Op::Add { slot, .. } => merge(*slot, Kind::Int),
            _ => {}
        }
    }
    let bound = program
        .loops
        .iter()
        .chain(program.choices.iter().map(|c| &c.options));
    for options in bound {
        for &slot in &options.slots {
            merge(slot, Kind::Value);
        }
    }
    kinds
        .into_iter()
        .map(|k| k.unwrap_or(Kind::Value))
        .collect()
}

/// Whether a runner's text reads each typed local only from its own variable: the array's copy is
/// read only where it is declared from it, and written only where it goes back to the run. (Every
/// expression form reads a typed local through [`Exprs`]; a form that read the array directly would
/// read a stale value, so such a text is not used.)
fn reads_typed_locals_typed(text: &str, kinds: &[Kind]) -> bool {
    let typed: Vec<Option<Typed>> = kinds.iter().map(|&kind| Typed::of(kind)).collect();
    text.lines().all(|line| {
        let line = line.trim();
        let bytes = line.as_bytes();
        line.match_indices("l[").all(|(i, _)| {
            // `l[` alone, not the end of a longer name (`locals[`, `.l[`).
            if i > 0
                && (bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b'.'))
            {
                return true;
            }
            let digits = line[i + 2..].split(']').next().unwrap_or("");
            let Some(Some(t)) = digits
                .parse::<usize>()
                .ok()
                .and_then(|slot| typed.get(slot))
            else {
                return true;
            };
            line == t.synced(digits) || line == t.declared(digits)
        })
    })
}

/// How generated code writes a typed local: its variable's prefix (the slot follows), its Rust
/// type, the `Value` it is kept in as, and the method of `Value` that reads it from one.
#[derive(Clone, Copy)]
struct Typed {
    prefix: &'static str,
    rust: &'static str,
    variant: &'static str,
    read: &'static str,
}

impl Typed {
    /// How a local of `kind` is written, if it is typed.
    fn of(kind: Kind) -> Option<Typed> {
        let (prefix, rust, variant, read) = match kind {
            Kind::Value => return None,
            Kind::Int => ("li", "i64", "Int", "int"),
            Kind::Bool => ("lb", "bool", "Bool", "truthy"),
        };
        Some(Typed {
            prefix,
            rust,
            variant,
            read,
        })
    }

    /// The statement that declares the local in `slot`, from the array.
    fn declared(self, slot: impl std::fmt::Display) -> String {
        let (prefix, rust, read) = (self.prefix, self.rust, self.read);
        format!("let mut {prefix}{slot}: {rust} = l[{slot}].{read}();")
    }

    /// The statement that puts the local in `slot` back in the array.
    fn synced(self, slot: impl std::fmt::Display) -> String {
        format!(
            "l[{slot}] = Value::{}({}{slot});",
            self.variant, self.prefix
        )
    }
}

/// The typed locals of `kinds`, by slot.
fn typed_locals(kinds: &[Kind]) -> impl Iterator<Item = (usize, Typed)> + '_ {
    kinds
        .iter()
        .enumerate()
        .filter_map(|(slot, &kind)| Some((slot, Typed::of(kind)?)))
}

/// A runner's text ([`runner_source`]), with the locals of `kinds` typed.
fn runner_text(program: &Program, held: bool, kinds: &[Kind]) -> Option<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fn {RUNNER}<'g>(ex: &mut Executor<'g, '_>, run: &mut Run<'g>, st: &mut Scratch<'_>, mut pc: usize) -> Done {{"
    );
    s.push_str("    let g = ex.game();\n    let ats = &ex.program().ats;\n    let _ = (g, ats);\n");
    if held {
        let _ = writeln!(
            s,
            "    let mut l: [Value; {}] = load(&run.locals);",
            program.locals
        );
        for (slot, typed) in typed_locals(kinds) {
            let _ = writeln!(s, "    {}", typed.declared(slot));
        }
    }
    let text = |op: &Op, plain: String| {
        if held {
            held_operation(program, op, plain, kinds)
        } else {
            Some(borrowing(&plain))
        }
    };
    match structured_arms(program, held, kinds, &text) {
        Some(arms) => {
            s.push_str("    match pc {\n");
            s.push_str(&arms);
            s.push_str("        _ => Err(run.error(0, \"no such operation\".into())),\n    }\n}\n");
        }
        None => {
            s.push_str("    loop {\n        match pc {\n");
            s.push_str(&arms(program, kinds, text)?);
            s.push_str(
                "            _ => return Err(run.error(0, \"no such operation\".into())),\n        }\n    }\n}\n",
            );
        }
    }
    Some(s)
}

/// The arms of a runner's `match` on where a run starts or resumes (the first operation, the body
/// of each choice), each arm the operations from there on written as Rust's own loops and branches
/// (`while` and `for` as `loop`, `if` as `if`), up to the end or the next choice, which return. A
/// run then goes back to the `match` only when it resumes, not at every jump: in a sowing's laps
/// the `match` was over a third of the runner's own instructions. `None` when a choice stands inside
/// a loop or a branch (a run would resume in the middle of it) or the jumps are not those the
/// program builder writes for `if`, `while` and `for`; such a runner keeps one arm per block.
fn structured_arms(
    program: &Program,
    held: bool,
    kinds: &[Kind],
    text: &dyn Fn(&Op, String) -> Option<String>,
) -> Option<String> {
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(program.choices.iter().map(|c| c.body as usize))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut writer = Structured {
        program,
        held,
        kinds,
        text,
        texts: vec![None; program.ops.len()],
        out: String::new(),
    };
    for start in starts {
        writer.line(2, &format!("{start} => {{"));
        writer.range(start, program.ops.len(), ARM_TOP)?;
        writer.line(2, "}");
    }
    Some(writer.out)
}

/// The indentation of the operations at the top of a runner's arm (inside the function and its
/// `match`): where an arm that resumes inside a branch or a loop meets that construct's jumps.
const ARM_TOP: usize = 3;

/// Each line of `text` onto `out`, indented `level` steps.
fn write_lines(out: &mut String, level: usize, text: &str) {
    for line in text.lines() {
        for _ in 0..level {
            out.push_str("    ");
        }
        out.push_str(line);
        out.push('\n');
    }
}

/// Writes a program's operations as structured Rust ([`structured_arms`]), each line once, at its
/// depth, and each operation's text worked out once, however many arms write it (the text is
/// generated whenever a program is built, to find its code by key).
struct Structured<'a> {
    program: &'a Program,
    held: bool,
    kinds: &'a [Kind],
    text: &'a dyn Fn(&Op, String) -> Option<String>,
    /// By operation: its text (an operation's), or its test's memo cells and text (a jump's).
    texts: Vec<Option<(String, String)>>,
    out: String,
}

impl Structured<'_> {
    /// Each line of `text`, indented `level` steps.
    fn line(&mut self, level: usize, text: &str) {
        write_lines(&mut self.out, level, text);
    }

    /// The memo cells and text of the condition of the jump at `pc`, as [`truthy`] gives them; a
    /// runner that borrows the locals ([`borrowing`]) borrows them for the test alone, since the
    /// branch it guards writes them.
    fn test(&mut self, pc: usize, cond: &crate::ir::Expr) -> (String, String) {
        if let Some(Some(known)) = self.texts.get(pc) {
            return known.clone();
        }
        let (cells, holds) = truthy(cond, self.kinds);
        let test = match locals_read(&holds) {
            Some(n) if !self.held => (cells, format!("{{ let l = &run.locals[..{n}]; {holds} }}")),
            _ => (cells, holds),
        };
        self.texts[pc] = Some(test.clone());
        test
    }

    /// The operation at `pc` (one that is not a jump) in a block: its plain text ([`operation`],
    /// where an effect that ends the game goes to the end, which returns) as `text` writes it.
    fn operation(&mut self, level: usize, pc: usize) -> Option<()> {
        if self.texts.get(pc)?.is_none() {
            let program = self.program;
            let op = &program.ops[pc];
            let end = program.end;
            let plain = operation(op, pc, end, self.kinds)?.replace(
                &format!("pc = {end};\n    continue;"),
                "return ex.end(run, st);",
            );
            let text = (self.text)(op, plain)?;
            if text.contains("continue") || text.contains("pc =") {
                return None;
            }
            self.texts[pc] = Some((String::new(), text));
        }
        let (_, text) = self.texts[pc].as_ref()?;
        write_lines(&mut self.out, level, "{");
        write_lines(&mut self.out, level + 1, text);
        write_lines(&mut self.out, level, "}");
        Some(())
    }

    /// The passes of the loop whose test (a `while`'s) or next option (a `for`'s) is at `head` and
    /// whose jump back is at `back`, as a Rust loop; where to go on after it.
    fn next_passes(&mut self, head: usize, back: usize, level: usize) -> Option<usize> {
        let program = self.program;
        let exit = match program.ops.get(head)? {
            Op::Unless { cond, to } => {
                let (cells, holds) = self.test(head, cond);
                self.line(level, "loop {");
                self.line(
                    level + 1,
                    &format!("{cells}if !({holds}) {{\n    break;\n}}"),
                );
                *to as usize
            }
            Op::ForNext { node, exit } => {
                self.line(level, "loop {");
                self.line(
                    level + 1,
                    &format!("if !ex.for_next(run, {node})? {{\n    break;\n}}"),
                );
                if self.held {
                    for slot in &program.loops.get(*node as usize)?.slots {
                        self.line(level + 1, &format!("l[{slot}] = run.locals[{slot}];"));
                    }
                }
                *exit as usize
            }
            _ => return None,
        };
        // The loop's body is what lies between its head and its jump back, which is its last.
        if exit != back + 1
            || !matches!(program.ops.get(back), Some(Op::Jump { to }) if *to as usize == head)
        {
            return None;
        }
        self.range(head + 1, back, level + 1)?;
        self.line(level, "}");
        Some(exit)
    }

    /// The operations from `from` up to `to` (not included), at indentation `level` ([`ARM_TOP`] is
    /// the top of an arm); `None` where they cannot be written so.
    fn range(&mut self, from: usize, to: usize, level: usize) -> Option<()> {
        let program = self.program;
        let ops = &program.ops;
        let mut pc = from;
        while pc < to {
            let op = ops.get(pc)?;
            match op {
                Op::Unless { cond, to: target } => {
                    let target = *target as usize;
                    if target <= pc || target > to {
                        return None;
                    }
                    let (cells, holds) = self.test(pc, cond);
                    match ops.get(target - 1)? {
                        // `while`: the test, the body, a jump back to the test.
                        Op::Jump { to: back } if *back as usize == pc => {
                            pc = self.next_passes(pc, target - 1, level)?;
                            continue;
                        }
                        // `if` with `else`: the then-branch ends with a jump over the else-branch.
                        Op::Jump { to: over } if *over as usize >= target => {
                            let over = *over as usize;
                            if over > to {
                                return None;
                            }
                            self.line(level, "{");
                            self.line(level + 1, &format!("{cells}if {holds} {{"));
                            self.range(pc + 1, target - 1, level + 2)?;
                            self.line(level + 1, "} else {");
                            self.range(target, over, level + 2)?;
                            self.line(level + 1, "}");
                            self.line(level, "}");
                            pc = over;
                            continue;
                        }
                        _ => {
                            self.line(level, "{");
                            self.line(level + 1, &format!("{cells}if {holds} {{"));
                            self.range(pc + 1, target, level + 2)?;
                            self.line(level + 1, "}");
                            self.line(level, "}");
                        }
                    }
                    pc = target;
                }
                // `for`: the listing, then the next option bound at the top of each pass, the body, a
                // jump back to the top.
                Op::ForList { node } => {
                    let Some(Op::ForNext { node: next, exit }) = ops.get(pc + 1) else {
                        return None;
                    };
                    let exit = *exit as usize;
                    let back = matches!(ops.get(exit.checked_sub(1)?), Some(Op::Jump { to }) if *to as usize == pc + 1);
                    if next != node || exit > to || exit < pc + 3 || !back {
                        return None;
                    }
                    self.operation(level, pc)?;
                    pc = self.next_passes(pc + 1, exit - 1, level)?;
                }
                // At the top of an arm that resumes inside a branch or a loop: a jump over the
                // else-branch, or the jump back at the end of the loop's body, after which the
                // loop's next passes follow as a loop of their own.
                Op::Jump { to } if level == ARM_TOP && *to as usize > pc => pc = *to as usize,
                Op::Jump { to: head } if level == ARM_TOP => {
                    pc = self.next_passes(*head as usize, pc, level)?;
                }
                Op::ForNext { .. } | Op::Jump { .. } => return None,
                // A choice returns (its options resume at its body, an arm of their own); so does
                // the end.
                Op::Choose { .. } | Op::End => return self.operation(level, pc),
                _ => {
                    self.operation(level, pc)?;
                    pc += 1;
                }
            }
        }
        Some(())
    }
}

/// The source of a search that runs a program with choices itself, as the executor's run of it
/// would go ([`Executor::rule`] in a search), but for the locals: they are held in an array, `l`,
/// as a holding runner holds them ([`runner_source`]), and at a choice each option goes on from a
/// copy of the array (`Executor::choose_held`), not from a copy of the run. `None` for a program
/// whose run forks at fewer than two choices, or one that records configurations (`seen_before`:
/// each option must start from the record as it stood, which lives in the run).
pub(crate) fn held_search_source(program: &Program) -> Option<String> {
    // Only where the run forks at two choices or more: for the others (one fork, or a pause at once)
    // such a search took under 0.5% off a game, for about 20,000 more lines of generated code.
    if program.choices.iter().filter(|c| !c.last).count() < 2 {
        return None;
    }
    let n = program.locals;
    let text = |op: &Op, plain: String| {
        // At a choice each option goes on in `go`, with its own copy of the locals.
        let plain = match op {
            Op::Choose { node } => format!(
                "let node = &ex.program().choices[{node}];\n\
                 return ex.choose_held(run, st, node, l, go);"
            ),
            _ => plain,
        };
        let text = held_operation(program, op, plain, &[])?;
        (!text.contains("Func::SeenBefore")).then_some(text)
    };
    let (body, looped) = match structured_arms(program, true, &[], &text) {
        Some(arms) => (arms, false),
        None => (arms(program, &[], text)?, true),
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fn {NAME}(ex: &mut Executor<'_, '_>, st: &mut Scratch<'_>, program: &Program) -> Done {{"
    );
    let _ = writeln!(
        s,
        "    fn go<'g, 's>(ex: &mut Executor<'g, 's>, run: &mut Run<'g>, st: &mut Scratch<'_>, mut pc: usize, l: &mut [Value; {n}]) -> Done {{"
    );
    s.push_str("        let g = ex.game();\n        let ats = &ex.program().ats;\n        let _ = (g, ats);\n");
    // The arms in a `match` on where the run resumes, in a `loop` when the jumps go back to it.
    let (open, close) = if looped {
        (
            "        loop {\n            match pc {\n",
            "                _ => return Err(run.error(0, \"no such operation\".into())),\n            }\n        }\n    }\n",
        )
    } else {
        (
            "        match pc {\n",
            "            _ => Err(run.error(0, \"no such operation\".into())),\n        }\n    }\n",
        )
    };
    s.push_str(open);
    for line in body.lines() {
        let _ = writeln!(s, "    {line}");
    }
    s.push_str(close);
    s.push_str("    let _ = program;\n");
    s.push_str("    let mut run = ex.begin_run(st);\n");
    let _ = writeln!(s, "    let mut l = [Value::None; {n}];");
    s.push_str("    let mark = st.mark();\n");
    s.push_str("    go(ex, &mut run, st, 0, &mut l)?;\n");
    s.push_str("    ex.take_back(st, mark);\n    Ok(())\n}\n");
    Some(s)
}

/// The arms of a runner's `match` on the operation to go on from, one per block of straight-line
/// operations ([`block_starts`]), each jump going back to the `match` (for a program whose jumps
/// [`structured_arms`] cannot write as loops and branches): each operation as `text` writes it from its plain form
/// ([`operation`]); `None` if an operation has none.
fn arms(
    program: &Program,
    kinds: &[Kind],
    text: impl Fn(&Op, String) -> Option<String>,
) -> Option<String> {
    let mut s = String::new();
    let leaders = block_starts(program);
    for (pc, op) in program.ops.iter().enumerate() {
        if leaders[pc] {
            let _ = writeln!(s, "            {pc} => {{");
        }
        let body = text(op, operation(op, pc, program.end, kinds)?)?;
        s.push_str("                {\n");
        for line in body.lines() {
            let _ = writeln!(s, "                    {line}");
        }
        s.push_str("                }\n");
        // The block goes on into the next operation unless that one starts a block of its own.
        let next = pc + 1;
        if leaders.get(next).is_none_or(|&leads| leads) {
            if !ends_block(op) {
                let _ = writeln!(s, "                pc = {next};\n                continue;");
            }
            s.push_str("            }\n");
        }
    }
    Some(s)
}

/// The operations that begin a block of straight-line code in a runner, by number: the first, every
/// place a jump goes to, the body of every choice (where a run resumes), and every operation after
/// one that leaves the block. The operations of a block follow one another without going back to the
/// runner's `match`.
fn block_starts(program: &Program) -> Vec<bool> {
    let n = program.ops.len();
    let mut starts = vec![false; n + 1];
    let mut mark = |pc: usize| {
        if let Some(s) = starts.get_mut(pc) {
            *s = true;
        }
    };
    mark(0);
    mark(program.end as usize);
    for choice in &program.choices {
        mark(choice.body as usize);
    }
    for (pc, op) in program.ops.iter().enumerate() {
        match op {
            Op::Unless { to, .. } | Op::Jump { to } => mark(*to as usize),
            Op::ForNext { exit, .. } => mark(*exit as usize),
            _ => {}
        }
        if ends_block(op) {
            mark(pc + 1);
        }
    }
    starts.truncate(n);
    starts
}

/// Whether an operation never falls through to the next (it returns, or jumps).
fn ends_block(op: &Op) -> bool {
    matches!(
        op,
        Op::Jump { .. }
            | Op::Choose { .. }
            | Op::End
            | Op::Effect {
                effect: crate::ir::Effect::Reject,
                ..
            }
    )
}

/// Whether a runner of `program` holds its locals in an array: when the program has a loop (a jump
/// back) with no choice in it, and at most one choice in all (each choice's options enter the runner
/// again, each entry a copy of the locals).
fn holds_locals(program: &Program) -> bool {
    let choices = program
        .ops
        .iter()
        .filter(|op| matches!(op, Op::Choose { .. }));
    choices.count() <= 1
        && program.ops.iter().enumerate().any(|(pc, op)| match op {
            Op::Jump { to } if (*to as usize) <= pc => !program.ops[*to as usize..pc]
                .iter()
                .any(|op| matches!(op, Op::Choose { .. })),
            _ => false,
        })
}

/// An operation as a runner holding the locals in `l` writes it: `plain` ([`operation`]) with the
/// locals written in `l`, put back in the run before the executor reads them, and a loop's variables
/// read again after it binds them.
fn held_operation(program: &Program, op: &Op, plain: String, kinds: &[Kind]) -> Option<String> {
    // (`l[..]`: `l` is an array in a runner, a borrowed one in a held search.)
    let store = "store(&mut run.locals, &l[..]);";
    let kind = |slot: u16| kinds.get(slot as usize).copied().unwrap_or(Kind::Value);
    Some(match op {
        Op::Set { slot, value } => match kind(*slot) {
            Kind::Value => {
                let (cells, value) = val(value, kinds);
                format!("{cells}l[{slot}] = {value};")
            }
            Kind::Int => {
                let (cells, value) = int(value, kinds);
                format!("{cells}li{slot} = {value};")
            }
            Kind::Bool => {
                let (cells, value) = truthy(value, kinds);
                format!("{cells}lb{slot} = {value};")
            }
        },
        Op::Add { slot, op, value } => {
            let (cells, n) = int(value, kinds);
            match kind(*slot) {
                Kind::Int => format!(
                    "{cells}let n = {n};\nli{slot} = combine(AssignOp::{op:?}, li{slot}, n);"
                ),
                _ => format!(
                    "{cells}let n = {n};\nl[{slot}] = Value::Int(combine(AssignOp::{op:?}, l[{slot}].int(), n));"
                ),
            }
        }
        // The typed locals go back into the array before it goes to the run.
        Op::ForList { .. } | Op::Choose { .. } => {
            let mut sync = String::new();
            for (slot, typed) in typed_locals(kinds) {
                let _ = writeln!(sync, "{}", typed.synced(slot));
            }
            format!("{sync}{store}\n{plain}")
        }
        Op::ForNext { node, exit } => {
            let mut bind = String::new();
            for slot in &program.loops.get(*node as usize)?.slots {
                let _ = write!(bind, "\n    l[{slot}] = run.locals[{slot}];");
            }
            format!(
                "if ex.for_next(run, {node})? {{{bind}\n}} else {{\n    pc = {exit};\n    continue;\n}}"
            )
        }
        _ => plain,
    })
}

/// One operation's Rust: falls through to the next operation, or sets `pc` and continues, or returns.
/// Its expressions read the locals as `l`; it writes them in the run.
/// (Places in the rules are read from the program's `ats`, at `pc`, not written into the text.)
fn operation(op: &Op, pc: usize, end: u32, kinds: &[Kind]) -> Option<String> {
    use crate::ir::Effect as E;
    let at = format!("ats[{pc}]");
    Some(match op {
        Op::Set { slot, value } => {
            let (cells, value) = val(value, kinds);
            format!("{cells}let v = {value};\nrun.locals[{slot}] = v;")
        }
        Op::Add { slot, op, value } => {
            let (cells, n) = int(value, kinds);
            format!(
                "{cells}let n = {n};\nrun.locals[{slot}] = run.combined({slot}, AssignOp::{op:?}, n);"
            )
        }
        Op::SetVar {
            var,
            slot,
            player,
            op,
            value,
            ..
        } => {
            let slot = match (slot, player) {
                (Some(slot), _) => format!("{slot}"),
                (None, Some(p)) => {
                    format!(
                        "run.var_slot_of({var}, {}, {at})?",
                        Exprs::plain(kinds).val(p)
                    )
                }
                (None, None) => format!("g.var_slot({var}, None)"),
            };
            let (cells, n) = int(value, kinds);
            format!(
                "let slot = {slot};\n{cells}let n = {n};\nst.assign_var(slot, AssignOp::{op:?}, n);"
            )
        }
        Op::Effect {
            effect: E::Reject, ..
        } => format!("return ex.rejected(run, {at});"),
        Op::Effect { effect, args, .. } => {
            let mut vals: Vec<String> = args
                .iter()
                .take(3)
                .map(|a| Exprs::plain(kinds).val(a))
                .collect();
            vals.resize(3, "Value::None".into());
            format!(
                "let v = [{}];\nrun.effect(st, Effect::{effect:?}, v, {at})?;\n\
                 if run.result.is_some() {{\n    pc = {end};\n    continue;\n}}",
                vals.join(", ")
            )
        }
        Op::Assert { cond, .. } => {
            let (cells, holds) = truthy(cond, kinds);
            format!("{cells}if !({holds}) {{\n    return Err(run.assert_failed({at}));\n}}")
        }
        Op::Unless { cond, to } => {
            let (cells, holds) = truthy(cond, kinds);
            format!("{cells}if !({holds}) {{\n    pc = {to};\n    continue;\n}}")
        }
        Op::Jump { to } => format!("pc = {to};\ncontinue;"),
        Op::Tick { .. } => format!("run.tick({at})?;"),
        Op::ForList { node } => format!("ex.for_list(run, st, {node})?;"),
        Op::ForNext { node, exit } => {
            format!("if !ex.for_next(run, {node})? {{\n    pc = {exit};\n    continue;\n}}")
        }
        Op::Choose { node } => {
            format!("let node = &ex.program().choices[{node}];\nreturn ex.choose(run, st, node);")
        }
        Op::End => "return ex.end(run, st);".into(),
    })
}

/// The locals the generated text reads (`l[k]`, written by [`val`], [`truthy`] and [`int`]): as many
/// as the highest slot read and one, or `None` when it reads none.
fn locals_read(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut most = None;
    for (i, _) in text.match_indices("l[") {
        // `l[` alone, not the end of a longer name (`locals[`, `.l[`).
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b'.')) {
            continue;
        }
        let digits: String = text[i + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(slot) = digits.parse::<usize>() {
            most = most.max(Some(slot + 1));
        }
    }
    most
}

/// An operation's text with the locals it reads borrowed first, as one slice of known length: one
/// check of the run's list for the operation, none for each read. (An operation's expressions only
/// read the run; it is changed, if at all, after they are evaluated.)
fn borrowing(body: &str) -> String {
    match locals_read(body) {
        Some(n) => format!("let l = &run.locals[..{n}];\n{body}"),
        None => body.to_string(),
    }
}

/// A value as Rust source.
fn literal(v: &crate::ir::Value) -> String {
    use crate::ir::Value as V;
    match v {
        V::None => "Value::None".into(),
        V::Int(i) => format!("Value::Int({i})"),
        V::Bool(b) => format!("Value::Bool({b})"),
        V::Site(s) => format!("Value::Site({s})"),
        V::Player(p) => format!("Value::Player({p})"),
        V::Piece(p) => format!("Value::Piece({p})"),
        V::Track(t) => format!("Value::Track({t})"),
    }
}

/// How generated text writes one expression: the calls it names more than once (those the executor's
/// closures keep in memo cells, [`crate::compile::repeated_calls`]) are each worked out once, the
/// first time they are reached, into a cell `m0`, `m1`, ... that [`Exprs::cells`] declares before.
/// The locals of `kinds` that are typed are read from their own variables ([`Kind`]).
struct Exprs<'k> {
    repeated: Vec<crate::ir::Expr>,
    kinds: &'k [Kind],
}

impl<'k> Exprs<'k> {
    /// An expression written without memo cells (an effect's arguments: each its own expression).
    fn plain(kinds: &'k [Kind]) -> Exprs<'k> {
        Exprs {
            repeated: Vec::new(),
            kinds,
        }
    }

    fn of(e: &crate::ir::Expr, kinds: &'k [Kind]) -> Exprs<'k> {
        Exprs {
            repeated: crate::compile::repeated_calls(e),
            kinds,
        }
    }

    /// The kind of local `slot`.
    fn kind(&self, slot: u16) -> Kind {
        self.kinds
            .get(slot as usize)
            .copied()
            .unwrap_or(Kind::Value)
    }

    /// The declarations of the memo cells, each on a line of its own (nothing when there is none).
    fn cells(&self) -> String {
        (0..self.repeated.len())
            .map(|i| format!("let mut m{i}: Option<Value> = None;\n"))
            .collect()
    }

    /// An expression's value (a `Value`), as `Run::eval` gives it.
    fn val(&self, e: &crate::ir::Expr) -> String {
        use crate::ir::{Ambient, BinOp as B, Expr as X};
        match e {
            X::Const(v) => literal(v),
            X::Local(slot) => match self.kind(*slot) {
                Kind::Value => format!("l[{slot}]"),
                Kind::Int => format!("Value::Int(li{slot})"),
                Kind::Bool => format!("Value::Bool(lb{slot})"),
            },
            X::Var { slot } => format!("Value::Int(st.vars[{slot}])"),
            X::VarOf { var, player } => format!("run.var_of(st, {var}, {})", self.val(player)),
            // `stuck` searches; the others are read from the position, inlined.
            X::Ambient(Ambient::Stuck) => "run.stuck(st)?".into(),
            X::Ambient(a) => format!("run.position_ambient(st, Ambient::{a:?})"),
            X::Not(_)
            | X::Bin(B::And | B::Or | B::Eq | B::Ne | B::Le | B::Ge | B::Lt | B::Gt, ..) => {
                format!("Value::Bool({})", self.truthy(e))
            }
            X::Neg(_) | X::Bin(..) => format!("Value::Int({})", self.int(e)),
            X::Call(f, args) => {
                let mut vals: Vec<String> = args.iter().take(3).map(|a| self.val(a)).collect();
                vals.resize(3, "Value::None".into());
                let call = format!("run.call_values(st, Func::{f:?}, [{}])", vals.join(", "));
                match self.repeated.iter().position(|r| r == e) {
                    Some(i) => format!("(*m{i}.get_or_insert_with(|| {call}))"),
                    None => call,
                }
            }
            // As `Run::empty_at`, `has_at`, `count_at` and `along_at` give them, from the borrowed locals.
            X::EmptyAt(..) | X::HasAt(..) => format!("Value::Bool({})", self.truthy(e)),
            X::CountAt(..) => format!("Value::Int({})", self.int(e)),
            X::AlongAt(track, slot, n) => format!(
                "(match l[{slot}] {{ Value::Site(s) => g.board.along({track}, s, {n}).map_or(Value::None, Value::Site), _ => Value::None }})"
            ),
            X::Compiled(c) => self.val(c.source()),
        }
    }

    /// Whether an expression holds (a `bool`), as `Run::truthy` gives it.
    fn truthy(&self, e: &crate::ir::Expr) -> String {
        use crate::ir::{BinOp as B, Expr as X, Value as V};
        match e {
            X::Const(V::Bool(b)) => format!("{b}"),
            X::Local(slot) if self.kind(*slot) == Kind::Bool => format!("lb{slot}"),
            X::Not(x) => format!("!({})", self.truthy(x)),
            // `and` and `or` short-circuit: a later operand may be costly (`stuck`).
            X::Bin(B::And, a, b) => format!("({} && {})", self.truthy(a), self.truthy(b)),
            X::Bin(B::Or, a, b) => format!("({} || {})", self.truthy(a), self.truthy(b)),
            X::Bin(B::Eq, a, b) => format!("({} == {})", self.val(a), self.val(b)),
            X::Bin(B::Ne, a, b) => format!("({} != {})", self.val(a), self.val(b)),
            X::Bin(op @ (B::Le | B::Ge | B::Lt | B::Gt), a, b) => {
                let sign = match op {
                    B::Le => "<=",
                    B::Ge => ">=",
                    B::Lt => "<",
                    _ => ">",
                };
                format!("({} {sign} {})", self.int(a), self.int(b))
            }
            X::EmptyAt(slot) => {
                format!("matches!(l[{slot}], Value::Site(x) if st.site_is_empty(g, x))")
            }
            X::HasAt(slot, piece) => {
                format!("matches!(l[{slot}], Value::Site(x) if st.count(g, x, {piece}) > 0)")
            }
            X::Compiled(c) => self.truthy(c.source()),
            _ => format!("{}.truthy()", self.val(e)),
        }
    }

    /// An expression as a number (an `i64`), as `Run::int` gives it.
    fn int(&self, e: &crate::ir::Expr) -> String {
        use crate::ir::{BinOp as B, Expr as X};
        match e {
            X::Const(v) => format!("{}i64", v.int()),
            X::Local(slot) if self.kind(*slot) == Kind::Int => format!("li{slot}"),
            X::Var { slot } => format!("st.vars[{slot}]"),
            X::Neg(x) => format!("{}.saturating_neg()", self.int(x)),
            X::Bin(op @ (B::Add | B::Sub | B::Mul | B::Div | B::Rem), a, b) => {
                format!("arith(BinOp::{op:?}, {}, {})", self.int(a), self.int(b))
            }
            X::CountAt(slot, piece) => format!(
                "(match l[{slot}] {{ Value::Site(x) => st.count(g, x, {piece}) as i64, _ => 0 }})"
            ),
            X::Compiled(c) => self.int(c.source()),
            X::Bin(..) | X::Not(_) => format!("i64::from({})", self.truthy(e)),
            _ => format!("{}.int()", self.val(e)),
        }
    }
}

/// An expression's value, its repeated calls' memo cells declared first: `(cells, text)`; the locals
/// of `kinds` read from their typed variables ([`Kind`]).
fn val(e: &crate::ir::Expr, kinds: &[Kind]) -> (String, String) {
    let x = Exprs::of(e, kinds);
    (x.cells(), x.val(e))
}

/// Whether an expression holds, its repeated calls' memo cells declared first: `(cells, text)`.
fn truthy(e: &crate::ir::Expr, kinds: &[Kind]) -> (String, String) {
    let x = Exprs::of(e, kinds);
    (x.cells(), x.truthy(e))
}

/// An expression as a number, its repeated calls' memo cells declared first: `(cells, text)`.
fn int(e: &crate::ir::Expr, kinds: &[Kind]) -> (String, String) {
    let x = Exprs::of(e, kinds);
    (x.cells(), x.int(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Ambient, BinOp, Expr, Func, Value};

    /// A call written twice in one expression is worked out once, into a memo cell declared before the
    /// expression and filled where it is first reached; a call that records (`seen_before`) runs every
    /// time, and an expression that reads `stuck` gets no cell at all (as the executor's closures).
    #[test]
    fn a_call_written_twice_is_worked_out_once() {
        let along = Expr::Call(
            Func::Along,
            vec![
                Expr::Const(Value::Track(0)),
                Expr::Local(1),
                Expr::Const(Value::Int(3)),
            ],
        );
        let tagged = Expr::Call(
            Func::Tagged,
            vec![along.clone(), Expr::Const(Value::Int(0))],
        );
        let lands = Expr::Bin(
            BinOp::Ne,
            Box::new(along.clone()),
            Box::new(Expr::Const(Value::None)),
        );
        let e = Expr::Bin(
            BinOp::And,
            Box::new(lands.clone()),
            Box::new(tagged.clone()),
        );
        let (cells, text) = truthy(&e, &[]);
        assert_eq!(cells, "let mut m0: Option<Value> = None;\n");
        // Each place the call is written reads the cell, and only the first reached fills it.
        let through_cell = "m0.get_or_insert_with(|| run.call_values(st, Func::Along,";
        assert_eq!(text.matches(through_cell).count(), 2, "{text}");
        assert_eq!(text.matches("Func::Along").count(), 2, "{text}");

        let seen = Expr::Call(Func::SeenBefore, vec![Expr::Local(1)]);
        let twice = Expr::Bin(BinOp::And, Box::new(seen.clone()), Box::new(seen));
        let (cells, text) = truthy(&twice, &[]);
        assert_eq!(
            (cells.as_str(), text.matches("Func::SeenBefore").count()),
            ("", 2)
        );

        let stuck = Expr::Bin(
            BinOp::And,
            Box::new(e),
            Box::new(Expr::Ambient(Ambient::Stuck)),
        );
        let (cells, text) = truthy(&stuck, &[]);
        assert_eq!(
            (cells.as_str(), text.matches("Func::Along").count()),
            ("", 2)
        );
    }

    /// The locals an operation borrows are those its expressions read, and only they: not a longer
    /// name ending in `l`, nor a slot written.
    #[test]
    fn an_operation_borrows_as_many_locals_as_it_reads() {
        assert_eq!(
            locals_read("let v = Value::Int(1);\nrun.locals[3] = v;"),
            None
        );
        assert_eq!(locals_read("let v = [l[0], l[12], st.vars[40]];"), Some(13));
        assert_eq!(locals_read("(l[2].int() > 0i64) && ex.all[7]"), Some(3));
        assert_eq!(
            borrowing("let v = l[4];\nrun.locals[1] = v;"),
            "let l = &run.locals[..5];\nlet v = l[4];\nrun.locals[1] = v;"
        );
    }
}

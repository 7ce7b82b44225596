//! The code generator of compiled rules: Rust source written from a prepared program (program.rs),
//! which the build compiles into the engine (compiled/).
//!
//! What is generated is a rule's search, the job that takes most of a game's time: one function per
//! program of a shape the generator knows, listing the same options in the same order as the
//! executor and recording the same moves through the executor's own bookkeeping
//! ([`crate::exec::Executor::follow`], [`crate::exec::Executor::pause_fresh`]). A program of any
//! other shape, and every other job (playing a move, finishing a paused one, listing moves for
//! `legal_moves`), runs on the executor.
//!
//! A function is found by the key of its own text ([`key`]), not by the ruleset's name: the text
//! holds everything the search depends on (piece kinds, variables, choice nodes by index), and reads
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

/// The source of the search generated from `program`, or `None` when the program is not of a shape the
/// generator knows:
/// - a last choice first (`choose to in sites() where empty(to) { ... }`): the search pauses there,
///   one move per option;
/// - a choice whose options each pause at once at a last choice (`choose from in sites_with(p) {
///   choose to in neighbours(from) where empty(to) { ... } }`).
///
/// Each listing must be one of [`Shape`]'s.
pub(crate) fn search_source(program: &Program) -> Option<String> {
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
            "fn {NAME}(ex: &mut Executor<'_, '_>, st: &Scratch<'_>, program: &Program) -> Done {{\n"
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

/// The generated searches of every prepared program of `games` whose key `skip` does not pass over,
/// each once, as the text of one module of compiled/ (what `keliya compile` writes).
pub fn generate(games: &[&Game], skip: &dyn Fn(u64) -> bool) -> String {
    let mut found = BTreeMap::new();
    for game in games {
        for rule in game.programs() {
            for program in std::iter::once(&rule.general).chain(&rule.by_mover) {
                if let Some(source) = search_source(program) {
                    let key = key(&source);
                    if !skip(key) {
                        found.insert(key, source);
                    }
                }
            }
        }
    }
    let mut out = String::from(
        "// Generated by keliya's code generator (crates/keliya-engine/src/codegen.rs) from the prepared\n\
         // rules of the rulesets it was given; `keliya compile` writes it. Do not edit by hand.\n\n\
         use crate::compiled::prelude::*;\n\n",
    );
    out.push_str("/// The searches, by the key of their text, in order.\n");
    out.push_str("pub(crate) static SEARCHES: &[(u64, Search)] = &[\n");
    for key in found.keys() {
        let _ = writeln!(out, "    (0x{key:016x}, search_{key:016x}),");
    }
    out.push_str("];\n");
    for (key, source) in &found {
        out.push('\n');
        out.push_str(&source.replacen(
            &format!("fn {NAME}("),
            &format!("fn search_{key:016x}("),
            1,
        ));
    }
    out
}

/// Whether the engine was built with the search of this key (in either generated module).
pub fn is_compiled(key: u64) -> bool {
    crate::compiled::by_key(key).is_some()
}

/// Whether the engine was built with the search of this key among the bundled rulesets' (what a
/// user's `keliya compile` leaves out of its own module).
pub fn is_bundled(key: u64) -> bool {
    crate::compiled::bundled_by_key(key).is_some()
}

/// The keys of the generated searches `game`'s programs would use.
pub fn keys(game: &Game) -> Vec<u64> {
    game.programs()
        .iter()
        .flat_map(|r| std::iter::once(&r.general).chain(&r.by_mover))
        .filter_map(|p| search_source(p).map(|s| key(&s)))
        .collect()
}

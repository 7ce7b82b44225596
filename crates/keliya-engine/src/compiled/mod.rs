//! The functions generated from prepared programs (codegen.rs: searches, runners, filters, listers)
//! and from the conditions of the turn, compiled into the engine: `bundled` for the rulesets that ship
//! (kept up to date by a test), `user` for rulesets a user compiled with `keliya compile`. A program
//! or a condition finds each of its functions by the key of the text generated from it.

// (Written by `keliya compile`, and compared with what it would write by a test: not reformatted.)
#[cfg(not(test))]
#[rustfmt::skip]
#[allow(clippy::all, unused)]
mod bundled;
// The engine's own unit tests run the executor only, so their build leaves out the bundled module
// (140,000 lines, half of the whole test build) and sees the user's module in its place. The two
// backends are compared in keliya-tests, which links the engine as it ships.
#[cfg(test)]
use user as bundled;
#[rustfmt::skip]
#[allow(clippy::all, unused)]
mod user;

use crate::codegen;
use crate::program::Program;

/// A generated search: adds the moves of one rule to the executor's list, as the executor would
/// (the position is as it was when it returns).
pub(crate) type Search = fn(&mut Executor<'_, '_>, &mut Scratch<'_>, &Program) -> Done;

/// Generated filters: whether the options bound in the run pass the filter of the program's choice
/// or loop `which` ([`crate::program::Options::which`]).
pub(crate) type Filter = for<'g> fn(&Run<'g>, &State, u16) -> Result<bool, Box<EngineError>>;

/// A generated test of a condition of the turn (a rule's `when`, an end condition) in the position,
/// evaluated with `run` as [`Run::truthy`] evaluates it.
pub(crate) type Condition = for<'g> fn(&Run<'g>, &State) -> Result<bool, Box<EngineError>>;

/// Generated listings: the options of the program's choice or loop `which`, added to the list as
/// [`Run::options`] adds them; `false` (nothing added) for one it has no listing for.
pub(crate) type Lister =
    for<'g> fn(&mut Run<'g>, &State, u16, &mut Vec<[Value; 2]>) -> Result<bool, Box<EngineError>>;

/// A generated runner: the executor's loop over a program's operations from one of them on.
pub(crate) type Runner =
    for<'g, 's, 'p> fn(&mut Executor<'g, 's>, &mut Run<'g>, &mut Scratch<'p>, usize) -> Done;

/// What generated code names.
#[cfg_attr(test, allow(unused))]
pub(crate) mod prelude {
    pub(crate) use super::{Condition, Filter, Lister, Runner, Search};
    pub(crate) use crate::eval::arith;
    pub(crate) use crate::exec::Executor;
    pub(crate) use crate::interp::{Choice, EngineError};
    pub(crate) use crate::ir::{Ambient, AssignOp, BinOp, Effect, Func, Value};
    pub(crate) use crate::program::Program;
    pub(crate) use crate::run::{Run, Scratch, combine, listings};
    pub(crate) use crate::state::State;
    pub(crate) type Done = Result<(), Box<EngineError>>;

    /// A runner's copy of the run's locals, in an array of its program's size (codegen.rs,
    /// `runner_source`).
    #[inline(always)]
    pub(crate) fn load<const N: usize>(locals: &[Value]) -> [Value; N] {
        let mut l = [Value::None; N];
        let n = N.min(locals.len());
        l[..n].copy_from_slice(&locals[..n]);
        l
    }

    /// A runner's locals back in the run.
    #[inline(always)]
    pub(crate) fn store(locals: &mut [Value], l: &[Value]) {
        let n = l.len().min(locals.len());
        locals[..n].copy_from_slice(&l[..n]);
    }
}
use prelude::*;

/// The search generated from `program`, if the engine was built with it.
pub(crate) fn search_for(program: &Program) -> Option<Search> {
    either(
        bundled::SEARCHES,
        user::SEARCHES,
        &codegen::search_source(program)?,
    )
}

/// The runner generated from `program`, if the engine was built with it.
pub(crate) fn runner_for(program: &Program) -> Option<Runner> {
    either(
        bundled::RUNNERS,
        user::RUNNERS,
        &codegen::runner_source(program)?,
    )
}

/// The filters generated from `program`, if the engine was built with them.
pub(crate) fn filter_for(program: &Program) -> Option<Filter> {
    either(
        bundled::FILTERS,
        user::FILTERS,
        &codegen::filter_source(program)?,
    )
}

/// The listings generated from `program`, if the engine was built with them.
pub(crate) fn lister_for(program: &Program) -> Option<Lister> {
    either(
        bundled::LISTERS,
        user::LISTERS,
        &codegen::lister_source(program)?,
    )
}

/// The test generated from a condition of the turn, if the engine was built with it.
pub(crate) fn condition_for(e: &crate::ir::Expr) -> Option<Condition> {
    either(
        bundled::CONDITIONS,
        user::CONDITIONS,
        &codegen::condition_source(e)?,
    )
}

/// Whether the bundled module has the generated function of this key.
pub(crate) fn is_bundled(key: u64) -> bool {
    has(bundled::SEARCHES, key)
        || has(bundled::RUNNERS, key)
        || has(bundled::FILTERS, key)
        || has(bundled::CONDITIONS, key)
        || has(bundled::LISTERS, key)
}

/// The function of `source`'s key, from the bundled module or else the user's.
fn either<F: Copy>(bundled: &[(u64, F)], user: &[(u64, F)], source: &str) -> Option<F> {
    let key = codegen::key(source);
    find(bundled, key).or_else(|| find(user, key))
}

fn has<F: Copy>(table: &[(u64, F)], key: u64) -> bool {
    find(table, key).is_some()
}

fn find<F: Copy>(table: &[(u64, F)], key: u64) -> Option<F> {
    let i = table.binary_search_by_key(&key, |&(k, _)| k).ok()?;
    Some(table[i].1)
}

//! The searches generated from prepared programs (codegen.rs), compiled into the engine: `bundled`
//! for the rulesets that ship (kept up to date by a test), `user` for rulesets a user compiled with
//! `keliya compile`. A program finds its search by the key of the text generated from it.

// (Written by `keliya compile`, and compared with what it would write by a test: not reformatted.)
#[rustfmt::skip]
mod bundled;
#[rustfmt::skip]
mod user;

use crate::codegen;
use crate::program::Program;

/// A generated search: adds the moves of one rule to the executor's list, as the executor would.
pub(crate) type Search = fn(&mut Executor<'_, '_>, &Scratch<'_>, &Program) -> Done;

/// What generated code names.
pub(crate) mod prelude {
    pub(crate) use super::Search;
    pub(crate) use crate::exec::Executor;
    pub(crate) use crate::interp::{Choice, EngineError};
    pub(crate) use crate::ir::Value;
    pub(crate) use crate::program::Program;
    pub(crate) use crate::run::{Scratch, listings};
    pub(crate) type Done = Result<(), Box<EngineError>>;
}
use prelude::*;

/// The search generated from `program`, if the engine was built with it.
pub(crate) fn search_for(program: &Program) -> Option<Search> {
    by_key(codegen::key(&codegen::search_source(program)?))
}

pub(crate) fn by_key(key: u64) -> Option<Search> {
    bundled_by_key(key).or_else(|| find(user::SEARCHES, key))
}

pub(crate) fn bundled_by_key(key: u64) -> Option<Search> {
    find(bundled::SEARCHES, key)
}

fn find(table: &[(u64, Search)], key: u64) -> Option<Search> {
    let i = table.binary_search_by_key(&key, |&(k, _)| k).ok()?;
    Some(table[i].1)
}

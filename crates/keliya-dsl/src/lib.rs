//! The keliya rules DSL: parsing into an AST with byte spans, and printing it back in canonical form.
//!
//! Architecture invariant: this crate knows the language, never a game or a ruleset. Names are left
//! unresolved here; `keliya-rules` resolves them against a ruleset and lowers the AST to engine IR.

mod ast;
mod parse;
mod print;

pub use ast::*;
pub use parse::{DslError, MAX_DEPTH, MAX_SOURCE_LEN, parse_expression, parse_program};
pub use print::program_to_string;

#[cfg(test)]
mod tests;

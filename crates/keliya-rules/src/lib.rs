//! Rulesets: YAML files with DSL snippets, resolved through `extends`, checked, and lowered to a
//! [`keliya_engine::Game`].
//!
//! Architecture invariants: this crate never plays (no move search, no agents); every problem it finds is a
//! [`Diagnostic`] with a file and byte range, all reported at once; nothing on this path panics on bad input.

mod catalog;
mod diag;
mod load;
mod lower;
mod yaml;

pub use catalog::{Catalog, Found, Origin, Unreadable, looks_like_path};
pub use diag::{Diagnostic, FileId, Loc, Sources};
pub use load::{
    Compiled, DisplayItem, DisplayValue, Loaded, RuleInfo, RulesetInfo, load, load_as_written,
};
pub use lower::{TOP_KEYS, board_generator};
pub use yaml::{Key, Node, Value as YamlValue};

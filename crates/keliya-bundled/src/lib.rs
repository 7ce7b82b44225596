//! The rulesets that ship with keliya (every `rulesets/**/*.yaml`), embedded at build time, so that the
//! command line and the Python package find them by name from any folder after they are installed. A
//! leaf crate of data only: editing a ruleset rebuilds this crate and what embeds it, nothing else.

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Every bundled ruleset as (name, text), names as `keliya list` shows them (`game`, `game/variant`,
/// `lib/hunt`), sorted.
pub fn rulesets() -> Vec<(String, &'static str)> {
    embedded::EMBEDDED
        .iter()
        .map(|(n, t)| (n.to_string(), *t))
        .collect()
}

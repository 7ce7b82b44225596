//! The rulesets that ship with keliya (every `rulesets/**/*.yaml`), embedded at build time, so that the
//! command line and the Python package find them by name from any folder after they are installed. A
//! crate of data above the loader: editing a ruleset rebuilds this crate and what embeds it, nothing else.

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

/// Where the command line and the Python package look a name up: `extra` folders, then `./rulesets`
/// when it exists (a folder's copy of a bundled ruleset wins), then the bundled rulesets.
pub fn catalog(extra: Vec<std::path::PathBuf>) -> keliya_rules::Catalog {
    let mut dirs = extra;
    let local = std::path::PathBuf::from("rulesets");
    if local.is_dir() {
        dirs.push(local);
    }
    keliya_rules::Catalog {
        dirs,
        embedded: rulesets(),
    }
}

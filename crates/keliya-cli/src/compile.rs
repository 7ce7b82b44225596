//! `keliya compile`: Rust generated from rulesets' prepared rules (keliya-engine's codegen.rs), written
//! into the engine's source for the next build to compile in.

use crate::{CliError, load_game};
use keliya_engine::codegen;
use std::path::{Path, PathBuf};

/// The engine's folder of generated modules, in the source tree this binary was built from.
fn compiled_dir() -> Result<PathBuf, CliError> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../keliya-engine/src/compiled");
    dir.canonicalize().map_err(|_| {
        CliError::Message(format!(
            "the source tree this keliya was built from is gone ({} not found): run `keliya compile` \
             from a checkout (`cargo run --release -p keliya-cli -- compile ...`), or give -o",
            dir.display()
        ))
    })
}

/// The text of the bundled rulesets' module (compiled/bundled.rs), from the rulesets built into this
/// binary.
pub fn bundled_module() -> Result<String, CliError> {
    let catalog = keliya_rules::Catalog {
        dirs: Vec::new(),
        embedded: keliya_bundled::rulesets(),
    };
    let mut games = Vec::new();
    for (name, _) in keliya_bundled::rulesets() {
        let loaded = keliya_rules::load(&catalog, &name);
        match loaded.result {
            Ok(c) => games.extend(c.game),
            Err(_) => {
                return Err(CliError::Message(format!(
                    "the bundled ruleset `{name}` does not load"
                )));
            }
        }
    }
    let games: Vec<_> = games.iter().collect();
    Ok(codegen::generate(&games, &|_| false))
}

pub fn run(rulesets: &[String], bundled: bool, output: Option<PathBuf>) -> Result<(), CliError> {
    let (text, default_name, what) = if bundled {
        (
            bundled_module()?,
            "bundled.rs",
            "the bundled rulesets".to_string(),
        )
    } else {
        let mut games = Vec::new();
        for r in rulesets {
            games.extend(load_game(r)?.game);
        }
        let refs: Vec<_> = games.iter().collect();
        let text = codegen::generate(&refs, &codegen::is_bundled);
        (text, "user.rs", rulesets.join(", "))
    };
    let path = match output {
        Some(path) => path,
        None => compiled_dir()?.join(default_name),
    };
    std::fs::write(&path, &text)
        .map_err(|e| CliError::Message(format!("writing {}: {e}", path.display())))?;
    // One line of a table per function.
    let functions = text.matches("\n    (0x").count();
    outln!(
        "wrote {functions} generated function(s) for {what} to {}",
        path.display()
    );
    if !bundled {
        outln!(
            "rebuild keliya to run them: cargo install --path crates/keliya-cli (or cargo build --release)"
        );
    }
    Ok(())
}

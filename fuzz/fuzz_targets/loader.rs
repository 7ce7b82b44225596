//! Any bytes as a ruleset file, loaded through the catalog of the bundled rulesets (so `extends:` a
//! bundled name resolves): loading must return a game or diagnostics inside the files read, never
//! panic, and a game that loads is played once.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("keliya-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("input.yaml");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let catalog = keliya_rules::Catalog {
        dirs: vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets"))],
        embedded: Vec::new(),
    };
    let loaded = keliya_rules::load(&catalog, &path.to_string_lossy());
    match &loaded.result {
        Ok(compiled) => {
            if let Some(game) = &compiled.game {
                let _ = keliya_play::play_random_game(game, 1);
            }
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty());
            for d in diagnostics {
                let text = loaded.sources.text(d.loc.file);
                assert!(d.loc.start <= d.loc.end && d.loc.end <= text.len());
                let _ = loaded.sources.short(d);
            }
        }
    }
});

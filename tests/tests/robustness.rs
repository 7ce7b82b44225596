//! Nothing on the input path panics: mutated copies of real rulesets either load or fail with diagnostics
//! that point inside a file that was read.

use keliya_tests::{catalog, root};

#[test]
fn mutated_rulesets_load_or_fail_cleanly() {
    let sources = [
        "rulesets/hat-diviyan-keliya.yaml",
        "rulesets/lib/hunt.yaml",
        "rulesets/raja-pasu.yaml",
    ];
    let dir = std::env::temp_dir().join(format!("keliya-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pieces = [
        ":", " ", "\n", "-", "[", "]", "{", "}", "~", "&a", "*a", "\"", "'", "|", "#", "@", "(",
        ")", "0", "é", "\t",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (n, source) in sources.iter().enumerate() {
        let original = std::fs::read_to_string(root().join(source)).expect("bundled ruleset");
        for i in 0..150 {
            let mut text: Vec<char> = original.chars().collect();
            for _ in 0..1 + next() % 3 {
                let at = (next() % text.len() as u64) as usize;
                match next() % 3 {
                    0 => {
                        text.remove(at);
                    }
                    1 => text.insert(
                        at,
                        pieces[(next() % pieces.len() as u64) as usize]
                            .chars()
                            .next()
                            .expect("one"),
                    ),
                    _ => {
                        text[at] = pieces[(next() % pieces.len() as u64) as usize]
                            .chars()
                            .next()
                            .expect("one")
                    }
                }
            }
            let path = dir.join(format!("m{n}-{i}.yaml"));
            // Keep a mutant of a bundled file beside its parents' names: `extends: lib/hunt` still resolves.
            std::fs::write(&path, text.iter().collect::<String>()).expect("written");
            let loaded = std::panic::catch_unwind(|| {
                keliya_rules::load(&catalog(), path.to_str().expect("utf-8"))
            })
            .unwrap_or_else(|_| panic!("loading {} panicked", path.display()));
            if let Ok(c) = &loaded.result {
                // A mutant that still loads is played: a rule may now fail, but as an error, never a panic.
                if let Some(game) = &c.game {
                    let played =
                        std::panic::catch_unwind(|| keliya_play::play_random_game(game, i));
                    assert!(played.is_ok(), "playing {} panicked", path.display());
                }
            }
            if let Err(diags) = &loaded.result {
                assert!(!diags.is_empty(), "a failure has at least one diagnostic");
                for d in diags {
                    let text = loaded.sources.text(d.loc.file);
                    assert!(
                        d.loc.start <= text.len() && d.loc.end <= text.len(),
                        "{}: {d:?}",
                        path.display()
                    );
                    let _ = loaded.sources.short(d);
                }
            }
        }
    }
}

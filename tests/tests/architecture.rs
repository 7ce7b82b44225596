//! Architecture invariants checked by test.

use keliya_tests::root;

/// The engine knows primitives, never games: no seed game's name may appear in the crates' sources.
#[test]
fn no_game_names_in_crate_sources() {
    let names = [
        "pancha", "raja", "pasu", "mandiri", "diviyan", "demala", "kerala", "leopard",
    ];
    let mut offenders = Vec::new();
    let crates = root().join("crates");
    // Every crate's sources, and the Python package's extension (its Python layer names bundled games
    // only in examples).
    let mut sources: Vec<_> = std::fs::read_dir(&crates)
        .expect("crates/ exists")
        .flatten()
        .map(|krate| krate.path().join("src"))
        .collect();
    sources.push(root().join("python/src"));
    for src in sources {
        let mut stack = vec![src];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(text) = std::fs::read_to_string(&p) {
                    let lower = text.to_lowercase();
                    for n in names {
                        if lower.contains(n) {
                            offenders.push(format!("{} mentions `{n}`", p.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "game names belong in rulesets/, not in crates:\n{}",
        offenders.join("\n")
    );
}

/// The engine keeps no hidden per-thread state: what a search or a playout reuses lives in the caller's
/// list of moves or in the run. The one thread-local left (compile.rs's memo cells) is justified by a
/// measurement in docs/architecture.md; another needs the same.
#[test]
fn the_engine_keeps_no_thread_local_state_but_the_measured_one() {
    let src = root().join("crates/keliya-engine/src");
    let mut found = Vec::new();
    for e in std::fs::read_dir(&src)
        .expect("the engine's sources")
        .flatten()
    {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        let uses = text.matches("thread_local!").count();
        if uses > 0 {
            let name = e.file_name().to_string_lossy().into_owned();
            found.push((name, uses));
        }
    }
    assert_eq!(
        found,
        [("compile.rs".to_string(), 1)],
        "thread-locals in the engine"
    );
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    assert!(
        doc.contains("**Per-thread state.**"),
        "docs/architecture.md justifies the thread-local it keeps"
    );
}

/// One executor runs every rule, over the prepared program: only program.rs turns the IR's statements
/// into operations (fold.rs prepares the IR itself), and no other engine file walks statements to run
/// them. A second executor would show up here as another file naming `Stmt::` variants.
#[test]
fn only_the_program_builder_and_the_folder_read_statements() {
    let src = root().join("crates/keliya-engine/src");
    let mut readers = Vec::new();
    for e in std::fs::read_dir(&src)
        .expect("the engine's sources")
        .flatten()
    {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        if text.contains("Stmt::Choose") || text.contains("Stmt::While") {
            readers.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    readers.sort();
    assert_eq!(
        readers,
        ["fold.rs", "ir.rs", "program.rs", "tests.rs"],
        "statements are run by exec.rs through the program that program.rs builds"
    );
}

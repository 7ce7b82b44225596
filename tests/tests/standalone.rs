//! The repository stands alone: no file points outside it, no ruleset, document or source speaks of the
//! working material the games were built from, every rule id a ruleset cites is written out in
//! `docs/rules/`, and every canonical ruleset cites a dated published reference.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use keliya_tests::{compile, root};

/// Every file of the repository, relative to its root: the tracked files when git can list them, else
/// every file below the root but build output and git's own folder.
fn files() -> Vec<PathBuf> {
    let root = root();
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    if let Some(o) = listed {
        return o
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
            .filter(|p| root.join(p).is_file())
            .collect();
    }
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&rel)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if name == "target" || name == ".git" {
                continue;
            }
            let p = rel.join(&name);
            if e.path().is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn text(rel: &Path) -> Option<String> {
    std::fs::read_to_string(root().join(rel)).ok()
}

/// Lines of the files in `rel_files` holding any of `needles` (case-insensitive), as `file:line: text`.
fn lines_with(rel_files: &[PathBuf], needles: &[String]) -> Vec<String> {
    let mut hits = Vec::new();
    for rel in rel_files {
        let Some(text) = text(rel) else { continue };
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if let Some(n) = needles.iter().find(|n| lower.contains(n.as_str())) {
                hits.push(format!(
                    "{}:{}: `{n}` in {}",
                    rel.display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    hits
}

/// The patterns are assembled here, so that this file does not match them itself.
fn outside_paths() -> Vec<String> {
    let parent = "..";
    vec![
        format!("{parent}/shared"),
        format!("{parent}\\shared"),
        ["", "work", ""].join("/"),
        ["", "home", ""].join("/"),
        ["", "users", ""].join("/"),
        ["", "root", ""].join("/"),
        ["c:", "users"].join("\\"),
    ]
}

fn workshop_words() -> Vec<String> {
    let seed = "seed";
    let mut words: Vec<String> = (0..10)
        .flat_map(|d| [format!("{seed} 00{d}"), format!("{seed}-00{d}")])
        .collect();
    words.push(format!("{seed}s/"));
    // Assembled, so that this file does not match them itself.
    let (brief, customer) = ("brief", "customer");
    for w in [
        format!("the {brief}"),
        format!("a {brief}"),
        format!("{brief}'s"),
        format!("{brief}:"),
        format!("{brief}s"),
        format!("the {customer}"),
        format!("{customer}'s"),
    ] {
        words.push(w);
    }
    words
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let hits = lines_with(&files(), &outside_paths());
    assert!(
        hits.is_empty(),
        "the repository must stand alone; these lines name paths outside it:\n{}",
        hits.join("\n")
    );
}

/// Rulesets, the documents a user reads, and every source file.
fn read_by_users_or_built() -> Vec<PathBuf> {
    files()
        .into_iter()
        .filter(|p| {
            let s = p.to_string_lossy();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or_default();
            (s.starts_with("rulesets/") && (ext == "yaml" || ext == "yml"))
                || (s.starts_with("docs/") && ext == "md")
                || s == "README.md"
                || ((s.starts_with("crates/") || s.starts_with("tests/")) && ext == "rs")
                || s.starts_with("grammar/")
                || s.starts_with("scripts/")
        })
        .collect()
}

#[test]
fn no_ruleset_document_or_source_uses_the_words_of_the_working_material() {
    let hits = lines_with(&read_by_users_or_built(), &workshop_words());
    assert!(
        hits.is_empty(),
        "say what the words meant instead (a rule id, a reference, `docs/rules/`):\n{}",
        hits.join("\n")
    );
}

/// The rule ids in a text: `PK-1`, `RP-Q10`, `MD-7`, ...
fn rule_ids(text: &str) -> BTreeSet<String> {
    const PREFIXES: &[&str] = &[
        "PK-", "KE-", "DD-", "HD-", "RP-", "MD-", "BC-", "BG-", "PJ-", "PL-", "KK-", "GC-", "OV-",
        "SG-", "TH-", "CP-", "PM-", "PA-",
    ];
    let mut ids = BTreeSet::new();
    let bytes = text.as_bytes();
    for (i, _) in text.char_indices() {
        let Some(prefix) = PREFIXES.iter().find(|p| text[i..].starts_with(**p)) else {
            continue;
        };
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let rest = &text[i + prefix.len()..];
        let q = usize::from(rest.starts_with('Q'));
        let digits = rest[q..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            ids.insert(text[i..i + prefix.len() + q + digits].to_string());
        }
    }
    ids
}

/// The ids `docs/rules/*.md` defines: a rule written out as `- **PK-1** ...`, or a row `| PK-Q1 | ...`.
fn defined_ids() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let dir = root().join("docs/rules");
    for e in std::fs::read_dir(&dir).expect("docs/rules").flatten() {
        if e.path().extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).expect("a page");
        for line in text.lines() {
            let head = line
                .strip_prefix("- **")
                .and_then(|l| l.split_once("**"))
                .map(|(id, _)| id)
                .or_else(|| {
                    line.strip_prefix("| ")
                        .and_then(|l| l.split_once(" |"))
                        .map(|(id, _)| id)
                });
            if let Some(id) = head
                && rule_ids(id).contains(id)
            {
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

fn ruleset_files() -> Vec<PathBuf> {
    files()
        .into_iter()
        .filter(|p| {
            p.starts_with("rulesets") && p.extension().is_some_and(|e| e == "yaml" || e == "yml")
        })
        .collect()
}

#[test]
fn every_rule_id_a_ruleset_cites_is_written_out_in_the_rules_pages() {
    let defined = defined_ids();
    let mut missing = Vec::new();
    for rel in ruleset_files() {
        for id in rule_ids(&text(&rel).unwrap_or_default()) {
            if !defined.contains(&id) {
                missing.push(format!("{}: {id}", rel.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited but not defined in docs/rules/:\n{}",
        missing.join("\n")
    );
    // The check itself finds what it should: ids of every game, and none that is not there.
    for id in [
        "PK-17", "PK-Q20", "KE-11", "RP-14", "MD-8", "MD-Q8", "DD-Q10", "HD-8", "BC-9", "BC-Q4",
        "PJ-8", "PL-9",
    ] {
        assert!(defined.contains(id), "{id} is written out");
    }
    assert!(!defined.contains("RP-99"));
}

#[test]
fn every_rule_of_a_canonical_ruleset_is_stated_in_words_and_the_pages_say_the_same() {
    let pages: String = [
        "pancha-keliya",
        "kerala",
        "raja-pasu",
        "demala-diviyan-keliya",
    ]
    .iter()
    .chain(&[
        "hat-diviyan-keliya",
        "bagh-chal",
        "bagh-guti",
        "pulijudamu",
        "pallankuli",
        "ovalhu",
        "puhulmutu",
        "sat-gol",
        "pachisi",
        "koti-keliya",
        "thaayam",
        "gyan-chaupar",
        "chaupar",
    ])
    .map(|g| std::fs::read_to_string(root().join(format!("docs/rules/{g}.md"))).unwrap())
    .collect();
    for name in canonical() {
        let info = compile(&name).info;
        assert!(
            !info.rule_text.is_empty(),
            "{name} states its rules in words"
        );
        assert!(!info.choices.is_empty(), "{name} says what it chose");
        for (id, text) in info.rule_text.iter().chain(&info.choices) {
            assert!(rule_ids(id).contains(id), "{name}: `{id}` is not a rule id");
            if info.rule_text.iter().any(|(i, _)| i == id) {
                assert!(
                    pages.contains(&format!("- **{id}** {text}")),
                    "{name}: docs/rules/ states {id} otherwise than the ruleset"
                );
            }
        }
    }
}

/// The top-level rulesets but libraries: the games every variant extends.
fn canonical() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("rulesets"))
        .expect("rulesets/")
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension().is_some_and(|x| x == "yaml"))
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// A reference with its year in brackets after the author: `Parker, H. (1909). Ancient Ceylon. ...`.
fn is_dated(source: &str) -> bool {
    source.find(" (").is_some_and(|at| {
        let year = &source[at + 2..];
        year.len() > 5 && year[..4].bytes().all(|b| b.is_ascii_digit()) && &year[4..5] == ")"
    })
}

#[test]
fn every_canonical_ruleset_cites_a_dated_published_reference() {
    let names = canonical();
    assert!(names.len() >= 6, "{names:?}");
    for name in names {
        let info = compile(&name).info;
        assert!(
            info.sources.iter().any(|s| is_dated(s)),
            "{name} cites no dated published reference: {:?}",
            info.sources
        );
    }
    assert!(is_dated(
        "de Voogt, A. J. (2000). Mancala boards. Board Game Studies 3: 90-99."
    ));
    assert!(!is_dated(
        "Mancala World. Raja Pasu. Read 30 November 2026."
    ));
}

#[test]
fn a_delta_changes_the_rules_in_words_entry_by_entry() {
    let parent = compile("raja-pasu").info;
    let delta = compile("raja-pasu/skip-origin").info;
    assert_eq!(parent.choices.len(), delta.choices.len());
    for ((id, before), (same_id, after)) in parent.choices.iter().zip(&delta.choices) {
        assert_eq!(id, same_id, "entries keep the parent's order");
        assert_eq!(before == after, id != "RP-Q1", "{id}");
    }
    // `~` removes an entry: the three-player game has no row owners, so RP-1 goes.
    let mandiri = compile("raja-pasu-mandiri").info;
    let ids: Vec<&str> = mandiri.rule_text.iter().map(|(i, _)| i.as_str()).collect();
    assert!(!ids.contains(&"RP-1") && ids.contains(&"RP-2") && ids.contains(&"MD-7"));
}

#[test]
fn the_patterns_find_what_they_are_for() {
    let paths = outside_paths();
    let words = workshop_words();
    let found = |line: &str, needles: &[String]| {
        let lower = line.to_lowercase();
        needles.iter().any(|n| lower.contains(n.as_str()))
    };
    assert!(found(&format!("see ..{}", "/shared/rules/x.md"), &paths));
    assert!(found(&format!("/home{}", "/me/x.yaml"), &paths));
    assert!(!found("rulesets/raja-pasu.yaml, ../games/x.yaml", &paths));
    assert!(found(&format!("as Seed {} says", "001"), &words));
    assert!(found(&format!("the {}f's default", "Brie"), &words));
    assert!(!found("--seed 0 --games 300; briefly", &words));
}

#[test]
fn every_rule_of_every_bundled_ruleset_cites_its_rule_ids() {
    let mut missing = Vec::new();
    for rel in ruleset_files() {
        let name = rel
            .strip_prefix("rulesets")
            .unwrap()
            .with_extension("")
            .to_string_lossy()
            .into_owned();
        let info = compile(&name).info;
        for r in info.rules.iter().chain(&info.ends) {
            let source = r.source.as_deref().unwrap_or_default();
            if rule_ids(source).is_empty() {
                missing.push(format!("{name}: {} ({source:?})", r.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "each rule's `source:` names the rule ids it implements:\n{}",
        missing.join("\n")
    );
}

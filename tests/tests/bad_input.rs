//! The bad-input corpus: `tests/bad-input/` holds one small ruleset per mistake (each a valid ruleset with
//! exactly one defect, or a hostile file), and beside each `NAME.yaml` a `NAME.expected` holding the first
//! diagnostic as `keliya validate` prints it: `path:line:col: error: message` (compared exactly, as
//! `Sources::short` renders it), then its `  = hint: ...` line if it has one (compared when given).
//!
//! Paths: every case is loaded by its absolute path (the canonical repository root joined with
//! `tests/bad-input/...`), and the root prefix is stripped from the rendered diagnostic, so the expected
//! files hold root-relative paths (`tests/bad-input/NAME.yaml`), as the CLI prints them when run from the
//! root. The current directory is never changed: tests run on parallel threads and it is process-wide.
//! `extends: hat-diviyan-keliya` resolves through the catalog of the repository's `rulesets/`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use keliya_tests::{catalog, root};

/// Every case, large or hostile, must be answered within this.
const LIMIT: Duration = Duration::from_secs(2);

fn repo() -> PathBuf {
    root().canonicalize().expect("the repository root exists")
}

/// The case files under `tests/bad-input/`, root-relative with `/`, sorted.
fn cases() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir)
            .expect("tests/bad-input exists")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }
    let repo = repo();
    let mut files = Vec::new();
    walk(&repo.join("tests/bad-input"), &mut files);
    let mut rel: Vec<String> = files
        .iter()
        .map(|p| {
            p.strip_prefix(&repo)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    rel.sort();
    rel
}

/// Loads `path` (absolute), returning the first diagnostic in short form with `prefix` stripped from
/// every path, and how long the load took. Panics (failing the test) if the file loads.
fn first_diagnostic(path: &Path, prefix: &str) -> (String, Duration) {
    let started = Instant::now();
    let loaded = catch_unwind(AssertUnwindSafe(|| {
        keliya_rules::load(&catalog(), &path.to_string_lossy())
    }))
    .unwrap_or_else(|_| panic!("{}: loading panicked", path.display()));
    let took = started.elapsed();
    let diags = match loaded.result {
        Ok(_) => panic!("{}: loaded without a problem", path.display()),
        Err(d) => d,
    };
    assert!(
        !diags.is_empty(),
        "{}: failed with no diagnostic",
        path.display()
    );
    let d = &diags[0];
    let short = loaded.sources.short(d);
    let first = short.lines().next().unwrap_or_default();
    let mut shown = first.replace(prefix, "").replace('\\', "/");
    if let Some(h) = &d.hint {
        // The hint as the CLI prints it.
        shown.push_str(&format!("\n  = hint: {h}"));
    }
    (shown, took)
}

#[test]
fn every_bad_input_fails_with_its_expected_first_diagnostic() {
    let repo = repo();
    let prefix = format!("{}{}", repo.display(), std::path::MAIN_SEPARATOR);
    let cases = cases();
    assert!(cases.len() >= 30, "the corpus holds {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let expected_path = repo.join(case.replace(".yaml", ".expected"));
        let Ok(expected) = std::fs::read_to_string(&expected_path) else {
            failures.push(format!("{case}: no {}", expected_path.display()));
            continue;
        };
        let (got, took) = first_diagnostic(&repo.join(case), &prefix);
        assert!(took < LIMIT, "{case}: answered in {took:?}");
        let mut want_lines = expected.lines();
        let mut got_lines = got.lines();
        // The first line exactly: `path:line:col: error: message`.
        if want_lines.next() != got_lines.next() {
            failures.push(format!(
                "{case}:\n  expected: {expected}\n  got:      {got}"
            ));
            continue;
        }
        // Then the hint, when the expected file gives one.
        let want_rest: Vec<&str> = want_lines.collect();
        if !want_rest.is_empty() && want_rest != got_lines.collect::<Vec<_>>() {
            failures.push(format!(
                "{case}: hint differs\n  expected: {expected}\n  got:      {got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_expected_file_has_its_case() {
    let repo = repo();
    let cases = cases();
    let mut stack = vec![repo.join("tests/bad-input")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "expected") {
                let rel = p.strip_prefix(&repo).expect("under the root");
                let case = rel
                    .with_extension("yaml")
                    .to_string_lossy()
                    .replace('\\', "/");
                assert!(cases.contains(&case), "{} has no case {case}", p.display());
            }
        }
    }
}

/// The binary file is committed as real random bytes, NUL included; the empty one is empty.
#[test]
fn the_hostile_files_are_what_they_claim() {
    let dir = repo().join("tests/bad-input");
    let binary = std::fs::read(dir.join("binary.yaml")).expect("binary case");
    assert!(binary.contains(&0), "binary.yaml holds a NUL byte");
    assert!(
        std::str::from_utf8(&binary).is_err(),
        "binary.yaml is not UTF-8"
    );
    assert!(
        std::fs::read(dir.join("empty.yaml"))
            .expect("empty case")
            .is_empty()
    );
    let deep = std::fs::read_to_string(dir.join("deep-flow.yaml")).expect("deep case");
    assert!(deep.contains(&"[".repeat(200)));
    let deep = std::fs::read_to_string(dir.join("deep-dsl.yaml")).expect("deep case");
    assert!(deep.contains(&"(".repeat(200)));
}

/// A file over 1 MiB is made here, in a temporary folder, rather than committed.
#[test]
fn a_very_large_file_is_refused_quickly() {
    let dir = std::env::temp_dir().join(format!("keliya-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("large.yaml");
    let mut text = String::from("keliya: 1\ntitle: Large\nextends: hat-diviyan-keliya\nsources:\n");
    while text.len() <= 1024 * 1024 + 1 {
        text.push_str("  - \"a long list of sources, one of many thousands\"\n");
    }
    std::fs::write(&path, &text).expect("write the large file");
    let prefix = format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR);
    let (got, took) = first_diagnostic(&path, &prefix);
    std::fs::remove_dir_all(&dir).ok();
    assert!(took < LIMIT, "answered in {took:?}");
    assert_eq!(
        got.lines().next(),
        Some(
            format!(
                "large.yaml:1:1: error: file is {} bytes; a ruleset may have at most 1048576",
                text.len()
            )
            .as_str()
        )
    );
}

/// Under the size limit but with hundreds of thousands of values: refused by the parser's budget.
#[test]
fn a_file_of_very_many_values_is_refused_quickly() {
    let dir = std::env::temp_dir().join(format!("keliya-many-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("many.yaml");
    let text = format!("sources: [{}]\n", vec!["x"; 340_000].join(","));
    assert!(text.len() < 1024 * 1024);
    std::fs::write(&path, &text).expect("write");
    let prefix = format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR);
    let (got, took) = first_diagnostic(&path, &prefix);
    std::fs::remove_dir_all(&dir).ok();
    assert!(took < LIMIT, "answered in {took:?}");
    assert!(
        got.contains("error: YAML: the file holds too many values"),
        "{got}"
    );
}

/// A file whose name ends with its parent's name is not a cycle (`mydata` extends `data`).
#[test]
fn a_parent_whose_name_ends_the_childs_is_not_a_cycle() {
    let dir = std::env::temp_dir().join(format!("keliya-not-a-cycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("data.yaml"),
        "keliya: 1\ntitle: Data\nextends: hat-diviyan-keliya\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("mydata.yaml"),
        "keliya: 1\ntitle: My data\nextends: data\n",
    )
    .expect("write");
    let loaded = keliya_rules::load(&catalog(), &dir.join("mydata.yaml").to_string_lossy());
    let problems: Vec<String> = match &loaded.result {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| loaded.sources.short(d)).collect(),
    };
    std::fs::remove_dir_all(&dir).ok();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A parameter with a bad value is reported once: the rules that read it still know its name.
#[test]
fn a_bad_parameter_is_reported_once() {
    let path = repo().join("tests/bad-input/param-out-of-range.yaml");
    let loaded = keliya_rules::load(&catalog(), &path.to_string_lossy());
    let problems: Vec<String> = match &loaded.result {
        Ok(_) => panic!("the case loaded"),
        Err(d) => d.iter().map(|d| loaded.sources.short(d)).collect(),
    };
    // `hunter_win_captures` is read by lib/hunt.yaml's `capture-goal`.
    assert_eq!(problems.len(), 1, "{}", problems.join("\n"));
    assert!(problems[0].contains("must be between"), "{}", problems[0]);
}

/// The problems of a ruleset written to a fresh file, as `validate` prints their first lines.
fn problems_of(name: &str, yaml: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("keliya-cascades-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).expect("written");
    let loaded = keliya_rules::load(&catalog(), &path.to_string_lossy());
    match &loaded.result {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| loaded.sources.short(d)).collect(),
    }
}

/// A mistake in the board is reported once, not again at every rule that names a site or a track of
/// the board: the rules are checked against the names the board declares.
#[test]
fn a_board_mistake_is_not_reported_again_in_the_rules() {
    // Six holes a row, but the parent's row tracks still name the seventh holes.
    let problems = problems_of(
        "six-holes",
        "keliya: 1\ntitle: t\nextends: raja-pasu\nboard:\n  generate: [{mancala: {rows: 2, holes: 6, owners: [south, north]}}]\n",
    );
    assert_eq!(problems.len(), 2, "{}", problems.join("\n"));
    assert!(
        problems.iter().all(|p| p.contains("names unknown site")),
        "{}",
        problems.join("\n")
    );
}

/// A local whose `let` fails is reported there, not again wherever the rule names it.
#[test]
fn a_local_whose_let_fails_is_not_reported_again() {
    let problems = problems_of(
        "bad-let",
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  prey-step:\n    do: |\n      \
         choose from in sites_with(prey) {\n        let far = alng(from, 2)\n        far = from\n        let near = far\n        \
         choose to in neighbours(from) where empty(to) and to != far {\n          move(prey, from, to)\n        }\n      }\n",
    );
    assert_eq!(problems.len(), 1, "{}", problems.join("\n"));
    assert!(problems[0].contains("alng"), "{}", problems[0]);
    // A mistake of its own in what is assigned to it is still reported.
    let problems = problems_of(
        "bad-let-2",
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  prey-step:\n    do: |\n      \
         choose from in sites_with(prey) {\n        let far = alng(from, 2)\n        far = alng(far, 1)\n        \
         choose to in neighbours(from) where empty(to) {\n          move(prey, from, to)\n        }\n      }\n",
    );
    assert_eq!(problems.len(), 2, "{}", problems.join("\n"));
}

/// `extends: ./sub/base.yaml` is read beside the extending file, whatever the current folder.
#[test]
fn a_relative_parent_path_is_relative_to_the_child() {
    let dir = std::env::temp_dir().join(format!("keliya-relative-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
    std::fs::write(
        dir.join("sub/base.yaml"),
        "keliya: 1\ntitle: Base\nextends: hat-diviyan-keliya\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("child.yaml"),
        "keliya: 1\ntitle: Child\nextends: ./sub/base.yaml\n",
    )
    .expect("write");
    let loaded = keliya_rules::load(&catalog(), &dir.join("child.yaml").to_string_lossy());
    let problems: Vec<String> = match &loaded.result {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| loaded.sources.short(d)).collect(),
    };
    std::fs::remove_dir_all(&dir).ok();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// docs/errors.md shows every case with the message the tool prints.
#[test]
fn the_error_docs_show_every_case() {
    let repo = repo();
    let docs = std::fs::read_to_string(repo.join("docs/errors.md")).expect("docs/errors.md");
    for case in cases() {
        let expected = std::fs::read_to_string(repo.join(case.replace(".yaml", ".expected")))
            .expect("expected file");
        let first = expected.lines().next().expect("a first line");
        assert!(
            docs.contains(first),
            "docs/errors.md does not show `{first}`"
        );
    }
}

// ---------------------------------------------------------------------------------------------------------
// The real binary. It is run through `cargo run -p keliya-cli` from the repository root, which builds it
// if it is missing or stale (a path under target/ would depend on the profile and on a prior build).

fn keliya(args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "keliya-cli", "--"])
        .args(args)
        .current_dir(repo())
        .output()
        .expect("cargo runs")
}

#[test]
fn the_cli_reports_bad_input_with_location_underline_and_exit_1() {
    for case in [
        "tests/bad-input/unknown-rule-key.yaml",
        "tests/bad-input/dsl-syntax-block.yaml",
    ] {
        let out = keliya(&["validate", case]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case}: {stderr}");
        let expected = std::fs::read_to_string(repo().join(case.replace(".yaml", ".expected")))
            .expect("expected file");
        let first = expected.lines().next().expect("a first line");
        assert!(
            stderr.lines().any(|l| l == first),
            "{case}: stderr lacks `{first}`:\n{stderr}"
        );
        // The source line follows with the span underlined under the reported column.
        let col: usize = first
            .split(':')
            .nth(2)
            .and_then(|c| c.parse().ok())
            .expect("col");
        let underline = stderr
            .lines()
            .find(|l| l.trim_start().starts_with('|') && l.contains('^'))
            .unwrap_or_else(|| panic!("{case}: no `^` underline:\n{stderr}"));
        let bar = underline.find('|').expect("gutter");
        assert_eq!(
            underline.find('^'),
            Some(bar + 1 + col),
            "{case}: underline not under column {col}:\n{stderr}"
        );
    }
}

#[test]
fn the_cli_validates_every_bundled_ruleset() {
    let mut files = Vec::new();
    let mut stack = vec![repo().join("rulesets")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("rulesets/").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                let rel = p.strip_prefix(repo()).expect("under the root");
                files.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 3, "rulesets/ holds the bundled rulesets");
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let out = keliya(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    for f in &files {
        assert!(
            stdout.contains(&format!("{f}: ok")),
            "{f} not reported ok:\n{stdout}"
        );
    }
}

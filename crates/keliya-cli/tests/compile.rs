//! `keliya compile`: the generated module of a user's ruleset holds the searches, runners and filters
//! its rewritten rules need and none the bundled module has; `--bundled` writes the bundled module as
//! it is checked in.

use std::process::Command;

fn keliya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_keliya"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("the binary runs")
}

const LEAPING_LEOPARDS: &str = include_str!("leaping-leopards.yaml");

#[test]
fn a_rewritten_rule_gets_its_own_search_and_the_rest_stay_bundled() {
    let dir = std::env::temp_dir().join(format!("keliya-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ruleset = dir.join("leaping.yaml");
    std::fs::write(&ruleset, LEAPING_LEOPARDS).unwrap();
    let out = dir.join("user.rs");
    let run = keliya(&[
        "compile",
        ruleset.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("wrote 3 generated function(s)"), "{stdout}");
    let module = std::fs::read_to_string(&out).unwrap();
    // Only the new rule's search: a leap over the hunter (piece 0), three locals.
    assert_eq!(module.matches("\nfn search_").count(), 1, "{module}");
    assert!(
        module.contains("listings::leaps(g, st, s, 0, &mut ex.options);"),
        "{module}"
    );
    assert!(module.contains("[Value::None; 3]"), "{module}");
    // Its runner, and the filter of its second choice (number 1): the hunter (piece 0) jumped over.
    assert_eq!(module.matches("\nfn runner_").count(), 1, "{module}");
    assert_eq!(module.matches("\nfn filter_").count(), 1, "{module}");
    assert!(
        module.contains("1 => (matches!(l[1], Value::Site(x) if st.count(g, x, 0) > 0)"),
        "{module}"
    );

    let bundled = dir.join("bundled.rs");
    let run = keliya(&["compile", "--bundled", "-o", bundled.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let checked_in = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../keliya-engine/src/compiled/bundled.rs"),
    )
    .unwrap();
    assert_eq!(std::fs::read_to_string(&bundled).unwrap(), checked_in);
    let _ = std::fs::remove_dir_all(&dir);

    // Neither rulesets nor `--bundled`: a usage error.
    assert_eq!(keliya(&["compile"]).status.code(), Some(2));
}

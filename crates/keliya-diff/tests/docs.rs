//! `docs/diff.md` shows the diff of its worked example exactly as the tool prints it.

use std::path::PathBuf;

use keliya_diff::text::diff_text;
use keliya_diff::{Side, structural};
use keliya_rules::Catalog;

const COMMAND: &str = "$ keliya diff hat-diviyan-keliya hat-diviyan-keliya/large\n";

#[test]
fn the_worked_example_is_the_output_of_today() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/diff.md")).expect("docs/diff.md");
    let start = doc.find(COMMAND).expect("the worked example's command") + COMMAND.len();
    let shown = &doc[start..start + doc[start..].find("```").expect("the block ends")];
    let rulesets = root.join("rulesets");
    let catalog = Catalog {
        dirs: vec![rulesets.clone()],
        embedded: Vec::new(),
    };
    let (a, b) = (
        keliya_rules::load(&catalog, "hat-diviyan-keliya"),
        keliya_rules::load(&catalog, "hat-diviyan-keliya/large"),
    );
    let text = diff_text(&structural(
        Side::of(&a).expect("loads"),
        Side::of(&b).expect("loads"),
    ));
    // The CLI names files from the working folder (`rulesets/...`); this test from the crate's. The columns
    // line up differently for paths of other lengths, so spaces are compared collapsed.
    let prefix = format!("{}/", rulesets.display());
    let norm = |t: &str| -> Vec<String> {
        t.replace(&prefix, "rulesets/")
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(
        norm(shown),
        norm(&text),
        "docs/diff.md is out of date: paste the output of \
         `keliya diff hat-diviyan-keliya hat-diviyan-keliya/large` into its worked example"
    );
}

//! How a rule's printed text changed, as lines: the diffing is `similar`'s (Myers), the layout ours.

use similar::{ChangeTag, TextDiff};

/// The lines of `old` and `new` as a diff: changed lines marked `- ` and `+ `, with `context` unchanged
/// lines around each change marked `  `, and `...` where unchanged lines are left out. Empty when the
/// texts are equal.
pub fn line_diff(old: &str, new: &str, context: usize) -> Vec<String> {
    let (a, b) = (with_last_newline(old), with_last_newline(new));
    if a == b {
        return Vec::new();
    }
    // A deadline keeps huge texts from taking long: past it the diff is coarser, never wrong.
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(500))
        .diff_lines(a.as_str(), b.as_str());
    let total = diff.ops().last().map_or(0, |op| op.old_range().end);
    let mut out = Vec::new();
    let mut shown_to = 0;
    for hunk in diff.grouped_ops(context) {
        let Some(first) = hunk.first() else { continue };
        if first.old_range().start > shown_to || (out.is_empty() && first.old_range().start > 0) {
            out.push("...".to_string());
        }
        for op in &hunk {
            for change in diff.iter_changes(op) {
                let mark = match change.tag() {
                    ChangeTag::Equal => "  ",
                    ChangeTag::Delete => "- ",
                    ChangeTag::Insert => "+ ",
                };
                let line = change.value().trim_end_matches(['\n', '\r']);
                out.push(format!("{mark}{line}"));
            }
        }
        shown_to = hunk.last().map_or(shown_to, |op| op.old_range().end);
    }
    if shown_to < total {
        out.push("...".to_string());
    }
    out
}

/// Texts that differ only in a final newline are the same lines.
fn with_last_newline(text: &str) -> String {
    let mut t: String = text.lines().collect::<Vec<_>>().join("\n");
    if !t.is_empty() {
        t.push('\n');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn changed_lines_with_context() {
        let old = "a\nb\nc\nd\ne\nf\n";
        let new = "a\nb\nC\nd\ne\nf\ng\n";
        assert_eq!(
            line_diff(old, new, 1),
            ["...", "  b", "- c", "+ C", "  d", "...", "  f", "+ g"]
        );
        assert!(line_diff(old, old, 1).is_empty());
        assert_eq!(line_diff("", "x", 0), ["+ x"]);
    }
}

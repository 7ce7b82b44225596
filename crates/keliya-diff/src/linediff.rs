//! A small line diff (longest common subsequence) for showing how a rule's printed text changed.

/// Texts longer than this (in lines) are shown as a whole replacement rather than diffed.
const MAX_LINES: usize = 2000;

/// The lines of `old` and `new` as a diff: changed lines marked `- ` and `+ `, with `context` unchanged
/// lines around each change marked `  `, and `...` between hunks. Empty when the texts are equal.
pub fn line_diff(old: &str, new: &str, context: usize) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    if a == b {
        return Vec::new();
    }
    let ops = if a.len() > MAX_LINES || b.len() > MAX_LINES {
        let mut ops: Vec<Op> = a.iter().map(|l| Op::Del(l)).collect();
        ops.extend(b.iter().map(|l| Op::Add(l)));
        ops
    } else {
        lcs_ops(&a, &b)
    };
    // Keep the changed lines and `context` lines either side of each.
    let changed: Vec<bool> = ops.iter().map(|o| !matches!(o, Op::Same(_))).collect();
    let keep: Vec<bool> = (0..ops.len())
        .map(|i| {
            let lo = i.saturating_sub(context);
            let hi = (i + context + 1).min(ops.len());
            changed[lo..hi].iter().any(|&c| c)
        })
        .collect();
    let mut out = Vec::new();
    let mut last_kept: Option<usize> = None;
    for (i, op) in ops.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        if let Some(l) = last_kept {
            if i > l + 1 {
                out.push("...".to_string());
            }
        } else if i > 0 {
            out.push("...".to_string());
        }
        last_kept = Some(i);
        out.push(match op {
            Op::Same(l) => format!("  {l}"),
            Op::Del(l) => format!("- {l}"),
            Op::Add(l) => format!("+ {l}"),
        });
    }
    if last_kept.is_some_and(|l| l + 1 < ops.len()) {
        out.push("...".to_string());
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

fn lcs_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    let (n, m) = (a.len(), b.len());
    // len[i][j]: length of the LCS of a[i..] and b[j..].
    let mut len = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[at(i, j)] = if a[i] == b[j] {
                len[at(i + 1, j + 1)] + 1
            } else {
                len[at(i + 1, j)].max(len[at(i, j + 1)])
            };
        }
    }
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            ops.push(Op::Same(a[i]));
            i += 1;
            j += 1;
        } else if len[at(i + 1, j)] >= len[at(i, j + 1)] {
            ops.push(Op::Del(a[i]));
            i += 1;
        } else {
            ops.push(Op::Add(b[j]));
            j += 1;
        }
    }
    ops.extend(a[i..].iter().map(|l| Op::Del(l)));
    ops.extend(b[j..].iter().map(|l| Op::Add(l)));
    ops
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

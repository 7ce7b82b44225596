//! The diff as text for a terminal: changes grouped by section with `+`, `-` and `~` marks and the lines of
//! both rulesets they come from; the simulation as a side-by-side table.

use crate::{About, Change, Comparison, Diff, Kind, Section, Simulation};

/// Detail lines shown per change; `--json` has them all.
const MAX_DETAIL: usize = 24;

fn about_line(tag: &str, a: &About) -> String {
    let mut s = format!("{tag}  {}", a.name);
    if !a.title.is_empty() {
        s.push_str(&format!(": {}", a.title));
    }
    if !a.family.is_empty() {
        s.push_str(&format!(" ({})", a.family));
    }
    if !a.files.is_empty() {
        s.push_str(&format!(", from {}", a.files.join(" <- ")));
    }
    s
}

/// The whole structural diff.
pub fn diff_text(d: &Diff) -> String {
    let mut out = String::new();
    out.push_str(&about_line("a", &d.a));
    out.push('\n');
    out.push_str(&about_line("b", &d.b));
    out.push('\n');
    for n in &d.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    for section in Section::ALL {
        let changes: Vec<&Change> = d.section(section).collect();
        if changes.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(section.name());
        out.push('\n');
        for c in changes {
            change_text(c, &mut out);
        }
    }
    out.push('\n');
    out.push_str(&summary(d));
    out.push('\n');
    out
}

/// `no changes`, or `12 changes: 5 added, 1 removed, 6 changed`.
pub fn summary(d: &Diff) -> String {
    if d.changes.is_empty() {
        return "no changes".into();
    }
    let count = |k: Kind| d.changes.iter().filter(|c| c.kind == k).count();
    format!(
        "{} change{}: {} added, {} removed, {} changed",
        d.changes.len(),
        if d.changes.len() == 1 { "" } else { "s" },
        count(Kind::Added),
        count(Kind::Removed),
        count(Kind::Changed)
    )
}

fn change_text(c: &Change, out: &mut String) {
    out.push_str(&format!("  {} {}\n", c.kind.mark(), c.description));
    let spans: Vec<(&str, &crate::Span)> =
        c.a.iter()
            .map(|s| ("a", s))
            .chain(c.b.iter().map(|s| ("b", s)))
            .collect();
    let width = spans.iter().map(|(_, s)| s.at().len()).max().unwrap_or(0);
    for (tag, s) in spans {
        out.push_str(&format!("      {tag}  {:<width$}  {}\n", s.at(), s.text));
    }
    // A whole added or removed rule is shown shorter than the line diff of a changed one.
    let max = if c.kind == Kind::Changed {
        MAX_DETAIL
    } else {
        MAX_DETAIL / 2
    };
    for l in c.detail.iter().take(max) {
        out.push_str(&format!("        {l}\n"));
    }
    if c.detail.len() > max {
        out.push_str(&format!(
            "        ... {} more lines (--json has them all)\n",
            c.detail.len() - max
        ));
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn cell(c: &Comparison, f: &Option<crate::Figure>) -> String {
    let Some(f) = f else {
        return "-".into();
    };
    if c.rate {
        match f.ci95 {
            Some((lo, hi)) => format!("{}% ({}-{})", pct(f.value), pct(lo), pct(hi)),
            None => format!("{}%", pct(f.value)),
        }
    } else {
        number(c, f.value)
    }
}

fn number(c: &Comparison, v: f64) -> String {
    match c.key.as_str() {
        "captures_per_game" => format!("{v:.2}"),
        "median_plies" => format!("{v:.0}"),
        _ => format!("{v:.1}"),
    }
}

fn difference(c: &Comparison) -> String {
    let Some(d) = c.difference() else {
        return String::new();
    };
    if c.rate {
        format!("{:+.1} pts", 100.0 * d)
    } else {
        let s = number(c, d);
        if d >= 0.0 { format!("+{s}") } else { s }
    }
}

fn p_value(c: &Comparison) -> String {
    match &c.test {
        None => String::new(),
        Some(t) if t.p_value < 0.001 => "p < 0.001".into(),
        Some(t) => format!("p = {:.3}", t.p_value),
    }
}

/// The simulation as a table: each metric for both rulesets, the difference, its p-value and a `*` where
/// it is significant; then which differences are significant, in words.
pub fn simulation_text(s: &Simulation) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "simulation: {} games of each, seed {}, agents {}\n",
        s.options.games,
        s.options.seed,
        s.a.agents.join(",")
    ));
    for n in &s.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let rows: Vec<[String; 5]> = s
        .comparisons
        .iter()
        .map(|c| {
            [
                c.label.clone(),
                cell(c, &c.a),
                cell(c, &c.b),
                difference(c),
                format!("{}{}", p_value(c), if c.significant { " *" } else { "" }),
            ]
        })
        .collect();
    let header = [
        String::new(),
        format!("a: {}", s.a.ruleset),
        format!("b: {}", s.b.ruleset),
        "b - a".to_string(),
        String::new(),
    ];
    let mut widths = [0usize; 5];
    for r in rows.iter().chain(std::iter::once(&header)) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |r: &[String; 5]| {
        let mut l = format!(
            "  {:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
        l.truncate(l.trim_end().len());
        l
    };
    out.push('\n');
    out.push_str(&line(&header));
    out.push('\n');
    for r in &rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(
        "rates with 95% Wilson intervals; * significant at the 5% level (rates: two-proportion z-test; \
         means: Welch's t-test)\n",
    );
    let sig = s.significant();
    if sig.is_empty() {
        out.push_str("no difference is significant at the 5% level\n");
    } else {
        out.push_str(&format!(
            "significant at the 5% level: {}\n",
            sig.iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    out
}

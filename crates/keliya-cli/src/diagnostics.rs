//! Showing diagnostics: `path:line:col: error: message`, the source line with the span underlined, a hint.

use keliya_rules::{Diagnostic, Sources};

/// How bad a diagnostic is: an error fails the command, a warning does not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

pub fn render(sources: &Sources, d: &Diagnostic) -> String {
    render_as(sources, d, Severity::Error)
}

pub fn render_as(sources: &Sources, d: &Diagnostic, severity: Severity) -> String {
    let file = d.loc.file;
    let (line, col) = sources.line_col(file, d.loc.start);
    let word = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut out = format!(
        "{}:{line}:{col}: {word}: {}\n",
        sources.path(file),
        d.message
    );
    let text = sources.text(file);
    if let Some(src_line) = text.lines().nth(line - 1) {
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        let shown: String = src_line.chars().take(200).collect();
        out.push_str(&format!("{pad} |\n{gutter} | {shown}\n"));
        let end = d.loc.end.max(d.loc.start + 1);
        let (end_line, end_col) = sources.line_col(file, end);
        let width = if end_line == line {
            end_col.saturating_sub(col).max(1)
        } else {
            shown.chars().count().saturating_sub(col - 1).max(1)
        };
        let lead: String = src_line
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!("{pad} | {lead}{}\n", "^".repeat(width.min(200))));
    }
    if let Some(h) = &d.hint {
        out.push_str(&format!("  = hint: {h}\n"));
    }
    out
}

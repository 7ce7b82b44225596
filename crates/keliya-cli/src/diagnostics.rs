//! Showing diagnostics: `path:line:col: error: message` first (the line tests, editors and docs read),
//! then the source line with the span underlined and the hint, drawn by annotate-snippets (rustc's and
//! cargo's renderer), in colour on a terminal.

use std::io::IsTerminal;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use keliya_rules::{Diagnostic, Sources};

/// How bad a diagnostic is: an error fails the command, a warning does not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// Longest source line shown, in characters (a minified file is not printed whole).
const MAX_SHOWN: usize = 200;

pub fn render(sources: &Sources, d: &Diagnostic) -> String {
    render_as(sources, d, Severity::Error)
}

/// Colour where diagnostics go to a terminal and `NO_COLOR` is not set.
fn coloured() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub fn render_as(sources: &Sources, d: &Diagnostic, severity: Severity) -> String {
    render_with(sources, d, severity, coloured())
}

fn render_with(sources: &Sources, d: &Diagnostic, severity: Severity, colour: bool) -> String {
    let file = d.loc.file;
    let (line, col) = sources.line_col(file, d.loc.start);
    let (word, level, paint) = match severity {
        Severity::Error => ("error", Level::ERROR, "1;31"),
        Severity::Warning => ("warning", Level::WARNING, "1;33"),
    };
    let word = if colour {
        format!("\x1b[{paint}m{word}\x1b[0m")
    } else {
        word.to_string()
    };
    let mut out = format!(
        "{}:{line}:{col}: {word}: {}\n",
        sources.path(file),
        d.message
    );
    // By `Sources::line`, which knows every line end (a lone CR too), as `line_col` does.
    let Some(src_line) = sources.line(file, line) else {
        if let Some(h) = &d.hint {
            out.push_str(&format!("  = hint: {h}\n"));
        }
        return out;
    };
    // The line alone, cut to its first characters, and the span within it.
    let shown: String = src_line.chars().take(MAX_SHOWN).collect();
    let byte_at = |chars: usize| {
        shown
            .char_indices()
            .nth(chars)
            .map_or(shown.len(), |(i, _)| i)
    };
    let start = byte_at(col - 1);
    let end_offset = d.loc.end.max(d.loc.start + 1);
    let (end_line, end_col) = sources.line_col(file, end_offset);
    let end = if end_line == line {
        byte_at(end_col - 1)
    } else {
        shown.len()
    };
    // At least one character underlined, ending on a character's boundary (a span ending inside a
    // character of several bytes, a non-breaking space say, would panic the renderer).
    let end = boundary_from(&shown, end.max(start + 1));
    let snippet = Snippet::source(shown.as_str())
        .line_start(line)
        .fold(false)
        .annotation(AnnotationKind::Primary.span(start..end));
    let mut group = Group::with_level(level).element(snippet);
    // Secondary places, each its line from its own file, labelled.
    for (loc, label) in &d.related {
        let (rl, rc) = sources.line_col(loc.file, loc.start);
        let Some(other) = sources.line(loc.file, rl) else {
            continue;
        };
        let other: String = other.chars().take(MAX_SHOWN).collect();
        let from = other
            .char_indices()
            .nth(rc - 1)
            .map_or(other.len(), |(i, _)| i);
        let to = boundary_from(&other, other.len().max(from + 1));
        group = group.element(
            Snippet::source(other)
                .path(sources.path(loc.file).to_string())
                .line_start(rl)
                .fold(false)
                .annotation(AnnotationKind::Context.span(from..to).label(label.as_str())),
        );
    }
    if let Some(h) = &d.hint {
        group = group.element(Level::HELP.with_name("hint").message(h.as_str()));
    }
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    out.push_str(&renderer.render(&[group]));
    out.push('\n');
    out
}

/// The first character boundary of `text` at or after byte `i`, or its length.
fn boundary_from(text: &str, i: usize) -> usize {
    (i..text.len())
        .find(|&k| text.is_char_boundary(k))
        .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::{Severity, render_with};
    use keliya_rules::{Diagnostic, Loc, Sources};

    fn sample() -> (Sources, Diagnostic) {
        let mut sources = Sources::default();
        let file = sources.add("my.yaml".into(), "a: 1\nwhen: count(x) > 0\n".into());
        let start = "a: 1\nwhen: count(".len();
        let d = Diagnostic::new(
            Loc {
                file,
                start,
                end: start + 1,
            },
            "unknown name `x`",
        )
        .hint("the pieces are `p`");
        (sources, d)
    }

    #[test]
    fn the_first_line_is_path_line_col_severity_message_and_the_span_is_underlined() {
        let (sources, d) = sample();
        let text = render_with(&sources, &d, Severity::Warning, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "my.yaml:2:13: warning: unknown name `x`");
        assert!(text.contains("2 | when: count(x) > 0"), "{text}");
        assert!(text.contains("  |             ^"), "{text}");
        assert!(text.contains("= hint: the pieces are `p`"), "{text}");
        assert!(!text.contains('\x1b'), "no colour unless asked: {text}");
    }

    #[test]
    fn colour_marks_the_severity() {
        let (sources, d) = sample();
        let text = render_with(&sources, &d, Severity::Error, true);
        assert!(
            text.starts_with("my.yaml:2:13: \x1b[1;31merror\x1b[0m: "),
            "{text}"
        );
    }

    /// Found by the mutation fuzzer: a one-byte span just before a character of two bytes (a
    /// non-breaking space) ended inside it, and the renderer panicked.
    #[test]
    fn a_span_before_a_character_of_several_bytes_is_widened_to_its_end() {
        let mut sources = Sources::default();
        let text = "when: wait\u{a0}x\n";
        let file = sources.add("my.yaml".into(), text.into());
        let start = "when: wait".len();
        let d = Diagnostic::new(
            Loc {
                file,
                start,
                end: start,
            },
            "unexpected character",
        );
        let shown = render_with(&sources, &d, Severity::Error, false);
        assert!(
            shown.starts_with("my.yaml:1:11: error: unexpected character"),
            "{shown}"
        );
        assert!(shown.contains('^'), "{shown}");
    }
}

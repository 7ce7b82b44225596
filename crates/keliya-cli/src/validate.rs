//! `keliya validate`: errors (exit 1) and warnings (exit 0) for ruleset files, as text or JSON.

use keliya_rules::{Compiled, Diagnostic, Loc, Sources};
use serde_json::{Value, json};

use crate::{CliError, catalog, diagnostics};

/// Things that load but are likely mistakes: a game that is over before anyone moves, a game that
/// takes its title from a library.
pub fn warnings(c: &Compiled, sources: &Sources) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let top = match &c.resolved.value {
        keliya_rules::YamlValue::Map(entries) => entries.as_slice(),
        _ => &[],
    };
    let key = |name: &str| top.iter().find(|(k, _)| k.name == name);
    // The file asked for is the first read.
    let own = Loc {
        file: 0,
        start: 0,
        end: 0,
    };
    if let Some(game) = &c.game {
        let start = game.initial_state();
        if let Some(outcome) = start.result {
            let (reason, _) = keliya_play::simulate::reason_name(game, outcome.reason);
            let who = outcome.winner.map_or("a draw".to_string(), |w| {
                format!("{} wins", game.side_name(w))
            });
            // At `setup:`, or where the file removes it (`setup: ~` leaves no key to point at).
            let at = key("setup").map_or_else(
                || written_key(sources, "setup").unwrap_or(own),
                |(k, _)| k.loc,
            );
            out.push(
                Diagnostic::new(
                    at,
                    format!("the game is over before its first move: {who} ({reason})"),
                )
                .hint("check `setup:` (are the pieces placed?) and the `ends:` conditions"),
            );
        }
        if let Some((k, _)) = key("title")
            && k.loc.file != 0
            && declares_library(sources.text(k.loc.file))
        {
            out.push(
                Diagnostic::new(
                    own,
                    format!(
                        "the title `{}` is inherited from the library {}",
                        c.info.title,
                        sources.path(k.loc.file)
                    ),
                )
                .hint("give the game its own `title:`"),
            );
        }
    }
    out
}

/// Where the file asked for writes top-level `key:`.
fn written_key(sources: &Sources, key: &str) -> Option<Loc> {
    let text = sources.text(0);
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line
            .strip_prefix(key)
            .is_some_and(|rest| rest.starts_with(':'))
        {
            return Some(Loc {
                file: 0,
                start: offset,
                end: offset + key.len(),
            });
        }
        offset += line.len();
    }
    None
}

/// The file says `kind: library` at its top level.
fn declares_library(text: &str) -> bool {
    text.lines().any(|l| {
        l.strip_prefix("kind:")
            .is_some_and(|v| v.split('#').next().unwrap_or("").trim() == "library")
    })
}

fn diagnostic_json(sources: &Sources, d: &Diagnostic, severity: &str) -> Value {
    let (line, column) = sources.line_col(d.loc.file, d.loc.start);
    json!({
        "severity": severity,
        "file": sources.path(d.loc.file),
        "line": line,
        "column": column,
        "message": d.message,
        "hint": d.hint,
    })
}

pub fn run(paths: &[String], as_json: bool) -> Result<(), CliError> {
    let mut problems = 0;
    let mut results = Vec::new();
    for p in paths {
        let loaded = keliya_rules::load(&catalog(), p);
        match &loaded.result {
            Ok(c) => {
                let warned = warnings(c, &loaded.sources);
                let what = if c.info.is_library {
                    "library"
                } else {
                    c.info.title.as_str()
                };
                if as_json {
                    results.push(json!({
                        "ruleset": p,
                        "ok": true,
                        "title": c.info.title,
                        "library": c.info.is_library,
                        "diagnostics": warned.iter().map(|d| diagnostic_json(&loaded.sources, d, "warning")).collect::<Vec<_>>(),
                    }));
                } else {
                    for d in &warned {
                        err!(
                            "{}",
                            diagnostics::render_as(
                                &loaded.sources,
                                d,
                                diagnostics::Severity::Warning
                            )
                        );
                    }
                    outln!("{p}: ok ({what})");
                }
            }
            Err(diags) => {
                problems += diags.len();
                if as_json {
                    results.push(json!({
                        "ruleset": p,
                        "ok": false,
                        "diagnostics": diags.iter().map(|d| diagnostic_json(&loaded.sources, d, "error")).collect::<Vec<_>>(),
                    }));
                } else {
                    for d in diags {
                        err!("{}", diagnostics::render(&loaded.sources, d));
                    }
                }
            }
        }
    }
    if as_json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({"rulesets": results, "problems": problems}))
                .expect("JSON values serialise")
        );
    }
    if problems > 0 {
        if !as_json {
            errln!("{problems} problem(s) found");
        }
        return Err(CliError::Reported);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_library_is_recognised_by_its_kind_line() {
        assert!(super::declares_library(
            "title: x\nkind: library  # shared\n"
        ));
        assert!(!super::declares_library(
            "title: x\n  kind: library\nkind: game\n"
        ));
    }
}

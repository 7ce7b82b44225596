//! `keliya list` and `keliya show`: the rulesets and their rules as a reader sees them. `show` prints the
//! rules in words (each with its rule id, from `rule_text:`), the answers taken to open questions
//! (`choices:`) and the references; `--code` prints the rules as the engine runs them.

use keliya_rules::{Compiled, Origin, RulesetInfo};
use serde_json::{Value, json};

use crate::{CliError, catalog, load};

/// Width of the printed text, so that a terminal of 80 columns shows every line whole.
const WIDTH: usize = 80;

/// One row of `keliya list`.
struct Row {
    name: String,
    /// `None` when the ruleset does not load; then the number of problems.
    info: Result<(RulesetInfo, Vec<String>), usize>,
    from: String,
}

fn rows() -> Vec<Row> {
    let cat = catalog();
    cat.names()
        .into_iter()
        .map(|(name, origin)| {
            let loaded = keliya_rules::load(&cat, &name);
            let from = match origin {
                Origin::File(p) => p.display().to_string(),
                Origin::Embedded => "bundled".to_string(),
            };
            let info = match loaded.result {
                Ok(c) => {
                    let players = c.game.as_ref().map_or(Vec::new(), |g| {
                        g.players.iter().map(|p| p.display.clone()).collect()
                    });
                    Ok((c.info, players))
                }
                Err(d) => Err(d.len()),
            };
            Row { name, info, from }
        })
        .collect()
}

/// The short form of a reference: `Parker, H. (1909). Ancient Ceylon. ...` is `Parker 1909`; a text
/// that does not start with an author and a year in brackets is cut at its first full stop.
pub(crate) fn short_reference(source: &str) -> String {
    if let Some(open) = source.find(" (")
        && let Some(year) = source.get(open + 2..open + 6)
        && year.chars().all(|c| c.is_ascii_digit())
    {
        let author = source[..open]
            .split([',', '&'])
            .next()
            .unwrap_or_default()
            .trim();
        let more = if source[..open].contains('&') || source[..open].contains(" and ") {
            " et al."
        } else {
            ""
        };
        return format!("{author}{more} {year}");
    }
    source.split(". ").next().unwrap_or(source).to_string()
}

/// The first reference in short, with how many more there are: `Parker 1909 +2`.
fn references_in_short(sources: &[String]) -> String {
    match sources {
        [] => String::new(),
        [one] => short_reference(one),
        [first, rest @ ..] => format!("{} +{}", short_reference(first), rest.len()),
    }
}

fn family_of(info: &RulesetInfo) -> String {
    if info.is_library {
        format!("{} library", info.family)
    } else {
        info.family.clone()
    }
}

pub(crate) fn list(long: bool, as_json: bool) -> Result<(), CliError> {
    let rows = rows();
    if as_json {
        let items: Vec<Value> = rows
            .iter()
            .map(|r| match &r.info {
                Ok((info, players)) => json!({
                    "name": r.name,
                    "title": info.title,
                    "family": info.family,
                    "library": info.is_library,
                    "players": players,
                    "reference": info.sources.first().map(|s| short_reference(s)),
                    "sources": info.sources,
                    "from": r.from,
                }),
                Err(problems) => json!({"name": r.name, "problems": problems, "from": r.from}),
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&items).expect("JSON values serialise")
        );
        return Ok(());
    }
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| match &r.info {
            Ok((info, players)) if long => vec![
                r.name.clone(),
                info.title.clone(),
                family_of(info),
                if players.is_empty() {
                    "-".to_string()
                } else {
                    players.join(" v ")
                },
                info.sources.first().cloned().unwrap_or_default(),
                r.from.clone(),
            ],
            Ok((info, players)) => vec![
                r.name.clone(),
                if info.is_library {
                    "library".to_string()
                } else {
                    info.family.clone()
                },
                if players.is_empty() {
                    "-".to_string()
                } else {
                    players.len().to_string()
                },
                references_in_short(&info.sources),
            ],
            Err(problems) if long => vec![
                r.name.clone(),
                format!("(invalid: {problems} problem(s))"),
                String::new(),
                String::new(),
                String::new(),
                r.from.clone(),
            ],
            Err(problems) => vec![
                r.name.clone(),
                format!("(invalid: {problems} problem(s))"),
                String::new(),
                String::new(),
            ],
        })
        .collect();
    let headers: Vec<&str> = if long {
        vec!["NAME", "TITLE", "FAMILY", "PLAYERS", "SOURCE", "FROM"]
    } else {
        vec!["NAME", "FAMILY", "PLAYERS", "REFERENCE"]
    };
    let headers: Vec<String> = headers.into_iter().map(String::from).collect();
    // The long form cuts no cell but the source; the short one keeps each line within 80 columns by
    // cutting the reference, the last column.
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in &table {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count().min(if long { 60 } else { WIDTH }));
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            let last = i + 1 == cells.len();
            let room = if long {
                60
            } else {
                WIDTH.saturating_sub(s.chars().count())
            };
            let c: String = c
                .chars()
                .take(room.min(if last { room } else { *w }))
                .collect();
            if last {
                s.push_str(&c);
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.trim_end().to_string()
    };
    outln!("{}", line(&headers));
    for r in &table {
        outln!("{}", line(r));
    }
    Ok(())
}

/// `files: child <- parent <- ...`, the chain of a ruleset's files, broken before a `<-` where it would
/// pass [`WIDTH`] columns, the rest hanging under the first file.
pub(crate) fn files_line(chain: &[String]) -> String {
    const HEAD: &str = "files: ";
    let mut out = String::from(HEAD);
    let mut width = HEAD.len();
    for (i, file) in chain.iter().enumerate() {
        let arrow = if i == 0 { "" } else { " <- " };
        let len = arrow.len() + file.chars().count();
        if i > 0 && width + len > WIDTH {
            out.push_str(&format!("\n{}<- {file}", " ".repeat(HEAD.len())));
            width = HEAD.len() + len - 1;
        } else {
            out.push_str(&format!("{arrow}{file}"));
            width += len;
        }
    }
    out.push('\n');
    out
}

/// `text` wrapped to [`WIDTH`] columns, every line but the first indented by `hang` spaces.
fn wrap_hanging(text: &str, first: &str, hang: usize) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for w in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + w.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(hang);
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(w);
        fresh = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The rules in words, or, for a ruleset that has none, each rule's name with its `source:`.
fn rules_in_words(info: &RulesetInfo) -> Vec<(String, String)> {
    if !info.rule_text.is_empty() {
        return info.rule_text.clone();
    }
    info.rules
        .iter()
        .chain(&info.ends)
        .map(|r| (r.name.clone(), r.source.clone().unwrap_or_default()))
        .collect()
}

/// A list of entries, each id in a column of its own and its text wrapped beside it.
fn entries(out: &mut String, heading: &str, items: &[(String, String)]) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("\n{heading}\n"));
    let id_width = items
        .iter()
        .map(|(id, _)| id.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    for (id, text) in items {
        let first = format!("  {id:<id_width$}  ");
        out.push_str(&wrap_hanging(text, &first, 4 + id_width));
    }
}

/// The players in turn order and the teams, as `show` and `show --code` list them.
pub(crate) fn players_and_teams(out: &mut String, c: &Compiled) {
    let Some(g) = &c.game else { return };
    out.push_str("\nPlayers (in turn order):\n");
    for &p in &g.turn_order {
        let pd = &g.players[p as usize];
        out.push_str(&format!("  {} ({})\n", pd.name, pd.display));
    }
    if !g.teams.is_empty() {
        out.push_str("\nTeams (a win of any of its players is the team's):\n");
        for t in &g.teams {
            let players: Vec<&str> = t
                .players
                .iter()
                .map(|&p| g.players[p as usize].name.as_str())
                .collect();
            out.push_str(&format!("  {}: {}\n", t.name, players.join(", ")));
        }
    }
}

/// The rules as a player reads them: description, players, each rule in words with its id, the choices
/// made on open questions, and the references.
fn words(what: &str, c: &Compiled) -> String {
    let info = &c.info;
    let mut out = String::new();
    out.push_str(&format!("{} ({})\n", info.title, info.name));
    out.push_str(&format!("family: {}\n", family_of(info)));
    out.push_str(&files_line(&info.chain));
    if !info.description.is_empty() {
        out.push('\n');
        out.push_str(&wrap_hanging(&info.description, "", 0));
    }
    players_and_teams(&mut out, c);
    entries(&mut out, "Rules:", &rules_in_words(info));
    entries(&mut out, "Choices on open questions:", &info.choices);
    if !info.sources.is_empty() {
        out.push_str("\nReferences:\n");
        for s in &info.sources {
            out.push_str(&wrap_hanging(s, "  - ", 4));
        }
    }
    out.push_str(&format!(
        "\nThe rules as the engine runs them: keliya show {what} --code\n"
    ));
    out
}

fn rule_json(r: &keliya_rules::RuleInfo) -> Value {
    json!({
        "name": r.name,
        "player": r.player,
        "source": r.source,
        "when": r.when,
        "do": r.body,
    })
}

fn as_json(c: &Compiled) -> Value {
    let info = &c.info;
    let pairs = |items: &[(String, String)]| -> Vec<Value> {
        items
            .iter()
            .map(|(id, text)| json!({"id": id, "text": text}))
            .collect()
    };
    let players: Vec<Value> = c.game.as_ref().map_or(Vec::new(), |g| {
        g.turn_order
            .iter()
            .map(|&p| {
                let pd = &g.players[p as usize];
                json!({"name": pd.name, "display": pd.display})
            })
            .collect()
    });
    json!({
        "name": info.name,
        "title": info.title,
        "family": info.family,
        "library": info.is_library,
        "files": info.chain,
        "description": info.description,
        "players": players,
        "rules": pairs(&info.rule_text),
        "choices": pairs(&info.choices),
        "references": info.sources,
        "params": info.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "code": {
            "parts": pairs(&info.parts),
            "rules": info.rules.iter().map(rule_json).collect::<Vec<_>>(),
            "ends": info.ends.iter().map(rule_json).collect::<Vec<_>>(),
        },
    })
}

pub(crate) fn show(what: &str, resolved: bool, code: bool, json: bool) -> Result<(), CliError> {
    let c = load(what)?;
    if resolved {
        out!("{}", crate::yaml_text(&c.resolved, 0));
    } else if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&as_json(&c)).expect("JSON values serialise")
        );
    } else if code {
        out!("{}", crate::code_text(&c));
    } else {
        out!("{}", words(what, &c));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_is_shortened_to_its_author_and_year() {
        assert_eq!(
            short_reference("Parker, H. (1909). Ancient Ceylon. London: Luzac, pp. 578-611."),
            "Parker 1909"
        );
        assert_eq!(
            short_reference("de Voogt, A. J. (2000). Mancala boards. Board Game Studies 3: 90-99."),
            "de Voogt 2000"
        );
        assert_eq!(
            short_reference("Bell, R. C. & Finkel, I. (1979). Something. Dover."),
            "Bell et al. 1979"
        );
        assert_eq!(short_reference("A note. More."), "A note");
    }

    #[test]
    fn a_long_chain_of_files_breaks_before_an_arrow_within_80_columns() {
        let chain: Vec<String> = [
            "rulesets/pallankuli/capture-continues.yaml",
            "rulesets/pallankuli.yaml",
            "rulesets/base-game.yaml",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            files_line(&chain),
            "files: rulesets/pallankuli/capture-continues.yaml <- rulesets/pallankuli.yaml\n       \
             <- rulesets/base-game.yaml\n"
        );
        let short = ["a.yaml".to_string(), "b.yaml".to_string()];
        assert_eq!(files_line(&short), "files: a.yaml <- b.yaml\n");
    }

    #[test]
    fn wrapped_text_keeps_within_the_width_and_hangs_under_its_first_word() {
        let text = "word ".repeat(60);
        let wrapped = wrap_hanging(&text, "  RP-1  ", 8);
        assert!(wrapped.lines().count() > 3);
        for l in wrapped.lines() {
            assert!(l.chars().count() <= WIDTH, "{l}");
        }
        assert!(
            wrapped
                .lines()
                .skip(1)
                .all(|l| l.starts_with("        word"))
        );
    }
}

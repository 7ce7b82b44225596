//! The documentation is tested: every rules-language example in `docs/` parses, every complete ruleset shown
//! in `docs/ruleset-format.md` validates, and the authoring walk-through's files fail and pass exactly as
//! `docs/authoring.md` says. The profile-guided build's script (`scripts/pgo-build`, described in
//! `docs/performance.md`) trains on bundled rulesets of every family.
//!
//! Code blocks are recognised by their info string:
//! - `keliya`: a program (a rule's `do:`), parsed with `keliya_dsl::parse_program`;
//! - `keliya-expr`: one expression, parsed with `keliya_dsl::parse_expression`;
//! - `yaml ruleset`: a whole ruleset (or a delta over a bundled one), which must validate;
//! - `yaml file=PATH`: the contents of the file PATH of the repository, which must match it exactly;
//! - `yaml errors=NAME`: a ruleset with mistakes, saved as NAME; the next `text` block shows what
//!   `keliya validate NAME` prints, and its `NAME:line:col: error: message` lines must be exactly those.

use keliya_dsl::{parse_expression, parse_program};
use keliya_play::Dice;
use keliya_tests::{Scenario, catalog, compile, root};

/// The documents whose rules-language blocks are parsed.
const DOCS: &[&str] = &["docs/dsl.md", "docs/authoring.md", "docs/ruleset-format.md"];

const DRAFT: &str = "docs/authoring/draft.yaml";
const FIXED: &str = "docs/authoring/fixed.yaml";
const RACE_DRAFT: &str = "docs/authoring/race-draft.yaml";
const RACE: &str = "docs/authoring/race.yaml";

/// A fenced code block of a Markdown file.
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// The info string after the fence, e.g. `keliya` or `yaml file=docs/x.yaml`.
    info: String,
    text: String,
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The fenced blocks (three or more backticks) of a Markdown text, in order.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, String, Vec<&str>)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        match &mut open {
            None if ticks >= 3 => {
                open = Some((
                    i + 1,
                    ticks,
                    trimmed[ticks..].trim().to_string(),
                    Vec::new(),
                ));
            }
            None => {}
            Some((start, fence, info, lines)) => {
                if ticks >= *fence && trimmed[ticks..].trim().is_empty() {
                    out.push(Block {
                        line: *start,
                        info: std::mem::take(info),
                        text: lines.join("\n") + "\n",
                    });
                    open = None;
                } else {
                    lines.push(line);
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

fn language(b: &Block) -> &str {
    b.info.split_whitespace().next().unwrap_or("")
}

#[test]
fn every_rules_language_example_parses() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for doc in DOCS {
        let path = root().join(doc);
        if !path.exists() {
            continue;
        }
        for b in blocks(&read(doc)) {
            let result = match language(&b) {
                "keliya" => parse_program(&b.text).map(|_| ()),
                "keliya-expr" => parse_expression(b.text.trim()).map(|_| ()),
                _ => continue,
            };
            checked += 1;
            if let Err(e) = result {
                let at = e.span.start.min(b.text.len());
                // The block's text starts on the line after its opening fence.
                let line = b.line + 1 + b.text[..at].matches('\n').count();
                let near: String = b.text[at..].chars().take(30).collect();
                failures.push(format!(
                    "{doc}:{line}: the `{}` block opened at line {} does not parse: {} (near `{near}`)",
                    b.info, b.line, e.message
                ));
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} rules-language blocks found in {DOCS:?}: is the block extraction broken?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_grammar_doc_and_the_language_doc_name_the_same_keywords() {
    // docs/dsl.md lists the keywords; they are the grammar's `keyword` rule.
    let grammar = read("grammar/keliya.pest");
    let rule = grammar
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("keyword"))
        .take_while(|l| !l.trim_start().starts_with("kw_"))
        .collect::<String>();
    let doc = read("docs/dsl.md");
    for word in rule.split('"').skip(1).step_by(2) {
        assert!(
            doc.contains(&format!("`{word}`")),
            "docs/dsl.md does not mention the keyword `{word}`"
        );
    }
}

/// Writes `text` to a fresh file named `name` in a temporary folder and returns its path.
fn temp_ruleset(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("keliya-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The first line of every diagnostic of a ruleset that does not load, with `shown` in place of its path.
fn first_lines(path: &str, shown: &str) -> Vec<String> {
    let loaded = keliya_rules::load(&catalog(), path);
    let Err(diags) = loaded.result else {
        panic!("{shown} loads without error");
    };
    diags
        .iter()
        .map(|d| {
            let short = loaded.sources.short(d);
            let first = short.lines().next().unwrap_or_default().to_string();
            first.replace(path, shown)
        })
        .collect()
}

/// Plays one seeded random game to the end, throws included, checking the invariants after every step.
/// Returns the name of what ended it.
fn play_checked(game: &keliya_engine::Game, seed: u64) -> Result<String, String> {
    let mut dice = Dice::new(seed);
    let mut st = game.initial_state();
    let mut steps = 0;
    while st.result.is_none() {
        let outcomes = game.chance_outcomes(&st);
        if outcomes.is_empty() {
            let moves = game.legal_moves(&st).map_err(|e| e.to_string())?;
            if moves.is_empty() {
                return Err("no move and no result".into());
            }
            st = game
                .apply(&st, &moves[dice.below(moves.len())])
                .map_err(|e| e.to_string())?;
        } else {
            let k = dice.weighted(outcomes.iter().map(|o| o.1));
            st = game.apply_chance(&st, outcomes[k].0);
        }
        let broken = game.broken_invariants(&st).map_err(|e| e.to_string())?;
        if !broken.is_empty() {
            return Err(format!("ply {}: invariant(s) {broken:?} broken", st.ply));
        }
        steps += 1;
        if steps > 100_000 {
            return Err("the game does not end".into());
        }
    }
    let outcome = st.result.expect("the loop ends with a result");
    Ok(keliya_play::simulate::reason_name(game, outcome.reason).0)
}

#[test]
fn complete_rulesets_in_the_format_doc_validate_and_play() {
    let doc = "docs/ruleset-format.md";
    if !root().join(doc).exists() {
        return;
    }
    let mut checked = 0;
    for b in blocks(&read(doc)) {
        if language(&b) != "yaml" || !b.info.split_whitespace().any(|w| w == "ruleset") {
            continue;
        }
        let path = temp_ruleset(&format!("format-doc-line-{}.yaml", b.line), &b.text);
        let loaded = keliya_rules::load(&catalog(), &path);
        let compiled = match loaded.result {
            Ok(c) => c,
            Err(diags) => {
                let text: Vec<String> = diags.iter().map(|d| loaded.sources.short(d)).collect();
                panic!(
                    "{doc}:{}: the ruleset does not validate:\n{}",
                    b.line,
                    text.join("\n")
                );
            }
        };
        if let Some(game) = &compiled.game {
            for i in 0..20 {
                play_checked(game, Dice::game_seed(1, i))
                    .unwrap_or_else(|e| panic!("{doc}:{}: game {i}: {e}", b.line));
            }
        }
        checked += 1;
    }
    assert!(checked >= 1, "{doc} shows no `yaml ruleset` block");
}

#[test]
fn files_shown_in_the_docs_are_the_files_in_the_repository() {
    let mut checked = 0;
    for doc in DOCS {
        if !root().join(doc).exists() {
            continue;
        }
        for b in blocks(&read(doc)) {
            let Some(file) = b
                .info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("file="))
            else {
                continue;
            };
            assert_eq!(
                b.text,
                read(file),
                "{doc}:{}: the block differs from {file}",
                b.line
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 2,
        "the walk-through shows its draft and its fixed file"
    );
}

#[test]
fn the_draft_fails_with_exactly_the_messages_the_walk_through_shows() {
    for draft in [DRAFT, RACE_DRAFT] {
        the_draft_fails_as_shown(draft);
    }
}

fn the_draft_fails_as_shown(draft: &str) {
    let path = root().join(draft).to_string_lossy().into_owned();
    let actual = first_lines(&path, draft);
    // The messages as docs/authoring.md shows them: every `path:line:col: error:` line naming the draft.
    let shown: Vec<String> = blocks(&read("docs/authoring.md"))
        .iter()
        .filter(|b| language(b) == "text")
        .flat_map(|b| {
            b.text
                .lines()
                .filter(|l| l.starts_with(&format!("{draft}:")) && l.contains(": error: "))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        shown.len() >= 2,
        "docs/authoring.md shows the draft's errors"
    );
    assert_eq!(
        actual, shown,
        "docs/authoring.md shows other messages than `keliya validate {draft}` prints"
    );
}

#[test]
fn the_fixed_variant_validates_and_plays_seeded_games_to_the_end() {
    let path = root().join(FIXED).to_string_lossy().into_owned();
    let c = compile(&path);
    let game = c.game();
    assert_eq!(c.info.name, "hat-eight");
    let prey = game.piece("prey").unwrap();
    let hand = game.board.site("prey-hand").unwrap();
    let start = game.initial_state();
    assert_eq!(start.count(game, hand, prey), 8, "eight leopards wait");
    assert!(c.info.params.contains(&("hunter_win_captures".into(), 3)));
    let mut endings = std::collections::BTreeMap::new();
    for i in 0..200 {
        let reason =
            play_checked(game, Dice::game_seed(7, i)).unwrap_or_else(|e| panic!("game {i}: {e}"));
        *endings.entry(reason).or_insert(0) += 1;
    }
    assert!(endings.contains_key("capture-goal"), "{endings:?}");
    assert!(endings.contains_key("hunters-trapped"), "{endings:?}");
}

#[test]
fn without_its_invariant_override_the_variant_breaks_the_parents_invariant() {
    // The walk-through explains why the fixed file overrides `leopards_counted`: the parent counts seven.
    let text = read(FIXED);
    let at = text
        .find("\ninvariants:")
        .expect("the fixed file overrides an invariant");
    let path = temp_ruleset("hat-eight-no-invariant.yaml", &text[..at + 1]);
    let c = compile(&path);
    let game = c.game();
    let broken = game.broken_invariants(&game.initial_state()).unwrap();
    assert_eq!(broken, ["leopards_counted"]);
}

#[test]
fn the_hand_written_position_of_the_walk_through_wins_on_the_third_capture() {
    let path = root().join(FIXED).to_string_lossy().into_owned();
    let state: serde_json::Value =
        serde_json::from_str(&read("docs/authoring/two-captures.json")).expect("the file is JSON");
    let mut s = Scenario::at(&path, state.clone());
    assert_eq!(s.moves(), ["M2xA"]);
    s.play("M2xA");
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    // The same position in the parent: the third capture is not yet enough.
    let mut parent_state = state;
    parent_state
        .as_object_mut()
        .expect("an object")
        .remove("ruleset");
    let mut parent = Scenario::at("hat-diviyan-keliya", parent_state);
    parent.play("M2xA");
    assert_eq!(parent.winner(), "none");
}

#[test]
fn the_race_of_the_second_walk_through_enters_on_a_one_hits_and_ends_by_its_rule() {
    let path = root().join(RACE).to_string_lossy().into_owned();
    let state: serde_json::Value =
        serde_json::from_str(&read("docs/authoring/race-hit.json")).expect("the file is JSON");
    // White: a two moves either pawn on the ring, not the one at the start; landing on the two black
    // pawns of s5 sends both back.
    let mut s = Scenario::at(&path, state);
    assert_eq!(s.moves(), ["s3+", "s7+"]);
    s.play("s3+");
    assert_eq!(s.count("s5", "w_pawn"), 1);
    assert_eq!(s.count("b-start", "b_pawn"), 3);
    // The mirror for black, by the same rule: its pawn on s11 lands on two white pawns on s1, which is
    // safe, and on s3 with a four, which is not.
    let black = serde_json::json!({
        "to_move": "black", "throw": "two-up",
        "sites": {"s11": {"b_pawn": 1}, "s1": {"w_pawn": 2}, "s3": {"w_pawn": 1}, "b-start": {"b_pawn": 2}}
    });
    let mut s = Scenario::at(&path, black.clone());
    assert_eq!(s.moves(), ["s11+"]);
    s.play("s11+");
    assert_eq!(s.count("s1", "w_pawn"), 2, "a safe square keeps its pawns");
    let mut four = black;
    four["throw"] = serde_json::json!("four-up");
    let mut s = Scenario::at(&path, four);
    s.play("s11+");
    assert_eq!(s.count("s3", "b_pawn"), 1);
    assert_eq!(
        s.count("w-start", "w_pawn"),
        1,
        "the white pawn on s3 went back"
    );
    // A one enters a pawn from the start.
    let mut s = Scenario::new(&path);
    s.throw("one-up");
    assert_eq!(s.moves(), ["w-start+"]);
    s.play("w-start+");
    assert_eq!(s.count("s1", "w_pawn"), 1);
    // Seeded random games end by the rule, none by the cap, with the invariant holding throughout.
    let c = compile(&path);
    for i in 0..200 {
        let reason = play_checked(c.game(), Dice::game_seed(3, i))
            .unwrap_or_else(|e| panic!("game {i}: {e}"));
        assert_eq!(reason, "advance", "game {i}");
    }
}

#[test]
fn every_function_effect_and_domain_in_the_language_doc_exists() {
    // The reference tables of docs/dsl.md name built-ins as "| `name(...)` |"; each must be in the
    // engine's tables of built-ins (keliya_engine::builtins).
    use keliya_engine::builtins::{DOMAINS, EFFECTS, FUNCS};
    let doc = read("docs/dsl.md");
    let mut section = "";
    let mut documented = Vec::new();
    for line in doc.lines() {
        if let Some(title) = line.strip_prefix("### ") {
            section = title;
            continue;
        }
        if !matches!(section, "Functions" | "Effects" | "Domains") {
            continue;
        }
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let known = match section {
            "Functions" => FUNCS.iter().any(|f| f.name == name),
            "Effects" => EFFECTS.iter().any(|e| e.name == name),
            _ => DOMAINS.iter().any(|d| d.name == name),
        };
        assert!(
            known,
            "docs/dsl.md documents {section}: `{name}`, which the engine does not define"
        );
        documented.push(name);
    }
    let declared = (FUNCS.iter().map(|f| f.name))
        .chain(EFFECTS.iter().map(|e| e.name))
        .chain(DOMAINS.iter().map(|d| d.name));
    for name in declared {
        assert!(
            documented.iter().any(|d| d == name),
            "the engine declares the built-in `{name}`, which docs/dsl.md does not document"
        );
    }
    assert!(
        documented.len() >= 30,
        "the reference tables of docs/dsl.md were not found: {documented:?}"
    );
}

#[test]
fn rulesets_with_mistakes_in_the_docs_fail_with_the_messages_shown() {
    let mut checked = 0;
    for doc in DOCS {
        if !root().join(doc).exists() {
            continue;
        }
        let all = blocks(&read(doc));
        for (i, b) in all.iter().enumerate() {
            let Some(name) = b
                .info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("errors="))
            else {
                continue;
            };
            let output = all[i + 1..]
                .iter()
                .find(|o| language(o) == "text")
                .unwrap_or_else(|| panic!("{doc}:{}: no output shown after the ruleset", b.line));
            let shown: Vec<&str> = output
                .text
                .lines()
                .filter(|l| l.starts_with(&format!("{name}:")) && l.contains(": error: "))
                .collect();
            let path = temp_ruleset(name, &b.text);
            assert_eq!(
                first_lines(&path, name),
                shown,
                "{doc}:{}: the messages shown at line {} are not what validating {name} gives",
                b.line,
                output.line
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "docs/dsl.md shows rulesets with mistakes");
}

#[test]
fn the_profile_guided_build_trains_on_bundled_rulesets_of_every_family() {
    // `scripts/pgo-build` simulates the games listed between its `<<'GAMES'` and `GAMES` lines, then
    // benches the rulesets its `bench` command names. Each must be a bundled ruleset (a renamed one
    // would stop the script halfway through a long build), and the simulated ones must cover every
    // family, so that no family's paths go unprofiled.
    let script = read("scripts/pgo-build");
    let listed: Vec<&str> = script
        .lines()
        .skip_while(|line| !line.contains("<<'GAMES'"))
        .skip(1)
        .take_while(|line| *line != "GAMES")
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(listed.len() >= 3, "the training games: {listed:?}");
    let command = script.replace("\\\n", " ");
    let benched: Vec<&str> = command
        .lines()
        .find(|line| line.contains("\" bench "))
        .expect("a bench command")
        .split_whitespace()
        .skip_while(|word| *word != "bench")
        .skip(1)
        .take_while(|word| !word.starts_with("--"))
        .collect();
    assert!(!benched.is_empty(), "the benched rulesets");
    for name in &benched {
        compile(name);
    }
    let mut families = std::collections::BTreeSet::new();
    for name in &listed {
        let compiled = compile(name);
        families.insert(compiled.info.family.clone());
    }
    for family in ["hunt", "race", "sowing"] {
        assert!(
            families.contains(family),
            "no {family} game among {listed:?} ({families:?})"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root().join("scripts/pgo-build"))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "scripts/pgo-build is executable");
    }
}

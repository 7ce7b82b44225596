//! Nothing on the input path panics: mutated copies of real rulesets either load or fail with diagnostics
//! that point inside a file that was read.

use keliya_tests::{catalog, root};

#[test]
fn mutated_rulesets_load_or_fail_cleanly() {
    let sources = [
        "rulesets/hat-diviyan-keliya.yaml",
        "rulesets/lib/hunt.yaml",
        "rulesets/raja-pasu.yaml",
    ];
    let dir = std::env::temp_dir().join(format!("keliya-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pieces = [
        ":", " ", "\n", "-", "[", "]", "{", "}", "~", "&a", "*a", "\"", "'", "|", "#", "@", "(",
        ")", "0", "é", "\t",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (n, source) in sources.iter().enumerate() {
        let original = std::fs::read_to_string(root().join(source)).expect("bundled ruleset");
        for i in 0..150 {
            let mut text: Vec<char> = original.chars().collect();
            for _ in 0..1 + next() % 3 {
                let at = (next() % text.len() as u64) as usize;
                match next() % 3 {
                    0 => {
                        text.remove(at);
                    }
                    1 => text.insert(
                        at,
                        pieces[(next() % pieces.len() as u64) as usize]
                            .chars()
                            .next()
                            .expect("one"),
                    ),
                    _ => {
                        text[at] = pieces[(next() % pieces.len() as u64) as usize]
                            .chars()
                            .next()
                            .expect("one")
                    }
                }
            }
            let path = dir.join(format!("m{n}-{i}.yaml"));
            // Keep a mutant of a bundled file beside its parents' names: `extends: lib/hunt` still resolves.
            std::fs::write(&path, text.iter().collect::<String>()).expect("written");
            let loaded = std::panic::catch_unwind(|| {
                keliya_rules::load(&catalog(), path.to_str().expect("utf-8"))
            })
            .unwrap_or_else(|_| panic!("loading {} panicked", path.display()));
            if let Ok(c) = &loaded.result {
                // A mutant that still loads is played: a rule may now fail, but as an error, never a panic.
                if let Some(game) = &c.game {
                    let played =
                        std::panic::catch_unwind(|| keliya_play::play_random_game(game, i));
                    assert!(played.is_ok(), "playing {} panicked", path.display());
                }
            }
            if let Err(diags) = &loaded.result {
                assert!(!diags.is_empty(), "a failure has at least one diagnostic");
                for d in diags {
                    let text = loaded.sources.text(d.loc.file);
                    assert!(
                        d.loc.start <= text.len() && d.loc.end <= text.len(),
                        "{}: {d:?}",
                        path.display()
                    );
                    let _ = loaded.sources.short(d);
                }
            }
        }
    }
}

/// A ruleset written to a fresh folder of its own (`extends` names resolve through the catalog).
fn write_case(name: &str, yaml: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("keliya-robust-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).expect("written");
    path
}

/// A name and the text of a tree of that shape `n` levels deep.
type Shape = (&'static str, fn(usize) -> String);

/// Conditions as deep as the rules language allows load and play on a test thread's small stack (every
/// pass over the tree, from lowering to evaluating, recurses along it), and chains of operators far
/// deeper, which used to overflow the stack, are refused with the limit and a place.
#[test]
fn the_deepest_conditions_load_and_play_and_deeper_ones_are_refused() {
    let limit = keliya_dsl::MAX_DEPTH;
    let shapes: [Shape; 4] = [
        // A variable at every leaf, so that the sum is evaluated in play, not folded when loaded.
        ("sum", |n| {
            format!("{} >= 0", vec!["captures[prey]"; n / 2].join(" + "))
        }),
        ("not", |n| "not ".repeat(n / 2 * 2) + "false"),
        ("neg", |n| format!("0 < {}1", "- ".repeat(n / 2 * 2))),
        ("brackets", |n| {
            format!("{}1{} > 0", "(1 + ".repeat(n / 2), ")".repeat(n / 2))
        }),
    ];
    for (what, shape) in shapes {
        let ruleset = |condition: String| {
            format!(
                "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  hunter-drop:\n    \
                 when: count(hand(hunter), hunter) > 0 and ({condition})\n"
            )
        };
        let path = write_case(what, &ruleset(shape(limit - 8)));
        let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
        let compiled = match loaded.result {
            Ok(c) => c,
            Err(d) => panic!("{what}: {}", loaded.sources.short(&d[0])),
        };
        let game = compiled.game.as_ref().expect("a game");
        keliya_play::play_random_game(game, 1).expect("plays");
        // As deep as fits in the size limit: plain numbers at the leaves.
        let far = match what {
            "sum" => format!("{} > 0", vec!["1"; 8_400].join(" + ")),
            _ => shape(8_400),
        };
        let path = write_case(what, &ruleset(far));
        let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
        let Err(d) = &loaded.result else {
            panic!("{what}: a chain of 8,400 loaded")
        };
        let shown = loaded.sources.short(&d[0]);
        assert!(
            shown.contains(":6:") && shown.contains(&format!("nesting deeper than {limit} levels")),
            "{what}: {shown}"
        );
    }
}

/// The problems of loading the ruleset `yaml`, written to a fresh file, in short form.
fn problems(name: &str, yaml: &str) -> Vec<String> {
    let path = write_case(name, yaml);
    let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
    match &loaded.result {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| loaded.sources.short(d)).collect(),
    }
}

/// Valid YAML that was once refused as too deep: brackets in comments, quoted text and a rules-language
/// block are text, and only the collections themselves count against the YAML limit.
#[test]
fn brackets_in_text_and_comments_are_not_yaml_nesting() {
    let head = "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\n";
    let comments = format!("{head}{}", "# note {\n".repeat(33));
    assert_eq!(problems("comments", &comments), Vec::<String>::new());
    let quoted = format!("{head}description: \"{}\"\n", "[(".repeat(40));
    assert_eq!(problems("quoted", &quoted), Vec::<String>::new());
    // 40 nested `if`s in a `|` block: deeper than the YAML limit, well within the language's.
    let ifs = "if true { ".repeat(40) + "move(prey, hand(prey), to)" + &" }".repeat(40);
    let block = format!(
        "{head}rules:\n  prey-drop:\n    do: |\n      choose to in sites() where empty(to) {{\n        {ifs}\n      }}\n"
    );
    assert_eq!(problems("ifs", &block), Vec::<String>::new());
    // Real nesting is still refused, by the parser, at its place.
    let deep = format!("{head}sources: {}x{}\n", "[".repeat(40), "]".repeat(40));
    let got = problems("deep", &deep);
    assert!(
        got[0].contains(":4:") && got[0].contains("nesting deeper than 32 levels"),
        "{got:?}"
    );
}

/// A file whose lines end with a lone CR (old Mac files) is read as lines, a first comment too, and its
/// problems are shown at their own line.
#[test]
fn cr_only_line_endings_are_lines() {
    let text = "# a comment\rkeliya: 1\rtitle: t\rextends: hat-diviyan-keliya\r";
    assert_eq!(problems("cr", text), Vec::<String>::new());
    let got = problems("cr-bad", &format!("{text}bogus: 1\r"));
    assert!(
        got[0].contains("cr-bad.yaml:5:1: error: unknown key `bogus`"),
        "{got:?}"
    );
}

/// A game that never ends (Raja Pasu without the end that stops it, no capture to reset the repetition
/// history) costs the same at every step: reaching the step limit, and tracing a failing game, take
/// time in proportion to the steps, where each step once cost more than the last.
#[test]
fn a_game_without_end_reaches_its_step_limit_in_linear_time() {
    let path = write_case(
        "endless",
        "keliya: 1\ntitle: endless\nextends: raja-pasu\nends:\n  north-cannot-open: ~\nlimits:\n  \
         max_steps_per_game: 200000\n",
    );
    let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
    let compiled = loaded.result.unwrap_or_else(|_| panic!("loads"));
    let game = compiled.game.as_ref().expect("a game");
    let started = std::time::Instant::now();
    let run = keliya_play::simulate_records(
        game,
        1,
        3,
        &[],
        1,
        keliya_play::simulate::Detail::default(),
        &|| {},
    );
    assert!(
        matches!(run, Err(keliya_play::RunError::Game { .. })),
        "{run:?}"
    );
    let traced = keliya_play::trace_failure(
        game,
        &[],
        keliya_play::Dice::game_seed(3, 0),
        keliya_play::simulate::Detail::default(),
    )
    .expect("fails again");
    assert_eq!(traced.steps, 200_000);
    // Three plays of 200,000 steps take a second; a cost growing with the game's length took minutes.
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

/// A whole number that YAML reads as a fractional one (too large, or written `09`) is told as such, not
/// as "a fractional number".
#[test]
fn whole_numbers_read_as_fractional_ones_are_told_apart() {
    let case = |v: &str| {
        problems(
            "numbers",
            &format!("keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\ncaps:\n  max_turns: {v}\n"),
        )
    };
    let got = case("99999999999999999999");
    assert!(
        got[0].contains("must be between 1 and 10000000, found 1e20"),
        "{got:?}"
    );
    let got = case("09");
    assert!(got[0].contains("plain digits"), "{got:?}");
    let got = case("2.5");
    assert!(got[0].contains("found a fractional number"), "{got:?}");
}

/// A rule whose loop chooses on every turn and never ends nests the move search one level per choice:
/// refused as a move of too many choices, on a test thread's small stack, where it once overflowed it.
#[test]
fn a_loop_that_chooses_for_ever_is_an_error_not_a_stack_overflow() {
    let path = write_case(
        "choose-for-ever",
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nrules:\n  hunter-drop:\n    do: |\n      \
         let going = true\n      while going {\n        choose to in sites() where empty(to) {\n          \
         going = true\n        }\n      }\n",
    );
    let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
    let compiled = loaded.result.unwrap_or_else(|_| panic!("loads"));
    let game = compiled.game.as_ref().expect("a game");
    let err = keliya_play::play_random_game(game, 1).expect_err("the rule fails");
    assert!(err.message.contains("more than 100 choices"), "{err}");
}

/// A `!!binary` value is decoded to text by the YAML reader before keliya sees it: refused however the
/// tag is spelt, on a key as on a value, and the word `binary` in plain text is left alone.
#[test]
fn binary_values_are_refused_however_the_tag_is_spelt() {
    let refused = [
        "keliya: 1\ntitle: !<tag:yaml.org,2002:binary> QSB0aXRsZQ==\nextends: hat-diviyan-keliya\n",
        "%TAG !b! tag:yaml.org,2002:bin\n---\nkeliya: 1\ntitle: !b!ary QSB0aXRsZQ==\nextends: \
         hat-diviyan-keliya\n",
        "keliya: 1\n!!binary dGl0bGU=: x\nextends: hat-diviyan-keliya\n",
    ];
    for (i, yaml) in refused.iter().enumerate() {
        let got = problems(&format!("binary-{i}"), yaml);
        assert!(
            got[0].contains("unsupported tag `!!binary`"),
            "{yaml}: {got:?}"
        );
    }
    let path = write_case(
        "binary-word",
        "keliya: 1\ntitle: \"binary is a word\"\nextends: hat-diviyan-keliya\n",
    );
    let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
    assert!(loaded.result.is_ok());
}

/// A search allowed the most options (`max_options_per_position: 10000000`) keeps its moves in bounded
/// room: moves that each keep their own choices and changes (here every move ranks itself with
/// `prefer`) are refused, once they take more than the room one search may have, at the choice point,
/// where they once took about 200 bytes a move (2 GB for the ten million allowed).
#[test]
fn a_search_at_the_largest_option_bound_stays_in_bounded_room() {
    let path = write_case(
        "widest",
        "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nlimits:\n  max_options_per_position: \
         10000000\nrules:\n  hunter-drop:\n    do: |\n      choose a in range(1, 999) {\n        \
         choose n in range(1, 9999) {\n          move(hunter, hand(hunter), @A)\n          \
         prefer(1)\n        }\n      }\n    notation: \"{a}.{n}\"\n",
    );
    let loaded = keliya_rules::load(&catalog(), path.to_str().expect("utf-8"));
    let compiled = loaded.result.unwrap_or_else(|_| panic!("loads"));
    let game = compiled.game.as_ref().expect("a game");
    let st = game.initial_state();
    let mut found = keliya_engine::Successors::new();
    let err = game
        .successors_into(&st, &mut found)
        .expect_err("too much to keep");
    assert!(err.message.contains("take more than 512 MiB"), "{err}");
    assert!(found.len() < 4_000_000, "{} moves kept", found.len());
}

/// YAML's infinity and not-a-number are told in words, not as a parser's policy.
#[test]
fn infinity_and_not_a_number_are_told_in_words() {
    for v in [".inf", "-.inf", ".nan"] {
        let got = problems(
            "non-finite",
            &format!(
                "keliya: 1\ntitle: t\nextends: hat-diviyan-keliya\nparams:\n  hunter_win_captures: {v}\n"
            ),
        );
        assert!(
            got[0].contains(&format!("`{v}` is not a finite number")) && !got[0].contains("policy"),
            "{got:?}"
        );
    }
}

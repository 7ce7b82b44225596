//! Pancha Keliya: a scenario test (or more) per rule of `docs/rules/pancha-keliya.md`
//! (PK-0 .. PK-17, the questions PK-Q1 .. PK-Q20) and the variants in `rulesets/pancha-keliya/`.
//!
//! Positions are written as state files. Team A's route: WA (0), T0..T4 (1-5), T5 (6), S1..S4 (7-10),
//! R0 (11), R1..R39 (12-50), R0 (51), C1..C5 (52-56), A1..A4 (57-60), GY (61); team B's runs T10..T6 and
//! round the perimeter the other way (R39..R1), then C1..C5, B1..B4, GY.

use keliya_tests::{Scenario, compile};
use serde_json::{Value, json};

const PK: &str = "pancha-keliya";
const PARKER: &str = "pancha-keliya/parker-1909";
const BLOCKING: &str = "pancha-keliya/blocking";
const SAFE_ONE: &str = "pancha-keliya/safe-one-per-team";
const BOUNCE: &str = "pancha-keliya/bounce";
const STORED: &str = "pancha-keliya/stored-throws";
const THROW_CAP: &str = "pancha-keliya/throw-cap";
const ENTER_MOVES: &str = "pancha-keliya/parker-1909-enter-moves";
const TO_ACTIVATED: &str = "pancha-keliya/pancha-to-activated";
const THROW_OFF: &str = "pancha-keliya/throw-off";
const CULIN: &str = "pancha-keliya/culin-three-each";

/// A position: `sites` maps site names to {piece: count}; unnamed sites are empty. Pawns not placed
/// anywhere are not added: each test places all six.
fn at(ruleset: &str, to_move: &str, throw: &str, sites: Value) -> Scenario {
    Scenario::at(
        ruleset,
        json!({"to_move": to_move, "throw": throw, "sites": sites}),
    )
}

/// A ruleset extending the canonical one with `params` (a YAML flow mapping), written to a temporary file.
fn with_params(name: &str, params: &str) -> String {
    let dir = std::env::temp_dir().join(format!("keliya-pancha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(
        &path,
        format!("keliya: 1\ntitle: {name}\nextends: pancha-keliya\nparams: {params}\n"),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

/// A delta of the canonical ruleset for an open question: it extends `pancha-keliya` directly, its
/// description names the question it answers, and it states its own answer (`choices`).
fn assert_delta_for(name: &str, question: &str) {
    let c = compile(name);
    assert_eq!(c.info.chain.len(), 2, "{name}: {:?}", c.info.chain);
    assert!(
        c.info.chain[1].ends_with("pancha-keliya.yaml"),
        "{name} extends the canonical ruleset: {:?}",
        c.info.chain
    );
    assert!(!c.info.title.is_empty());
    assert!(c.info.description.contains(question), "{name}");
    let parent = compile("pancha-keliya").info;
    let answer = |info: &keliya_rules::RulesetInfo| {
        info.choices
            .iter()
            .find(|(id, _)| id == question)
            .map(|(_, text)| text.clone())
    };
    assert!(answer(&c.info).is_some(), "{name}: {:?}", c.info.choices);
    assert_ne!(
        answer(&c.info),
        answer(&parent),
        "{name} states its own answer"
    );
}

fn binomial(n: u32, k: u32, p: f64) -> f64 {
    let c = (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64);
    c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn pk0_the_pancha_petha_board_is_canonical_and_parker_is_a_variant_of_it() {
    let canonical = compile(PK);
    assert_eq!(canonical.info.title, "Pancha Keliya");
    let parker = compile(PARKER);
    assert!(
        parker
            .info
            .chain
            .iter()
            .any(|f| f.contains("pancha-keliya.yaml")),
        "the Parker variant extends the canonical ruleset: {:?}",
        parker.info.chain
    );
    let b = &parker.game().board;
    assert!(
        b.site("T0").is_none() && b.site("b0").is_some(),
        "its own board"
    );
}

#[test]
fn pk1_six_shells_and_the_named_throw_table_with_exact_binomial_probabilities() {
    let s = Scenario::new(PK);
    let got = s.throw_outcomes();
    let want = [
        ("bokka", 12, 1.0, true),
        ("onduwa", 1, 6.0, true),
        ("two", 2, 15.0, false),
        ("three", 3, 20.0, false),
        ("four", 4, 15.0, false),
        ("pancha", 5, 6.0, true),
        ("puwak-malla", 6, 1.0, false),
    ];
    assert_eq!(got.len(), 7);
    for ((name, value, p, again), (wn, wv, w64, wa)) in got.iter().zip(want) {
        assert_eq!((name.as_str(), *value, *again), (wn, wv, wa));
        assert_eq!(*p, w64 / 64.0, "P({name}) is exactly C(6, k) / 64");
    }
}

#[test]
fn pk1_biased_shells_are_a_one_line_delta_with_binomial_probabilities() {
    let s = Scenario::new("pancha-keliya/biased-shells");
    let got = s.throw_outcomes();
    for (k, (name, _, p, _)) in got.iter().enumerate() {
        let want = binomial(6, k as u32, 0.524);
        assert!((p - want).abs() < 1e-12, "P({name}) = {p}, want {want}");
    }
    // The binomial row for n = 6, p = 0.524.
    let table = [0.0116, 0.0768, 0.2114, 0.3103, 0.2562, 0.1128, 0.0207];
    for ((_, _, p, _), t) in got.iter().zip(table) {
        assert!((p - t).abs() < 5e-5);
    }
    let text = std::fs::read_to_string(
        keliya_tests::root().join("rulesets/pancha-keliya/biased-shells.yaml"),
    )
    .unwrap();
    // What plays, leaving out the words about it (title, description, references, rules in words).
    let mut about = false;
    let data: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter(|l| {
            if !l.starts_with(' ') {
                about = [
                    "keliya:",
                    "title:",
                    "extends:",
                    "description:",
                    "sources:",
                    "rule_text:",
                    "choices:",
                ]
                .iter()
                .any(|k| l.starts_with(k));
            }
            !about
        })
        .collect();
    assert_eq!(data, ["throws: {p: 0.524}"]);
}

#[test]
fn pk2_the_route_bar_stem_perimeter_in_opposite_directions_common_squares_own_stretch() {
    let c = compile(PK);
    let b = &c.game().board;
    let route = |name: &str| -> Vec<&str> {
        b.track(name)
            .unwrap()
            .points
            .iter()
            .map(|&p| b.name(p))
            .collect()
    };
    let a = route("route_a");
    let bb = route("route_b");
    assert_eq!(a.len(), 62, "waiting place, 60 squares and the throne");
    assert_eq!(
        &a[1..7],
        ["T0", "T1", "T2", "T3", "T4", "T5"],
        "A enters at one end of the bar"
    );
    assert_eq!(
        &bb[1..7],
        ["T10", "T9", "T8", "T7", "T6", "T5"],
        "B at the other"
    );
    assert_eq!(a[7..12], bb[7..12], "the common stem up to R0");
    assert_eq!(
        (a[12], bb[12]),
        ("R1", "R39"),
        "the perimeter in opposite directions"
    );
    assert_eq!((a[50], bb[50]), ("R39", "R1"));
    assert_eq!(
        a[51..57],
        bb[51..57],
        "R0 again, then five common squares to the centre"
    );
    assert_eq!(&a[52..57], ["C1", "C2", "C3", "C4", "C5"]);
    assert_eq!(
        &a[57..61],
        ["A1", "A2", "A3", "A4"],
        "each team's own last stretch"
    );
    assert_eq!(&bb[57..61], ["B1", "B2", "B3", "B4"]);
    assert_eq!((a[61], bb[61]), ("GY", "GY"));

    // Played: a pawn of each team on R0 (position 11) moves three, each its own way round.
    let mut s = at(
        PK,
        "a",
        "three",
        json!({"R0": {"a_pawn": 1, "b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    assert_eq!(s.moves(), ["R0-R3"]);
    s.play("R0-R3");
    assert_eq!(s.to_move(), "b");
    s.throw("three");
    assert_eq!(s.moves(), ["R0-R37"]);
}

#[test]
fn pk2_the_route_passes_r0_twice_and_a_lapped_pawn_goes_on_to_the_centre() {
    // R0 is route position 11 and again 51: a pawn standing there after its lap is an `a_lapped`.
    let mut s = at(
        PK,
        "a",
        "onduwa",
        json!({"R0": {"a_pawn": 1}, "R39": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["R0-R1", "R39-R0"]);
    s.play("R39-R0");
    assert_eq!((s.count("R0", "a_pawn"), s.count("R0", "a_lapped")), (1, 1));
    s.throw("three");
    assert_eq!(
        s.moves(),
        ["R0-C3", "R0-R3"],
        "the lapped pawn turns in to the centre"
    );
    s.play("R0-C3");
    assert_eq!((s.count("C3", "a_pawn"), s.count("R0", "a_lapped")), (1, 0));
    // In a pancha, a part names 1 (the lapped pawn) or 0 (another pawn) when both stand on R0.
    let s = at(
        PK,
        "a",
        "pancha",
        json!({"R0": {"a_pawn": 1, "a_lapped": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert!(s.can("pancha 0 5 1 R0") && s.can("pancha 0 5 0 R0") && s.can("pancha 0 2 1 R0 3 R0"));
    let mut s = at(
        PK,
        "a",
        "pancha",
        json!({"R0": {"a_pawn": 1, "a_lapped": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    s.play("pancha 0 2 1 R0 3 R0");
    assert_eq!((s.count("C2", "a_pawn"), s.count("R3", "a_pawn")), (1, 1));
}

#[test]
fn pk3_a_safe_square_every_five_squares() {
    let c = compile(PK);
    let b = &c.game().board;
    let safe: Vec<&str> = b
        .playing_sites()
        .filter(|&s| b.has_tag(s, "safe"))
        .map(|s| b.name(s))
        .collect();
    assert_eq!(
        safe,
        [
            "T5", "R0", "R5", "R10", "R15", "R20", "R25", "R30", "R35", "C5"
        ]
    );
    for track in ["route_a", "route_b"] {
        let points = &b.track(track).unwrap().points;
        let positions: Vec<usize> = (1..61).filter(|&i| b.has_tag(points[i], "safe")).collect();
        assert_eq!(
            positions,
            [6, 11, 16, 21, 26, 31, 36, 41, 46, 51, 56],
            "{track}"
        );
    }
}

#[test]
fn pk4_onduwa_pancha_and_bokka_throw_again_other_throws_do_not() {
    let sites = json!({"R10": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    for (throw, mv, again) in [
        ("bokka", "R10-R22", true),
        ("onduwa", "R10-R11", true),
        ("pancha", "pancha 0 5 R10", true),
        ("two", "R10-R12", false),
        ("three", "R10-R13", false),
        ("four", "R10-R14", false),
    ] {
        let mut s = at(PK, "a", throw, sites.clone());
        s.play(mv);
        let next = if again { "a" } else { "b" };
        assert_eq!(s.to_move(), next, "after {throw}");
        assert!(s.state.chance_due, "a throw is due after {throw}");
    }
}

#[test]
fn pk5_pawns_start_off_the_board() {
    let s = Scenario::new(PK);
    assert_eq!(s.count("HA", "a_pawn"), 3);
    assert_eq!(s.count("HB", "b_pawn"), 3);
    let g = s.game();
    let on_board: u32 = g
        .board
        .playing_sites()
        .map(|p| s.state.site_total(g, p))
        .sum();
    assert_eq!(on_board, 0);
    assert_eq!(s.to_move(), "a", "PK-Q16: team A starts");
}

#[test]
fn pk6_activation_needs_onduwa_or_pancha_and_costs_one_point() {
    let start = json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}});
    // Onduwa: one pawn is activated and waits; it does not move with this throw.
    let mut s = at(PK, "a", "onduwa", start.clone());
    assert_eq!(s.moves(), ["activate"]);
    s.play("activate");
    assert_eq!((s.count("HA", "a_pawn"), s.count("WA", "a_pawn")), (2, 1));
    assert_eq!(s.to_move(), "a");
    assert!(
        s.state.chance_due,
        "the activated pawn waits for the next throw"
    );
    // Other throws cannot activate: with every pawn off the board the throw is lost.
    for throw in ["two", "three", "four", "bokka", "puwak-malla"] {
        let s = at(PK, "a", throw, start.clone());
        assert_eq!(s.moves(), ["pass"], "{throw}");
    }
}

#[test]
fn pk6_each_split_of_a_pancha_one_two_or_three_activations() {
    let mut s = at(
        PK,
        "a",
        "pancha",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    // One activation and 4 points; two and 3 points (to one pawn, or 2 + 1); three and 2 points (1 + 1
    // would put two pawns of the team on T0, a plain square).
    assert_eq!(
        s.moves(),
        [
            "pancha 1 4 WA",
            "pancha 2 2 WA 1 WA",
            "pancha 2 3 WA",
            "pancha 3 2 WA"
        ]
    );
    s.play("pancha 1 4 WA");
    assert_eq!((s.count("T3", "a_pawn"), s.count("HA", "a_pawn")), (1, 2));
    let mut s2 = at(
        PK,
        "a",
        "pancha",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    s2.play("pancha 2 2 WA 1 WA");
    assert_eq!((s2.count("T1", "a_pawn"), s2.count("T0", "a_pawn")), (1, 1));
    assert_eq!(s2.count("HA", "a_pawn"), 1);
    let mut s3 = at(
        PK,
        "a",
        "pancha",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    s3.play("pancha 3 2 WA");
    assert_eq!((s3.count("T1", "a_pawn"), s3.count("WA", "a_pawn")), (1, 2));
    assert_eq!(s3.to_move(), "a", "PK-4: a pancha throws again");
}

#[test]
fn pk7_activated_pawns_wait_beside_the_start_square() {
    let c = compile(PK);
    let b = &c.game().board;
    let (wa, t0) = (
        b.at[b.site("WA").unwrap() as usize],
        b.at[b.site("T0").unwrap() as usize],
    );
    assert!(
        wa.1 == t0.1 && (wa.0 - t0.0).abs() < 1.5,
        "WA is drawn beside T0"
    );
    assert_eq!(
        b.track("route_a").unwrap().points[0],
        b.site("WA").unwrap(),
        "route position 0"
    );
    let mut s = at(
        PK,
        "b",
        "onduwa",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    s.play("activate");
    assert_eq!(s.count("WB", "b_pawn"), 1, "team B's pawn waits beside T10");
}

#[test]
fn pk8_an_activated_pawn_may_delay_its_entry() {
    let s = at(
        PK,
        "a",
        "three",
        json!({"WA": {"a_pawn": 1}, "R7": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(
        s.moves(),
        ["R7-R10", "WA-T2"],
        "enter now, or move another pawn"
    );
}

#[test]
fn pk9_only_a_pancha_is_shared_among_pawns() {
    let sites = json!({"R7": {"a_pawn": 1}, "R20": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "four", sites.clone());
    assert_eq!(
        s.moves(),
        ["R20-R24", "R7-R11"],
        "a four goes to one pawn, whole"
    );
    let s = at(PK, "a", "pancha", sites);
    let moves = s.moves();
    assert!(
        moves.contains(&"pancha 0 2 R20 3 R7".to_string()),
        "{moves:?}"
    );
    assert!(
        moves.contains(&"pancha 1 1 R20 3 R7".to_string()),
        "{moves:?}"
    );
    assert!(moves.contains(&"pancha 0 5 R7".to_string()), "{moves:?}");
}

#[test]
fn pk10_puwak_malla_moves_nothing_and_the_turn_passes() {
    let mut s = at(
        PK,
        "a",
        "puwak-malla",
        json!({"R7": {"a_pawn": 1}, "WA": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "b");
    assert_eq!(s.count("R7", "a_pawn"), 1);
}

#[test]
fn pk11_safe_squares_are_shared_by_both_teams_and_never_attacked() {
    // A four takes B's pawn to R5 where A's pawn stands: both stay.
    let mut s = at(
        PK,
        "b",
        "four",
        json!({"R5": {"a_pawn": 1}, "R9": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    assert_eq!(s.moves(), ["R9-R5"]);
    s.play("R9-R5");
    assert_eq!((s.count("R5", "a_pawn"), s.count("R5", "b_pawn")), (1, 1));
    // Not even a pancha attacks there.
    let mut s = at(
        PK,
        "a",
        "pancha",
        json!({"R0": {"a_pawn": 1}, "R5": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    s.play("pancha 0 5 R0");
    assert_eq!((s.count("R5", "a_pawn"), s.count("R5", "b_pawn")), (1, 1));
    // Pawns of one team share a safe square too (PK-Q13: no limit).
    let mut s = at(
        PK,
        "a",
        "two",
        json!({"T5": {"a_pawn": 2}, "T3": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    s.play("T3-T5");
    assert_eq!(s.count("T5", "a_pawn"), 3);
}

#[test]
fn pk12_a_pancha_captures_and_the_captured_pawn_must_be_activated_again() {
    let mut s = at(
        PK,
        "a",
        "pancha",
        json!({"R3": {"a_pawn": 1}, "R8": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    assert!(s.can("pancha 0 5 R3"));
    s.play("pancha 0 5 R3");
    assert_eq!(s.count("R8", "a_pawn"), 1);
    assert_eq!(s.count("R8", "b_pawn"), 0);
    assert_eq!(
        s.count("HB", "b_pawn"),
        3,
        "out of play: back off the board"
    );
    assert_eq!(s.state.captures, 1);
    // B needs an onduwa or a pancha to bring it back: a three is lost, an onduwa activates it.
    let s = at(
        PK,
        "b",
        "three",
        json!({"R8": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    let s = at(
        PK,
        "b",
        "onduwa",
        json!({"R8": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["activate"]);
}

#[test]
fn pk13_only_a_pancha_captures_other_throws_may_not_land_on_an_opponent() {
    let sites = json!({"R3": {"a_pawn": 1}, "R7": {"b_pawn": 1}, "R20": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 2}});
    let s = at(PK, "a", "four", sites.clone());
    assert_eq!(
        s.moves(),
        ["R20-R24"],
        "R3-R7 would land on B's pawn (PK-Q8: not a move)"
    );
    let s = at(PK, "a", "pancha", sites);
    assert!(
        s.can("pancha 0 1 R20 4 R3"),
        "a pancha part may end there, capturing"
    );
}

#[test]
fn pk14_no_two_pawns_of_a_team_on_a_plain_square_but_on_a_safe_one() {
    let s = at(
        PK,
        "a",
        "two",
        json!({"T1": {"a_pawn": 1}, "T3": {"a_pawn": 1}, "S2": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(
        s.moves(),
        ["S2-S4", "T3-T5"],
        "T1-T3 is blocked by A's own pawn; T5 is safe"
    );
    let s = at(
        PK,
        "a",
        "pancha",
        json!({"T1": {"a_pawn": 1}, "T3": {"a_pawn": 1}, "R30": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert!(
        !s.can("pancha 0 2 T1 3 R30"),
        "a part may not end on the team's own pawn"
    );
    assert!(
        s.can("pancha 0 2 R30 1 T3 2 T1"),
        "parts are taken front pawn first, so T1 may take the square T3 has left"
    );
}

#[test]
fn pk15_the_throne_is_reached_only_by_the_exact_count() {
    let sites = json!({"A2": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "R22": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    // A2 is position 58: the throne (61) needs exactly 3 (remaining squares A3, A4, plus one).
    let mut s = at(PK, "a", "three", sites.clone());
    assert_eq!(s.moves(), ["A2-GY", "R22-R25"]);
    s.play("A2-GY");
    assert_eq!(s.count("GY", "a_pawn"), 2);
    let s = at(PK, "a", "four", sites.clone());
    assert_eq!(
        s.moves(),
        ["R22-R26"],
        "too many points: the pawn stays where it is"
    );
    // From the centre C5 (56) exactly 5.
    let mut s = at(
        PK,
        "b",
        "pancha",
        json!({"C5": {"b_pawn": 1}, "HB": {"b_pawn": 2}, "HA": {"a_pawn": 3}}),
    );
    s.play("pancha 0 5 C5");
    assert_eq!(s.count("GY", "b_pawn"), 1);
}

#[test]
fn pk16_a_throw_that_cannot_be_used_is_lost_with_its_extra_throw() {
    let sites = json!({"A4": {"a_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    for throw in ["bokka", "two", "three", "four"] {
        let mut s = at(PK, "a", throw, sites.clone());
        assert_eq!(s.moves(), ["pass"], "{throw}");
        s.play("pass");
        assert_eq!(
            s.to_move(),
            "b",
            "PK-Q7: the turn ends even after a {throw}"
        );
    }
}

#[test]
fn pkq7_alternative_an_unusable_onduwa_pancha_or_bokka_keeps_its_throw_again() {
    const KEPT: &str = "pancha-keliya/unusable-keeps-rethrow";
    // A pawn on A4 (the throne is one step on) and two crowned: a bokka or a two has no use. (A pancha
    // has one here, a part of one to the throne, and keeps its throw again in both games, PK-Q7.)
    let near_home = json!({"A4": {"a_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    // No pawn in reserve, and an opponent one square ahead on a plain square: an onduwa has no use.
    let blocked =
        json!({"R1": {"a_pawn": 1}, "R2": {"b_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 2}});
    for (throw, sites) in [("bokka", &near_home), ("onduwa", &blocked)] {
        let mut canonical = at(PK, "a", throw, sites.clone());
        assert_eq!(canonical.moves(), ["pass"], "{throw}");
        canonical.play("pass");
        assert_eq!(
            canonical.to_move(),
            "b",
            "PK-16: the {throw}'s throw again is lost"
        );
        let mut s = at(KEPT, "a", throw, sites.clone());
        assert_eq!(s.moves(), ["keep the throw"], "{throw}");
        s.play("keep the throw");
        assert_eq!(
            s.to_move(),
            "a",
            "PK-Q7 alternative: the {throw} keeps its throw again"
        );
        assert!(s.state.chance_due, "{throw}: the team throws again");
        assert_eq!(
            s.count("A4", "a_pawn") + s.count("R1", "a_pawn"),
            1,
            "nothing moved"
        );
    }
    // A throw without a throw again that cannot be used still passes the turn.
    let mut s = at(KEPT, "a", "two", near_home);
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "b");
}

#[test]
fn pk17_the_first_team_to_crown_its_three_pawns_wins() {
    let mut s = at(
        PK,
        "a",
        "onduwa",
        json!({"A4": {"a_pawn": 1}, "GY": {"a_pawn": 2, "b_pawn": 2}, "B4": {"b_pawn": 1}}),
    );
    assert_eq!(s.winner(), "none");
    s.play("A4-GY");
    assert_eq!(s.winner(), "a");
    assert_eq!(s.ended_by(), "team-a-crowned");
}

#[test]
fn pkq2_a_waiting_pawn_enters_with_any_throw_by_default() {
    let sites = json!({"WA": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "three", sites.clone());
    assert_eq!(s.moves(), ["WA-T2"]);
    let alt = with_params("enter-on-1-or-5", "{enter_any_throw: false}");
    let s = at(&alt, "a", "three", sites.clone());
    assert_eq!(
        s.moves(),
        ["pass"],
        "alternative: only an onduwa or a pancha brings it on"
    );
    let s = at(&alt, "a", "onduwa", sites);
    assert_eq!(s.moves(), ["WA-T0", "activate"]);
}

#[test]
fn pkq3_an_onduwa_may_move_a_pawn_instead_of_activating_one() {
    let sites = json!({"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "onduwa", sites.clone());
    assert_eq!(s.moves(), ["R7-R8", "activate"]);
    let alt = with_params("onduwa-must-activate", "{onduwa_must_activate: true}");
    let s = at(&alt, "a", "onduwa", sites);
    assert_eq!(s.moves(), ["activate"]);
}

#[test]
fn pkq4_a_pancha_is_shared_among_different_pawns_one_part_each() {
    let sites = json!({"R7": {"a_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "pancha", sites.clone());
    assert_eq!(
        s.moves(),
        ["pancha 0 5 R7"],
        "one pawn: it takes the whole pancha"
    );
    let alt = with_params("same-pawn-twice", "{pancha_distinct: false}");
    let s = at(&alt, "a", "pancha", sites);
    assert!(
        s.can("pancha 0 2 R7 3 R9"),
        "alternative: one pawn may take two parts"
    );
    let mut s = at(
        PK,
        "a",
        "pancha",
        json!({"R7": {"a_pawn": 1}, "R9": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    s.play("pancha 0 3 R9 2 R7");
    assert_eq!((s.count("R12", "a_pawn"), s.count("R9", "a_pawn")), (1, 1));
    assert_eq!(s.count("R7", "a_pawn"), 0);
}

#[test]
fn pkq4_delta_is_a_delta_for_the_question() {
    assert_delta_for(TO_ACTIVATED, "PK-Q4");
}

#[test]
fn pkq4_delta_after_an_activation_the_rest_goes_only_to_the_pawns_just_activated() {
    let sites = json!({"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    // The canonical game: after activating, the rest may go to the pawn on R7 as well.
    let s = at(PK, "a", "pancha", sites.clone());
    assert!(s.can("pancha 1 4 R7") && s.can("pancha 2 1 R7 2 WA"));
    // The delta: the pawn on R7 moves only when nobody is activated.
    let s = at(TO_ACTIVATED, "a", "pancha", sites.clone());
    assert_eq!(
        s.moves(),
        [
            "pancha 0 5 R7",
            "pancha 1 4 WA",
            "pancha 2 2 WA 1 WA",
            "pancha 2 3 WA"
        ]
    );
    let mut s = at(TO_ACTIVATED, "a", "pancha", sites);
    s.play("pancha 2 2 WA 1 WA");
    assert_eq!(
        (s.count("T1", "a_pawn"), s.count("T0", "a_pawn")),
        (1, 1),
        "each pawn just activated takes its own part"
    );
    assert_eq!((s.count("R7", "a_pawn"), s.count("HA", "a_pawn")), (1, 0));
    assert_eq!(s.to_move(), "a", "a pancha still throws again");
    // A pawn near the throne could use a point, but after an activation it takes nothing.
    let sites = json!({"A3": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "pancha", sites.clone());
    assert!(s.can("pancha 1 2 A3 2 WA"));
    let s = at(TO_ACTIVATED, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        ["pancha 1 4 WA", "pancha 2 2 WA 1 WA", "pancha 2 3 WA"]
    );
}

#[test]
fn pkq4_delta_a_pawn_waiting_from_before_takes_no_second_part() {
    // One pawn waits already and one is activated now: only one part leaves the waiting place. A pancha
    // that activates nobody is shared as in the canonical game.
    let sites =
        json!({"R7": {"a_pawn": 1}, "WA": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let s = at(PK, "a", "pancha", sites.clone());
    assert!(s.can("pancha 1 3 WA 1 WA") && s.can("pancha 1 1 R7 3 WA"));
    let s = at(TO_ACTIVATED, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 0 1 R7 4 WA",
            "pancha 0 2 R7 3 WA",
            "pancha 0 3 R7 2 WA",
            "pancha 0 4 R7 1 WA",
            "pancha 0 5 R7",
            "pancha 0 5 WA",
            "pancha 1 4 WA"
        ]
    );
}

#[test]
fn pkq5_a_pancha_uses_as_many_points_as_can_be_used() {
    let sites =
        json!({"A2": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "A4": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    // A2 can take 1, 2 or 3 (the throne), A4 only 1: at most 4 of the 5 points can be used.
    let mut s = at(PK, "a", "pancha", sites.clone());
    assert_eq!(s.moves(), ["pancha 0 1 A4 3 A2 0"]);
    s.play("pancha 0 1 A4 3 A2 0");
    assert_eq!(s.winner(), "a");
    let alt = with_params("free-stop", "{pancha_max_use: false}");
    let s = at(&alt, "a", "pancha", sites);
    assert!(
        s.can("pancha 0 1 A4 0") && s.can("pancha 0 1 A2 0"),
        "{:?}",
        s.moves()
    );
    assert!(
        !s.can("pancha 0 2 A2 0"),
        "A4 is still occupied when A2 moves alone"
    );
}

#[test]
fn pkq6_each_throw_is_resolved_before_the_next_is_thrown() {
    let mut s = at(
        PK,
        "a",
        "onduwa",
        json!({"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    s.play("R7-R8");
    assert!(s.state.chance_due && s.state.throw.is_none());
    assert!(s.moves().is_empty(), "nothing moves until the next throw");
}

/// The stored-throws variant (PK-Q6, alternative) with a throw due for team A: one pawn of A on `R7`, two
/// in reserve; B's three in reserve.
fn stored_throws_start() -> Scenario {
    Scenario::at(
        STORED,
        json!({"to_move": "a", "sites": {"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}}),
    )
}

#[test]
fn pkq6_alternative_bonus_throws_are_stored_until_a_throw_without_again() {
    assert_delta_for(STORED, "PK-Q6");
    let mut s = stored_throws_start();
    assert!(s.state.chance_due);
    s.throw("onduwa");
    assert!(
        s.state.chance_due && s.moves().is_empty(),
        "the onduwa is kept and the team throws again at once"
    );
    s.throw("pancha");
    assert!(s.state.chance_due && s.moves().is_empty());
    assert_eq!(s.count("R7", "a_pawn"), 1, "nothing has moved yet");
    s.throw("two");
    assert!(!s.state.chance_due, "a two ends the run of throws");
    assert_eq!(s.state.throw, None);
    assert_eq!(s.to_move(), "a");
    assert_eq!(s.moves(), ["use onduwa", "use pancha", "use two"]);
}

#[test]
fn pkq6_alternative_the_team_plays_its_stored_throws_in_the_order_it_chooses() {
    let mut s = stored_throws_start();
    s.throw("onduwa").throw("pancha").throw("two");
    // The pancha first, then the two, then the onduwa.
    s.play("use pancha");
    s.play("pancha 0 5 R7");
    assert_eq!(s.count("R12", "a_pawn"), 1);
    assert_eq!(s.to_move(), "a");
    assert!(!s.state.chance_due, "no throw while throws are held");
    assert_eq!(s.moves(), ["use onduwa", "use two"]);
    s.play("use two");
    s.play("R12-R14");
    // The onduwa is the only throw left: it is played without a `use`.
    assert!(s.can("activate") && s.can("R14-R15"), "{:?}", s.moves());
    let turn = s.state.turn;
    s.play("R14-R15");
    // A held onduwa gives no throw again: its extra throw was the pancha.
    assert_eq!(s.count("R15", "a_pawn"), 1);
    assert_eq!(s.to_move(), "b");
    assert!(s.state.chance_due && s.state.held.is_empty());
    assert_eq!(s.state.turn, turn + 1, "the whole run was one turn");

    // Another order leaves another position: the two first, then the onduwa activates, then the pancha.
    let mut t = stored_throws_start();
    t.throw("onduwa").throw("pancha").throw("two");
    t.play("use two").play("R7-R9");
    t.play("use onduwa").play("activate");
    assert_eq!((t.count("HA", "a_pawn"), t.count("WA", "a_pawn")), (1, 1));
    assert!(t.can("pancha 0 5 R9"), "{:?}", t.moves());
    assert_eq!(t.to_move(), "a");
}

#[test]
fn pkq6_alternative_a_stored_throw_that_cannot_be_used_is_lost_alone() {
    let mut s = Scenario::at(
        STORED,
        json!({"to_move": "a", "sites": {"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}}),
    );
    s.throw("onduwa").throw("three");
    s.play("use three");
    // A three cannot bring a reserve pawn on (PK-6): it is lost, and the onduwa is still played.
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "a");
    assert_eq!(s.moves(), ["activate"]);
    s.play("activate");
    assert_eq!(s.count("WA", "a_pawn"), 1);
    assert_eq!(s.to_move(), "b");
}

#[test]
fn pkq6_alternative_a_puwak_malla_ends_the_run_without_cancelling_it() {
    let mut s = stored_throws_start();
    s.throw("onduwa").throw("puwak-malla");
    assert_eq!(s.moves(), ["use onduwa", "use puwak-malla"]);
    s.play("use puwak-malla");
    // PK-10: the puwak malla moves nothing.
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(
        s.to_move(),
        "a",
        "the onduwa held before it is still played"
    );
    s.play("R7-R8");
    assert_eq!(s.count("R8", "a_pawn"), 1);
    assert_eq!(s.to_move(), "b");
}

#[test]
fn pkq6_alternative_held_throws_are_kept_in_the_state_file() {
    let mut s = stored_throws_start();
    s.throw("bokka").throw("onduwa").throw("four");
    let g = s.game();
    let written = keliya_play::state_json::to_json(g, &s.state);
    assert_eq!(written["held"], json!(["bokka", "onduwa", "four"]));
    let read = keliya_play::state_json::from_json(g, &written).unwrap();
    assert_eq!(read, s.state);
    // A hand-written file: a held onduwa and four, nothing being played.
    let s = Scenario::at(
        STORED,
        json!({"to_move": "a", "held": ["onduwa", "four"],
               "sites": {"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}}),
    );
    assert!(!s.state.chance_due);
    assert_eq!(s.moves(), ["use four", "use onduwa"]);
    // The canonical game keeps no throws.
    let refused =
        keliya_play::state_json::from_json(compile(PK).game(), &json!({"held": ["onduwa"]}));
    assert!(refused.unwrap_err().contains("resolution: stored"));
}

#[test]
fn pkq7_a_partly_used_pancha_keeps_its_extra_throw_an_unused_one_loses_it() {
    // Unused throws: pk16. A partly used pancha is still a move, so the team throws again (shown with the
    // free-stop alternative, where a part may end the throw early).
    let alt = with_params("free-stop-q7", "{pancha_max_use: false}");
    let mut s = at(
        &alt,
        "a",
        "pancha",
        json!({"R7": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    s.play("pancha 0 2 R7 0");
    assert_eq!(s.count("R9", "a_pawn"), 1);
    assert_eq!(s.to_move(), "a");
}

#[test]
fn pkq9_one_pancha_may_capture_several_pawns() {
    // R11 + 3 = R14 and R1 + 2 = R3, two plain squares with B's pawns.
    let sites = json!({"R1": {"a_pawn": 1}, "R3": {"b_pawn": 1}, "R11": {"a_pawn": 1}, "R14": {"b_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 1}});
    let mut s = at(PK, "a", "pancha", sites.clone());
    s.play("pancha 0 3 R11 2 R1");
    assert_eq!(s.count("HB", "b_pawn"), 3, "two captures by one pancha");
    assert_eq!(s.state.captures, 2);
    let alt = with_params("one-capture", "{max_captures: 1}");
    let s = at(&alt, "a", "pancha", sites);
    assert!(
        !s.can("pancha 0 3 R11 2 R1"),
        "alternative: at most one capture per throw"
    );
    assert!(
        s.can("pancha 1 3 R11 1 R1"),
        "one capture, then a part that captures nothing"
    );
}

#[test]
fn pkq10_a_capture_gives_no_extra_throw() {
    // Only a pancha captures in the canonical game, and a pancha throws again anyway; in Parker's variant
    // any throw captures, and a capturing 2 passes the turn.
    let mut s = at(
        PARKER,
        "a",
        "two",
        json!({"t2": {"a_pawn": 1}, "t4": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    s.play("t2-t4");
    assert_eq!(s.count("HB", "b_pawn"), 3);
    assert_eq!(s.to_move(), "b");
    let alt_dir = std::env::temp_dir().join(format!("keliya-pancha-{}", std::process::id()));
    std::fs::create_dir_all(&alt_dir).unwrap();
    let alt = alt_dir.join("parker-capture-again.yaml");
    std::fs::write(&alt, "keliya: 1\ntitle: q10\nextends: pancha-keliya/parker-1909\nparams: {capture_again: true}\n").unwrap();
    let mut s = at(
        alt.to_str().unwrap(),
        "a",
        "two",
        json!({"t2": {"a_pawn": 1}, "t4": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    s.play("t2-t4");
    assert_eq!(s.to_move(), "a", "alternative: a capture throws again");
}

#[test]
fn pkq11_capturing_is_not_compulsory() {
    let s = at(
        PK,
        "a",
        "pancha",
        json!({"R3": {"a_pawn": 1}, "R8": {"b_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    assert!(s.can("pancha 0 5 R3"), "capture");
    let s = at(
        PK,
        "a",
        "pancha",
        json!({"R3": {"a_pawn": 1}, "R7": {"b_pawn": 1}, "R22": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 2}}),
    );
    assert!(s.can("pancha 0 5 R22") && s.can("pancha 0 1 R22 4 R3"));
}

#[test]
fn pkq12_pawns_pass_over_occupied_squares() {
    let s = at(
        PK,
        "a",
        "four",
        json!({"R1": {"a_pawn": 1}, "R2": {"b_pawn": 1}, "R3": {"a_pawn": 1}, "R4": {"b_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 1}}),
    );
    assert!(s.can("R1-R5"));
}

#[test]
fn pkq12_alternative_blocking_no_pawn_passes_over_an_occupied_square() {
    assert_delta_for(BLOCKING, "PK-Q12");
    // The default's position: R1-R5 passes B, A, B; R3-R7 passes B and the safe R5.
    let sites = json!({"R1": {"a_pawn": 1}, "R2": {"b_pawn": 1}, "R3": {"a_pawn": 1}, "R4": {"b_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 1}});
    assert_eq!(
        at(PK, "a", "four", sites.clone()).moves(),
        ["R1-R5", "R3-R7"]
    );
    assert_eq!(at(BLOCKING, "a", "four", sites).moves(), ["pass"]);
    // A pawn on a safe square blocks as well; it may still be joined there.
    let sites = json!({"R3": {"a_pawn": 1}, "R20": {"a_pawn": 1}, "R5": {"b_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 2}});
    assert_eq!(
        at(PK, "a", "three", sites.clone()).moves(),
        ["R20-R23", "R3-R6"]
    );
    assert_eq!(
        at(BLOCKING, "a", "three", sites.clone()).moves(),
        ["R20-R23"],
        "R3-R6 would pass B's pawn on the safe R5"
    );
    let mut s = at(BLOCKING, "a", "two", sites);
    assert_eq!(s.moves(), ["R20-R22", "R3-R5"]);
    s.play("R3-R5");
    assert_eq!((s.count("R5", "a_pawn"), s.count("R5", "b_pawn")), (1, 1));
    // A waiting pawn passes over the bar squares before the one it enters on: the team's own pawn on T1
    // blocks WA-T2.
    let sites =
        json!({"WA": {"a_pawn": 1}, "T1": {"a_pawn": 1}, "R7": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "three", sites.clone()).moves(),
        ["R7-R10", "T1-T4", "WA-T2"]
    );
    assert_eq!(
        at(BLOCKING, "a", "three", sites).moves(),
        ["R7-R10", "T1-T4"]
    );
    // Team B's bokka from R3 (its position 48) to B4 would pass its own pawns on R0 and C2.
    let sites =
        json!({"R0": {"b_pawn": 1}, "R3": {"b_pawn": 1}, "C2": {"b_pawn": 1}, "HA": {"a_pawn": 3}});
    assert_eq!(
        at(PK, "b", "bokka", sites.clone()).moves(),
        ["R0-R28", "R3-B4"]
    );
    assert_eq!(at(BLOCKING, "b", "bokka", sites).moves(), ["R0-R28"]);
    // A pawn after its lap, on R0, is blocked on its way to the centre by B's pawn on C1.
    let sites = json!({"R0": {"a_lapped": 1}, "C1": {"b_pawn": 1}, "R20": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 2}});
    assert_eq!(
        at(PK, "a", "three", sites.clone()).moves(),
        ["R0-C3", "R20-R23"]
    );
    assert_eq!(at(BLOCKING, "a", "three", sites).moves(), ["R20-R23"]);
}

#[test]
fn pkq12_alternative_blocking_each_part_of_a_pancha_passes_only_empty_squares() {
    // B's pawn on R2 stops R1 for any part but a capture of 1; B's pawn on R6 stops R3 beyond it. With
    // no passing, every sharing that uses all five points needs the activation.
    let sites = json!({"R1": {"a_pawn": 1}, "R2": {"b_pawn": 1}, "R3": {"a_pawn": 1}, "R6": {"b_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 1}});
    let default = at(PK, "a", "pancha", sites.clone()).moves();
    assert_eq!(default.len(), 19);
    for m in ["pancha 0 5 R1", "pancha 0 2 R3 3 R1", "pancha 1 4 R3"] {
        assert!(default.contains(&m.to_string()), "{m}: {default:?}");
    }
    let mut s = at(BLOCKING, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 1 1 R1 3 WA",
            "pancha 1 1 R3 1 R1 2 WA",
            "pancha 1 1 R3 3 WA",
            "pancha 1 2 R3 1 R1 1 WA",
            "pancha 1 2 R3 2 WA",
            "pancha 1 3 R3 1 R1",
            "pancha 1 3 R3 1 WA",
            "pancha 1 4 WA"
        ]
    );
    s.play("pancha 1 3 R3 1 R1");
    assert_eq!((s.count("R6", "a_pawn"), s.count("R2", "a_pawn")), (1, 1));
    assert_eq!(s.count("HB", "b_pawn"), 3, "both parts capture");
    // The parts are applied in turn: once R2 has moved on, R1 may pass the square it left, not the one
    // it went to.
    let sites =
        json!({"R1": {"a_pawn": 1}, "R2": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "pancha", sites.clone()).moves(),
        [
            "pancha 0 1 R2 4 R1",
            "pancha 0 3 R2 2 R1",
            "pancha 0 4 R2 1 R1",
            "pancha 0 5 R1",
            "pancha 0 5 R2"
        ]
    );
    assert_eq!(
        at(BLOCKING, "a", "pancha", sites).moves(),
        ["pancha 0 3 R2 2 R1", "pancha 0 4 R2 1 R1", "pancha 0 5 R2"]
    );
}

#[test]
fn pkq12_alternative_blocking_r0_met_twice_may_need_the_pawn_behind_to_move_first() {
    // R39 (position 50) passes R0 at the end of its lap, where a pawn of the team stands before its lap
    // (position 11): that pawn must move first, so the part of R39 comes after its part, once.
    let sites = json!({"R0": {"a_pawn": 1}, "R39": {"a_pawn": 1}, "R20": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let default = at(PK, "a", "pancha", sites.clone()).moves();
    assert_eq!(default.len(), 21);
    assert!(default.contains(&"pancha 0 3 R39 2 R0".to_string()));
    assert!(!default.contains(&"pancha 0 2 R0 3 R39".to_string()));
    let mut s = at(BLOCKING, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 0 1 R0 4 R39",
            "pancha 0 1 R20 1 R0 3 R39",
            "pancha 0 1 R20 2 R0 2 R39",
            "pancha 0 1 R20 4 R0",
            "pancha 0 1 R39 1 R20 3 R0",
            "pancha 0 1 R39 2 R20 2 R0",
            "pancha 0 1 R39 3 R20 1 R0",
            "pancha 0 1 R39 4 R0",
            "pancha 0 1 R39 4 R20",
            "pancha 0 2 R0 3 R39",
            "pancha 0 2 R20 1 R0 2 R39",
            "pancha 0 2 R20 3 R0",
            "pancha 0 3 R0 2 R39",
            "pancha 0 3 R20 2 R0",
            "pancha 0 4 R20 1 R0",
            "pancha 0 5 R0",
            "pancha 0 5 R20"
        ],
        "R20's part comes first when it does not need R39 out of its way"
    );
    s.play("pancha 0 2 R0 3 R39");
    assert_eq!((s.count("R2", "a_pawn"), s.count("C2", "a_pawn")), (1, 1));
    assert_eq!(s.count("R0", "a_pawn") + s.count("R0", "a_lapped"), 0);
    // And a pawn ending its lap on R0 would block a pawn of the stem that passes R0 behind it: S4-R3
    // comes first.
    let sites = json!({"S4": {"a_pawn": 1}, "R39": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "pancha", sites.clone()).moves(),
        [
            "pancha 0 1 R39 4 S4",
            "pancha 0 2 R39 3 S4",
            "pancha 0 3 R39 2 S4",
            "pancha 0 4 R39 1 S4",
            "pancha 0 5 R39",
            "pancha 0 5 S4"
        ]
    );
    let mut s = at(BLOCKING, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 0 2 R39 3 S4",
            "pancha 0 3 R39 2 S4",
            "pancha 0 4 R39 1 S4",
            "pancha 0 4 S4 1 R39",
            "pancha 0 5 R39",
            "pancha 0 5 S4"
        ]
    );
    s.play("pancha 0 4 S4 1 R39");
    assert_eq!((s.count("R3", "a_pawn"), s.count("R0", "a_lapped")), (1, 1));
}

#[test]
fn pkq13_alternative_a_safe_square_holds_one_pawn_of_each_team() {
    assert_delta_for(SAFE_ONE, "PK-Q13");
    let sites = json!({"T3": {"a_pawn": 1}, "T5": {"a_pawn": 1, "b_pawn": 1}, "R3": {"a_pawn": 1}, "R5": {"b_pawn": 1}, "S3": {"b_pawn": 1}});
    assert_eq!(
        at(PK, "a", "two", sites.clone()).moves(),
        ["R3-R5", "T3-T5", "T5-S2"]
    );
    let mut s = at(SAFE_ONE, "a", "two", sites);
    assert_eq!(
        s.moves(),
        ["R3-R5", "T5-S2"],
        "T5 already holds a pawn of team A"
    );
    s.play("R3-R5");
    assert_eq!(
        (s.count("R5", "a_pawn"), s.count("R5", "b_pawn")),
        (1, 1),
        "a pawn of each team"
    );
    // R0 before the lap and after it is one square: one pawn of a team there.
    let sites = json!({"R0": {"a_pawn": 1}, "R38": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "two", sites.clone()).moves(),
        ["R0-R2", "R38-R0"]
    );
    assert_eq!(at(SAFE_ONE, "a", "two", sites).moves(), ["R0-R2"]);
    // The throne still takes any number.
    let mut s = at(
        SAFE_ONE,
        "a",
        "onduwa",
        json!({"A4": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "R7": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    s.play("A4-GY");
    assert_eq!(s.count("GY", "a_pawn"), 2);
}

#[test]
fn pkq13_alternative_a_pancha_part_may_end_on_a_safe_square_only_once_the_teams_pawn_has_left() {
    let sites =
        json!({"T3": {"a_pawn": 1}, "T5": {"a_pawn": 1}, "R3": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let default = at(PK, "a", "pancha", sites.clone()).moves();
    assert_eq!(default.len(), 20);
    let safe_one = at(SAFE_ONE, "a", "pancha", sites.clone()).moves();
    let gone: Vec<&String> = default.iter().filter(|m| !safe_one.contains(m)).collect();
    assert_eq!(
        gone,
        ["pancha 0 3 R3 2 T3"],
        "T3 + 2 would join the pawn on T5"
    );
    assert!(safe_one.iter().all(|m| default.contains(m)), "{safe_one:?}");
    let mut s = at(SAFE_ONE, "a", "pancha", sites);
    s.play("pancha 0 3 T5 2 T3");
    assert_eq!((s.count("T5", "a_pawn"), s.count("S3", "a_pawn")), (1, 1));
    // On R0 the pawn before its lap must leave before R39 ends its lap there.
    let sites = json!({"R0": {"a_pawn": 1}, "R39": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "pancha", sites.clone()).moves(),
        [
            "pancha 0 1 R39 4 R0",
            "pancha 0 2 R39 3 R0",
            "pancha 0 3 R39 2 R0",
            "pancha 0 4 R39 1 R0",
            "pancha 0 5 R0",
            "pancha 0 5 R39"
        ]
    );
    let mut s = at(SAFE_ONE, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 0 2 R39 3 R0",
            "pancha 0 3 R39 2 R0",
            "pancha 0 4 R0 1 R39",
            "pancha 0 4 R39 1 R0",
            "pancha 0 5 R0",
            "pancha 0 5 R39"
        ]
    );
    s.play("pancha 0 4 R0 1 R39");
    assert_eq!(
        (
            s.count("R4", "a_pawn"),
            s.count("R0", "a_lapped"),
            s.count("R0", "a_pawn")
        ),
        (1, 1, 0)
    );
    // A pawn after its lap may not join the team's pawn on the centre, C5.
    let sites = json!({"R0": {"a_lapped": 1}, "C5": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let default = at(PK, "a", "pancha", sites.clone()).moves();
    assert!(default.contains(&"pancha 0 5 1 R0".to_string()));
    let safe_one = at(SAFE_ONE, "a", "pancha", sites).moves();
    assert_eq!(
        default
            .iter()
            .filter(|m| !safe_one.contains(m))
            .collect::<Vec<_>>(),
        ["pancha 0 5 1 R0"]
    );
    assert!(safe_one.contains(&"pancha 0 1 0 C5 4 1 R0".to_string()));
    // Nor may a pawn before its lap join, on R0, a pawn of the team after its lap.
    let sites = json!({"R0": {"a_lapped": 1}, "S4": {"a_pawn": 1}, "R20": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let default = at(PK, "a", "pancha", sites.clone()).moves();
    assert_eq!(default.len(), 21);
    let safe_one = at(SAFE_ONE, "a", "pancha", sites).moves();
    assert_eq!(
        default
            .iter()
            .filter(|m| !safe_one.contains(m))
            .collect::<Vec<_>>(),
        ["pancha 0 4 0 R20 1 0 S4"]
    );
    assert!(safe_one.contains(&"pancha 0 4 1 R0 1 S4".to_string()));
}

#[test]
fn pkq14_alternative_an_overshoot_bounces_back_from_the_throne_by_the_excess() {
    assert_delta_for(BOUNCE, "PK-Q14");
    // A4 is position 60: the throne is one step on; the rest of the count goes back down the route.
    let sites =
        json!({"A4": {"a_pawn": 1}, "R3": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    for (throw, default, bounce) in [
        ("onduwa", vec!["A4-GY", "R3-R4"], vec!["A4-GY", "R3-R4"]),
        ("two", vec!["R3-R5"], vec!["A4-A4", "R3-R5"]),
        ("three", vec!["R3-R6"], vec!["A4-A3", "R3-R6"]),
        ("four", vec!["R3-R7"], vec!["A4-A2", "R3-R7"]),
        ("bokka", vec!["R3-R15"], vec!["A4-R39", "R3-R15"]),
    ] {
        assert_eq!(
            at(PK, "a", throw, sites.clone()).moves(),
            default,
            "{throw}"
        );
        assert_eq!(
            at(BOUNCE, "a", throw, sites.clone()).moves(),
            bounce,
            "{throw}"
        );
    }
    let mut s = at(BOUNCE, "a", "four", sites.clone());
    s.play("A4-A2");
    assert_eq!((s.count("A2", "a_pawn"), s.count("A4", "a_pawn")), (1, 0));
    assert_eq!(
        (s.count("GY", "a_pawn"), s.winner()),
        (1, "none".to_string()),
        "touching the throne does not crown"
    );
    assert_eq!(s.to_move(), "b");
    // Back to the very square it left: the throw is used.
    let mut s = at(BOUNCE, "a", "two", sites);
    s.play("A4-A4");
    assert_eq!((s.count("A4", "a_pawn"), s.to_move()), (1, "b"));
    // The default's own position: C3 (54) + 12 goes back to C5 (56).
    let sites =
        json!({"C3": {"a_pawn": 1}, "R3": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(at(PK, "a", "bokka", sites.clone()).moves(), ["R3-R15"]);
    assert_eq!(at(BOUNCE, "a", "bokka", sites).moves(), ["C3-C5", "R3-R15"]);
}

#[test]
fn pkq14_alternative_a_bokka_may_bounce_back_onto_the_perimeter_and_r0() {
    // A3 (59) + 12 comes back to R0 as a pawn after its lap; A4 (60) + 12 would end on B's pawn on R39,
    // a plain square, which only a pancha may take.
    let sites = json!({"A3": {"a_pawn": 1}, "A4": {"a_pawn": 1}, "R39": {"b_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 2}});
    assert_eq!(at(PK, "a", "bokka", sites.clone()).moves(), ["pass"]);
    let mut s = at(BOUNCE, "a", "bokka", sites);
    assert_eq!(s.moves(), ["A3-R0"]);
    s.play("A3-R0");
    assert_eq!((s.count("R0", "a_lapped"), s.count("R0", "a_pawn")), (1, 0));
    assert_eq!(s.to_move(), "a", "a bokka throws again");
    s.throw("three");
    assert_eq!(s.moves(), ["A4-A3", "R0-C3"]);
    s.play("R0-C3");
    assert_eq!(s.count("C3", "a_pawn"), 1);
    // A pawn after its lap bounces too: team B's lapped pawn on R0 (51) + 12 comes back to B3 (59).
    let sites = json!({"R0": {"b_lapped": 1}, "B1": {"b_pawn": 1}, "GY": {"b_pawn": 1}, "HA": {"a_pawn": 3}});
    assert_eq!(at(PK, "b", "bokka", sites.clone()).moves(), ["pass"]);
    let mut s = at(BOUNCE, "b", "bokka", sites);
    assert_eq!(s.moves(), ["B1-C2", "R0-B3"]);
    s.play("R0-B3");
    assert_eq!((s.count("B3", "b_pawn"), s.count("R0", "b_lapped")), (1, 0));
}

#[test]
fn pkq14_alternative_a_pancha_part_may_bounce_onto_the_square_a_pawn_behind_has_left() {
    let sites =
        json!({"A4": {"a_pawn": 1}, "A2": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    assert_eq!(
        at(PK, "a", "pancha", sites.clone()).moves(),
        ["pancha 0 1 A4 3 A2 0"]
    );
    let mut s = at(BOUNCE, "a", "pancha", sites);
    assert_eq!(
        s.moves(),
        [
            "pancha 0 1 A2 4 A4",
            "pancha 0 1 A4 4 A2",
            "pancha 0 2 A4 3 A2",
            "pancha 0 3 A4 2 A2",
            "pancha 0 5 A2",
            "pancha 0 5 A4"
        ],
        "A2 moves first when A4 comes back onto A2"
    );
    s.play("pancha 0 1 A2 4 A4");
    assert_eq!(
        (
            s.count("A2", "a_pawn"),
            s.count("A3", "a_pawn"),
            s.count("A4", "a_pawn")
        ),
        (1, 1, 0)
    );
}

#[test]
fn pkq14_an_overshoot_is_no_move_for_that_pawn_but_the_throw_may_serve_another() {
    let s = at(
        PK,
        "a",
        "bokka",
        json!({"C3": {"a_pawn": 1}, "R3": {"a_pawn": 1}, "GY": {"a_pawn": 1}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["R3-R15"]);
}

#[test]
fn pkq15_teams_of_partners_alternate_seats_and_move_any_pawn_of_their_team() {
    let s = Scenario::new("pancha-keliya/four-players");
    let g = s.game();
    let order: Vec<&str> = g
        .turn_order
        .iter()
        .map(|&p| g.players[p as usize].name.as_str())
        .collect();
    assert_eq!(order, ["a", "b", "a2", "b2"]);
    let mut s = Scenario::at(
        "pancha-keliya/four-players",
        json!({"to_move": "b", "throw": "two", "sites": {"R7": {"a_pawn": 1}, "R30": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}}),
    );
    s.play("R30-R28");
    assert_eq!(s.to_move(), "a2");
    s.throw("two");
    assert_eq!(s.moves(), ["R7-R9"], "A2 moves team A's pawns");
    s.play("R7-R9");
    assert_eq!(s.to_move(), "b2");
    s.throw("onduwa");
    s.play("activate");
    assert_eq!(s.count("WB", "b_pawn"), 1, "B2 activates team B's pawns");
    for (name, seats) in [
        ("pancha-keliya/six-players", 6),
        ("pancha-keliya/eight-players", 8),
    ] {
        let c = compile(name);
        assert_eq!(c.game().turn_order.len(), seats);
        let names: Vec<&str> = c
            .game()
            .turn_order
            .iter()
            .map(|&p| c.game().players[p as usize].name.as_str())
            .collect();
        assert!(
            names.iter().step_by(2).all(|n| n.starts_with('a'))
                && names.iter().skip(1).step_by(2).all(|n| n.starts_with('b')),
            "{names:?}"
        );
    }
}

#[test]
fn pkq15_a_team_wins_as_one_side_whichever_seat_the_rules_name() {
    // The rules name the team's first seat (`winner: a`); `teams` makes every report count the win for
    // the team: sides are the teams, each with all its seats, and the wins are the two-player game's
    // (same dice, same moves, team A's pawns moved by whichever A seat is to move).
    let two = compile("pancha-keliya");
    let plain = keliya_play::simulate::simulate(two.game(), 60, 3).unwrap();
    let two_sides: Vec<String> = two.game().sides().iter().map(|s| s.name.clone()).collect();
    assert_eq!(two_sides, ["a", "b"], "without teams each player is a side");
    for (name, seats) in [
        ("pancha-keliya/four-players", 2),
        ("pancha-keliya/six-players", 3),
        ("pancha-keliya/eight-players", 4),
    ] {
        let c = compile(name);
        let g = c.game();
        let sides = g.sides();
        let described: Vec<(String, Vec<&str>)> = sides
            .iter()
            .map(|s| {
                let players = s
                    .players
                    .iter()
                    .map(|&p| g.players[p as usize].name.as_str());
                (s.name.clone(), players.collect())
            })
            .collect();
        assert_eq!(described.len(), 2, "{name}: two sides");
        for ((team, players), letter) in described.iter().zip(['a', 'b']) {
            assert_eq!(team, &format!("team_{letter}"), "{name}");
            assert_eq!(
                players.len(),
                seats,
                "{name}: {team} has every seat of its side"
            );
            assert!(
                players.iter().all(|p| p.starts_with(letter)),
                "{name}: {players:?}"
            );
        }
        let a2 = g.player("a2").unwrap();
        assert_eq!(
            g.side_name(a2),
            "team_a",
            "{name}: a second seat's side is its team"
        );
        let stats = keliya_play::simulate::simulate(g, 60, 3).unwrap();
        assert_eq!(
            stats.wins, plain.wins,
            "{name}: team wins are the two-player game's"
        );
        assert_eq!(stats.wins.iter().sum::<u64>() + stats.draws, 60, "{name}");
    }
}

#[test]
fn pkq15_a_finished_team_game_names_the_winning_team_in_its_state_and_its_record() {
    use keliya_play::state_json;
    let c = compile("pancha-keliya/four-players");
    let g = c.game();
    let mut teams_seen = Vec::new();
    for seed in 0..12 {
        let (_, end) = keliya_play::play_random_game(g, seed).unwrap();
        let outcome = end.result.expect("the game ends");
        let Some(w) = outcome.winner else { continue };
        let team = g.team_of(w).expect("every seat plays in a team");
        teams_seen.push(team.to_string());
        // The state file: `team` beside the winner the rules named, and read back as it was written.
        let mut v = state_json::to_json(g, &end);
        assert_eq!(v["result"]["team"], json!(team), "seed {seed}");
        assert_eq!(state_json::from_json(g, &v).unwrap(), end, "seed {seed}");
        let other = if team == "team_a" { "team_b" } else { "team_a" };
        v["result"]["team"] = json!(other);
        let err = state_json::from_json(g, &v).expect_err("a team that is not the winner's");
        assert!(err.contains("the winner plays in team"), "{err}");
    }
    teams_seen.sort();
    teams_seen.dedup();
    assert_eq!(teams_seen, ["team_a", "team_b"], "both teams won a game");
    // The record of a game, written and read back.
    for seed in 0..4 {
        let mut agents: Vec<Box<dyn keliya_play::agents::Agent>> =
            vec![Box::new(keliya_play::agents::RandomAgent)];
        let (record, end) = keliya_play::simulate::play_game(g, &mut agents, seed).unwrap();
        let team = end.result.and_then(|o| o.winner).and_then(|w| g.team_of(w));
        let v = record.to_json();
        assert_eq!(v["result"]["team"].as_str(), team, "seed {seed}");
        let back = keliya_play::record::GameRecord::from_json(&v).unwrap();
        assert_eq!(back.team.as_deref(), team, "seed {seed}");
    }
    // Without teams: no `team` anywhere, and a state file that gives one is refused.
    let h = compile("hat-diviyan-keliya");
    let (_, end) = keliya_play::play_random_game(h.game(), 1).unwrap();
    let mut v = state_json::to_json(h.game(), &end);
    assert!(v["result"].get("team").is_none());
    v["result"]["team"] = json!(null);
    assert_eq!(
        state_json::from_json(h.game(), &v).unwrap(),
        end,
        "no team, written as null"
    );
    v["result"]["team"] = json!("hunters");
    let err = state_json::from_json(h.game(), &v).expect_err("no teams in this game");
    assert!(err.contains("in no team"), "{err}");
}

#[test]
fn pkq15_delta_three_pawns_per_player_each_moves_only_his_own() {
    let s = Scenario::new(CULIN);
    assert_eq!(
        (s.count("HA", "a_pawn"), s.count("seat-a2", "a2_pawn")),
        (3, 3)
    );
    assert_eq!(
        (s.count("HB", "b_pawn"), s.count("seat-b2", "b2_pawn")),
        (3, 3)
    );
    let sites = json!({"R7": {"a_pawn": 1}, "R20": {"a2_pawn": 1}, "R30": {"b_pawn": 1},
        "HA": {"a_pawn": 2}, "seat-a2": {"a2_pawn": 2}, "HB": {"b_pawn": 2}, "seat-b2": {"b2_pawn": 3}});
    // The four-player file: A2 moves any pawn of team A. Here: only his own.
    let s = Scenario::at(
        "pancha-keliya/four-players",
        json!({"to_move": "a2", "throw": "two", "sites": {"R7": {"a_pawn": 1}, "R20": {"a_pawn": 1}, "HA": {"a_pawn": 1}, "HB": {"b_pawn": 3}}}),
    );
    assert_eq!(s.moves(), ["R20-R22", "R7-R9"]);
    let s = at(CULIN, "a2", "two", sites.clone());
    assert_eq!(s.moves(), ["R20-R22"]);
    let s = at(CULIN, "a", "two", sites.clone());
    assert_eq!(s.moves(), ["R7-R9"]);
    // An onduwa activates the mover's own pawn, from his own reserve.
    let mut s = at(CULIN, "a2", "onduwa", sites.clone());
    s.play("activate");
    assert_eq!(
        (s.count("WA", "a2_pawn"), s.count("seat-a2", "a2_pawn")),
        (1, 1)
    );
    assert_eq!(s.count("HA", "a_pawn"), 2);
    let mut s = at(CULIN, "b2", "onduwa", sites);
    s.play("activate");
    assert_eq!(
        (s.count("WB", "b2_pawn"), s.count("seat-b2", "b2_pawn")),
        (1, 2)
    );
}

#[test]
fn pkq15_delta_partners_share_no_plain_square_and_either_opponent_is_captured() {
    // A2 on R7 may not end on R9, where his partner's pawn stands (PK-14); R10 is safe and shared.
    let sites = json!({"R7": {"a2_pawn": 1}, "R9": {"a_pawn": 1}, "R10": {"a_pawn": 1},
        "HA": {"a_pawn": 1}, "seat-a2": {"a2_pawn": 2}, "HB": {"b_pawn": 3}, "seat-b2": {"b2_pawn": 3}});
    let s = at(CULIN, "a2", "two", sites.clone());
    assert_eq!(s.moves(), ["pass"]);
    let mut s = at(CULIN, "a2", "three", sites);
    s.play("R7-R10");
    assert_eq!(
        (s.count("R10", "a_pawn"), s.count("R10", "a2_pawn")),
        (1, 1)
    );
    // A pancha of A1 captures a pawn of B2, which goes back to B2's reserve.
    let mut s = at(
        CULIN,
        "a",
        "pancha",
        json!({"R3": {"a_pawn": 1}, "R8": {"b2_pawn": 1}, "HA": {"a_pawn": 2}, "seat-a2": {"a2_pawn": 3},
            "HB": {"b_pawn": 3}, "seat-b2": {"b2_pawn": 2}}),
    );
    s.play("pancha 0 5 R3");
    assert_eq!((s.count("R8", "a_pawn"), s.count("R8", "b2_pawn")), (1, 0));
    assert_eq!(
        (s.count("seat-b2", "b2_pawn"), s.count("HB", "b_pawn")),
        (3, 3)
    );
    // A two of B1 may not end on A2's pawn on a plain square (only a pancha captures).
    let s = at(
        CULIN,
        "b",
        "two",
        json!({"R30": {"b_pawn": 1}, "R28": {"a2_pawn": 1}, "HA": {"a_pawn": 3}, "seat-a2": {"a2_pawn": 2},
            "HB": {"b_pawn": 2}, "seat-b2": {"b2_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
}

#[test]
fn pkq15_delta_a_team_wins_with_all_six_pawns_crowned() {
    let mut s = at(
        CULIN,
        "a2",
        "onduwa",
        json!({"A4": {"a2_pawn": 1}, "GY": {"a_pawn": 3, "a2_pawn": 2}, "HB": {"b_pawn": 3}, "seat-b2": {"b2_pawn": 3}}),
    );
    assert_eq!(s.winner(), "none", "five of six crowned");
    s.play("A4-GY");
    assert_eq!(
        (s.winner(), s.ended_by()),
        ("a".into(), "team-a-crowned".into())
    );
    // A player whose own pawns are all crowned loses his throws; he does not move his partner's.
    let s = at(
        CULIN,
        "a",
        "two",
        json!({"R7": {"a2_pawn": 1}, "GY": {"a_pawn": 3, "a2_pawn": 2}, "HB": {"b_pawn": 3}, "seat-b2": {"b2_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
}

#[test]
fn pkq18_the_start_squares_are_not_safe() {
    let c = compile(PK);
    let b = &c.game().board;
    assert!(
        !b.has_tag(b.site("T0").unwrap(), "safe") && !b.has_tag(b.site("T10").unwrap(), "safe")
    );
}

#[test]
fn pkq20_no_limit_on_throws_again_in_one_turn() {
    let mut s = at(
        PK,
        "a",
        "bokka",
        json!({"R1": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    // Six throws in a row for team A: bokka, bokka, bokka, onduwa, pancha, bokka.
    for (mv, throw) in [
        ("R1-R13", "bokka"),
        ("R13-R25", "bokka"),
        ("R25-R37", "onduwa"),
        ("R37-R38", "pancha"),
        ("pancha 0 5 R38", "bokka"),
    ] {
        s.play(mv);
        assert_eq!(s.to_move(), "a");
        s.throw(throw);
    }
    assert_eq!(s.count("C3", "a_pawn"), 1);
    assert_eq!(
        s.moves(),
        ["pass"],
        "C3 + 12 is past the throne, and a bokka activates nothing"
    );
}

#[test]
fn pkq20_delta_is_a_delta_for_the_question() {
    assert_delta_for(THROW_CAP, "PK-Q20");
    assert_eq!(compile(THROW_CAP).game().max_throws_per_turn, Some(3));
    assert_eq!(compile(PK).game().max_throws_per_turn, None);
}

#[test]
fn pkq20_delta_the_third_throw_again_is_lost() {
    let sites = json!({"R1": {"a_pawn": 1}, "R30": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}});
    // The canonical game: bokka, bokka, onduwa, and team A throws a fourth time.
    let mut s = at(PK, "a", "bokka", sites.clone());
    s.play("R1-R13")
        .throw("bokka")
        .play("R13-R25")
        .throw("onduwa");
    s.play("R25-R26");
    assert_eq!(s.to_move(), "a", "no cap in the canonical game");
    // The delta: the same three throws; the third is played, its throw again is lost.
    let mut s = at(THROW_CAP, "a", "bokka", sites);
    s.play("R1-R13");
    assert_eq!((s.to_move(), i64::from(s.state.turn_throws)), ("a", 1));
    s.throw("bokka").play("R13-R25");
    assert_eq!((s.to_move(), i64::from(s.state.turn_throws)), ("a", 2));
    s.throw("onduwa").play("R25-R26");
    assert_eq!(s.count("R26", "a_pawn"), 1, "the third throw is played");
    assert_eq!(s.to_move(), "b", "PK-Q20: its throw again is lost");
    assert!(s.state.chance_due);
    // Team B's turn counts from one again, and so does team A's next turn.
    s.throw("pancha").play("pancha 0 5 R30");
    assert_eq!((s.to_move(), i64::from(s.state.turn_throws)), ("b", 1));
    s.throw("two").play("R25-R23");
    assert_eq!(s.to_move(), "a");
    s.throw("onduwa").play("R26-R27");
    assert_eq!((s.to_move(), i64::from(s.state.turn_throws)), ("a", 1));
    s.throw("onduwa").play("R27-R28");
    assert_eq!((s.to_move(), i64::from(s.state.turn_throws)), ("a", 2));
    s.throw("pancha").play("pancha 0 5 R28");
    assert_eq!((s.count("R33", "a_pawn"), s.to_move()), (1, "b"));
}

#[test]
fn pkq20_delta_a_lost_throw_ends_the_turn_and_the_cap_is_a_parameter() {
    // An onduwa is used, then a bokka that no pawn can use: the turn passes after two throws (PK-16), and
    // team A's next turn again has three throws.
    let sites = json!({"C1": {"a_pawn": 1}, "R30": {"b_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 2}});
    let mut s = at(THROW_CAP, "a", "onduwa", sites.clone());
    s.play("C1-C2").throw("bokka");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    s.throw("two").play("R30-R28");
    assert_eq!(s.to_move(), "a");
    s.throw("onduwa")
        .play("C2-C3")
        .throw("onduwa")
        .play("C3-C4");
    assert_eq!(s.to_move(), "a");
    s.throw("onduwa").play("C4-C5");
    assert_eq!((s.to_move(), s.count("C5", "a_pawn")), ("b", 1));
    // A cap of two is a one-line delta of this file.
    let dir = std::env::temp_dir().join(format!("keliya-pancha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let two = dir.join("throw-cap-two.yaml");
    std::fs::write(
        &two,
        "keliya: 1\ntitle: q20\nextends: pancha-keliya/throw-cap\nthrows: {max_per_turn: 2}\n",
    )
    .unwrap();
    let mut s = at(two.to_str().unwrap(), "a", "onduwa", sites);
    s.play("C1-C2").throw("onduwa").play("C2-C3");
    assert_eq!((s.to_move(), s.count("C3", "a_pawn")), ("b", 1));
}

#[test]
fn variant_swapped_extremes_bokka_is_six_up() {
    let s = Scenario::new("pancha-keliya/swapped-extremes");
    let got = s.throw_outcomes();
    assert_eq!(
        (got[0].0.as_str(), got[0].1, got[0].3),
        ("puwak-malla", 6, false)
    );
    assert_eq!((got[6].0.as_str(), got[6].1, got[6].3), ("bokka", 12, true));
    assert_eq!(got[0].2, 1.0 / 64.0);
}

#[test]
fn variant_bokka_no_move_zero_up_is_worth_nothing_and_the_turn_passes() {
    // PK-Q1 (d): no mouth up is a bokka of value 0, with no throw again.
    const NO_MOVE: &str = "pancha-keliya/bokka-no-move";
    let got = Scenario::new(NO_MOVE).throw_outcomes();
    assert_eq!((got[0].0.as_str(), got[0].1, got[0].3), ("bokka", 0, false));
    assert_eq!(got[0].2, 1.0 / 64.0);
    // A pawn on a safe square (where a count of 0 would leave it on a square it may share), one on a
    // plain square, one waiting: the canonical bokka moves any of them twelve; this one moves nothing.
    let sites =
        json!({"R5": {"a_pawn": 1}, "R7": {"a_pawn": 1}, "WA": {"a_pawn": 1}, "HB": {"b_pawn": 3}});
    let canonical = at(PK, "a", "bokka", sites.clone());
    assert!(
        canonical.moves().contains(&"R5-R17".to_string()),
        "{:?}",
        canonical.moves()
    );
    let mut s = at(NO_MOVE, "a", "bokka", sites);
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "b", "no throw again");
    assert_eq!((s.count("R5", "a_pawn"), s.count("R7", "a_pawn")), (1, 1));
}

#[test]
fn variant_captured_pawn_returns_to_its_start_already_activated() {
    let mut s = at(
        "pancha-keliya/captured-to-start",
        "a",
        "pancha",
        json!({"R3": {"a_pawn": 1}, "R8": {"b_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 2}}),
    );
    s.play("pancha 0 5 R3");
    assert_eq!((s.count("WB", "b_pawn"), s.count("HB", "b_pawn")), (1, 2));
}

#[test]
fn variant_parker_board_thirty_rooms_houses_every_fifth_exact_bear_off() {
    let c = compile(PARKER);
    let b = &c.game().board;
    let a: Vec<&str> = b
        .track("route_a")
        .unwrap()
        .points
        .iter()
        .map(|&p| b.name(p))
        .collect();
    assert_eq!(a.len(), 32, "position 0, thirty rooms, borne off at 31");
    assert_eq!(a[30], "t25");
    let houses: Vec<usize> = (1..31)
        .filter(|&i| b.has_tag(b.track("route_a").unwrap().points[i], "safe"))
        .collect();
    assert_eq!(houses, [5, 10, 15, 20, 25]);
    // Entry: 1, 5 or 6 puts a counter on the first room and throws again; the throw is spent.
    let mut s = at(
        PARKER,
        "a",
        "five",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["enter b0"]);
    s.play("enter b0");
    assert_eq!((s.count("b0", "a_pawn"), s.to_move()), (1, "a"));
    s.throw("three");
    assert_eq!(
        s.moves(),
        ["b0-b3"],
        "a 3 cannot enter; the counter moves whole"
    );
    // None up moves nothing.
    let s = at(
        PARKER,
        "a",
        "none-up",
        json!({"b0": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    // Bearing off from t23 (position 28) needs exactly 3.
    let s = at(
        PARKER,
        "a",
        "four",
        json!({"t23": {"a_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
    let mut s = at(
        PARKER,
        "a",
        "three",
        json!({"t23": {"a_pawn": 1}, "GY": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    s.play("t23-GY");
    assert_eq!(s.winner(), "a");
}

#[test]
fn pkq19_delta_an_entering_counter_moves_the_whole_throw_from_position_0() {
    let start = json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}});
    // The bundled variant: 1, 5 and 6 all put the counter on b0, the throw spent.
    for throw in ["one", "five", "six"] {
        let s = at(PARKER, "a", throw, start.clone());
        assert_eq!(s.moves(), ["enter b0"], "{throw}");
    }
    // The delta: the counter counts the throw from position 0.
    for (throw, to) in [("one", "b0"), ("five", "b4"), ("six", "t1")] {
        let mut s = at(ENTER_MOVES, "a", throw, start.clone());
        assert_eq!(s.moves(), [format!("enter {to}")], "{throw}");
        s.play(&format!("enter {to}"));
        assert_eq!((s.count(to, "a_pawn"), s.count("HA", "a_pawn")), (1, 2));
        assert_eq!(s.to_move(), "a", "{throw} still throws again");
    }
    // Side B counts from its own end of the base row.
    let mut s = at(ENTER_MOVES, "b", "five", start.clone());
    s.play("enter b4");
    assert_eq!(s.count("b4", "b_pawn"), 1);
    let s = at(ENTER_MOVES, "b", "one", start);
    assert_eq!(s.moves(), ["enter b8"]);
    // Other throws still enter nothing.
    let s = at(
        ENTER_MOVES,
        "a",
        "three",
        json!({"HA": {"a_pawn": 3}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["pass"]);
}

#[test]
fn pkq19_delta_the_entering_counter_captures_shares_a_house_and_is_blocked_by_its_own_side() {
    // A 6 enters on t1, where an enemy stands on a plain room: it is captured, back off the board.
    let mut s = at(
        ENTER_MOVES,
        "a",
        "six",
        json!({"t1": {"b_pawn": 1}, "HA": {"a_pawn": 3}, "HB": {"b_pawn": 2}}),
    );
    assert_eq!(s.moves(), ["enter t1"]);
    s.play("enter t1");
    assert_eq!((s.count("t1", "a_pawn"), s.count("t1", "b_pawn")), (1, 0));
    assert_eq!(s.count("HB", "b_pawn"), 3);
    assert_eq!(s.state.captures, 1);
    // A 5 enters on the base House b4 beside an enemy: a House is shared and never attacked.
    let mut s = at(
        ENTER_MOVES,
        "a",
        "five",
        json!({"b4": {"b_pawn": 1}, "HA": {"a_pawn": 3}, "HB": {"b_pawn": 2}}),
    );
    s.play("enter b4");
    assert_eq!((s.count("b4", "a_pawn"), s.count("b4", "b_pawn")), (1, 1));
    // A 6 cannot enter on t1 where a counter of the same side stands; that counter moves instead.
    let s = at(
        ENTER_MOVES,
        "a",
        "six",
        json!({"t1": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["t1-t7"]);
    // The bundled variant enters on b0 there.
    let s = at(
        PARKER,
        "a",
        "six",
        json!({"t1": {"a_pawn": 1}, "HA": {"a_pawn": 2}, "HB": {"b_pawn": 3}}),
    );
    assert_eq!(s.moves(), ["enter b0", "t1-t7"]);
}

#[test]
fn pkq16_delta_is_a_delta_for_the_question() {
    assert_delta_for(THROW_OFF, "PK-Q16");
}

#[test]
fn pkq16_delta_a_throw_off_the_higher_value_starts() {
    // A throws a pancha (5), B a four: A starts, with a throw of its own.
    let mut s = Scenario::new(THROW_OFF);
    assert_eq!(s.to_move(), "a");
    s.throw("pancha");
    assert_eq!(s.moves(), ["throw-off"], "the pancha activates nothing yet");
    s.play("throw-off");
    assert_eq!(s.to_move(), "b", "the pancha gives no throw again here");
    s.throw("four").play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("a", 1));
    assert_eq!(s.count("HA", "a_pawn"), 3, "no pawn was activated");
    assert!(s.state.chance_due);
    s.throw("onduwa");
    assert_eq!(s.moves(), ["activate"], "play has begun");
    // A throws a two, B a bokka (12): B starts, and it is B's own first throw that counts.
    let mut s = Scenario::new(THROW_OFF);
    s.throw("two")
        .play("throw-off")
        .throw("bokka")
        .play("throw-off");
    assert_eq!(s.to_move(), "b");
    assert_eq!(s.count("HB", "b_pawn"), 3);
    s.throw("pancha");
    assert!(s.can("pancha 1 4 WB"));
    // A puwak malla moves nothing in play (PK-10), so it is the lowest throw-off throw, below an
    // onduwa, whatever its nominal value (6) in the table.
    let mut s = Scenario::new(THROW_OFF);
    s.throw("onduwa")
        .play("throw-off")
        .throw("puwak-malla")
        .play("throw-off");
    assert_eq!(s.to_move(), "a");
    // The canonical game: team A starts and its first pancha is played at once.
    let mut s = Scenario::new(PK);
    s.throw("pancha");
    assert!(s.can("pancha 1 4 WA"));
}

#[test]
fn pkq16_delta_a_tie_throws_again() {
    let mut s = Scenario::new(THROW_OFF);
    s.throw("three")
        .play("throw-off")
        .throw("three")
        .play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("a", 0));
    s.throw("onduwa");
    assert_eq!(s.moves(), ["throw-off"], "still the throw-off");
    s.play("throw-off").throw("two").play("throw-off");
    assert_eq!((s.to_move(), s.var("started", None)), ("b", 1));
    assert_eq!(
        (s.var("off_throw", Some("a")), s.var("off_throw", Some("b"))),
        (1, 2)
    );
}

#[test]
fn pkq17_the_proposed_board_an_11_by_11_perimeter_of_40_squares_joined_square_to_square() {
    let c = compile(PK);
    let b = &c.game().board;
    let ring: Vec<(f64, f64)> = (0..40)
        .map(|k| b.at[b.site(&format!("R{k}")).unwrap() as usize])
        .collect();
    let (xs, ys): (Vec<f64>, Vec<f64>) = ring.iter().cloned().unzip();
    let span = |v: &[f64]| {
        v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
    };
    assert_eq!((span(&xs), span(&ys)), (10.0, 10.0), "11 squares a side");
    // Consecutive route squares are orthogonal neighbours (the throne and the waiting place apart).
    for track in ["route_a", "route_b"] {
        let pts = &b.track(track).unwrap().points;
        for w in pts[1..61].windows(2) {
            let (p, q) = (b.at[w[0] as usize], b.at[w[1] as usize]);
            assert_eq!(
                (p.0 - q.0).abs() + (p.1 - q.1).abs(),
                1.0,
                "{track}: {} {}",
                b.name(w[0]),
                b.name(w[1])
            );
        }
    }
}

//! Demala diviyan keliya: one scenario test (or more) per rule of `docs/rules/demala-diviyan-keliya.md`
//! (DD-1 .. DD-10, the defaults DD-Q1 .. DD-Q10) and per variant
//! file under `rulesets/demala-diviyan-keliya/`.

use keliya_board::Board;
use keliya_tests::{Scenario, compile};
use serde_json::json;

const DEMALA: &str = "demala-diviyan-keliya";
const PULIJUDAM: &str = "demala-diviyan-keliya/pulijudam-23";
const ENTERED: &str = "demala-diviyan-keliya/hunters-entered";
const SEVEN: &str = "demala-diviyan-keliya/seven-captures";
const LEOPARDS_FIRST: &str = "demala-diviyan-keliya/leopards-first";
const TRAP_AFTER_DROPS: &str = "demala-diviyan-keliya/trap-after-drops";
const DOGS_BLOCKED_LOSE: &str = "demala-diviyan-keliya/dogs-blocked-lose";
const LEAP_CHAINS: &str = "demala-diviyan-keliya/leap-chains";
const COMPULSORY: &str = "demala-diviyan-keliya/compulsory-capture";

use keliya_tests::hunt_position as position;

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Every on-board point except those given (the dogs of a full board).
fn all_but(board_of: &str, taken: &[&str]) -> Vec<String> {
    let c = compile(board_of);
    let b = &c.game().board;
    b.playing_sites()
        .map(|s| b.name(s).to_string())
        .filter(|n| !taken.contains(&n.as_str()))
        .collect()
}

use keliya_tests::{BoardRow as Row, check_board_table as check_table};

/// The straight lines of a board as lists of point names, sorted.
fn lines(b: &Board) -> Vec<Vec<String>> {
    let mut v: Vec<Vec<String>> = b
        .lines
        .iter()
        .map(|l| l.points.iter().map(|&p| b.name(p).to_string()).collect())
        .collect();
    v.sort();
    v
}

fn expect_lines(want: &[&[&str]]) -> Vec<Vec<String>> {
    let mut v: Vec<Vec<String>> = want
        .iter()
        .map(|l| l.iter().map(|p| p.to_string()).collect())
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------------------
// DD-1 .. DD-10

#[test]
fn dd1_three_leopards_against_fifteen_dogs_told_apart() {
    let s = Scenario::new(DEMALA);
    let g = s.game();
    let players: Vec<(&str, &str)> = g
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.display.as_str()))
        .collect();
    assert_eq!(players, [("hunter", "leopards"), ("prey", "dogs")]);
    let pieces: Vec<(&str, &str)> = g
        .pieces
        .iter()
        .map(|p| (p.name.as_str(), p.display.as_str()))
        .collect();
    assert_eq!(
        pieces,
        [("hunter", "leopard"), ("prey", "dog")],
        "two kinds of piece"
    );
    let leopards: u16 = g
        .board
        .playing_sites()
        .map(|p| s.count(g.board.name(p), "hunter"))
        .sum();
    assert_eq!(leopards, 3);
    assert_eq!(s.count("prey-hand", "prey"), 15);
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
}

#[test]
fn dd2_the_21_point_board_with_its_lines_and_leaps() {
    let c = compile(DEMALA);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 21);
    assert_eq!(b.edges.len(), 36);
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 54);
    // The nine straight lines of the board: five rays from the apex, four levels.
    assert_eq!(
        lines(b),
        expect_lines(&[
            &["A", "r1c0", "r2c0", "r3c0", "r4c0"],
            &["A", "r1c1", "r2c1", "r3c1", "r4c1"],
            &["A", "r1c2", "r2c2", "r3c2", "r4c2"],
            &["A", "r1c3", "r2c3", "r3c3", "r4c3"],
            &["A", "r1c4", "r2c4", "r3c4", "r4c4"],
            &["r1c0", "r1c1", "r1c2", "r1c3", "r1c4"],
            &["r2c0", "r2c1", "r2c2", "r2c3", "r2c4"],
            &["r3c0", "r3c1", "r3c2", "r3c3", "r3c4"],
            &["r4c0", "r4c1", "r4c2", "r4c3", "r4c4"],
        ])
    );
    // The board table: point, (x, y), neighbours, leaps (over -> land).
    let table: &[Row<'_>] = &[
        (
            "A",
            (0.0, 0.0),
            &["r1c0", "r1c1", "r1c2", "r1c3", "r1c4"],
            &[
                ("r1c0", "r2c0"),
                ("r1c1", "r2c1"),
                ("r1c2", "r2c2"),
                ("r1c3", "r2c3"),
                ("r1c4", "r2c4"),
            ],
        ),
        (
            "r1c0",
            (-1.0, 1.0),
            &["A", "r1c1", "r2c0"],
            &[("r1c1", "r1c2"), ("r2c0", "r3c0")],
        ),
        (
            "r1c1",
            (-0.5, 1.0),
            &["A", "r1c0", "r1c2", "r2c1"],
            &[("r1c2", "r1c3"), ("r2c1", "r3c1")],
        ),
        (
            "r1c2",
            (0.0, 1.0),
            &["A", "r1c1", "r1c3", "r2c2"],
            &[("r1c1", "r1c0"), ("r1c3", "r1c4"), ("r2c2", "r3c2")],
        ),
        (
            "r1c3",
            (0.5, 1.0),
            &["A", "r1c2", "r1c4", "r2c3"],
            &[("r1c2", "r1c1"), ("r2c3", "r3c3")],
        ),
        (
            "r1c4",
            (1.0, 1.0),
            &["A", "r1c3", "r2c4"],
            &[("r1c3", "r1c2"), ("r2c4", "r3c4")],
        ),
        (
            "r2c0",
            (-2.0, 2.0),
            &["r1c0", "r2c1", "r3c0"],
            &[("r1c0", "A"), ("r2c1", "r2c2"), ("r3c0", "r4c0")],
        ),
        (
            "r2c1",
            (-1.0, 2.0),
            &["r1c1", "r2c0", "r2c2", "r3c1"],
            &[("r1c1", "A"), ("r2c2", "r2c3"), ("r3c1", "r4c1")],
        ),
        (
            "r2c2",
            (0.0, 2.0),
            &["r1c2", "r2c1", "r2c3", "r3c2"],
            &[
                ("r1c2", "A"),
                ("r2c1", "r2c0"),
                ("r2c3", "r2c4"),
                ("r3c2", "r4c2"),
            ],
        ),
        (
            "r2c3",
            (1.0, 2.0),
            &["r1c3", "r2c2", "r2c4", "r3c3"],
            &[("r1c3", "A"), ("r2c2", "r2c1"), ("r3c3", "r4c3")],
        ),
        (
            "r2c4",
            (2.0, 2.0),
            &["r1c4", "r2c3", "r3c4"],
            &[("r1c4", "A"), ("r2c3", "r2c2"), ("r3c4", "r4c4")],
        ),
        (
            "r3c0",
            (-3.0, 3.0),
            &["r2c0", "r3c1", "r4c0"],
            &[("r2c0", "r1c0"), ("r3c1", "r3c2")],
        ),
        (
            "r3c1",
            (-1.5, 3.0),
            &["r2c1", "r3c0", "r3c2", "r4c1"],
            &[("r2c1", "r1c1"), ("r3c2", "r3c3")],
        ),
        (
            "r3c2",
            (0.0, 3.0),
            &["r2c2", "r3c1", "r3c3", "r4c2"],
            &[("r2c2", "r1c2"), ("r3c1", "r3c0"), ("r3c3", "r3c4")],
        ),
        (
            "r3c3",
            (1.5, 3.0),
            &["r2c3", "r3c2", "r3c4", "r4c3"],
            &[("r2c3", "r1c3"), ("r3c2", "r3c1")],
        ),
        (
            "r3c4",
            (3.0, 3.0),
            &["r2c4", "r3c3", "r4c4"],
            &[("r2c4", "r1c4"), ("r3c3", "r3c2")],
        ),
        (
            "r4c0",
            (-4.0, 4.0),
            &["r3c0", "r4c1"],
            &[("r3c0", "r2c0"), ("r4c1", "r4c2")],
        ),
        (
            "r4c1",
            (-2.0, 4.0),
            &["r3c1", "r4c0", "r4c2"],
            &[("r3c1", "r2c1"), ("r4c2", "r4c3")],
        ),
        (
            "r4c2",
            (0.0, 4.0),
            &["r3c2", "r4c1", "r4c3"],
            &[("r3c2", "r2c2"), ("r4c1", "r4c0"), ("r4c3", "r4c4")],
        ),
        (
            "r4c3",
            (2.0, 4.0),
            &["r3c3", "r4c2", "r4c4"],
            &[("r3c3", "r2c3"), ("r4c2", "r4c1")],
        ),
        (
            "r4c4",
            (4.0, 4.0),
            &["r3c4", "r4c3"],
            &[("r3c4", "r2c4"), ("r4c3", "r4c2")],
        ),
    ];
    check_table(b, table);
}

#[test]
fn dd3_the_dogs_start_beside_the_board() {
    let s = Scenario::new(DEMALA);
    let b = &s.game().board;
    let dogs_on_board: u16 = b.playing_sites().map(|p| s.count(b.name(p), "prey")).sum();
    assert_eq!(dogs_on_board, 0, "no dog starts on the board");
    assert_eq!(s.count("prey-hand", "prey"), 15);
}

#[test]
fn dd4_the_sides_alternate_throughout_the_game() {
    // A whole game with moves picked by a fixed rule: every move hands the turn to the other side, in the
    // drop phase, after captures and after the drops alike.
    let mut s = Scenario::new(DEMALA);
    let mut ply = 0usize;
    let mut dog_steps = 0;
    let mut captures = 0;
    while s.winner() == "none" {
        let before = s.to_move().to_string();
        let moves = s.moves();
        let mv = moves[(ply * 7 + 3) % moves.len()].clone();
        let caps = s.var("captures", Some("hunter"));
        s.play(&mv);
        if before == "prey" && mv.contains('-') {
            dog_steps += 1;
        }
        if s.var("captures", Some("hunter")) > caps {
            captures += 1;
        }
        if s.winner() == "none" {
            let after = s.to_move();
            assert_ne!(after, before, "ply {ply}: `{mv}` did not pass the turn");
        }
        ply += 1;
        assert!(ply < 2000, "the game ends");
    }
    assert!(dog_steps > 0, "the game went past the drops");
    assert!(captures > 0, "the game had a capture");
}

#[test]
fn dd5_the_dogs_drop_one_per_turn_on_any_vacant_point() {
    let mut s = Scenario::new(DEMALA);
    // Every point but the leopards' three.
    let vacant = all_but(DEMALA, &["A", "r1c1", "r1c3"]);
    let mut want = vacant.clone();
    want.sort();
    assert_eq!(s.moves(), want);
    s.play("r2c2");
    assert_eq!(s.count("r2c2", "prey"), 1);
    assert_eq!(s.count("prey-hand", "prey"), 14, "one dog per turn");
    assert_eq!(s.to_move(), "hunter");
}

#[test]
fn dd5_no_dog_moves_before_all_fifteen_are_dropped() {
    let dogs = [
        "r1c0", "r1c4", "r2c0", "r2c1", "r2c3", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4", "r4c0",
        "r4c1", "r4c2", "r4c3",
    ];
    let mut s = Scenario::at(
        DEMALA,
        position(&["A", "r1c1", "r1c3"], &dogs, 1, "prey", 0),
    );
    // Many dogs have a vacant neighbour, but with one dog in hand the only moves are its drops.
    assert_eq!(s.moves(), sorted(&["r1c2", "r2c2", "r3c0", "r4c4"]));
    s.play("r4c4");
    assert_eq!(s.count("prey-hand", "prey"), 0);
    s.play("A-r1c2");
    // All fifteen are down: now the dogs step (DD-7).
    assert_eq!(
        s.moves(),
        sorted(&[
            "r1c0-A",
            "r1c4-A",
            "r2c1-r2c2",
            "r2c3-r2c2",
            "r3c2-r2c2",
            "r2c0-r3c0",
            "r3c1-r3c0",
            "r4c0-r3c0",
        ])
    );
}

/// Leopards on r2c2, r4c0, r4c4; dogs on r1c2 and r2c1 (13 in hand).
fn leap_position() -> Scenario {
    Scenario::at(
        DEMALA,
        position(
            &["r2c2", "r4c0", "r4c4"],
            &["r1c2", "r2c1"],
            13,
            "hunter",
            0,
        ),
    )
}

#[test]
fn dd6_a_leopard_steps_to_a_vacant_neighbour_or_leaps_a_dog() {
    let s = leap_position();
    assert_eq!(
        s.moves(),
        sorted(&[
            "r2c2-r2c3",
            "r2c2-r3c2",
            "r2c2xA",
            "r2c2xr2c0",
            "r4c0-r3c0",
            "r4c0-r4c1",
            "r4c4-r3c4",
            "r4c4-r4c3",
        ])
    );
    let mut s = s;
    s.play("r2c2-r3c2");
    assert_eq!(s.count("r3c2", "hunter"), 1);
    assert_eq!(s.count("r2c2", "hunter"), 0);
    assert_eq!(s.var("captures", Some("hunter")), 0);
}

#[test]
fn dd6_a_leap_along_a_ray_removes_the_dog() {
    let mut s = leap_position();
    s.play("r2c2xA");
    assert_eq!(s.count("r1c2", "prey"), 0, "the leapt dog is removed");
    assert_eq!(s.count("A", "hunter"), 1);
    assert_eq!(s.count("r2c2", "hunter"), 0);
    assert_eq!(s.count("r2c1", "prey"), 1, "only the leapt dog");
    assert_eq!(s.var("captures", Some("hunter")), 1);
}

#[test]
fn dd6_a_leap_along_a_level_removes_the_dog() {
    let mut s = leap_position();
    s.play("r2c2xr2c0");
    assert_eq!(s.count("r2c1", "prey"), 0, "the leapt dog is removed");
    assert_eq!(s.count("r2c0", "hunter"), 1);
    assert_eq!(s.count("r1c2", "prey"), 1, "only the leapt dog");
    assert_eq!(s.var("captures", Some("hunter")), 1);
}

#[test]
fn dd6_no_leap_onto_an_occupied_point_or_off_a_line() {
    // r1c0: A ends ray0 (nothing beyond it), r1c1 is blocked by the dog on r1c2, and r2c1 is not on a line
    // with r1c0.
    let dogs = ["A", "r1c1", "r1c2", "r2c1"];
    let s = Scenario::at(
        DEMALA,
        position(&["r1c0", "r4c0", "r4c4"], &dogs, 11, "hunter", 0),
    );
    assert_eq!(
        s.moves(),
        sorted(&[
            "r1c0-r2c0",
            "r4c0-r3c0",
            "r4c0-r4c1",
            "r4c4-r3c4",
            "r4c4-r4c3",
        ])
    );
    // With the landing point free, the same leap is legal.
    let s = Scenario::at(
        DEMALA,
        position(
            &["r1c0", "r4c0", "r4c4"],
            &["A", "r1c1", "r2c1"],
            12,
            "hunter",
            0,
        ),
    );
    assert!(s.can("r1c0xr1c2"));
}

#[test]
fn dd7_dogs_step_along_lines_and_never_capture() {
    // All fifteen down. Dogs on r1c0 and r1c4 stand next to leopards with the vacant r1c2 beyond, so a
    // capturing dog would have a leap; the dogs only step.
    let leopards = ["A", "r1c1", "r1c3"];
    let dogs = all_but(DEMALA, &["A", "r1c1", "r1c3", "r1c2", "r4c3", "r4c4"]);
    let dogs: Vec<&str> = dogs.iter().map(String::as_str).collect();
    assert_eq!(dogs.len(), 15);
    let mut s = Scenario::at(DEMALA, position(&leopards, &dogs, 0, "prey", 0));
    assert_eq!(
        s.moves(),
        sorted(&["r2c2-r1c2", "r3c3-r4c3", "r4c2-r4c3", "r3c4-r4c4"])
    );
    s.play("r2c2-r1c2");
    assert_eq!(s.count("r1c2", "prey"), 1);
    assert_eq!(s.count("r2c2", "prey"), 0);
    for l in leopards {
        assert_eq!(s.count(l, "hunter"), 1, "no leopard is taken");
    }
}

/// Leopards on r4c0, r4c1, r4c2 shut in by eight dogs: no step, and every leap lands on a dog.
const TRAP_DOGS: [&str; 8] = [
    "r3c0", "r3c1", "r3c2", "r4c3", "r2c0", "r2c1", "r2c2", "r4c4",
];
const TRAPPED: [&str; 3] = ["r4c0", "r4c1", "r4c2"];

#[test]
fn dd8_the_dogs_win_when_the_leopards_cannot_move() {
    let mut dogs = TRAP_DOGS.to_vec();
    dogs.extend(["r1c0", "r1c1", "r1c3", "r1c4", "r2c3", "r3c3", "r3c4"]);
    let s = Scenario::at(DEMALA, position(&TRAPPED, &dogs, 0, "hunter", 0));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    // Only the leopards' turn counts: with the dogs to move the game goes on.
    let s = Scenario::at(DEMALA, position(&TRAPPED, &dogs, 0, "prey", 0));
    assert_eq!(s.winner(), "none");
}

#[test]
fn dd8_a_dog_move_that_completes_the_trap_wins() {
    // As the trap above, but r4c4 is vacant (the leopard on r4c2 could leap r4c3) and the dog is on A.
    let mut dogs: Vec<&str> = TRAP_DOGS.iter().copied().filter(|&d| d != "r4c4").collect();
    dogs.extend(["A", "r1c0", "r1c1", "r1c3", "r1c4", "r2c3", "r3c3", "r3c4"]);
    let mut s = Scenario::at(DEMALA, position(&TRAPPED, &dogs, 0, "prey", 0));
    assert_eq!(s.winner(), "none");
    s.play("r3c4-r4c4");
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
    // Had the dogs moved elsewhere, the leopards would leap.
    let mut s = Scenario::at(DEMALA, position(&TRAPPED, &dogs, 0, "prey", 0));
    s.play("A-r1c2");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["r4c2xr4c4"]);
}

/// Eight dogs left; a leopard on A can take the dog on r1c2.
fn goal_position(ruleset: &str, captures: i64) -> Scenario {
    let dogs = [
        "r1c2", "r3c1", "r3c2", "r3c3", "r2c1", "r2c3", "r1c0", "r1c4",
    ];
    let on_board = dogs.len() as i64;
    let in_hand = (15 - captures - on_board) as u16;
    Scenario::at(
        ruleset,
        position(&["A", "r4c0", "r4c4"], &dogs, in_hand, "hunter", captures),
    )
}

#[test]
fn dd9_the_leopards_win_with_their_eighth_capture() {
    let mut s = goal_position(DEMALA, 7);
    assert_eq!(s.winner(), "none");
    s.play("Axr2c2");
    assert_eq!(s.var("captures", Some("hunter")), 8);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
}

#[test]
fn dd10_other_names_are_recorded_with_the_ruleset() {
    let c = compile(DEMALA);
    for name in ["Koti sellama", "Tamil leopards' game", "Rafaya", "chopping"] {
        assert!(
            c.info.description.contains(name),
            "the description names {name}"
        );
    }
    assert!(c.info.sources.iter().any(|s| s.contains("Parker")));
}

// ---------------------------------------------------------------------------------------------------------
// Questions: defaults and their delta files

#[test]
fn dd_q1_the_21_point_board_is_the_default_and_23_points_a_delta() {
    let demala = compile(DEMALA);
    let pj = compile(PULIJUDAM);
    assert_eq!(demala.game().board.playing_sites().count(), 21);
    assert_eq!(pj.game().board.playing_sites().count(), 23);
    // The delta changes the board and the start points, not the rules.
    assert_eq!(pj.info.chain.len(), 3, "{:?}", pj.info.chain);
    let names = |c: &keliya_rules::Compiled| -> Vec<String> {
        c.info.rules.iter().map(|r| r.name.clone()).collect()
    };
    assert_eq!(names(&demala), names(&pj));
    assert_eq!(demala.info.params, pj.info.params);
}

#[test]
fn dd_q1_render_shows_21_and_23_distinct_points() {
    // What `keliya render ... --format dot` draws: the on-board sites, each at its own place, and the edges.
    for (name, points, edges) in [(DEMALA, 21, 36), (PULIJUDAM, 23, 38)] {
        let c = compile(name);
        let b = &c.game().board;
        let sites: Vec<u16> = b.playing_sites().collect();
        assert_eq!(sites.len(), points, "{name}");
        let mut names: Vec<&str> = sites.iter().map(|&s| b.name(s)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), points, "{name}: distinct names");
        let mut at: Vec<(i64, i64)> = sites
            .iter()
            .map(|&s| {
                let (x, y) = b.at[s as usize];
                ((x * 1000.0).round() as i64, (y * 1000.0).round() as i64)
            })
            .collect();
        at.sort();
        at.dedup();
        assert_eq!(at.len(), points, "{name}: no two points drawn on one spot");
        let mut e: Vec<(u16, u16)> = b.edges.iter().map(|&(a, c)| (a.min(c), a.max(c))).collect();
        e.sort();
        e.dedup();
        assert_eq!(e.len(), edges, "{name}: distinct edges");
        assert!(
            b.edges
                .iter()
                .all(|&(a, c)| !b.offboard[a as usize] && !b.offboard[c as usize]),
            "{name}: edges join board points only"
        );
    }
}

#[test]
fn dd_q2_leopards_start_on_the_apex_and_beside_the_middle_ray() {
    let s = Scenario::new(DEMALA);
    let b = &s.game().board;
    let mut on: Vec<&str> = b
        .playing_sites()
        .filter(|&p| s.count(b.name(p), "hunter") == 1)
        .map(|p| b.name(p))
        .collect();
    on.sort();
    assert_eq!(on, ["A", "r1c1", "r1c3"]);
}

#[test]
fn dd_q2_delta_the_leopards_are_entered_one_per_turn() {
    let mut s = Scenario::new(ENTERED);
    let b = &s.game().board;
    assert!(
        b.playing_sites().all(|p| s.count(b.name(p), "hunter") == 0),
        "the board starts empty"
    );
    assert_eq!(s.count("hunter-hand", "hunter"), 3);
    assert_eq!(s.to_move(), "prey", "the dogs still go first");
    s.play("r2c2");
    // A leopard is placed on any vacant point: 20 of them.
    assert_eq!(s.moves().len(), 20);
    assert!(!s.can("r2c2"));
    s.play("A");
    s.play("r3c2");
    // One leopard is down, two wait: the leopard on A may not step yet.
    assert!(!s.can("A-r1c0"));
    assert!(
        s.moves()
            .iter()
            .all(|m| !m.contains('-') && !m.contains('x'))
    );
    s.play("r1c1");
    s.play("r4c4");
    s.play("r1c3");
    assert_eq!(s.count("hunter-hand", "hunter"), 0);
    s.play("r4c0");
    // All three are down, on the canonical start points: they step, and place no more.
    assert_eq!(
        s.moves(),
        sorted(&[
            "A-r1c0",
            "A-r1c2",
            "A-r1c4",
            "r1c1-r1c0",
            "r1c1-r1c2",
            "r1c1-r2c1",
            "r1c3-r1c2",
            "r1c3-r1c4",
            "r1c3-r2c3",
        ])
    );
}

#[test]
fn dd_q3_the_dogs_move_first() {
    let s = Scenario::new(DEMALA);
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.moves().len(), 18, "the dogs' first drop");
}

#[test]
fn dd_q3_delta_the_leopards_move_first() {
    let mut s = Scenario::new(LEOPARDS_FIRST);
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(
        s.moves(),
        sorted(&[
            "A-r1c0",
            "A-r1c2",
            "A-r1c4",
            "r1c1-r1c0",
            "r1c1-r1c2",
            "r1c1-r2c1",
            "r1c3-r1c2",
            "r1c3-r1c4",
            "r1c3-r2c3",
        ])
    );
    s.play("A-r1c2");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.moves().len(), 18, "then the dogs drop");
}

#[test]
fn dd_q4_seven_captures_do_not_win_by_default() {
    let mut s = goal_position(DEMALA, 6);
    s.play("Axr2c2");
    assert_eq!(s.var("captures", Some("hunter")), 7);
    assert_eq!(s.winner(), "none");
}

#[test]
fn dd_q4_delta_seven_captures_win() {
    let mut s = goal_position(SEVEN, 6);
    s.play("Axr2c2");
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
    let mut s = goal_position(SEVEN, 5);
    s.play("Axr2c2");
    assert_eq!(s.winner(), "none", "six are not enough");
}

#[test]
fn dd_q5_trapped_leopards_lose_in_the_drop_phase_too() {
    let s = Scenario::at(DEMALA, position(&TRAPPED, &TRAP_DOGS, 7, "hunter", 0));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
}

#[test]
fn dd_q5_delta_trapped_leopards_pass_until_the_drops_are_done() {
    let mut s = Scenario::at(
        TRAP_AFTER_DROPS,
        position(&TRAPPED, &TRAP_DOGS, 7, "hunter", 0),
    );
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.count("prey-hand", "prey"), 7);
    // Once the last dog is down, the trap wins as in the default.
    let mut dogs = TRAP_DOGS.to_vec();
    dogs.extend(["r1c0", "r1c1", "r1c3", "r1c4", "r2c3", "r3c3", "r3c4"]);
    let s = Scenario::at(TRAP_AFTER_DROPS, position(&TRAPPED, &dogs, 0, "hunter", 0));
    assert_eq!(s.winner(), "prey");
    assert_eq!(s.ended_by(), "hunters-trapped");
}

/// All dogs down and none can move: the three vacant points r3c4, r4c3, r4c4 touch only leopards.
fn blocked_dogs(ruleset: &str) -> Scenario {
    let leopards = ["r3c3", "r4c2", "r2c4"];
    let dogs = all_but(DEMALA, &["r3c3", "r4c2", "r2c4", "r3c4", "r4c3", "r4c4"]);
    let dogs: Vec<&str> = dogs.iter().map(String::as_str).collect();
    assert_eq!(dogs.len(), 15);
    Scenario::at(ruleset, position(&leopards, &dogs, 0, "prey", 0))
}

#[test]
fn dd_q6_dogs_that_cannot_move_pass() {
    let mut s = blocked_dogs(DEMALA);
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "hunter");
    assert_eq!(
        s.moves(),
        sorted(&["r3c3-r3c4", "r3c3-r4c3", "r4c2-r4c3", "r2c4-r3c4"])
    );
}

#[test]
fn dd_q6_delta_dogs_that_cannot_move_lose() {
    let s = blocked_dogs(DOGS_BLOCKED_LOSE);
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "prey-blocked");
    // During the drops the dogs always have a drop, so the game starts normally.
    let s = Scenario::new(DOGS_BLOCKED_LOSE);
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves().len(), 18);
}

/// All dogs down; the leopards on A, r1c1, r1c3 and the dogs can shuffle without any leap.
fn quiet_position(to_move: &str) -> serde_json::Value {
    let dogs = all_but(DEMALA, &["A", "r1c1", "r1c3", "r1c2", "r4c3", "r4c4"]);
    let dogs: Vec<&str> = dogs.iter().map(String::as_str).collect();
    position(&["A", "r1c1", "r1c3"], &dogs, 0, to_move, 0)
}

#[test]
fn dd_q7_the_draw_caps_are_those_of_the_library() {
    let c = compile(DEMALA);
    let caps = &c.game().caps;
    assert_eq!(caps.repetition, Some(3));
    assert_eq!(caps.no_capture_turns, Some(100));
    assert_eq!(caps.max_turns, Some(1000));
}

#[test]
fn dd_q7_draw_by_threefold_repetition() {
    let mut s = Scenario::at(DEMALA, quiet_position("hunter"));
    assert_eq!(
        s.moves(),
        sorted(&["A-r1c2", "r1c1-r1c2", "r1c3-r1c2"]),
        "no leap anywhere"
    );
    s.play("A-r1c2")
        .play("r3c4-r4c4")
        .play("r1c2-A")
        .play("r4c4-r3c4");
    assert_eq!(s.winner(), "none", "the start position has occurred twice");
    s.play("A-r1c2").play("r3c4-r4c4").play("r1c2-A");
    assert_eq!(s.winner(), "none");
    s.play("r4c4-r3c4");
    assert_eq!(s.winner(), "draw", "third occurrence");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn dd_q7_draw_after_one_hundred_turns_without_a_capture() {
    let mut st = quiet_position("hunter");
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(DEMALA, st);
    assert_eq!(s.winner(), "none");
    s.play("A-r1c2");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:no_capture_turns");
}

#[test]
fn dd_q7_the_quiet_count_starts_once_all_dogs_are_placed() {
    // Fifteen dogs: fourteen on the board, one in hand; the last drop restarts the count.
    let dogs = all_but(
        DEMALA,
        &["A", "r1c1", "r1c3", "r1c2", "r4c3", "r4c4", "r4c2"],
    );
    let dogs: Vec<&str> = dogs.iter().map(String::as_str).collect();
    let mut st = position(&["A", "r1c1", "r1c3"], &dogs, 1, "prey", 0);
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(DEMALA, st);
    s.play("r4c2");
    assert_eq!(s.winner(), "none", "the fifteenth drop is not a quiet turn");
    assert_eq!(s.state.quiet_turns, 0);
}

#[test]
fn dd_q7_a_capture_resets_the_quiet_count() {
    let mut st = position(
        &["r2c2", "r4c0", "r4c4"],
        &["r1c2", "r2c1"],
        13,
        "hunter",
        0,
    );
    st["quiet_turns"] = json!(99);
    let mut s = Scenario::at(DEMALA, st);
    s.play("r2c2xA");
    assert_eq!(s.winner(), "none");
    assert_eq!(s.state.quiet_turns, 0);
}

#[test]
fn dd_q7_draw_at_the_turn_cap() {
    let mut st = quiet_position("hunter");
    st["turn"] = json!(999);
    let mut s = Scenario::at(DEMALA, st);
    assert_eq!(s.winner(), "none");
    s.play("A-r1c2");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:max_turns");
}

#[test]
fn dd_q8_one_leap_per_turn() {
    // After A x r1c2 the leopard on r2c2 could leap the dog on r3c2 at once; the turn passes instead.
    let mut s = Scenario::at(
        DEMALA,
        position(&["A", "r4c0", "r4c4"], &["r1c2", "r3c2"], 13, "hunter", 0),
    );
    s.play("Axr2c2");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.count("r3c2", "prey"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    // The second leap is there on the leopards' next turn.
    s.play("r1c0");
    assert!(s.can("r2c2xr4c2"));
}

/// The capturing moves of a position: single leaps (`AxB`) and chains (`AxBxC`).
fn captures_offered(s: &Scenario) -> Vec<String> {
    s.moves().into_iter().filter(|m| m.contains('x')).collect()
}

#[test]
fn dd_q8_delta_a_leopard_may_chain_leaps() {
    // DD-Q8 (alternative). The leopard on r2c2 has two first leaps (over r3c2, over r2c3) and then dogs to
    // leap on r4c1, r4c3 and r3c4; the leopards on r1c0 and r1c4 have none. Each chain is one move; a chain
    // may cross or end on a point it has emptied, its own start r2c2 included, and never leaps a dog twice.
    let mut s = Scenario::at(
        LEAP_CHAINS,
        position(
            &["r2c2", "r1c0", "r1c4"],
            &["r3c2", "r2c3", "r4c1", "r4c3", "r3c4"],
            10,
            "hunter",
            0,
        ),
    );
    assert_eq!(
        captures_offered(&s),
        sorted(&[
            "r2c2xr2c4xr4c4",
            "r2c2xr4c2xr4c0",
            "r2c2xr4c2xr4c4",
            "r2c2xr2c4xr4c4xr4c2",
            "r2c2xr4c2xr4c4xr2c4",
            "r2c2xr2c4xr4c4xr4c2xr2c2",
            "r2c2xr2c4xr4c4xr4c2xr4c0",
            "r2c2xr4c2xr4c4xr2c4xr2c2",
            "r2c2xr2c4",
            "r2c2xr4c2",
        ])
    );
    // Steps stay legal beside them (capture is optional, DD-Q9).
    assert!(s.can("r2c2-r2c1") && s.can("r1c0-A"));
    // The longest chain, back to its starting point: four dogs go in one move, then the dogs move. It is
    // written by its landing points; the long form, the rule's name and every choice, names it too.
    let parse = |text: &str| s.game().parse_move(&s.state, text).unwrap();
    let long = "hunter-chain r2c2 4 r3c2 r4c2 r4c3 r4c4 r3c4 r2c4 r2c3 r2c2";
    assert!(parse(long).is_some());
    assert_eq!(parse(long), parse("r2c2xr4c2xr4c4xr2c4xr2c2"));
    s.play(long);
    assert_eq!(s.count("r2c2", "hunter"), 1);
    assert_eq!(s.var("captures", Some("hunter")), 4);
    for dog in ["r3c2", "r4c3", "r3c4", "r2c3"] {
        assert_eq!(s.count(dog, "prey"), 0, "{dog} was leapt");
    }
    assert_eq!(s.count("r4c1", "prey"), 1, "the dog off the chain stays");
    assert_eq!(s.to_move(), "prey", "the chain is the whole turn (DD-4)");
}

#[test]
fn dd_q8_delta_the_chain_may_stop_after_any_leap() {
    // DD-Q8 (alternative), on the position of dd_q8_one_leap_per_turn with a dog on r4c3 added: A may leap
    // r1c2 and go on over r3c2, or stop on r2c2; r4c4 may leap r4c3 and go on over r3c2 (the other way),
    // or stop on r4c2. Only the leopard that leapt goes on: no chain passes from one leopard to another.
    let s = Scenario::at(
        LEAP_CHAINS,
        position(
            &["A", "r4c0", "r4c4"],
            &["r1c2", "r3c2", "r4c3"],
            12,
            "hunter",
            0,
        ),
    );
    assert_eq!(
        captures_offered(&s),
        sorted(&["Axr2c2", "Axr2c2xr4c2", "r4c4xr4c2xr2c2", "r4c4xr4c2",])
    );
    // Stopping after the first leap ends the turn with the second dog still there.
    let mut stop = s;
    stop.play("Axr2c2");
    assert_eq!(stop.to_move(), "prey");
    assert_eq!(stop.count("r2c2", "hunter"), 1);
    assert_eq!(stop.count("r3c2", "prey"), 1);
    assert_eq!(stop.var("captures", Some("hunter")), 1);
    // Going on takes both dogs in the same turn; like any capture, it starts the quiet count again (DD-Q7).
    let mut st = position(
        &["A", "r4c0", "r4c4"],
        &["r1c2", "r3c2", "r4c3"],
        12,
        "hunter",
        0,
    );
    st["quiet_turns"] = json!(50);
    let mut chain = Scenario::at(LEAP_CHAINS, st);
    chain.play("Axr2c2xr4c2");
    assert_eq!(chain.state.quiet_turns, 0);
    assert_eq!(chain.to_move(), "prey");
    assert_eq!(chain.count("r4c2", "hunter"), 1);
    assert_eq!(chain.count("r1c2", "prey") + chain.count("r3c2", "prey"), 0);
    assert_eq!(chain.count("r4c3", "prey"), 1);
    assert_eq!(chain.var("captures", Some("hunter")), 2);
}

#[test]
fn dd_q8_delta_a_chain_can_reach_the_winning_capture() {
    // DD-Q8 (alternative) with DD-9: six captures made, a two-leap chain makes the eighth and wins.
    let mut s = Scenario::at(
        LEAP_CHAINS,
        position(&["A", "r4c0", "r4c4"], &["r1c2", "r3c2"], 7, "hunter", 6),
    );
    s.play("Axr2c2xr4c2");
    assert_eq!(s.winner(), "hunter");
    assert_eq!(s.ended_by(), "capture-goal");
}

/// Leap chains on the 23-point board: `leap-chains.yaml` laid over `pulijudam-23` instead of the default
/// board, written to a temporary file.
fn leap_chains_on_23_points() -> String {
    let text = std::fs::read_to_string(
        keliya_tests::root()
            .join("rulesets")
            .join(format!("{LEAP_CHAINS}.yaml")),
    )
    .expect("leap-chains.yaml");
    let delta = text.replace(
        "\nextends: demala-diviyan-keliya\n",
        &format!("\nextends: {PULIJUDAM}\n"),
    );
    assert_ne!(delta, text, "the file's `extends` was found");
    let dir = std::env::temp_dir().join(format!("keliya-demala-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("leap-chains-23.yaml");
    std::fs::write(&path, delta).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn dd_q8_delta_no_two_moves_are_written_alike() {
    // DD-Q8 (alternative): a chain is written by its landing points only (`r2c2xr4c2xr4c4`). That names
    // one path because a leap's dog is the point between its ends on their one line, on either board.
    // Checked on many positions with dogs packed around the leopards: every legal move of each has its own
    // notation, and that notation plays that move.
    for (ruleset, size) in [
        (LEAP_CHAINS.to_string(), 21),
        (leap_chains_on_23_points(), 23),
    ] {
        let points = all_but(&ruleset, &[]);
        assert_eq!(points.len(), size, "{ruleset}");
        // A fixed xorshift sequence: the same positions every run.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut chains, mut longest) = (0, 0);
        for _ in 0..300 {
            // From 6 dogs to all but three of the points the leopards leave.
            let dogs = 6 + next(points.len() - 3 - 8);
            let mut free = points.clone();
            let mut take = |k: usize, free: &mut Vec<String>| -> Vec<String> {
                (0..k).map(|_| free.swap_remove(next(free.len()))).collect()
            };
            let hunters = take(3, &mut free);
            let prey = take(dogs, &mut free);
            let hunters: Vec<&str> = hunters.iter().map(String::as_str).collect();
            let prey: Vec<&str> = prey.iter().map(String::as_str).collect();
            let s = Scenario::at(&ruleset, position(&hunters, &prey, 0, "hunter", 0));
            let game = s.game();
            let moves = game.legal_moves(&s.state).unwrap();
            let mut seen = std::collections::HashMap::new();
            for mv in &moves {
                let text = game.notation(mv);
                let leaps = text.matches('x').count();
                if leaps >= 2 {
                    chains += 1;
                    longest = longest.max(leaps);
                }
                if let Some(other) = seen.insert(text.clone(), mv.clone()) {
                    panic!("{ruleset}: `{text}` writes two moves: {other:?} and {mv:?}");
                }
                assert_eq!(
                    game.parse_move(&s.state, &text).unwrap().as_ref(),
                    Some(mv),
                    "{text}"
                );
            }
        }
        assert!(
            chains > 100 && longest >= 3,
            "{ruleset}: {chains} chains, longest {longest} leaps"
        );
    }
}

#[test]
fn dd_q9_capturing_is_not_compulsory() {
    let mut s = leap_position();
    assert!(s.can("r2c2xA") && s.can("r2c2xr2c0"));
    s.play("r4c0-r4c1");
    assert_eq!(s.to_move(), "prey");
    assert_eq!(s.count("r1c2", "prey") + s.count("r2c1", "prey"), 2);
}

#[test]
fn dd_q9_delta_a_capture_is_compulsory() {
    // DD-Q9 (alternative), on the position of dd_q9_capturing_is_not_compulsory (13 dogs still to drop):
    // the two leaps are the only moves, for every leopard; no step, not even of another leopard.
    let mut s = Scenario::at(
        COMPULSORY,
        position(
            &["r2c2", "r4c0", "r4c4"],
            &["r1c2", "r2c1"],
            13,
            "hunter",
            0,
        ),
    );
    assert_eq!(s.moves(), sorted(&["r2c2xA", "r2c2xr2c0"]));
    assert!(!s.can("r4c0-r4c1"));
    s.play("r2c2xA");
    assert_eq!(s.count("r1c2", "prey"), 0);
    assert_eq!(s.var("captures", Some("hunter")), 1);
    assert_eq!(s.to_move(), "prey");
    // A leap of another leopard is as good as any: with a second leap elsewhere, both leaps are offered.
    let s = Scenario::at(
        COMPULSORY,
        position(
            &["r2c2", "r4c0", "r4c4"],
            &["r1c2", "r4c3"],
            13,
            "hunter",
            0,
        ),
    );
    assert_eq!(s.moves(), sorted(&["r2c2xA", "r4c4xr4c2"]));
}

#[test]
fn dd_q9_delta_steps_are_legal_when_no_leap_is() {
    // DD-Q9 (alternative): a dog beside r2c2 that cannot be leapt (A is taken) compels nothing; every step
    // is legal, as in the canonical game.
    let here = position(&["r2c2", "r4c0", "r4c4"], &["A", "r1c2"], 13, "hunter", 0);
    let mut s = Scenario::at(COMPULSORY, here.clone());
    let steps = sorted(&[
        "r2c2-r2c1",
        "r2c2-r2c3",
        "r2c2-r3c2",
        "r4c0-r3c0",
        "r4c0-r4c1",
        "r4c4-r3c4",
        "r4c4-r4c3",
    ]);
    assert_eq!(s.moves(), steps);
    assert_eq!(Scenario::at(DEMALA, here).moves(), steps);
    // Once a dog stands where it can be leapt, the step is gone again.
    s.play("r4c0-r4c1").play("r4c2");
    assert_eq!(s.moves(), sorted(&["r4c1xr4c3"]));
}

#[test]
fn dd_q10_no_leap_over_a_leopard() {
    // r1c1 and r1c2 are neighbours on level 1 with r1c0 and r1c3 vacant: neither may leap the other.
    let s = Scenario::at(
        DEMALA,
        position(&["r1c1", "r1c2", "r4c4"], &[], 15, "hunter", 0),
    );
    assert_eq!(
        s.moves(),
        sorted(&[
            "r1c1-A",
            "r1c1-r1c0",
            "r1c1-r2c1",
            "r1c2-A",
            "r1c2-r1c3",
            "r1c2-r2c2",
            "r4c4-r3c4",
            "r4c4-r4c3",
        ])
    );
    // A dog in the same place is leapt.
    let s = Scenario::at(
        DEMALA,
        position(&["r1c1", "r2c2", "r4c4"], &["r1c2"], 14, "hunter", 0),
    );
    assert!(s.can("r1c1xr1c3"));
}

// ---------------------------------------------------------------------------------------------------------
// The 23-point board

#[test]
fn pulijudam_23_board_with_its_lines_and_leaps() {
    let c = compile(PULIJUDAM);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 23);
    assert_eq!(b.edges.len(), 38);
    let leaps: usize = b.playing_sites().map(|s| b.leaps(s).len()).sum();
    assert_eq!(leaps, 56);
    assert_eq!(
        lines(b),
        expect_lines(&[
            &["1A", "2B", "3B", "4B", "5A"],
            &["1A", "2C", "3C", "4C", "5B"],
            &["1A", "2D", "3D", "4D", "5C"],
            &["1A", "2E", "3E", "4E", "5D"],
            &["2A", "2B", "2C", "2D", "2E", "2F"],
            &["3A", "3B", "3C", "3D", "3E", "3F"],
            &["4A", "4B", "4C", "4D", "4E", "4F"],
            &["5A", "5B", "5C", "5D"],
            &["2A", "3A", "4A"],
            &["2F", "3F", "4F"],
        ])
    );
    let third = 1.0 / 3.0;
    let table: &[Row<'_>] = &[
        (
            "1A",
            (0.0, 0.0),
            &["2B", "2C", "2D", "2E"],
            &[("2B", "3B"), ("2C", "3C"), ("2D", "3D"), ("2E", "3E")],
        ),
        (
            "2A",
            (-4.0, 1.0),
            &["2B", "3A"],
            &[("2B", "2C"), ("3A", "4A")],
        ),
        (
            "2B",
            (-1.0, 1.0),
            &["1A", "2A", "2C", "3B"],
            &[("2C", "2D"), ("3B", "4B")],
        ),
        (
            "2C",
            (-third, 1.0),
            &["1A", "2B", "2D", "3C"],
            &[("2B", "2A"), ("2D", "2E"), ("3C", "4C")],
        ),
        (
            "2D",
            (third, 1.0),
            &["1A", "2C", "2E", "3D"],
            &[("2C", "2B"), ("2E", "2F"), ("3D", "4D")],
        ),
        (
            "2E",
            (1.0, 1.0),
            &["1A", "2D", "2F", "3E"],
            &[("2D", "2C"), ("3E", "4E")],
        ),
        (
            "2F",
            (4.0, 1.0),
            &["2E", "3F"],
            &[("2E", "2D"), ("3F", "4F")],
        ),
        ("3A", (-4.0, 2.0), &["2A", "3B", "4A"], &[("3B", "3C")]),
        (
            "3B",
            (-2.0, 2.0),
            &["2B", "3A", "3C", "4B"],
            &[("2B", "1A"), ("3C", "3D"), ("4B", "5A")],
        ),
        (
            "3C",
            (-2.0 * third, 2.0),
            &["2C", "3B", "3D", "4C"],
            &[("2C", "1A"), ("3B", "3A"), ("3D", "3E"), ("4C", "5B")],
        ),
        (
            "3D",
            (2.0 * third, 2.0),
            &["2D", "3C", "3E", "4D"],
            &[("2D", "1A"), ("3C", "3B"), ("3E", "3F"), ("4D", "5C")],
        ),
        (
            "3E",
            (2.0, 2.0),
            &["2E", "3D", "3F", "4E"],
            &[("2E", "1A"), ("3D", "3C"), ("4E", "5D")],
        ),
        ("3F", (4.0, 2.0), &["2F", "3E", "4F"], &[("3E", "3D")]),
        (
            "4A",
            (-4.0, 3.0),
            &["3A", "4B"],
            &[("3A", "2A"), ("4B", "4C")],
        ),
        (
            "4B",
            (-3.0, 3.0),
            &["3B", "4A", "4C", "5A"],
            &[("3B", "2B"), ("4C", "4D")],
        ),
        (
            "4C",
            (-1.0, 3.0),
            &["3C", "4B", "4D", "5B"],
            &[("3C", "2C"), ("4B", "4A"), ("4D", "4E")],
        ),
        (
            "4D",
            (1.0, 3.0),
            &["3D", "4C", "4E", "5C"],
            &[("3D", "2D"), ("4C", "4B"), ("4E", "4F")],
        ),
        (
            "4E",
            (3.0, 3.0),
            &["3E", "4D", "4F", "5D"],
            &[("3E", "2E"), ("4D", "4C")],
        ),
        (
            "4F",
            (4.0, 3.0),
            &["3F", "4E"],
            &[("3F", "2F"), ("4E", "4D")],
        ),
        (
            "5A",
            (-4.0, 4.0),
            &["4B", "5B"],
            &[("4B", "3B"), ("5B", "5C")],
        ),
        (
            "5B",
            (-4.0 * third, 4.0),
            &["4C", "5A", "5C"],
            &[("4C", "3C"), ("5C", "5D")],
        ),
        (
            "5C",
            (4.0 * third, 4.0),
            &["4D", "5B", "5D"],
            &[("4D", "3D"), ("5B", "5A")],
        ),
        (
            "5D",
            (4.0, 4.0),
            &["4E", "5C"],
            &[("4E", "3E"), ("5C", "5B")],
        ),
    ];
    check_table(b, table);
}

#[test]
fn pulijudam_23_leopards_start_on_1a_2c_2d_and_the_rules_are_demalas() {
    let mut s = Scenario::new(PULIJUDAM);
    let b = &s.game().board;
    let mut on: Vec<&str> = b
        .playing_sites()
        .filter(|&p| s.count(b.name(p), "hunter") == 1)
        .map(|p| b.name(p))
        .collect();
    on.sort();
    assert_eq!(on, ["1A", "2C", "2D"]);
    assert_eq!(s.count("prey-hand", "prey"), 15);
    assert_eq!(s.to_move(), "prey");
    assert_eq!(
        s.moves().len(),
        20,
        "a dog drops on any of the 20 vacant points"
    );
    assert_eq!(s.game().caps.no_capture_turns, Some(100));
    s.play("3C");
    // 2C leaps the dog along its diagonal onto 4C.
    assert!(s.can("2Cx4C"));
    s.play("2Cx4C");
    assert_eq!(s.count("3C", "prey"), 0);
    assert_eq!(s.var("captures", Some("hunter")), 1);
}

#[test]
fn pulijudam_23_leaps_on_the_uprights_and_no_join_between_4a_and_5a() {
    // 2A leaps the dog on 3A down the left upright; 5A, just below the vacant 4A, has no line to it.
    let s = Scenario::at(
        PULIJUDAM,
        position(&["2A", "5A", "5D"], &["3A", "4B", "5B"], 12, "hunter", 0),
    );
    assert_eq!(
        s.moves(),
        sorted(&["2A-2B", "2Ax4A", "5Ax3B", "5Ax5C", "5D-4E", "5D-5C"])
    );
}

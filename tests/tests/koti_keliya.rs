//! Koti Keliya: one scenario test (or more) per rule of `docs/rules/koti-keliya.md` (KK-1 .. KK-9,
//! KK-Q1 .. KK-Q4).

use keliya_tests::{Scenario, check_rule_rows, compile};
use serde_json::json;

const KOTI: &str = "koti-keliya";
const CATTLE_FIRST: &str = "koti-keliya/cattle-first";
const HOME_RANK: &str = "koti-keliya/home-rank";
const CATTLE_SIDE: [&str; 6] = ["r1c2", "r1c4", "r1c6", "r1c8", "r1c10", "r1c12"];

/// The rank of a square `r{rank}c{column}`.
fn rank(square: &str) -> i64 {
    square[1..square.find('c').expect("a square")]
        .parse()
        .expect("a rank")
}

/// A position: the leopard on `leopard` (or beside the board), the cattle on `cattle`, `to_move` to play;
/// the ranks the moves keep are worked out from the squares.
fn position(leopard: Option<&str>, cattle: &[&str], to_move: &str) -> serde_json::Value {
    let mut sites = serde_json::Map::new();
    for c in cattle {
        sites.insert(c.to_string(), json!({"cattle": 1}));
    }
    match leopard {
        Some(l) => {
            assert!(!sites.contains_key(l), "{l} given twice");
            sites.insert(l.to_string(), json!({"leopard": 1}));
        }
        None => {
            sites.insert("leopard-hand".into(), json!({"leopard": 1}));
        }
    }
    let rear = cattle.iter().map(|c| rank(c)).min().unwrap_or(12);
    json!({
        "to_move": to_move,
        "sites": sites,
        "vars": {"leopard_rank": leopard.map_or(0, rank), "cattle_rear": rear},
    })
}

/// The moves of the piece on `square`.
fn moves_from(s: &Scenario, square: &str) -> Vec<String> {
    s.moves()
        .into_iter()
        .filter(|m| m.starts_with(&format!("{square}-")))
        .collect()
}

#[test]
fn kk1_one_leopard_against_six_cattle() {
    let s = Scenario::new(KOTI);
    let cattle: u16 = CATTLE_SIDE.iter().map(|c| s.count(c, "cattle")).sum();
    assert_eq!(cattle, 6);
    assert_eq!(s.count("leopard-hand", "leopard"), 1);
    assert_eq!(s.displays(), ["leopard", "cattle"]);
}

#[test]
fn kk2_the_72_squares_of_one_colour_joined_diagonally() {
    let c = compile(KOTI);
    let b = &c.game().board;
    assert_eq!(b.playing_sites().count(), 72);
    for s in b.playing_sites() {
        let name = b.name(s);
        let col: i64 = name[name.find('c').unwrap() + 1..].parse().unwrap();
        assert_eq!((rank(name) + col) % 2, 1, "{name} is of the playing colour");
    }
    // Eleven diagonal joins between each pair of neighbouring ranks, and nothing else.
    assert_eq!(b.edges.len(), 11 * 11);
    let neighbours = |p: &str| {
        let mut n: Vec<&str> = b
            .neighbours(b.site(p).unwrap())
            .iter()
            .map(|&n| b.name(n))
            .collect();
        n.sort();
        n
    };
    assert_eq!(neighbours("r1c12"), ["r2c11"]);
    assert_eq!(neighbours("r2c1"), ["r1c2", "r3c2"]);
    assert_eq!(neighbours("r5c6"), ["r4c5", "r4c7", "r6c5", "r6c7"]);
    // The two-square moves run straight along the diagonals.
    let mut leaps: Vec<(&str, &str)> = b
        .leaps(b.site("r5c6").unwrap())
        .iter()
        .map(|&(o, l)| (b.name(o), b.name(l)))
        .collect();
    leaps.sort();
    assert_eq!(
        leaps,
        [
            ("r4c5", "r3c4"),
            ("r4c7", "r3c8"),
            ("r6c5", "r7c4"),
            ("r6c7", "r7c8")
        ]
    );
}

#[test]
fn kk3_the_cattle_start_on_their_side_and_the_leopard_beside_the_board() {
    let s = Scenario::new(KOTI);
    for c in CATTLE_SIDE {
        assert_eq!(s.count(c, "cattle"), 1, "{c}");
    }
    let g = s.game();
    let on_board: u16 = g
        .board
        .playing_sites()
        .map(|p| s.count(g.board.name(p), "leopard"))
        .sum();
    assert_eq!(on_board, 0);
    assert_eq!(s.count("leopard-hand", "leopard"), 1);
}

#[test]
fn kk4_the_leopard_is_put_down_first_on_any_vacant_square() {
    let mut s = Scenario::new(KOTI);
    assert_eq!(s.to_move(), "leopard");
    let m = s.moves();
    assert_eq!(m.len(), 72 - 6, "every vacant square: {m:?}");
    assert!(!s.can("r1c2"), "not on a cow");
    assert!(s.can("r12c11") && s.can("r2c1"));
    s.play("r7c6");
    assert_eq!(s.count("r7c6", "leopard"), 1);
    assert_eq!(s.count("leopard-hand", "leopard"), 0);
    assert_eq!(s.to_move(), "cattle");
    s.play("r1c2-r2c3");
    assert_eq!(s.to_move(), "leopard");
    assert!(
        s.moves().iter().all(|m| m.starts_with("r7c6-")),
        "once down, the leopard moves"
    );
}

#[test]
fn kk5_a_cow_steps_only_diagonally_forward() {
    let s = Scenario::at(
        KOTI,
        position(
            Some("r9c6"),
            &["r5c6", "r4c1", "r1c12", "r2c11", "r6c9", "r7c10"],
            "cattle",
        ),
    );
    assert_eq!(moves_from(&s, "r5c6"), ["r5c6-r6c5", "r5c6-r6c7"]);
    assert_eq!(moves_from(&s, "r4c1"), ["r4c1-r5c2"], "the board's edge");
    assert_eq!(
        moves_from(&s, "r1c12"),
        Vec::<String>::new(),
        "its one forward square is taken by a cow"
    );
    assert_eq!(
        moves_from(&s, "r6c9"),
        ["r6c9-r7c8"],
        "r7c10 is taken; never back to rank 5"
    );
    assert_eq!(s.moves().len(), 2 + 1 + 2 + 1 + 2);
}

#[test]
fn kk6_the_leopard_moves_one_or_two_squares_along_a_diagonal() {
    let s = Scenario::at(KOTI, position(Some("r6c5"), &CATTLE_SIDE, "leopard"));
    assert_eq!(
        s.moves(),
        [
            "r6c5-r4c3",
            "r6c5-r4c7",
            "r6c5-r5c4",
            "r6c5-r5c6",
            "r6c5-r7c4",
            "r6c5-r7c6",
            "r6c5-r8c3",
            "r6c5-r8c7"
        ]
    );
    // Never over a cow, and never onto one.
    let s = Scenario::at(
        KOTI,
        position(
            Some("r6c5"),
            &["r5c4", "r4c7", "r1c6", "r1c8", "r1c10", "r1c12"],
            "leopard",
        ),
    );
    let m = s.moves();
    assert!(
        !m.contains(&"r6c5-r4c3".to_string()),
        "over the cow on r5c4"
    );
    assert!(!m.contains(&"r6c5-r5c4".to_string()), "onto a cow");
    assert!(!m.contains(&"r6c5-r4c7".to_string()), "onto a cow");
    assert!(m.contains(&"r6c5-r5c6".to_string()));
    assert_eq!(m.len(), 5);
    // Two squares only along one diagonal: no bend, no third square.
    let s = Scenario::at(
        KOTI,
        position(
            Some("r1c2"),
            &["r1c4", "r1c6", "r1c8", "r1c10", "r1c12", "r7c10"],
            "leopard",
        ),
    );
    assert_eq!(s.moves(), ["r1c2-r2c1", "r1c2-r2c3", "r1c2-r3c4"]);
}

#[test]
fn kk7_nothing_is_ever_captured() {
    // The leopard beside a cow with the square beyond vacant, as a capture would need.
    let s = Scenario::at(
        KOTI,
        position(
            Some("r6c5"),
            &["r5c6", "r1c4", "r1c6", "r1c8", "r1c10", "r1c12"],
            "leopard",
        ),
    );
    assert!(!s.can("r6c5-r4c7"), "no leap over the cow");
    for m in s.moves() {
        let mut t = Scenario::at(
            KOTI,
            position(
                Some("r6c5"),
                &["r5c6", "r1c4", "r1c6", "r1c8", "r1c10", "r1c12"],
                "leopard",
            ),
        );
        t.play(&m);
        assert_eq!(t.count("r5c6", "cattle"), 1, "{m} leaves the cow");
    }
    // A cow cannot take the leopard either: its square is simply barred.
    let s = Scenario::at(
        KOTI,
        position(
            Some("r7c6"),
            &["r6c5", "r1c4", "r1c6", "r1c8", "r1c10", "r6c7"],
            "cattle",
        ),
    );
    assert_eq!(moves_from(&s, "r6c5"), ["r6c5-r7c4"]);
    assert_eq!(moves_from(&s, "r6c7"), ["r6c7-r7c8"]);
}

#[test]
fn kk8_the_leopard_wins_when_it_is_behind_the_rearmost_cow() {
    let cattle = ["r4c1", "r4c3", "r4c5", "r5c8", "r5c10", "r6c11"];
    // On the rank of the rearmost cow the leopard has not got through.
    let mut s = Scenario::at(KOTI, position(Some("r5c6"), &cattle, "leopard"));
    s.play("r5c6-r4c7");
    assert_eq!(s.winner(), "none", "rank 4 is the rearmost cow's rank");
    let mut s = Scenario::at(KOTI, position(Some("r5c6"), &cattle, "leopard"));
    s.play("r5c6-r3c8");
    assert_eq!(s.winner(), "leopard");
    assert_eq!(s.ended_by(), "leopard-through");
    // The cattle's own advance can leave the leopard behind them.
    let cattle = ["r4c1", "r5c4", "r5c6", "r5c8", "r5c10", "r6c11"];
    let mut s = Scenario::at(KOTI, position(Some("r4c9"), &cattle, "cattle"));
    assert_eq!(s.winner(), "none");
    s.play("r4c1-r5c2");
    assert_eq!(s.winner(), "leopard");
}

#[test]
fn kk9_the_cattle_win_when_the_leopard_cannot_move() {
    // The leopard in the corner r12c1: its one square r11c2 (and the line beyond it) closed by a cow.
    let cattle = ["r10c1", "r9c2", "r9c4", "r10c5", "r10c7", "r10c9"];
    let mut s = Scenario::at(KOTI, position(Some("r12c1"), &cattle, "cattle"));
    assert_eq!(s.winner(), "none");
    s.play("r10c1-r11c2");
    assert_eq!(s.to_move(), "leopard");
    assert_eq!(s.winner(), "cattle");
    assert_eq!(s.ended_by(), "leopard-shut-in");
}

#[test]
fn kk_q1_the_leopard_is_put_down_first_and_the_cattle_first_is_a_delta() {
    let s = Scenario::new(KOTI);
    assert_eq!(s.to_move(), "leopard");
    let mut s = Scenario::new(CATTLE_FIRST);
    assert_eq!(s.to_move(), "cattle");
    assert_eq!(s.moves().len(), 11, "six cows, eleven forward squares");
    s.play("r1c12-r2c11");
    assert_eq!(s.to_move(), "leopard");
    assert_eq!(s.moves().len(), 72 - 6);
}

#[test]
fn kk_q2_behind_the_rearmost_cow_wins_and_the_home_rank_is_a_delta() {
    let cattle = ["r4c1", "r4c3", "r4c5", "r5c8", "r5c10", "r6c11"];
    let mut s = Scenario::at(HOME_RANK, position(Some("r5c6"), &cattle, "leopard"));
    s.play("r5c6-r3c8");
    assert_eq!(s.winner(), "none", "behind the cattle, but not home");
    s.play("r4c1-r5c2").play("r3c8-r2c7");
    s.play("r5c2-r6c1");
    assert_eq!(s.winner(), "none");
    s.play("r2c7-r1c8");
    assert_eq!(s.winner(), "leopard");
    assert_eq!(s.ended_by(), "leopard-through");
}

/// Every cow is shut in by the board's end and by the others; the leopard is level with the rearmost.
fn cattle_stuck() -> serde_json::Value {
    position(
        Some("r12c5"),
        &["r11c2", "r12c1", "r12c3", "r12c7", "r12c9", "r12c11"],
        "cattle",
    )
}

#[test]
fn kk_q3_cattle_with_no_move_pass() {
    let mut s = Scenario::at(KOTI, cattle_stuck());
    assert_eq!(s.winner(), "none");
    assert_eq!(s.moves(), ["pass"]);
    s.play("pass");
    assert_eq!(s.to_move(), "leopard");
    s.play("r12c5-r10c7");
    assert_eq!(
        s.winner(),
        "leopard",
        "two ranks back, behind the cow on 11"
    );
}

#[test]
fn kk_q4_a_position_met_a_third_time_is_a_draw() {
    let mut s = Scenario::at(KOTI, cattle_stuck());
    s.play("pass")
        .play("r12c5-r11c6")
        .play("pass")
        .play("r11c6-r12c5");
    assert_eq!(s.winner(), "none", "the start has come up twice");
    s.play("pass")
        .play("r12c5-r11c6")
        .play("pass")
        .play("r11c6-r12c5");
    assert_eq!(s.winner(), "draw");
    assert_eq!(s.ended_by(), "cap:repetition");
}

#[test]
fn kk_q4_the_game_is_drawn_at_its_thousandth_turn() {
    let mut st = cattle_stuck();
    st["turn"] = json!(999);
    let mut s = Scenario::at(KOTI, st);
    s.play("pass");
    assert_eq!(s.ended_by(), "cap:max_turns");
}

#[test]
fn kk_q5_a_squares_rank_is_read_from_the_ranks_track() {
    let c = compile(KOTI);
    let b = &c.game().board;
    let squares: Vec<String> = b.playing_sites().map(|s| b.name(s).to_string()).collect();
    for sq in &squares {
        if CATTLE_SIDE.contains(&sq.as_str()) {
            continue;
        }
        let mut s = Scenario::new(KOTI);
        s.play(sq);
        assert_eq!(s.var("leopard_rank", None), rank(sq), "{sq}");
    }
    // A cow's forward squares are the neighbours one rank on, for every square of the board.
    for sq in &squares {
        if rank(sq) == 12 {
            continue;
        }
        let s = Scenario::at(KOTI, position(Some("r12c1"), &[sq.as_str()], "cattle"));
        let m = moves_from(&s, sq);
        assert!(!m.is_empty(), "{sq}");
        for mv in m {
            assert_eq!(rank(&mv[sq.len() + 1..]), rank(sq) + 1, "{mv}");
        }
    }
}

#[test]
fn every_rule_id_has_a_row_in_the_doc_naming_tests_that_exist() {
    let ids: Vec<String> = (1..=9)
        .map(|i| format!("KK-{i}"))
        .chain((1..=5).map(|i| format!("KK-Q{i}")))
        .collect();
    check_rule_rows("koti-keliya.md", "koti_keliya.rs", &ids, &["kk"]);
}

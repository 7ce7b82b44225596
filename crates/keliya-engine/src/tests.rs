//! Engine tests on a tiny hand-built game; the real games are tested through rulesets in `tests/`.

use keliya_board::{BoardSpec, EdgeSpec, SiteSpec};

use crate::state::{Counts, Vars};
use crate::*;

fn three_in_a_row() -> Game {
    let site = |id: &str| SiteSpec {
        id: id.into(),
        at: (0.0, 0.0),
        tags: vec![],
        owner: None,
        offboard: false,
        origin: 0,
    };
    let board = BoardSpec {
        sites: vec![site("a"), site("b"), site("c")],
        edges: vec![
            EdgeSpec {
                a: "a".into(),
                b: "b".into(),
                origin: 0,
            },
            EdgeSpec {
                a: "b".into(),
                b: "c".into(),
                origin: 0,
            },
        ],
        ..Default::default()
    }
    .compile()
    .unwrap();
    let piece = Expr::Const(Value::Piece(0));
    // step: choose from in sites_with(token) { choose to in neighbours(from) where empty(to) { move(token, from, to) } }
    let body = vec![Stmt::Choose {
        id: 0,
        slots: vec![0],
        domain: Domain::SitesWith(piece.clone()),
        filter: None,
        body: vec![Stmt::Choose {
            id: 1,
            slots: vec![1],
            domain: Domain::Neighbours(Expr::Local(0)),
            filter: Some(Expr::Call(Func::Empty, vec![Expr::Local(1)])),
            body: vec![Stmt::Effect {
                effect: Effect::Move,
                args: vec![piece, Expr::Local(0), Expr::Local(1)],
                at: 0,
            }],
            at: 0,
        }],
        at: 0,
    }];
    let mut setup = vec![0; 3];
    setup[0] = 1;
    Game {
        name: "test".into(),
        board,
        teams: Vec::new(),
        players: vec![PlayerDef {
            name: "one".into(),
            display: "one".into(),
        }],
        pieces: vec![PieceDef {
            name: "token".into(),
            display: "token".into(),
            owner: Some(0),
            role: None,
        }],
        roles: vec![],
        vars: vec![],
        setup,
        turn_order: vec![0],
        rules: vec![RuleDef {
            name: "step".into(),
            player: None,
            when: None,
            body,
            notation: Some(vec![
                NotationPart::Last("from".into()),
                NotationPart::Text("-".into()),
                NotationPart::Last("to".into()),
            ]),
            locals: 2,
            fallback: false,
        }],
        ends: vec![EndDef {
            name: "arrived".into(),
            when: Expr::Call(
                Func::Has,
                vec![Expr::Const(Value::Site(2)), Expr::Const(Value::Piece(0))],
            ),
            winner: Some(Expr::Ambient(Ambient::Mover)),
        }],
        throws: None,
        stored_throws: false,
        max_throws_per_turn: None,
        void_runs_of: None,
        caps: Caps {
            max_turns: Some(10),
            ..Default::default()
        },
        hands: vec![None],
        choice_names: vec![vec!["from".into()], vec!["to".into()]],
        max_steps_per_move: 1000,
        max_options_per_position: 1_000_000,
        max_steps_per_game: 10_000_000,
        invariants: vec![],
        prefers: false,
        programs: Default::default(),
        tag_names: vec![],
        site_tags: vec![0; 3],
        site_owner: vec![None; 3],
        routes: vec![None],
    }
}

#[test]
fn moves_are_found_applied_and_written() {
    let g = three_in_a_row();
    let s0 = g.initial_state();
    let moves = g.legal_moves(&s0).unwrap();
    assert_eq!(
        moves.iter().map(|m| g.notation(m)).collect::<Vec<_>>(),
        ["a-b"]
    );
    let s1 = g.apply(&s0, &moves[0]).unwrap();
    let names: Vec<String> = g
        .legal_moves(&s1)
        .unwrap()
        .iter()
        .map(|m| g.notation(m))
        .collect();
    assert_eq!(names, ["b-a", "b-c"]);
    let mv = g.parse_move(&s1, "B-C").unwrap().unwrap();
    let s2 = g.apply(&s1, &mv).unwrap();
    assert_eq!(
        s2.result,
        Some(Outcome {
            winner: Some(0),
            reason: Reason::End(0)
        })
    );
    assert!(g.legal_moves(&s2).unwrap().is_empty());
}

#[test]
fn an_illegal_move_is_an_error_not_a_panic() {
    let g = three_in_a_row();
    let s0 = g.initial_state();
    let bogus = Move {
        rule: 0,
        choices: [
            interp_choice(0, Value::Site(2)),
            interp_choice(1, Value::Site(1)),
        ]
        .into_iter()
        .collect(),
    };
    assert!(g.apply(&s0, &bogus).is_err());
    assert!(
        g.apply(
            &s0,
            &Move {
                rule: 9,
                choices: Default::default()
            }
        )
        .is_err()
    );
    assert!(
        g.apply(&s0, &Move::pass()).is_err(),
        "pass is legal only without other moves"
    );
}

fn interp_choice(point: u16, v: Value) -> Choice {
    Choice {
        point,
        values: [v, Value::None],
    }
}

#[test]
fn the_turn_cap_ends_a_shuffle_as_a_draw() {
    let mut g = three_in_a_row();
    g.ends.clear();
    let mut s = g.initial_state();
    while s.result.is_none() {
        let mv = g.legal_moves(&s).unwrap()[0].clone();
        s = g.apply(&s, &mv).unwrap();
    }
    assert_eq!(
        s.result,
        Some(Outcome {
            winner: None,
            reason: Reason::Cap(CapKind::MaxTurns)
        })
    );
    assert_eq!(s.turn, 10);
}

#[test]
fn history_is_shared_until_changed_counts_and_clears() {
    let mut a = History::default();
    a.push(1);
    a.push(2);
    let mut b = a.clone();
    b.push(1);
    assert_eq!(a.count(1), 1);
    assert_eq!(b.count(1), 2);
    assert_eq!(b.last(), Some(1));
    assert_eq!(b.iter().collect::<Vec<_>>(), [1, 2, 1]);
    // Clearing a shared history leaves its copies as they were; an emptied history equals a new one.
    let c = b.clone();
    b.clear();
    assert_eq!(b, History::default());
    assert_eq!(c.iter().collect::<Vec<_>>(), [1, 2, 1]);
    let mut d = c.clone();
    drop(c);
    d.clear();
    d.push(5);
    assert_eq!(d.iter().collect::<Vec<_>>(), [5]);
    assert_eq!(a.iter().collect::<Vec<_>>(), [2, 1]);
    let mut long = History::default();
    for i in 0..1_000_000 {
        long.push(i);
    }
    drop(long);
}

/// A long history (a game without captures) counts by its index, in copies too, the same as by a scan;
/// and counting stays cheap however long it grows: a million counts of a million-long history take what
/// a scan would take for a few.
#[test]
fn a_long_history_counts_in_constant_time() {
    let mut a = History::default();
    for i in 0..200u64 {
        a.push(i % 7);
        let mut copy = a.clone();
        copy.push(i % 5);
        assert_eq!(
            copy.count(i % 5),
            copy.iter().filter(|&h| h == i % 5).count()
        );
        assert_eq!(a.count(3), a.iter().filter(|&h| h == 3).count());
    }
    a.clear();
    a.push(3);
    assert_eq!(a.count(3), 1);
    let mut long = History::default();
    for i in 0..1_000_000u64 {
        long.push(i % 1_000);
    }
    let started = std::time::Instant::now();
    let total: usize = (0..1_000_000u64).map(|i| long.count(i % 2_000)).sum();
    assert_eq!(total, 500_000 * 1_000);
    // A scan would read 10^12 hashes: hours.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
#[test]
fn sites_are_listed_in_order_on_boards_of_any_size() {
    // Boards of up to 64 sites are listed through a bit set, larger ones by a plain filter: both give
    // the sites that hold, in order.
    for n in [0u16, 1, 10, 63, 64, 65, 71, 200] {
        let sites: Vec<keliya_board::SiteId> = (0..n).map(|s| s * 3 % 256).collect();
        let holds = |s: keliya_board::SiteId| s % 7 == 1 || s.is_multiple_of(5);
        let mut listed = vec![[Value::Int(-1), Value::None]];
        crate::run::list_sites(&sites, holds, &mut listed);
        let expected: Vec<_> = std::iter::once([Value::Int(-1), Value::None])
            .chain(
                sites
                    .iter()
                    .filter(|&&s| holds(s))
                    .map(|&s| [Value::Site(s), Value::None]),
            )
            .collect();
        assert_eq!(listed, expected, "{n} sites");
    }
}

/// The three compiled forms of an expression agree with the tree-walking evaluator: the value is the
/// same, the number is its `int()` and the truth its `truthy()`, for every operator and function shape
/// the compiler treats apart, on operands of every kind (a number compared with a site, a truth added to
/// a number, ...).
/// `sites_with(p)` and `sites() where empty(x)` list the same sites, in order, whether from one word
/// of bits (boards of up to 64 places), two (up to 128) or a scan of every site (larger boards).
#[test]
fn sites_holding_a_piece_and_vacant_sites_are_listed_alike_on_boards_of_any_size() {
    for n in [3usize, 63, 64, 65, 73, 127, 128, 129, 200] {
        let mut g = three_in_a_row();
        let mut st = g.initial_state();
        g.board = BoardSpec {
            sites: (0..n)
                .map(|i| SiteSpec {
                    id: format!("s{i}"),
                    at: (0.0, 0.0),
                    tags: vec![],
                    owner: None,
                    offboard: i % 9 == 4,
                    origin: 0,
                })
                .collect(),
            ..Default::default()
        }
        .compile()
        .unwrap();
        let cells: Vec<u16> = (0..n)
            .map(|i| u16::from(i % 3 == 0 || i % 7 == 2))
            .collect();
        st.counts = Counts::new(&cells, 1);
        let playing = g.board.playing_list();
        let listed = |holds: &dyn Fn(usize) -> bool| -> Vec<[Value; 2]> {
            playing
                .iter()
                .filter(|&&s| holds(s as usize))
                .map(|&s| [Value::Site(s), Value::None])
                .collect()
        };
        let mut with = Vec::new();
        crate::run::listings::sites_with(&g, &st, 0, &mut with);
        assert_eq!(with, listed(&|s| cells[s] > 0), "{n} sites");
        let mut vacant = Vec::new();
        crate::run::listings::vacant(&g, &st, &mut vacant);
        assert_eq!(vacant, listed(&|s| cells[s] == 0), "{n} sites");
        assert!(!with.is_empty() && !vacant.is_empty());
    }
}

#[test]
fn compiled_forms_agree_with_the_evaluator() {
    let game = three_in_a_row();
    let mut st = game.initial_state();
    // A variable of the position, read as an operand (this test game declares none).
    st.vars.push(-4);
    let mut run = crate::run::Run::new(&game, 0);
    run.locals[0] = Value::Site(0);
    run.locals[1] = Value::Int(3);
    let leaves = [
        Expr::Const(Value::Int(0)),
        Expr::Const(Value::Int(3)),
        Expr::Const(Value::Int(-7)),
        Expr::Const(Value::Bool(true)),
        Expr::Const(Value::Site(0)),
        Expr::Const(Value::None),
        Expr::Local(0),
        Expr::Local(1),
        Expr::Var { slot: 0 },
        Expr::Call(
            Func::Count,
            vec![Expr::Local(0), Expr::Const(Value::Piece(0))],
        ),
        // A count on a fixed place, with a piece there and without.
        Expr::Call(
            Func::Count,
            vec![Expr::Const(Value::Site(0)), Expr::Const(Value::Piece(0))],
        ),
        Expr::Call(
            Func::Count,
            vec![Expr::Const(Value::Site(2)), Expr::Const(Value::Piece(0))],
        ),
        Expr::Call(Func::Empty, vec![Expr::Local(0)]),
        Expr::CountAt(0, 0),
        Expr::EmptyAt(0),
        Expr::Ambient(Ambient::Ply),
        Expr::Ambient(Ambient::Mover),
    ];
    let ops = [
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Le,
        BinOp::Ge,
        BinOp::Lt,
        BinOp::Gt,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
    ];
    let mut exprs: Vec<Expr> = leaves.to_vec();
    for a in &leaves {
        exprs.push(Expr::Not(Box::new(a.clone())));
        exprs.push(Expr::Neg(Box::new(a.clone())));
        exprs.push(Expr::Call(Func::Abs, vec![a.clone()]));
        for b in &leaves {
            for op in ops {
                let inner = Expr::Bin(op, Box::new(a.clone()), Box::new(b.clone()));
                // Nested once more, so that every form reads every other form's closures.
                exprs.push(Expr::Bin(
                    BinOp::Eq,
                    Box::new(inner.clone()),
                    Box::new(b.clone()),
                ));
                exprs.push(Expr::Bin(
                    BinOp::Add,
                    Box::new(inner.clone()),
                    Box::new(a.clone()),
                ));
                exprs.push(Expr::Bin(
                    BinOp::Or,
                    Box::new(inner.clone()),
                    Box::new(a.clone()),
                ));
                exprs.push(inner);
            }
        }
    }
    for e in exprs {
        let expected = run.eval(&st, &e).unwrap();
        let compiled = Expr::Compiled(crate::compile::Compiled::new(e.clone()));
        assert_eq!(
            run.eval(&st, &compiled).unwrap(),
            expected,
            "value of {e:?}"
        );
        assert_eq!(
            run.int(&st, &compiled).unwrap(),
            expected.int(),
            "number of {e:?}"
        );
        assert_eq!(
            run.truthy(&st, &compiled).unwrap(),
            expected.truthy(),
            "truth of {e:?}"
        );
    }
}

/// The repetition cap and `seen_before` take two positions with the same hash for the same position:
/// every small change of a position must change its hash, on boards of any size (with and without the
/// counts' bit sets, which stop at 128 sites).
#[test]
fn positions_that_differ_hash_differently() {
    let g = three_in_a_row();
    let mut st = g.initial_state();
    let mut seen = std::collections::HashMap::new();
    let mut record = |st: &State, what: String| {
        if let Some(before) = seen.insert(st.position_hash(), what.clone()) {
            panic!("{what} hashes as {before}");
        }
    };
    for cells in [1, 3, 4, 5, 15, 16, 17, 24, 50, 70] {
        let mut counts = vec![0u16; cells];
        st.counts = Counts::new(&counts, 1);
        record(&st, format!("{cells} empty cells"));
        for i in 0..cells {
            // One piece on a cell, two on it, and a piece on it and another on a later cell.
            counts[i] = 1;
            st.counts = Counts::new(&counts, 1);
            record(&st, format!("{cells} cells, one piece on {i}"));
            counts[i] = 2;
            st.counts = Counts::new(&counts, 1);
            record(&st, format!("{cells} cells, two pieces on {i}"));
            counts[i] = 1;
            for j in i + 1..cells {
                counts[j] = 1;
                st.counts = Counts::new(&counts, 1);
                record(&st, format!("{cells} cells, pieces on {i} and {j}"));
                counts[j] = 0;
            }
            counts[i] = 0;
        }
    }
    // The variables (any number of them) and the player to move are part of the position.
    st.counts = Counts::new(&[1, 0, 0], 1);
    for n in 1..=9 {
        let mut vars = vec![0i64; n];
        st.vars = Vars::from_slice(&vars);
        record(&st, format!("{n} variables at 0"));
        for i in 0..n {
            for v in [7, -7, i64::MAX] {
                vars[i] = v;
                st.vars = Vars::from_slice(&vars);
                record(&st, format!("{n} variables, the {i}th at {v}"));
            }
            vars[i] = 0;
        }
    }
    st.vars = Vars::from_slice(&[0; 9]);
    st.to_move = 1;
    record(&st, "9 variables at 0, the other player to move".into());
}

/// Position hashes are written to state files (`history`): the same position must hash the same way on
/// every machine and in every run, so that a file written on one is read right on another.
#[test]
fn a_position_hash_is_the_same_everywhere() {
    let g = three_in_a_row();
    let mut st = g.initial_state();
    st.counts = Counts::new(&(0..21).map(|i| i % 3).collect::<Vec<u16>>(), 3);
    st.vars = Vars::from_slice(&[3, -1]);
    st.to_move = 1;
    assert_eq!(format!("{:016x}", st.position_hash()), "bb8a5eb914af8020");
}

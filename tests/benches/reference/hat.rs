//! Hat diviyan keliya written by hand with bit sets: the same rules as `rulesets/hat-diviyan-keliya.yaml`
//! (free tiger placement, leopard drops then steps, short leaps along lines, 4 captures, trapped tiger,
//! threefold repetition, 100 quiet turns, 1000 turns), random moves. A yardstick for the interpreter; it
//! shares nothing with the engine but its dice.
use keliya_play::Dice;

// Points: A=0, L1=1, M1=2, R1=3, L2=4, M2=5, R2=6, L3=7, M3=8, R3=9.
const EDGES: [(usize, usize); 15] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (1, 4),
    (2, 3),
    (2, 5),
    (3, 6),
    (4, 5),
    (4, 7),
    (5, 6),
    (5, 8),
    (6, 9),
    (7, 8),
    (8, 9),
];
const LINES: [&[usize]; 6] = [
    &[0, 1, 4, 7],
    &[0, 2, 5, 8],
    &[0, 3, 6, 9],
    &[1, 2, 3],
    &[4, 5, 6],
    &[7, 8, 9],
];

struct Tables {
    neighbours: [u16; 10],
    leaps: Vec<Vec<(usize, usize)>>,
}

fn tables() -> Tables {
    let mut neighbours = [0u16; 10];
    for (a, b) in EDGES {
        neighbours[a] |= 1 << b;
        neighbours[b] |= 1 << a;
    }
    let mut leaps = vec![Vec::new(); 10];
    for line in LINES {
        for w in line.windows(3) {
            leaps[w[0]].push((w[1], w[2]));
            leaps[w[2]].push((w[1], w[0]));
        }
    }
    Tables { neighbours, leaps }
}

#[derive(Clone, Copy)]
enum Mv {
    Drop(usize),
    Step(usize, usize),
    Leap(usize, usize),
}

/// One random game from the start: (plies, winner: 0 the tiger, 1 the leopards, `None` a draw by cap).
pub fn playout(seed: u64) -> (u32, Option<u8>) {
    thread_local!(static T: Tables = tables());
    T.with(|t| play(t, seed))
}

fn play(t: &Tables, seed: u64) -> (u32, Option<u8>) {
    let mut dice = Dice::new(seed);
    let (mut tiger, mut leopards): (Option<usize>, u16) = (None, 0);
    let (mut in_hand, mut captures, mut turn, mut quiet) = (7u32, 0u32, 0u32, 0u32);
    let mut tiger_to_move = true;
    let mut history: Vec<u32> = Vec::new();
    let mut moves: Vec<Mv> = Vec::with_capacity(16);
    let mut plies = 0;
    loop {
        // Ends, then caps, as the ruleset checks them before each turn.
        moves.clear();
        let occupied = leopards | tiger.map_or(0, |p| 1 << p);
        if tiger_to_move {
            match tiger {
                None => (0..10).for_each(|p| moves.push(Mv::Drop(p))),
                Some(p) => {
                    for q in 0..10 {
                        if t.neighbours[p] >> q & 1 == 1 && occupied >> q & 1 == 0 {
                            moves.push(Mv::Step(p, q));
                        }
                    }
                    for &(o, l) in &t.leaps[p] {
                        if leopards >> o & 1 == 1 && occupied >> l & 1 == 0 {
                            moves.push(Mv::Leap(o, l));
                        }
                    }
                }
            }
            if moves.is_empty() {
                return (plies, Some(1)); // the tiger is trapped: the leopards win
            }
        }
        if captures >= 4 {
            return (plies, Some(0));
        }
        if turn >= 1000 || quiet >= 100 {
            return (plies, None);
        }
        let key =
            (leopards as u32) << 8 | tiger.map_or(15, |p| p as u32) << 1 | tiger_to_move as u32;
        let key = key ^ in_hand << 24 ^ captures << 28;
        if history.iter().filter(|&&h| h == key).count() >= 2 {
            return (plies, None);
        }
        history.push(key);
        if !tiger_to_move {
            if in_hand > 0 {
                (0..10)
                    .filter(|q| occupied >> q & 1 == 0)
                    .for_each(|q| moves.push(Mv::Drop(q)));
            } else {
                for p in (0..10).filter(|p| leopards >> p & 1 == 1) {
                    for q in 0..10 {
                        if t.neighbours[p] >> q & 1 == 1 && occupied >> q & 1 == 0 {
                            moves.push(Mv::Step(p, q));
                        }
                    }
                }
            }
        }
        if moves.is_empty() {
            tiger_to_move = !tiger_to_move; // the leopards pass
            turn += 1;
            quiet += 1;
            plies += 1;
            continue;
        }
        // A drop (a piece entering the board) or a capture restarts the quiet count and the history.
        let progress = match moves[dice.below(moves.len())] {
            Mv::Drop(q) if tiger_to_move => {
                tiger = Some(q);
                true
            }
            Mv::Drop(q) => {
                leopards |= 1 << q;
                in_hand -= 1;
                true
            }
            Mv::Step(_, q) if tiger_to_move => {
                tiger = Some(q);
                false
            }
            Mv::Step(p, q) => {
                leopards = leopards & !(1 << p) | 1 << q;
                false
            }
            Mv::Leap(o, l) => {
                leopards &= !(1 << o);
                tiger = Some(l);
                captures += 1;
                true
            }
        };
        if progress {
            quiet = 0;
            history.clear();
        } else {
            quiet += 1;
        }
        tiger_to_move = !tiger_to_move;
        turn += 1;
        plies += 1;
    }
}

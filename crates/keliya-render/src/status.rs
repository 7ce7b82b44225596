//! The figures that decide a game, as its ruleset's `display:` names them: shown each turn in `play`,
//! beside the board in `replay`.

use keliya_engine::{Game, Move, State, Value};
use keliya_rules::{DisplayItem, DisplayValue};

/// The figures of a position: one line per player (empty when it has none) and one for the game.
pub struct Figures {
    pub per_player: Vec<String>,
    pub game: String,
}

/// `label value`, or the label with its `{value}` filled in.
fn figure(label: &str, value: impl std::fmt::Display) -> String {
    if label.contains("{value}") {
        label.replace("{value}", &value.to_string())
    } else {
        format!("{label} {value}")
    }
}

pub fn figures(game: &Game, items: &[DisplayItem], st: &State) -> Figures {
    let players = game.players.len();
    let mut per_player = vec![Vec::new(); players];
    let mut whole = Vec::new();
    for item in items {
        let shown = |p: usize| item.player.is_none_or(|q| usize::from(q) == p);
        match &item.value {
            &DisplayValue::Var(v) if game.vars.get(v).is_some_and(|d| d.per_player) => {
                for (p, parts) in per_player.iter_mut().enumerate().filter(|(p, _)| shown(*p)) {
                    let value = st.vars[game.var_slot(v, Some(p as u8))];
                    parts.push(figure(&item.label, value));
                }
            }
            &DisplayValue::Var(v) if v < game.vars.len() => {
                whole.push(figure(&item.label, st.vars[game.var_slot(v, None)]));
            }
            DisplayValue::Var(_) => {}
            DisplayValue::CountAt(sites) => {
                // A seat that owns no pieces (a team's later seats play its first seat's pawns) has
                // nothing to count.
                let owns = |p: usize| game.pieces.iter().any(|k| k.owner == Some(p as u8));
                for (p, parts) in per_player
                    .iter_mut()
                    .enumerate()
                    .filter(|(p, _)| shown(*p) && owns(*p))
                {
                    let n: u32 = (0..game.piece_count())
                        .filter(|&k| game.pieces[k].owner == Some(p as u8))
                        .flat_map(|k| sites.iter().map(move |&s| (k, s)))
                        .map(|(k, s)| u32::from(st.count(game, s, k as u8)))
                        .sum();
                    parts.push(figure(&item.label, n));
                }
            }
        }
    }
    Figures {
        per_player: per_player.into_iter().map(|p| p.join(", ")).collect(),
        game: whole.join(", "),
    }
}

/// A move as a player reads it. A move whose rule has a notation template is shown by it; otherwise
/// `rule: ...` with each site taking the number chosen before it (`A4 +4`: the pawn on A4 moves 4),
/// each number the rule labels (`labels:`) shown with its word, and a zero or an unlabelled choice left
/// out. The record keeps the notation.
pub fn readable_move(game: &Game, labels: &[(String, Vec<(String, String)>)], mv: &Move) -> String {
    let notation = game.notation(mv);
    let Some(rule) = game.rules.get(mv.rule as usize) else {
        return notation;
    };
    if rule.notation.is_some() || mv.is_pass() || mv.taken_throw().is_some() {
        return notation;
    }
    let words = labels
        .iter()
        .find(|(r, _)| *r == rule.name)
        .map_or(&[][..], |(_, w)| w.as_slice());
    let mut parts: Vec<String> = Vec::new();
    let mut number: Option<(String, i64)> = None;
    let flush = |number: &mut Option<(String, i64)>, parts: &mut Vec<String>| {
        if let Some((name, n)) = number.take()
            && n != 0
        {
            parts.push(format!("{name} {n}"));
        }
    };
    for c in &mv.choices {
        let names = game
            .choice_names
            .get(c.point as usize)
            .map_or(&[][..], Vec::as_slice);
        for (name, &v) in names.iter().zip(c.values.iter()) {
            let word = words
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, w)| w.as_str());
            match (v, word) {
                (_, Some("")) => {}
                (Value::Int(n), Some(w)) => {
                    flush(&mut number, &mut parts);
                    if n != 0 {
                        parts.push(format!("{w} {n}"));
                    }
                }
                (Value::Int(n), None) => {
                    flush(&mut number, &mut parts);
                    number = Some((name.to_string(), n));
                }
                (Value::Site(s), _) => match number.take() {
                    Some((_, n)) => parts.push(format!("{} +{n}", game.board.name(s))),
                    None => parts.push(game.board.name(s).to_string()),
                },
                (other, _) => {
                    flush(&mut number, &mut parts);
                    parts.push(game.value_text(other));
                }
            }
        }
    }
    flush(&mut number, &mut parts);
    if parts.is_empty() {
        return notation;
    }
    format!("{}: {}", rule.name, parts.join(", "))
}

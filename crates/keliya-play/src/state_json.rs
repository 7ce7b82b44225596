//! The state file: a position as JSON, readable and writable by hand. Documented in `docs/cli.md`.

use keliya_engine::{CapKind, Game, Outcome, Reason, State};
use serde_json::{Map, Value, json};

use crate::simulate::reason_name;

pub fn to_json(game: &Game, st: &State) -> Value {
    let mut sites = Map::new();
    let k = game.piece_count();
    for s in 0..game.board.len() {
        let mut pieces = Map::new();
        for p in 0..k {
            let c = st.counts[s * k + p];
            if c > 0 {
                pieces.insert(game.pieces[p].name.clone(), json!(c));
            }
        }
        if !pieces.is_empty() {
            sites.insert(game.board.name(s as u16).to_string(), Value::Object(pieces));
        }
    }
    let mut vars = Map::new();
    for (i, v) in game.vars.iter().enumerate() {
        if v.per_player {
            let per: Map<String, Value> = game
                .players
                .iter()
                .enumerate()
                .map(|(p, pd)| {
                    (
                        pd.name.clone(),
                        json!(st.vars[game.var_slot(i, Some(p as u8))]),
                    )
                })
                .collect();
            vars.insert(v.name.clone(), Value::Object(per));
        } else {
            vars.insert(v.name.clone(), json!(st.vars[game.var_slot(i, None)]));
        }
    }
    let result = st.result.map(|o| {
        let mut result = json!({
            "winner": o.winner.map(|w| game.players[w as usize].name.clone()),
            "reason": reason_name(game, o.reason).0,
        });
        // The winner's team, only in a game with teams (the rules name one player as the winner).
        if let Some(team) = o.winner.and_then(|w| game.team_of(w)) {
            result["team"] = json!(team);
        }
        result
    });
    json!({
        "ruleset": game.name,
        "to_move": game.players[st.to_move as usize].name,
        "throw": st.throw.and_then(|t| game.throws.as_ref().map(|rows| rows[t as usize].name.clone())),
        "chance_due": st.chance_due,
        "held": st.held.iter().filter_map(|&t| game.throws.as_ref().map(|rows| rows[t as usize].name.clone())).collect::<Vec<_>>(),
        "sites": sites,
        "vars": vars,
        "ply": st.ply,
        "turn": st.turn,
        "turn_throws": st.turn_throws,
        "quiet_turns": st.quiet_turns,
        "captures": st.captures,
        // Oldest first, as the positions occurred.
        "history": st.history.iter().map(|h| format!("{h:016x}")).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>(),
        "result": result,
    })
}

/// Reads a state file. Missing fields take their initial values; when `result` is absent the position is
/// settled as at the start of a turn (end conditions and caps are checked).
pub fn from_json(game: &Game, v: &Value) -> Result<State, String> {
    let obj = v.as_object().ok_or("a state file is a JSON object")?;
    const KEYS: &[&str] = &[
        "ruleset",
        "to_move",
        "throw",
        "chance_due",
        "held",
        "sites",
        "vars",
        "ply",
        "turn",
        "turn_throws",
        "quiet_turns",
        "captures",
        "history",
        "result",
    ];
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{k}` in the state file (known: {})",
            KEYS.join(", ")
        ));
    }
    if let Some(name) = obj.get("ruleset").and_then(Value::as_str)
        && name != game.name
    {
        return Err(format!(
            "the state is for ruleset `{name}`, not `{}`",
            game.name
        ));
    }
    let mut st = game.initial_state();
    st.result = None;
    st.history = Default::default();
    let player = |name: &str| {
        game.player(name)
            .ok_or_else(|| format!("unknown player `{name}`"))
    };
    if let Some(p) = obj.get("to_move") {
        st.to_move = player(p.as_str().ok_or("`to_move` is a player name")?)?;
    }
    if let Some(sites) = obj.get("sites") {
        let sites = sites
            .as_object()
            .ok_or("`sites` maps site names to {piece: count}")?;
        st.counts.iter_mut().for_each(|c| *c = 0);
        for (site, pieces) in sites {
            let s = game
                .board
                .site(site)
                .ok_or_else(|| format!("unknown site `{site}`"))?;
            let pieces = pieces
                .as_object()
                .ok_or_else(|| format!("site `{site}`: expected {{piece: count}}"))?;
            for (piece, count) in pieces {
                let p = game
                    .piece(piece)
                    .ok_or_else(|| format!("unknown piece `{piece}` on `{site}`"))?;
                let n = count
                    .as_u64()
                    .filter(|&n| n <= u16::MAX as u64)
                    .ok_or_else(|| format!("`{site}.{piece}`: a count from 0 to 65535"))?;
                st.counts[s as usize * game.piece_count() + p as usize] = n as u16;
            }
        }
    }
    if let Some(vars) = obj.get("vars") {
        let vars = vars
            .as_object()
            .ok_or("`vars` maps variable names to values")?;
        for (name, value) in vars {
            let i = game
                .var(name)
                .ok_or_else(|| format!("unknown variable `{name}`"))?;
            if game.vars[i].per_player {
                let per = value
                    .as_object()
                    .ok_or_else(|| format!("`{name}` maps players to numbers"))?;
                for (p, n) in per {
                    let n = n
                        .as_i64()
                        .ok_or_else(|| format!("`{name}.{p}` is a number"))?;
                    st.vars[game.var_slot(i, Some(player(p)?))] = n;
                }
            } else {
                st.vars[game.var_slot(i, None)] = value
                    .as_i64()
                    .ok_or_else(|| format!("`{name}` is a number"))?;
            }
        }
    }
    let num = |key: &str| -> Result<Option<u32>, String> {
        match obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| format!("`{key}` is a whole number")),
        }
    };
    st.ply = num("ply")?.unwrap_or(0);
    st.turn = num("turn")?.unwrap_or(0);
    st.quiet_turns = num("quiet_turns")?.unwrap_or(0);
    st.captures = num("captures")?.unwrap_or(0);
    if let Some(h) = obj.get("history").and_then(Value::as_array) {
        for x in h {
            let text = x.as_str().ok_or("`history` holds hex strings")?;
            st.history.push(
                u64::from_str_radix(text, 16).map_err(|_| format!("bad history entry `{text}`"))?,
            );
        }
    }
    st.throw = None;
    st.chance_due = false;
    st.held.clear();
    let throw_row = |t: &Value, expected: &str| -> Result<u8, String> {
        let name = t.as_str().ok_or(expected)?;
        let rows = game.throws.as_ref().ok_or("this ruleset has no throws")?;
        rows.iter()
            .position(|r| r.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| format!("unknown throw `{name}`"))
    };
    match obj.get("throw") {
        None | Some(Value::Null) => {}
        Some(t) => st.throw = Some(throw_row(t, "`throw` is the name of a throw")?),
    }
    if let Some(h) = obj.get("held") {
        let list = h.as_array().ok_or("`held` is a list of throw names")?;
        if !list.is_empty() && !game.stored_throws {
            return Err("`held` needs a ruleset with `throws: {resolution: stored}`".into());
        }
        for t in list {
            st.held.push(throw_row(t, "`held` lists names of throws")?);
        }
    }
    // Left out, the count is the throws the file shows: the one being played and those held.
    st.turn_throws = match num("turn_throws")? {
        Some(n) => u16::try_from(n).map_err(|_| "`turn_throws` is at most 65535")?,
        None => (st.held.len() + usize::from(st.throw.is_some())) as u16,
    };
    if let Some(c) = obj.get("chance_due") {
        st.chance_due = c.as_bool().ok_or("`chance_due` is true or false")?;
    }
    match obj.get("result") {
        Some(Value::Null) => {}
        None => game.settle(&mut st).map_err(|e| e.to_string())?,
        Some(r) => {
            let winner = match r.get("winner") {
                None | Some(Value::Null) => None,
                Some(w) => Some(player(
                    w.as_str()
                        .ok_or("`result.winner` is a player name or null")?,
                )?),
            };
            // `team` is worked out from the winner; one given must be the winner's.
            let actual = winner.and_then(|w| game.team_of(w));
            if let Some(t) = r.get("team").filter(|t| !(t.is_null() && actual.is_none())) {
                let written = t.as_str().ok_or("`result.team` is a team name")?;
                if actual != Some(written) {
                    return Err(match actual {
                        Some(team) => format!(
                            "`result.team` is `{written}`, but the winner plays in team `{team}`"
                        ),
                        None => {
                            format!("`result.team` is `{written}`, but the winner is in no team")
                        }
                    });
                }
            }
            let reason_text = r.get("reason").and_then(Value::as_str).unwrap_or("");
            let reason = if let Some(i) = game.ends.iter().position(|e| e.name == reason_text) {
                Reason::End(i as u16)
            } else if let Some(i) = game.rules.iter().position(|e| e.name == reason_text) {
                Reason::Rule(i as u16)
            } else {
                Reason::Cap(match reason_text {
                    "cap:max_turns" => CapKind::MaxTurns,
                    "cap:no_capture_turns" => CapKind::NoCapture,
                    "cap:repetition" => CapKind::Repetition,
                    other => return Err(format!("unknown result reason `{other}`")),
                })
            };
            st.result = Some(Outcome { winner, reason });
        }
    }
    Ok(st)
}

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

/// Where in a state file a value is: the keys, and the indices of lists, leading to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathPart {
    Key(String),
    Index(usize),
}

/// What is wrong with a state file, and at which value ([`locate`] finds it in the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// Empty for the file as a whole.
    pub path: Vec<PathPart>,
    pub message: String,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The path of keys `keys`.
fn keys(keys: &[&str]) -> Vec<PathPart> {
    keys.iter().map(|k| PathPart::Key(k.to_string())).collect()
}

/// Reads a state file. Missing fields take their initial values; when `result` is absent the position is
/// settled as at the start of a turn (end conditions and caps are checked).
pub fn from_json(game: &Game, v: &Value) -> Result<State, String> {
    from_json_at(game, v).map_err(|e| e.message)
}

/// [`from_json`], the error saying which value is at fault.
pub fn from_json_at(game: &Game, v: &Value) -> Result<State, StateError> {
    let fail = |path: Vec<PathPart>, message: String| StateError { path, message };
    let obj = v
        .as_object()
        .ok_or_else(|| fail(vec![], "a state file is a JSON object".into()))?;
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
        return Err(fail(
            keys(&[k]),
            format!(
                "unknown key `{k}` in the state file (known: {})",
                KEYS.join(", ")
            ),
        ));
    }
    if let Some(name) = obj.get("ruleset").and_then(Value::as_str)
        && name != game.name
    {
        return Err(fail(
            keys(&["ruleset"]),
            format!("the state is for ruleset `{name}`, not `{}`", game.name),
        ));
    }
    let mut st = game.initial_state();
    st.result = None;
    st.history = Default::default();
    let player = |name: &str, path: &[&str]| {
        game.player(name)
            .ok_or_else(|| fail(keys(path), format!("unknown player `{name}`")))
    };
    if let Some(p) = obj.get("to_move") {
        let name = p
            .as_str()
            .ok_or_else(|| fail(keys(&["to_move"]), "`to_move` is a player name".into()))?;
        st.to_move = player(name, &["to_move"])?;
    }
    if let Some(sites) = obj.get("sites") {
        let sites = sites.as_object().ok_or_else(|| {
            fail(
                keys(&["sites"]),
                "`sites` maps site names to {piece: count}".into(),
            )
        })?;
        st.counts.remove_all();
        for (site, pieces) in sites {
            let s = game
                .board
                .site(site)
                .ok_or_else(|| fail(keys(&["sites", site]), format!("unknown site `{site}`")))?;
            let pieces = pieces.as_object().ok_or_else(|| {
                fail(
                    keys(&["sites", site]),
                    format!("site `{site}`: expected {{piece: count}}"),
                )
            })?;
            for (piece, count) in pieces {
                let at = || keys(&["sites", site, piece]);
                let p = game
                    .piece(piece)
                    .ok_or_else(|| fail(at(), format!("unknown piece `{piece}` on `{site}`")))?;
                let n = count
                    .as_u64()
                    .filter(|&n| n <= u16::MAX as u64)
                    .ok_or_else(|| {
                        fail(at(), format!("`{site}.{piece}`: a count from 0 to 65535"))
                    })?;
                st.counts
                    .set(s as usize * game.piece_count() + p as usize, n as u16);
            }
        }
    }
    if let Some(vars) = obj.get("vars") {
        let vars = vars.as_object().ok_or_else(|| {
            fail(
                keys(&["vars"]),
                "`vars` maps variable names to values".into(),
            )
        })?;
        for (name, value) in vars {
            let i = game
                .var(name)
                .ok_or_else(|| fail(keys(&["vars", name]), format!("unknown variable `{name}`")))?;
            if game.vars[i].per_player {
                let per = value.as_object().ok_or_else(|| {
                    fail(
                        keys(&["vars", name]),
                        format!("`{name}` maps players to numbers"),
                    )
                })?;
                for (p, n) in per {
                    let path = ["vars", name.as_str(), p.as_str()];
                    let n = n
                        .as_i64()
                        .ok_or_else(|| fail(keys(&path), format!("`{name}.{p}` is a number")))?;
                    st.vars[game.var_slot(i, Some(player(p, &path)?))] = n;
                }
            } else {
                st.vars[game.var_slot(i, None)] = value
                    .as_i64()
                    .ok_or_else(|| fail(keys(&["vars", name]), format!("`{name}` is a number")))?;
            }
        }
    }
    let num = |key: &str| -> Result<Option<u32>, StateError> {
        match obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| fail(keys(&[key]), format!("`{key}` is a whole number"))),
        }
    };
    st.ply = num("ply")?.unwrap_or(0);
    st.turn = num("turn")?.unwrap_or(0);
    st.quiet_turns = num("quiet_turns")?.unwrap_or(0);
    st.captures = num("captures")?.unwrap_or(0);
    if let Some(h) = obj.get("history") {
        let h = h.as_array().ok_or_else(|| {
            fail(
                keys(&["history"]),
                "`history` is a list of hex strings".into(),
            )
        })?;
        for (i, x) in h.iter().enumerate() {
            let at = || vec![PathPart::Key("history".into()), PathPart::Index(i)];
            let text = x
                .as_str()
                .ok_or_else(|| fail(at(), "`history` holds hex strings".into()))?;
            let hash = u64::from_str_radix(text, 16)
                .map_err(|_| fail(at(), format!("bad history entry `{text}`")))?;
            st.history.push(hash);
        }
    }
    st.throw = None;
    st.chance_due = false;
    st.held.clear();
    let throw_row = |t: &Value, expected: &str, at: Vec<PathPart>| -> Result<u8, StateError> {
        let name = t
            .as_str()
            .ok_or_else(|| fail(at.clone(), expected.into()))?;
        let rows = game
            .throws
            .as_ref()
            .ok_or_else(|| fail(at.clone(), "this ruleset has no throws".into()))?;
        rows.iter()
            .position(|r| r.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| fail(at, format!("unknown throw `{name}`")))
    };
    match obj.get("throw") {
        None | Some(Value::Null) => {}
        Some(t) => {
            st.throw = Some(throw_row(
                t,
                "`throw` is the name of a throw",
                keys(&["throw"]),
            )?)
        }
    }
    if let Some(h) = obj.get("held") {
        let list = h
            .as_array()
            .ok_or_else(|| fail(keys(&["held"]), "`held` is a list of throw names".into()))?;
        if !list.is_empty() && !game.stored_throws {
            return Err(fail(
                keys(&["held"]),
                "`held` needs a ruleset with `throws: {resolution: stored}`".into(),
            ));
        }
        for (i, t) in list.iter().enumerate() {
            let at = vec![PathPart::Key("held".into()), PathPart::Index(i)];
            st.held
                .push(throw_row(t, "`held` lists names of throws", at)?);
        }
    }
    // Left out, the count is the throws the file shows: the one being played and those held.
    st.turn_throws = match num("turn_throws")? {
        Some(n) => u16::try_from(n).map_err(|_| {
            fail(
                keys(&["turn_throws"]),
                "`turn_throws` is at most 65535".into(),
            )
        })?,
        None => (st.held.len() + usize::from(st.throw.is_some())) as u16,
    };
    if let Some(c) = obj.get("chance_due") {
        st.chance_due = c.as_bool().ok_or_else(|| {
            fail(
                keys(&["chance_due"]),
                "`chance_due` is true or false".into(),
            )
        })?;
    }
    match obj.get("result") {
        Some(Value::Null) => {}
        None => game
            .settle(&mut st)
            .map_err(|e| fail(vec![], e.to_string()))?,
        Some(r) => {
            let winner = match r.get("winner") {
                None | Some(Value::Null) => None,
                Some(w) => {
                    let path = ["result", "winner"];
                    let name = w.as_str().ok_or_else(|| {
                        fail(
                            keys(&path),
                            "`result.winner` is a player name or null".into(),
                        )
                    })?;
                    Some(player(name, &path)?)
                }
            };
            // `team` is worked out from the winner; one given must be the winner's.
            let actual = winner.and_then(|w| game.team_of(w));
            if let Some(t) = r.get("team").filter(|t| !(t.is_null() && actual.is_none())) {
                let at = || keys(&["result", "team"]);
                let written = t
                    .as_str()
                    .ok_or_else(|| fail(at(), "`result.team` is a team name".into()))?;
                if actual != Some(written) {
                    return Err(fail(
                        at(),
                        match actual {
                            Some(team) => format!(
                                "`result.team` is `{written}`, but the winner plays in team `{team}`"
                            ),
                            None => format!(
                                "`result.team` is `{written}`, but the winner is in no team"
                            ),
                        },
                    ));
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
                    other => {
                        return Err(fail(
                            keys(&["result", "reason"]),
                            format!("unknown result reason `{other}`"),
                        ));
                    }
                })
            };
            st.result = Some(Outcome { winner, reason });
        }
    }
    Ok(st)
}

/// Where the value at `path` is written in the JSON `text`: the line and column (from 1) of its key, or of
/// the item itself in a list. `None` for the file as a whole, or a path the text does not hold.
pub fn locate(text: &str, path: &[PathPart]) -> Option<(usize, usize)> {
    if path.is_empty() {
        return None;
    }
    let mut scan = Scan {
        text: text.as_bytes(),
        at: 0,
    };
    let offset = scan.find(path)?;
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
        .chars()
        .count()
        + 1;
    Some((line, column))
}

/// A walk through JSON text, just far enough to find where a value is written.
struct Scan<'t> {
    text: &'t [u8],
    at: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }
    fn blanks(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }
    /// The offset of the key or item `path` leads to, from the value that starts here.
    fn find(&mut self, path: &[PathPart]) -> Option<usize> {
        self.blanks();
        let (first, rest) = path.split_first()?;
        match (self.peek()?, first) {
            (b'{', PathPart::Key(wanted)) => {
                self.at += 1;
                loop {
                    self.blanks();
                    let key_at = self.at;
                    let key = self.string()?;
                    self.blanks();
                    self.expect(b':')?;
                    if &key == wanted {
                        return self.then(key_at, rest);
                    }
                    self.next_item()?;
                }
            }
            (b'[', PathPart::Index(wanted)) => {
                self.at += 1;
                for _ in 0..*wanted {
                    self.next_item()?;
                }
                self.blanks();
                (self.peek()? != b']').then_some(())?;
                self.then(self.at, rest)
            }
            _ => None,
        }
    }
    /// `at` when the path ends here, or where the rest of it leads from the value here.
    fn then(&mut self, at: usize, rest: &[PathPart]) -> Option<usize> {
        if rest.is_empty() {
            Some(at)
        } else {
            self.find(rest)
        }
    }
    /// Goes past the value here and the comma after it, to the next item of the same list or mapping.
    fn next_item(&mut self) -> Option<()> {
        self.skip()?;
        self.blanks();
        self.expect(b',')
    }
    fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then_some(())?;
        self.at += 1;
        Some(())
    }
    /// A string's text, its escapes read as JSON reads them.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        (self.peek()? == b'"').then_some(())?;
        self.at += 1;
        loop {
            match self.peek()? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        let raw = std::str::from_utf8(self.text.get(start..self.at)?).ok()?;
        serde_json::from_str(raw).ok()
    }
    /// Goes past the value that starts here.
    fn skip(&mut self) -> Option<()> {
        self.blanks();
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.at += 1;
                loop {
                    self.blanks();
                    if self.peek()? == close {
                        self.at += 1;
                        return Some(());
                    }
                    if open == b'{' {
                        self.string()?;
                        self.blanks();
                        self.expect(b':')?;
                    }
                    self.skip()?;
                    self.blanks();
                    if self.peek()? == b',' {
                        self.at += 1;
                    }
                }
            }
            _ => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                // (A closing bracket where a value should be: not JSON, and no progress.)
                (self.at > start).then_some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PathPart, locate};

    fn key(k: &str) -> PathPart {
        PathPart::Key(k.into())
    }

    #[test]
    fn a_value_is_found_by_its_keys_and_list_indices() {
        let text = "{\n  \"to_move\": \"a\",\n  \"sites\": {\"R1\": {\"pawn\": 1}, \"X\\\"Y\": {}},\n  \"held\": [\"one\", \"two\"]\n}\n";
        assert_eq!(locate(text, &[key("to_move")]), Some((2, 3)));
        assert_eq!(locate(text, &[key("sites"), key("R1")]), Some((3, 13)));
        assert_eq!(
            locate(text, &[key("sites"), key("R1"), key("pawn")]),
            Some((3, 20))
        );
        // A key with an escape, after a value that is itself an object.
        assert_eq!(locate(text, &[key("sites"), key("X\"Y")]), Some((3, 32)));
        assert_eq!(
            locate(text, &[key("held"), PathPart::Index(1)]),
            Some((4, 19))
        );
        assert_eq!(locate(text, &[key("held"), PathPart::Index(2)]), None);
        assert_eq!(
            locate("{\"held\": []}", &[key("held"), PathPart::Index(0)]),
            None
        );
        assert_eq!(locate(text, &[key("vars")]), None);
        assert_eq!(locate(text, &[]), None);
        // Text that is not JSON, or ends early, gives no place and does not panic.
        assert_eq!(
            locate(
                "{\"a\": [1, {\"b\"",
                &[key("a"), PathPart::Index(1), key("b")]
            ),
            None
        );
        assert_eq!(locate("\"", &[key("a")]), None);
        assert_eq!(locate("{\"a\": [}, \"b\": 1}", &[key("b")]), None);
        assert_eq!(locate("{\"a\": {\"c\" 1}, \"b\": 1}", &[key("b")]), None);
    }
}

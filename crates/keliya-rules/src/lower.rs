//! From the merged YAML tree to an engine [`Game`]: the schema is checked key by key, names are resolved,
//! DSL texts are parsed and type-checked, and every problem is collected with its location.

use std::collections::HashMap;

use keliya_board::{BoardSpec, CrossColumn, EdgeSpec, Generator, PathSpec, SiteSpec, closest};
use keliya_dsl as dsl;
use keliya_engine::{
    self as eng, Caps, EndDef, Game, NotationPart, PieceDef, PlayerDef, RuleDef, TeamDef, ThrowRow,
    VarDef,
};

mod display;

use crate::diag::{Diagnostic, Loc, Sources};
use crate::load::{Compiled, RuleInfo, RulesetInfo, canonical};
use crate::yaml::{Key, Node, Value, value_offset, value_offsets};

/// Every key a ruleset may have at its top level.
pub const TOP_KEYS: &[&str] = &[
    "keliya",
    "name",
    "title",
    "family",
    "kind",
    "extends",
    "description",
    "sources",
    "rule_text",
    "choices",
    "players",
    "turn_order",
    "teams",
    "pieces",
    "board",
    "setup",
    "params",
    "vars",
    "throws",
    "parts",
    "rules",
    "ends",
    "caps",
    "limits",
    "invariants",
    "display",
];

pub(crate) fn lower(
    root: Node,
    chain: Vec<String>,
    name: String,
    sources: &Sources,
    prepare: bool,
) -> Result<Compiled, Vec<Diagnostic>> {
    let mut cx = Cx {
        sources,
        diags: Vec::new(),
        spans: vec![root.loc],
    };
    let top = cx.map(&root, "the ruleset").unwrap_or(&[]);
    cx.check_keys(top, TOP_KEYS, "the ruleset");
    let get = |k: &str| top.iter().find(|(key, _)| key.name == k).map(|(_, v)| v);

    let is_library = get("kind").and_then(Node::as_str) == Some("library");
    if let Some(kind) = get("kind")
        && !matches!(kind.as_str(), Some("game" | "library"))
    {
        cx.err(kind.loc, "`kind` is `game` or `library`");
    }
    let mut info = RulesetInfo {
        name: get("name")
            .and_then(Node::as_str)
            .map_or(name, str::to_string),
        title: get("title")
            .and_then(|n| cx.string(n, "title"))
            .unwrap_or_default(),
        family: get("family")
            .and_then(|n| cx.string(n, "family"))
            .unwrap_or_default(),
        description: get("description")
            .and_then(|n| cx.string(n, "description"))
            .unwrap_or_default(),
        sources: get("sources")
            .map(|n| cx.string_list(n, "sources"))
            .unwrap_or_default(),
        rule_text: get("rule_text")
            .map(|n| cx.text_map(n, "rule_text"))
            .unwrap_or_default(),
        choices: get("choices")
            .map(|n| cx.text_map(n, "choices"))
            .unwrap_or_default(),
        chain,
        is_library,
        ..Default::default()
    };
    if let Some(v) = get("keliya")
        && !matches!(v.value, Value::Int(1))
    {
        cx.err(v.loc, "this keliya reads ruleset format 1 (`keliya: 1`)");
    }
    if !is_library && info.title.is_empty() && get("title").is_none() {
        cx.err(root.loc, "the ruleset has no `title`");
    }

    // Names first: players, pieces, params, vars. Everything after refers to them.
    let mut names = Names::default();
    if let Some(players) = get("players") {
        for (k, v) in cx.map(players, "players").unwrap_or(&[]) {
            let entries = if matches!(v.value, Value::Null) {
                &[][..]
            } else {
                cx.map(v, "a player").unwrap_or(&[])
            };
            cx.check_keys(entries, &["display"], "a player");
            let display = field(entries, "display")
                .and_then(|d| cx.string(d, "display"))
                .unwrap_or_else(|| k.name.clone());
            cx.ident_name(k, "player");
            names.players.push((k.name.clone(), k.loc));
            names.player_display.push(display);
        }
    } else if !is_library {
        cx.err(root.loc, "the ruleset has no `players`");
    }
    if !is_library && names.players.is_empty() && get("players").is_some() {
        cx.err(
            get("players").expect("checked").loc,
            "at least one player is needed",
        );
    }
    if names.players.len() > 16 {
        cx.err(
            get("players").expect("has players").loc,
            "at most 16 players",
        );
    }
    if let Some(pieces) = get("pieces") {
        for (k, v) in cx.map(pieces, "pieces").unwrap_or(&[]) {
            let entries = if matches!(v.value, Value::Null) {
                &[][..]
            } else {
                cx.map(v, "a piece").unwrap_or(&[])
            };
            cx.check_keys(entries, &["owner", "display", "role"], "a piece");
            let owner = field(entries, "owner").and_then(|o| cx.player_ref(o, &names));
            let display = field(entries, "display")
                .and_then(|d| cx.string(d, "display"))
                .unwrap_or_else(|| k.name.clone());
            cx.ident_name(k, "piece");
            let role =
                field(entries, "role").and_then(|r| cx.piece_role(r, &k.name, owner, &mut names));
            names.pieces.push((k.name.clone(), k.loc, owner, display));
            names.piece_roles.push(role);
        }
        if names.pieces.len() > 64 {
            cx.err(pieces.loc, "at most 64 kinds of piece");
        }
    }
    if let Some(params) = get("params") {
        for (k, v) in cx.map(params, "params").unwrap_or(&[]) {
            let value = match v.value {
                Value::Int(i) if i.unsigned_abs() <= i32::MAX as u64 => Some(i),
                Value::Bool(b) => Some(b as i64),
                // The rules language's numbers stop at 2147483647 (dsl.md), and so do parameters.
                Value::Int(i) => {
                    cx.err(
                        v.loc,
                        format!(
                            "parameter `{}` must be between {} and {}, found {i}",
                            k.name,
                            -i64::from(i32::MAX),
                            i32::MAX
                        ),
                    );
                    None
                }
                _ => {
                    cx.err(
                        v.loc,
                        format!(
                            "parameter `{}` must be a whole number or true/false, found {}",
                            k.name,
                            v.kind()
                        ),
                    );
                    None
                }
            };
            cx.ident_name(k, "parameter");
            // A parameter with a bad value is still known by name (the load fails on its error), so
            // that the rules reading it are not reported as well.
            names.params.push((k.name.clone(), value.unwrap_or(0)));
            names.param_locs.push(k.loc);
        }
    }
    info.params = names.params.clone();
    if let Some(vars) = get("vars") {
        for (k, v) in cx.map(vars, "vars").unwrap_or(&[]) {
            let entries = if matches!(v.value, Value::Null) {
                &[][..]
            } else {
                cx.map(v, "a variable").unwrap_or(&[])
            };
            cx.check_keys(entries, &["per_player", "initial"], "a variable");
            let per_player = field(entries, "per_player")
                .map(|n| cx.boolean(n, "per_player"))
                .unwrap_or(false);
            let initial = field(entries, "initial")
                .and_then(|n| cx.int(n, "initial", i32::MIN as i64, i32::MAX as i64))
                .unwrap_or(0);
            cx.ident_name(k, "variable");
            names.var_locs.push(k.loc);
            names.vars.push(VarDef {
                name: k.name.clone(),
                per_player,
                initial,
            });
        }
    }
    if let Some(parts) = get("parts") {
        for (k, v) in cx.map(parts, "parts").unwrap_or(&[]) {
            let (name, params) = cx.part_signature(k);
            if let Some(text) = v.as_str() {
                info.parts
                    .push((k.name.clone(), text.trim_end().to_string()));
            }
            names.parts.push(PartDef {
                name,
                params,
                loc: k.loc,
                node: v.clone(),
            });
        }
    }
    check_unique(&mut cx, &names);

    // Board.
    let board_spec = get("board").map(|b| board_spec(&mut cx, b));
    let board = match (&board_spec, is_library) {
        (Some(spec), _) => match spec.compile() {
            Ok(b) => Some(b),
            Err(errors) => {
                for e in errors {
                    let loc = cx.spans.get(e.origin).copied().unwrap_or_default();
                    let loc = get("board")
                        .and_then(|b| board_error_loc(b, loc, &e.message))
                        .unwrap_or(loc);
                    let d = Diagnostic::new(loc, e.message).maybe_hint(e.hint);
                    cx.diags.push(d);
                }
                // The rules are still checked against the names the board declares, so that a
                // mistake in the board is not reported again at every rule that names a site or track.
                names.sites = spec.sites.iter().map(|s| s.id.clone()).collect();
                names.tracks = spec.tracks.iter().map(|t| t.name.clone()).collect();
                for t in spec.sites.iter().flat_map(|s| &s.tags) {
                    if !names.tags.contains(t) {
                        names.tags.push(t.clone());
                    }
                }
                None
            }
        },
        (None, false) => {
            cx.err(root.loc, "the ruleset has no `board`");
            None
        }
        (None, true) => None,
    };
    if let Some(b) = &board {
        names.sites = b.names().to_vec();
        names.tracks = b.tracks.iter().map(|t| t.name.clone()).collect();
        for site_tags in &b.tags {
            for t in site_tags {
                if !names.tags.contains(t) {
                    names.tags.push(t.clone());
                }
            }
        }
        if names.tags.len() > 64 {
            cx.err(
                get("board").map_or(root.loc, |n| n.loc),
                "at most 64 different site tags",
            );
        }
        for t in &b.tracks {
            if let Some(o) = &t.owner
                && !names.players.iter().any(|(p, _)| p == o)
            {
                let loc = get("board").map_or(root.loc, |n| n.loc);
                cx.err(
                    loc,
                    format!("track `{}` is owned by unknown player `{o}`", t.name),
                );
            }
        }
        for (i, owner) in b.owner.iter().enumerate() {
            if let Some(o) = owner
                && !names.players.iter().any(|(p, _)| p == o)
            {
                let loc = get("board").map_or(root.loc, |n| n.loc);
                cx.err(
                    loc,
                    format!(
                        "site `{}` is owned by unknown player `{o}`",
                        b.name(i as u16)
                    ),
                );
            }
        }
    }

    // Rules and ends: DSL.
    let mut rules = Vec::new();
    let mut choice_names: Vec<Vec<String>> = Vec::new();
    if let Some(rs) = get("rules") {
        for (k, v) in cx.map(rs, "rules").unwrap_or(&[]) {
            // Not a mapping: reported here, and not again as a missing `do`/`when`.
            let Some(entries) = cx.map(v, "a rule") else {
                continue;
            };
            cx.check_keys(
                entries,
                &[
                    "player", "when", "do", "notation", "source", "fallback", "labels",
                ],
                "a rule",
            );
            if let Some(labels) = field(entries, "labels") {
                let labels = display::choice_labels(&mut cx, labels);
                info.move_labels.push((k.name.clone(), labels));
            }
            let player = field(entries, "player").and_then(|p| cx.player_ref(p, &names));
            // This rule's `choose` variables are the ones its body adds to `choice_names`.
            let first_choice = choice_names.len();
            let mut lw = Lowerer::new(&mut cx, &names, &mut choice_names);
            let when = field(entries, "when").and_then(|w| lw.expression(w, Some(Ty::Bool)));
            let body_node = field(entries, "do");
            let body = match body_node {
                Some(b) => lw.program(b),
                None => {
                    lw.cx.err(k.loc, format!("rule `{}` has no `do`", k.name));
                    None
                }
            };
            let body_ok = body.is_some();
            let body = body.unwrap_or_default();
            let locals = lw.max_slots;
            let notation = field(entries, "notation").and_then(|nn| {
                let n = cx.string(nn, "notation")?;
                // Checked only against a body that lowered: a broken body has already been reported.
                body_ok
                    .then(|| notation_parts(&mut cx, nn, &n, &choice_names[first_choice..]))
                    .flatten()
            });
            let source = field(entries, "source").and_then(|n| cx.string(n, "source"));
            let fallback = field(entries, "fallback")
                .map(|n| cx.boolean(n, "fallback"))
                .unwrap_or(false);
            info.rules.push(RuleInfo {
                name: k.name.clone(),
                player: field(entries, "player").and_then(|p| p.as_str().map(str::to_string)),
                when: field(entries, "when").and_then(|w| w.as_str().map(str::to_string)),
                body: body_node
                    .and_then(|b| b.as_str())
                    .unwrap_or_default()
                    .to_string(),
                source,
                loc: k.loc,
            });
            rules.push(RuleDef {
                fallback,
                name: k.name.clone(),
                player,
                when,
                body,
                notation,
                locals,
            });
        }
    } else if !is_library {
        cx.err(root.loc, "the ruleset has no `rules`");
    }
    if rules.len() > 1000 {
        cx.err(get("rules").expect("has rules").loc, "at most 1000 rules");
    }
    let mut ends = Vec::new();
    if let Some(es) = get("ends") {
        for (k, v) in cx.map(es, "ends").unwrap_or(&[]) {
            // Not a mapping: reported here, and not again as a missing `do`/`when`.
            let Some(entries) = cx.map(v, "an end condition") else {
                continue;
            };
            cx.check_keys(entries, &["when", "winner", "source"], "an end condition");
            let mut lw = Lowerer::new(&mut cx, &names, &mut choice_names);
            let when = match field(entries, "when") {
                Some(w) => lw.expression(w, Some(Ty::Bool)),
                None => {
                    lw.cx
                        .err(k.loc, format!("end condition `{}` has no `when`", k.name));
                    None
                }
            };
            let winner = match field(entries, "winner") {
                Some(w) if w.as_str() == Some("draw") => None,
                Some(w) => lw.expression(w, Some(Ty::Player)).map(Some).unwrap_or(None),
                None => {
                    lw.cx.err(
                        k.loc,
                        format!(
                            "end condition `{}` has no `winner` (a player, or `draw`)",
                            k.name
                        ),
                    );
                    None
                }
            };
            info.ends.push(RuleInfo {
                name: k.name.clone(),
                player: field(entries, "winner").and_then(|p| p.as_str().map(str::to_string)),
                when: field(entries, "when").and_then(|w| w.as_str().map(str::to_string)),
                body: String::new(),
                source: field(entries, "source").and_then(|n| n.as_str().map(str::to_string)),
                loc: k.loc,
            });
            if let Some(when) = when {
                ends.push(EndDef {
                    name: k.name.clone(),
                    when,
                    winner,
                });
            }
        }
    }

    let mut invariants = Vec::new();
    if let Some(inv) = get("invariants") {
        for (k, v) in cx.map(inv, "invariants").unwrap_or(&[]) {
            let mut lw = Lowerer::new(&mut cx, &names, &mut choice_names);
            if let Some(holds) = lw.expression(v, Some(Ty::Bool)) {
                let at = cx.origin(v.loc);
                invariants.push(keliya_engine::Invariant {
                    name: k.name.clone(),
                    holds,
                    at,
                });
            }
        }
    }

    let teams = get("teams")
        .map(|t| teams(&mut cx, t, &names))
        .unwrap_or_default();

    let turn_order: Vec<u8> = match get("turn_order") {
        Some(n) => match &n.value {
            Value::Seq(items) => items
                .iter()
                .filter_map(|i| cx.player_ref(i, &names))
                .collect(),
            _ => {
                cx.err(
                    n.loc,
                    format!("`turn_order` is a list of players, found {}", n.kind()),
                );
                Vec::new()
            }
        },
        None => (0..names.players.len() as u8).collect(),
    };
    if !is_library && turn_order.is_empty() && !names.players.is_empty() {
        cx.err(
            get("turn_order").map_or(root.loc, |n| n.loc),
            "`turn_order` is empty",
        );
    }

    let (throws, stored_throws, max_throws_per_turn, void_runs_of) =
        match get("throws").and_then(|t| throws(&mut cx, t)) {
            Some((rows, stored, most, void)) => (Some(rows), stored, most, void),
            None => (None, false, None, None),
        };
    let caps = get("caps").map(|c| caps(&mut cx, c)).unwrap_or_default();
    let limits = get("limits")
        .map(|l| cx.map(l, "limits").unwrap_or(&[]))
        .unwrap_or(&[]);
    cx.check_keys(
        limits,
        &[
            "max_steps_per_move",
            "max_options_per_position",
            "max_steps_per_game",
        ],
        "limits",
    );
    let max_steps = field(limits, "max_steps_per_move")
        .and_then(|n| cx.int(n, "max_steps_per_move", 1, 10_000_000))
        .unwrap_or(100_000) as u32;
    let max_options = field(limits, "max_options_per_position")
        .and_then(|n| cx.int(n, "max_options_per_position", 1, 10_000_000))
        .unwrap_or(1_000_000) as u32;
    let max_game_steps = field(limits, "max_steps_per_game")
        .and_then(|n| cx.int(n, "max_steps_per_game", 1, 1_000_000_000))
        .unwrap_or(10_000_000) as u32;

    // Setup needs the board and the pieces.
    let mut setup = Vec::new();
    if let Some(b) = &board {
        let kinds = names.pieces.len();
        setup = vec![0u16; b.len() * kinds];
        if let Some(s) = get("setup") {
            for (site_key, contents) in cx.map(s, "setup").unwrap_or(&[]) {
                let Some(site) = b.site(&site_key.name) else {
                    let hint = closest(&site_key.name, b.names().iter().map(String::as_str))
                        .map(|c| format!("did you mean `{c}`?"));
                    cx.diags.push(
                        Diagnostic::new(
                            site_key.loc,
                            format!("setup names unknown site `{}`", site_key.name),
                        )
                        .maybe_hint(hint),
                    );
                    continue;
                };
                for (piece_key, count) in cx.map(contents, "the pieces on a site").unwrap_or(&[]) {
                    let Some(p) = names.pieces.iter().position(|(n, ..)| *n == piece_key.name)
                    else {
                        let hint =
                            closest(&piece_key.name, names.pieces.iter().map(|p| p.0.as_str()))
                                .map(|c| format!("did you mean `{c}`?"));
                        cx.diags.push(
                            Diagnostic::new(
                                piece_key.loc,
                                format!("setup names unknown piece `{}`", piece_key.name),
                            )
                            .maybe_hint(hint),
                        );
                        continue;
                    };
                    if let Some(n) = cx.int(count, "a piece count", 0, u16::MAX as i64) {
                        setup[site as usize * kinds + p] = n as u16;
                    }
                }
            }
        }
    }

    info.display = get("display")
        .map(|d| display::display(&mut cx, d, &names, board.as_ref()))
        .unwrap_or_default();
    let hash = {
        // What a player is shown is not part of the game: records made before a ruleset says what to
        // display still replay after.
        let played = display::without_display(&root);
        let mut text = String::new();
        canonical(&played, &mut text);
        format!("{:016x}", fnv(text.as_bytes()))
    };
    if !cx.diags.is_empty() {
        cx.diags.sort_by_key(|d| (d.loc.file, d.loc.start));
        cx.diags.dedup();
        return Err(cx.diags);
    }
    let game = match (is_library, board) {
        (false, Some(board)) => {
            let hands = (0..names.players.len())
                .map(|p| {
                    (0..board.len() as u16).find(|&s| {
                        board.has_tag(s, "hand")
                            && board.owner[s as usize].as_deref()
                                == Some(names.players[p].0.as_str())
                    })
                })
                .collect();
            let mut game = Game {
                name: info.name.clone(),
                players: names
                    .players
                    .iter()
                    .zip(&names.player_display)
                    .map(|((n, _), d)| PlayerDef {
                        name: n.clone(),
                        display: d.clone(),
                    })
                    .collect(),
                teams,
                pieces: names
                    .pieces
                    .iter()
                    .zip(&names.piece_roles)
                    .map(|((n, _, owner, display), role)| PieceDef {
                        name: n.clone(),
                        display: display.clone(),
                        owner: *owner,
                        role: *role,
                    })
                    .collect(),
                roles: names.roles.iter().map(|(n, _)| n.clone()).collect(),
                vars: names.vars.clone(),
                setup,
                turn_order,
                rules,
                ends,
                throws,
                stored_throws,
                max_throws_per_turn,
                void_runs_of,
                caps,
                hands,
                choice_names,
                max_steps_per_move: max_steps,
                max_options_per_position: max_options,
                max_steps_per_game: max_game_steps,
                site_tags: board
                    .tags
                    .iter()
                    .map(|ts| {
                        ts.iter()
                            .filter_map(|t| names.tags.iter().position(|n| n == t))
                            .fold(0u64, |m, i| m | 1 << i)
                    })
                    .collect(),
                tag_names: names.tags.clone(),
                site_owner: board
                    .owner
                    .iter()
                    .map(|o| {
                        o.as_ref()
                            .and_then(|o| names.players.iter().position(|(p, _)| p == o))
                            .map(|i| i as u8)
                    })
                    .collect(),
                routes: names
                    .players
                    .iter()
                    .map(|(p, _)| {
                        board
                            .tracks
                            .iter()
                            .position(|t| t.owner.as_deref() == Some(p.as_str()))
                            .map(|i| i as u16)
                    })
                    .collect(),
                invariants,
                prefers: false,
                programs: Default::default(),
                board,
            };
            game.prefers = game.ranks_moves();
            if prepare {
                game.fold_constants();
            }
            Some(game)
        }
        _ => None,
    };
    Ok(Compiled {
        game,
        info,
        resolved: root,
        spans: cx.spans,
        hash,
    })
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn field<'a>(entries: &'a [(Key, Node)], name: &str) -> Option<&'a Node> {
    entries.iter().find(|(k, _)| k.name == name).map(|(_, v)| v)
}

#[derive(Default)]
struct Names {
    players: Vec<(String, Loc)>,
    player_display: Vec<String>,
    pieces: Vec<(String, Loc, Option<u8>, String)>,
    /// Each piece's role, an index into `roles`.
    piece_roles: Vec<Option<u16>>,
    /// Role names, where each is first written.
    roles: Vec<(String, Loc)>,
    /// Named parts of rule bodies (`parts:`).
    parts: Vec<PartDef>,
    params: Vec<(String, i64)>,
    param_locs: Vec<Loc>,
    vars: Vec<VarDef>,
    var_locs: Vec<Loc>,
    sites: Vec<String>,
    tracks: Vec<String>,
    tags: Vec<String>,
}

/// A named part of `parts:`: its name and parameters (the key, `name` or `name(a, b)`), where it is
/// declared, and its text.
struct PartDef {
    name: String,
    params: Vec<String>,
    loc: Loc,
    node: Node,
}

const AMBIENT: &[&str] = &["mover", "throw", "stuck", "ply", "turn"];

fn check_unique(cx: &mut Cx<'_>, names: &Names) {
    let mut seen: Vec<(String, &str)> = Vec::new();
    let mut check = |cx: &mut Cx<'_>, name: &str, what: &'static str, loc: Option<Loc>| {
        if (AMBIENT.contains(&name) || is_builtin(name))
            && let Some(loc) = loc
        {
            cx.err(
                loc,
                format!(
                    "`{name}` is a built-in name of the rules language and cannot name a {what}"
                ),
            );
        }
        // Players, pieces and sites may share a name (a rule reads it by the kind it expects there);
        // parameters and variables may not share one with anything.
        let clash = seen.iter().find(|(n, w)| {
            *n == name
                && (matches!(*w, "parameter" | "variable" | "role" | "part")
                    || matches!(what, "parameter" | "variable" | "role" | "part"))
        });
        if let Some((_, other)) = clash
            && let Some(loc) = loc
        {
            cx.diags.push(
                Diagnostic::new(loc, format!("`{name}` names both a {other} and a {what}")).hint(
                    "a parameter, variable, role or part name must differ from every other name; rename one",
                ),
            );
        }
        seen.push((name.to_string(), what));
    };
    for (n, l) in &names.players {
        check(cx, n, "player", Some(*l));
    }
    for (n, l, ..) in &names.pieces {
        check(cx, n, "piece", Some(*l));
    }
    for ((n, _), l) in names.params.iter().zip(&names.param_locs) {
        check(cx, n, "parameter", Some(*l));
    }
    for (v, l) in names.vars.iter().zip(&names.var_locs) {
        check(cx, &v.name, "variable", Some(*l));
    }
    // Last, so that a clash is reported at the role or part (the newer ways to name things).
    for (n, l) in &names.roles {
        check(cx, n, "role", Some(*l));
    }
    for part in &names.parts {
        check(cx, &part.name, "part", Some(part.loc));
    }
}

/// Splits a notation into its parts, checking that every `{name}` and `{name*sep}` names a choice
/// variable of the rule (`rule_choices`: the names bound by the rule's own `choose` statements). `None`
/// when the template has a problem, which is reported.
fn notation_parts(
    cx: &mut Cx<'_>,
    node: &Node,
    template: &str,
    rule_choices: &[Vec<String>],
) -> Option<Vec<NotationPart>> {
    let text = cx.sources.text(node.loc.file);
    // The file location of `template[a..b]`.
    let at = |a: usize, b: usize| Loc {
        file: node.loc.file,
        start: value_offset(text, node.loc, template, a),
        end: value_offset(text, node.loc, template, b - 1) + 1,
    };
    let mut parts = Vec::new();
    let mut ok = true;
    // Text between placeholders, `{{` and `}}` written as one brace each.
    let mut text = String::new();
    let mut i = 0;
    while let Some(c) = template[i..].chars().next() {
        if template[i..].starts_with("{{") || template[i..].starts_with("}}") {
            text.push(c);
            i += 2;
            continue;
        }
        if c != '{' {
            text.push(c);
            i += c.len_utf8();
            continue;
        }
        if !text.is_empty() {
            parts.push(NotationPart::Text(std::mem::take(&mut text)));
        }
        // A `{` met before the `}` means this one was left open: `{to*x {from}` is not a separator
        // `x {from`.
        let end = template[i + 1..].find(['{', '}']).map(|j| i + 1 + j);
        let Some(j) = end.filter(|&j| template[j..].starts_with('}')) else {
            cx.diags.push(
                Diagnostic::new(at(i, i + 1), "`{` in a notation is not closed")
                    .hint("a placeholder is `{name}` or `{name*separator}`, each closed by `}`"),
            );
            return None;
        };
        let inner = &template[i + 1..j];
        let (name, sep) = match inner.split_once('*') {
            Some((name, sep)) => (name, Some(sep)),
            None => (inner, None),
        };
        if !rule_choices.iter().flatten().any(|n| n == name) {
            ok = false;
            let mut known: Vec<&str> = rule_choices.iter().flatten().map(String::as_str).collect();
            known.sort_unstable();
            known.dedup();
            // The suggestion keeps the form written, `{to*x}` for `{too*x}`.
            let tail = sep.map(|s| format!("*{s}")).unwrap_or_default();
            let hint = closest(name, known.iter().copied())
                .map(|c| format!("did you mean `{{{c}{tail}}}`?"))
                .unwrap_or_else(|| {
                    if known.is_empty() {
                        "this rule has no `choose`; its notation can only be fixed text".into()
                    } else {
                        format!("the rule chooses `{}`", known.join("`, `"))
                    }
                });
            cx.diags.push(
                Diagnostic::new(
                    at(i, j + 1),
                    format!(
                        "notation names `{{{inner}}}`, which is not a `choose` variable of this rule"
                    ),
                )
                .hint(hint),
            );
        }
        parts.push(match sep {
            Some(sep) => NotationPart::Every {
                name: name.to_string(),
                sep: sep.to_string(),
            },
            None => NotationPart::Last(name.to_string()),
        });
        i = j + 1;
    }
    if !text.is_empty() {
        parts.push(NotationPart::Text(text));
    }
    ok.then_some(parts)
}

struct Cx<'a> {
    sources: &'a Sources,
    diags: Vec<Diagnostic>,
    /// Locations referred to by index from the board spec and the IR.
    spans: Vec<Loc>,
}

impl Cx<'_> {
    fn err(&mut self, loc: Loc, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(loc, msg));
    }
    fn origin(&mut self, loc: Loc) -> usize {
        self.spans.push(loc);
        self.spans.len() - 1
    }
    fn map<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [(Key, Node)]> {
        match &node.value {
            Value::Map(entries) => Some(entries),
            _ => {
                self.err(
                    node.loc,
                    format!(
                        "{what} should be a mapping (`key: value` lines), found {}",
                        node.kind()
                    ),
                );
                None
            }
        }
    }
    fn check_keys(&mut self, entries: &[(Key, Node)], allowed: &[&str], what: &str) {
        for (k, _) in entries {
            if !allowed.contains(&k.name.as_str()) {
                let hint = closest(&k.name, allowed.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| format!("the keys of {what} are: {}", allowed.join(", ")));
                self.diags.push(
                    Diagnostic::new(k.loc, format!("unknown key `{}` in {what}", k.name))
                        .hint(hint),
                );
            }
        }
    }
    fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match &node.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            // YAML reads a plain `no`, `yes`, `on` or `off` as a boolean; where text is expected (a site
            // called `no`, a player shown as `yes`) it is the text written.
            Value::Bool(_) => {
                let text = self.sources.text(node.loc.file);
                match (text.get(node.loc.start..node.loc.end), &node.value) {
                    (Some(written), _) if !written.is_empty() => Some(written.to_string()),
                    (_, value) => Some(matches!(value, Value::Bool(true)).to_string()),
                }
            }
            _ => {
                self.err(
                    node.loc,
                    format!("`{what}` should be text, found {}", node.kind()),
                );
                None
            }
        }
    }
    fn string_list(&mut self, node: &Node, what: &str) -> Vec<String> {
        match &node.value {
            Value::Seq(items) => items.iter().filter_map(|i| self.string(i, what)).collect(),
            _ => {
                self.err(
                    node.loc,
                    format!("`{what}` should be a list, found {}", node.kind()),
                );
                Vec::new()
            }
        }
    }
    /// A map of texts in the order written (a parent's entries first, after `extends`); `~` entries are
    /// the ones a delta removed.
    fn text_map(&mut self, node: &Node, what: &str) -> Vec<(String, String)> {
        match &node.value {
            Value::Map(entries) => entries
                .iter()
                .filter(|(_, v)| !matches!(v.value, Value::Null))
                .filter_map(|(k, v)| Some((k.name.clone(), self.string(v, what)?)))
                .collect(),
            _ => {
                self.err(
                    node.loc,
                    format!(
                        "`{what}` should be a map of rule ids to texts, found {}",
                        node.kind()
                    ),
                );
                Vec::new()
            }
        }
    }
    fn int(&mut self, node: &Node, what: &str, lo: i64, hi: i64) -> Option<i64> {
        match node.value {
            Value::Int(i) if (lo..=hi).contains(&i) => Some(i),
            Value::Int(i) => {
                self.err(
                    node.loc,
                    format!("`{what}` must be between {lo} and {hi}, found {i}"),
                );
                None
            }
            // A whole number that YAML read as a fractional one: too large for an integer
            // (`99999999999999999999`), or written with a leading 0 or an exponent (`09`, `1e3`).
            Value::Float(f) if f.is_finite() && f.fract() == 0.0 => {
                let message = if f < lo as f64 || f > hi as f64 {
                    format!("`{what}` must be between {lo} and {hi}, found {f:e}")
                } else {
                    format!(
                        "`{what}` should be a whole number written in plain digits, found one that \
                         YAML reads as a fractional number (a leading 0, or an exponent)"
                    )
                };
                self.err(node.loc, message);
                None
            }
            _ => {
                self.err(
                    node.loc,
                    format!("`{what}` should be a whole number, found {}", node.kind()),
                );
                None
            }
        }
    }
    fn float(&mut self, node: &Node, what: &str) -> Option<f64> {
        match node.value {
            Value::Float(f) if f.is_finite() => Some(f),
            Value::Int(i) => Some(i as f64),
            _ => {
                self.err(
                    node.loc,
                    format!("`{what}` should be a number, found {}", node.kind()),
                );
                None
            }
        }
    }
    fn boolean(&mut self, node: &Node, what: &str) -> bool {
        match node.value {
            Value::Bool(b) => b,
            _ => {
                self.err(
                    node.loc,
                    format!("`{what}` should be true or false, found {}", node.kind()),
                );
                false
            }
        }
    }
    fn ident_name(&mut self, key: &Key, what: &str) {
        let ok = key
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && key
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            self.diags.push(
                Diagnostic::new(
                    key.loc,
                    format!("{what} name `{}` is not a name the rules can use", key.name),
                )
                .hint("use letters, digits and `_`, starting with a letter"),
            );
        }
    }
    /// A part's key: `name`, or `name(a, b)` for a part with parameters. A mistake is reported and the
    /// part kept under the name as written, so that its uses are not reported again.
    fn part_signature(&mut self, key: &Key) -> (String, Vec<String>) {
        let Some((name, rest)) = key.name.split_once('(') else {
            self.ident_name(key, "part");
            return (key.name.clone(), Vec::new());
        };
        let name = name.trim_end();
        self.ident_name(
            &Key {
                name: name.to_string(),
                loc: key.loc,
            },
            "part",
        );
        let list = match rest.trim_end().strip_suffix(')') {
            Some(list) => list,
            None => {
                self.diags.push(
                    Diagnostic::new(key.loc, format!("part `{}` has no closing `)`", key.name))
                        .hint("write its parameters as `name(a, b)`"),
                );
                rest // (read as if closed, so that its uses are not reported too)
            }
        };
        let mut params: Vec<String> = Vec::new();
        for p in list.split(',').map(str::trim) {
            if p.is_empty() && list.trim().is_empty() {
                break; // `name()`: no parameters
            }
            let param = Key {
                name: p.to_string(),
                loc: key.loc,
            };
            self.ident_name(&param, "parameter");
            if params.iter().any(|q| q == p) {
                self.diags.push(Diagnostic::new(
                    key.loc,
                    format!("part `{name}` has two parameters called `{p}`"),
                ));
                continue;
            } else if AMBIENT.contains(&p) {
                self.diags.push(Diagnostic::new(
                    key.loc,
                    format!("`{p}` is a built-in name and cannot be a parameter of part `{name}`"),
                ));
            }
            params.push(p.to_string());
        }
        (name.to_string(), params)
    }
    /// A piece's `role:`, added to the ruleset's roles the first time it is written. A role needs an
    /// owner, and one player has at most one piece of each role (`role[player]` names one piece).
    fn piece_role(
        &mut self,
        node: &Node,
        piece: &str,
        owner: Option<u8>,
        names: &mut Names,
    ) -> Option<u16> {
        let name = self.string(node, "role")?;
        let key = Key {
            name: name.clone(),
            loc: node.loc,
        };
        self.ident_name(&key, "role");
        let Some(owner) = owner else {
            self.diags.push(
                Diagnostic::new(node.loc, format!("piece `{piece}` has a role but no owner"))
                    .hint("`role[player]` names a player's piece: give the piece an `owner`"),
            );
            return None;
        };
        let role = match names.roles.iter().position(|(r, _)| *r == name) {
            Some(i) => i,
            None => {
                names.roles.push((name.clone(), node.loc));
                names.roles.len() - 1
            }
        } as u16;
        let twin = names
            .pieces
            .iter()
            .zip(&names.piece_roles)
            .find(|((_, _, o, _), r)| *o == Some(owner) && **r == Some(role));
        if let Some(((other, ..), _)) = twin {
            let player = &names.players[owner as usize].0;
            self.diags.push(
                Diagnostic::new(
                    node.loc,
                    format!("player `{player}` already has a piece of role `{name}`: `{other}`"),
                )
                .hint("a player has at most one piece of each role; give this one another role"),
            );
            return None;
        }
        Some(role)
    }
    fn player_ref(&mut self, node: &Node, names: &Names) -> Option<u8> {
        let s = self.string(node, "player")?;
        match names.players.iter().position(|(p, _)| *p == s) {
            Some(i) => Some(i as u8),
            None => {
                let players: Vec<&str> = names.players.iter().map(|p| p.0.as_str()).collect();
                let hint = closest(&s, players.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .or_else(|| {
                        (!players.is_empty())
                            .then(|| format!("the players are `{}`", players.join("`, `")))
                    });
                self.diags.push(
                    Diagnostic::new(node.loc, format!("unknown player `{s}`")).maybe_hint(hint),
                );
                None
            }
        }
    }
}

/// `teams:`, a mapping of each team's name to its players: every name a player's, each player in one team
/// at most, no team named as a player (results are reported by team, `Game::sides`).
fn teams(cx: &mut Cx<'_>, node: &Node, names: &Names) -> Vec<TeamDef> {
    let mut teams: Vec<TeamDef> = Vec::new();
    for (k, v) in cx.map(node, "teams").unwrap_or(&[]) {
        if k.name.trim().is_empty() {
            cx.err(k.loc, "a team needs a name");
            continue;
        }
        if names.players.iter().any(|(p, _)| *p == k.name) {
            cx.err(
                k.loc,
                format!(
                    "team `{}` has the name of a player; a team needs a name of its own",
                    k.name
                ),
            );
            continue;
        }
        let Value::Seq(items) = &v.value else {
            cx.err(
                v.loc,
                format!("team `{}` is a list of players, found {}", k.name, v.kind()),
            );
            continue;
        };
        let mut players = Vec::new();
        for item in items {
            let Some(p) = cx.player_ref(item, names) else {
                continue;
            };
            let name = &names.players[p as usize].0;
            if let Some(other) = teams.iter().find(|t| t.players.contains(&p)) {
                cx.err(
                    item.loc,
                    format!("player `{name}` is already in team `{}`", other.name),
                );
            } else if players.contains(&p) {
                cx.err(item.loc, format!("player `{name}` is listed twice"));
            } else {
                players.push(p);
            }
        }
        if items.is_empty() {
            cx.err(v.loc, format!("team `{}` has no players", k.name));
        }
        teams.push(TeamDef {
            name: k.name.clone(),
            players,
        });
    }
    teams
}

/// A board error is located at its spec item: an edge's end, or a whole line or track. When the message
/// names the site at fault (an unknown site, two points not joined), point at that site's name instead.
fn board_error_loc(board: &Node, item: Loc, message: &str) -> Option<Loc> {
    let Value::Map(entries) = &board.value else {
        return None;
    };
    // The sites written in the item, in order, with their locations.
    let mut written: Vec<(&str, Loc)> = Vec::new();
    if let Some(Value::Map(edges)) = field(entries, "edges").map(|n| &n.value) {
        for (k, v) in edges {
            let targets = match &v.value {
                Value::Seq(items) => items.as_slice(),
                _ => std::slice::from_ref(v),
            };
            if let Some(t) = targets.iter().find(|t| t.loc == item) {
                written = vec![(k.name.as_str(), k.loc), (t.as_str()?, t.loc)];
            }
        }
    }
    for key in ["lines", "tracks"] {
        if let Some(Value::Map(paths)) = field(entries, key).map(|n| &n.value) {
            for (_, v) in paths.iter().filter(|(_, v)| v.loc == item) {
                let points = match &v.value {
                    Value::Map(e) => field(e, "points")?,
                    _ => v,
                };
                if let Value::Seq(items) = &points.value {
                    written = items
                        .iter()
                        .filter_map(|i| Some((i.as_str()?, i.loc)))
                        .collect();
                }
            }
        }
    }
    let named: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    if message.contains("unknown site") {
        let site = *named.last()?;
        return written.iter().find(|(n, _)| *n == site).map(|(_, l)| *l);
    }
    if message.contains("not joined") {
        let [.., a, b] = named.as_slice() else {
            return None;
        };
        return written.windows(2).find_map(|w| {
            (w[0].0 == *a && w[1].0 == *b).then(|| Loc {
                end: w[1].1.end,
                ..w[0].1
            })
        });
    }
    None
}

fn board_spec(cx: &mut Cx<'_>, node: &Node) -> BoardSpec {
    let entries = cx.map(node, "board").unwrap_or(&[]);
    cx.check_keys(
        entries,
        &["generate", "sites", "edges", "lines", "tracks"],
        "the board",
    );
    let mut generators = Vec::new();
    if let Some(g) = field(entries, "generate") {
        let items: &[Node] = match &g.value {
            Value::Seq(items) => items,
            _ => {
                cx.err(
                    g.loc,
                    format!("`generate` is a list of generators, found {}", g.kind()),
                );
                &[]
            }
        };
        for item in items {
            if let Some(made) = generator(cx, item) {
                let origin = cx.origin(item.loc);
                generators.push((made, origin));
            }
        }
    }
    let mut full = BoardSpec::with_generated(&generators, BoardSpec::default());
    // A written site without `at` that takes a generated site's place keeps its coordinates.
    let generated_at: HashMap<&str, (f64, f64)> =
        full.sites.iter().map(|s| (s.id.as_str(), s.at)).collect();
    let mut spec = BoardSpec::default();
    if let Some(sites) = field(entries, "sites") {
        for (k, v) in cx.map(sites, "sites").unwrap_or(&[]) {
            let origin = cx.origin(k.loc);
            let e = if matches!(v.value, Value::Null) {
                &[][..]
            } else {
                cx.map(v, "a site").unwrap_or(&[])
            };
            cx.check_keys(e, &["at", "tags", "owner", "offboard"], "a site");
            let at = match field(e, "at") {
                Some(n) => match &n.value {
                    Value::Seq(xy) if xy.len() == 2 => (
                        cx.float(&xy[0], "x").unwrap_or(0.0),
                        cx.float(&xy[1], "y").unwrap_or(0.0),
                    ),
                    _ => {
                        cx.err(n.loc, "`at` is a pair of coordinates, `[x, y]`");
                        (0.0, 0.0)
                    }
                },
                None => generated_at
                    .get(k.name.as_str())
                    .copied()
                    .unwrap_or((0.0, 0.0)),
            };
            spec.sites.push(SiteSpec {
                id: k.name.clone(),
                at,
                tags: field(e, "tags")
                    .map(|t| cx.string_list(t, "tags"))
                    .unwrap_or_default(),
                owner: field(e, "owner").and_then(|o| cx.string(o, "owner")),
                offboard: field(e, "offboard")
                    .map(|o| cx.boolean(o, "offboard"))
                    .unwrap_or(false),
                origin,
            });
        }
    }
    if let Some(edges) = field(entries, "edges") {
        for (k, v) in cx.map(edges, "edges").unwrap_or(&[]) {
            let targets = match &v.value {
                Value::Seq(items) => items.clone(),
                Value::Null => Vec::new(),
                _ => vec![v.clone()],
            };
            for t in &targets {
                if let Some(b) = cx.string(t, "an edge's end") {
                    let origin = cx.origin(t.loc);
                    spec.edges.push(EdgeSpec {
                        a: k.name.clone(),
                        b,
                        origin,
                    });
                }
            }
        }
    }
    // Tracks joined from segments (`{track: name}` or `{line: name}` among the points), filled in once
    // the generated paths exist: (the track's name, its points and segments).
    let mut joined: Vec<(String, Vec<PathItem>)> = Vec::new();
    for (key, list) in [("lines", &mut spec.lines), ("tracks", &mut spec.tracks)] {
        if let Some(paths) = field(entries, key) {
            for (k, v) in cx.map(paths, key).unwrap_or(&[]) {
                let origin = cx.origin(v.loc);
                let (points_node, owner, cyclic) = match &v.value {
                    Value::Map(e) => {
                        cx.check_keys(e, &["points", "owner", "cyclic"], "a track");
                        let cyclic = field(e, "cyclic")
                            .map(|c| cx.boolean(c, "cyclic"))
                            .unwrap_or(false);
                        (
                            field(e, "points"),
                            field(e, "owner").and_then(|o| cx.string(o, "owner")),
                            cyclic,
                        )
                    }
                    _ => (Some(v), None, false),
                };
                let points = match (key, points_node) {
                    ("tracks", Some(p)) if matches!(p.value, Value::Seq(_)) => {
                        let items = path_items(cx, p);
                        if items.iter().any(|i| matches!(i, PathItem::Segment { .. })) {
                            joined.push((k.name.clone(), items));
                            Vec::new()
                        } else {
                            items
                                .into_iter()
                                .filter_map(|i| match i {
                                    PathItem::Site(site) => Some(site),
                                    PathItem::Segment { .. } => None,
                                })
                                .collect()
                        }
                    }
                    _ => points_node
                        .map(|p| cx.string_list(p, key))
                        .unwrap_or_default(),
                };
                list.push(PathSpec {
                    name: k.name.clone(),
                    points,
                    owner,
                    cyclic,
                    origin,
                });
            }
        }
    }
    full.merge(spec);
    join_segments(cx, &mut full, joined);
    full
}

/// One entry of a track's `points`: a site, or a segment, the points of another track or a line
/// (`{track: name}`, `{line: name}`, with `reversed: true` to walk it backwards).
enum PathItem {
    Site(String),
    Segment {
        line: bool,
        name: String,
        reversed: bool,
        loc: Loc,
    },
}

fn path_items(cx: &mut Cx<'_>, node: &Node) -> Vec<PathItem> {
    let Value::Seq(items) = &node.value else {
        return Vec::new(); // only called on a list
    };
    items
        .iter()
        .filter_map(|item| match &item.value {
            Value::Map(e) => {
                cx.check_keys(e, &["track", "line", "reversed"], "a segment of a track");
                let reversed = field(e, "reversed")
                    .map(|r| cx.boolean(r, "reversed"))
                    .unwrap_or(false);
                let named = match (field(e, "track"), field(e, "line")) {
                    (Some(n), None) => Some((false, n)),
                    (None, Some(n)) => Some((true, n)),
                    _ => None,
                };
                match named {
                    Some((line, n)) => Some(PathItem::Segment {
                        line,
                        name: cx.string(n, "a segment")?,
                        reversed,
                        loc: n.loc,
                    }),
                    None => {
                        cx.err(
                            item.loc,
                            "a segment names one track (`track:`) or one line (`line:`)",
                        );
                        None
                    }
                }
            }
            _ => cx.string(item, "tracks").map(PathItem::Site),
        })
        .collect()
}

/// Fills in the points of the tracks joined from segments, each segment the points of a track or line
/// as written or generated (not itself joined from segments).
fn join_segments(cx: &mut Cx<'_>, spec: &mut BoardSpec, joined: Vec<(String, Vec<PathItem>)>) {
    let pending: Vec<String> = joined.iter().map(|(n, _)| n.clone()).collect();
    for (name, items) in joined {
        let mut points = Vec::new();
        for item in items {
            match item {
                PathItem::Site(site) => points.push(site),
                PathItem::Segment {
                    line,
                    name: part,
                    reversed,
                    loc,
                } => {
                    let (paths, what) = if line {
                        (&spec.lines, "line")
                    } else {
                        (&spec.tracks, "track")
                    };
                    if !line && pending.contains(&part) {
                        cx.err(
                            loc,
                            format!("track `{part}` is itself joined from segments"),
                        );
                        continue;
                    }
                    match paths.iter().find(|p| p.name == part) {
                        Some(p) if reversed => points.extend(p.points.iter().rev().cloned()),
                        Some(p) => points.extend(p.points.iter().cloned()),
                        None => {
                            let hint = closest(&part, paths.iter().map(|p| p.name.as_str()))
                                .map(|c| format!("did you mean `{c}`?"));
                            let d = Diagnostic::new(loc, format!("unknown {what} `{part}`"));
                            cx.diags.push(match hint {
                                Some(h) => d.hint(h),
                                None => d,
                            });
                        }
                    }
                }
            }
        }
        if let Some(track) = spec.tracks.iter_mut().find(|t| t.name == name) {
            track.points = points;
        }
    }
}

/// A `board: generate:` item as the loader reads it, or `None` where it is not a well-formed generator.
pub fn board_generator(sources: &Sources, node: &Node) -> Option<Generator> {
    let mut cx = Cx {
        sources,
        diags: Vec::new(),
        spans: Vec::new(),
    };
    generator(&mut cx, node).filter(|_| cx.diags.is_empty())
}

fn generator(cx: &mut Cx<'_>, node: &Node) -> Option<Generator> {
    let e = cx.map(node, "a generator")?;
    let [(k, v)] = e else {
        cx.err(
            node.loc,
            "a generator is one of `track`, `mancala`, `grid`, `triangle` or `cross` with its numbers",
        );
        return None;
    };
    let args = cx.map(v, "a generator's numbers").unwrap_or(&[]);
    let num = |cx: &mut Cx<'_>, name: &str| -> Option<u32> {
        match field(args, name) {
            Some(n) => cx.int(n, name, 1, 4096).map(|i| i as u32),
            None => {
                cx.err(v.loc, format!("generator `{}` needs `{name}`", k.name));
                None
            }
        }
    };
    let g = match k.name.as_str() {
        "track" => {
            cx.check_keys(args, &["prefix", "squares"], "a track generator");
            let prefix = field(args, "prefix")
                .and_then(|p| cx.string(p, "prefix"))
                .unwrap_or_else(|| "t".into());
            Generator::Track {
                prefix,
                squares: num(cx, "squares")?,
            }
        }
        "mancala" => {
            cx.check_keys(args, &["rows", "holes", "owners"], "a mancala generator");
            let owners = field(args, "owners")
                .map(|o| cx.string_list(o, "owners"))
                .unwrap_or_default();
            Generator::Mancala {
                rows: num(cx, "rows")?,
                holes: num(cx, "holes")?,
                owners,
            }
        }
        "grid" => {
            cx.check_keys(args, &["rows", "cols"], "a grid generator");
            Generator::Grid {
                rows: num(cx, "rows")?,
                cols: num(cx, "cols")?,
            }
        }
        "triangle" => {
            cx.check_keys(args, &["rays", "levels"], "a triangle generator");
            Generator::Triangle {
                rays: num(cx, "rays")?,
                levels: num(cx, "levels")?,
            }
        }
        "cross" => {
            cx.check_keys(
                args,
                &["squares", "arms", "columns", "centre"],
                "a cross generator",
            );
            Generator::Cross {
                squares: num(cx, "squares")?,
                arms: cross_arms(cx, field(args, "arms"))?,
                columns: cross_columns(cx, field(args, "columns"))?,
                centre: match field(args, "centre") {
                    Some(c) => Some(cx.string(c, "centre")?),
                    None => None,
                },
            }
        }
        other => {
            let hint = closest(
                other,
                ["track", "mancala", "grid", "triangle", "cross"].into_iter(),
            )
            .map(|c| format!("did you mean `{c}`?"));
            cx.diags.push(
                Diagnostic::new(k.loc, format!("unknown generator `{other}`")).maybe_hint(hint),
            );
            return None;
        }
    };
    if g.site_count() > keliya_board::generate_limit() as u64 {
        cx.err(
            node.loc,
            format!(
                "generator makes {} sites; at most {}",
                g.site_count(),
                keliya_board::generate_limit()
            ),
        );
        return None;
    }
    Some(g)
}

/// A cross's four arm prefixes (`arms`, bottom, right, top and left of the picture); `S`, `E`, `N`, `W`
/// when not given.
fn cross_arms(cx: &mut Cx<'_>, node: Option<&Node>) -> Option<[String; 4]> {
    let Some(node) = node else {
        return Some(["S", "E", "N", "W"].map(String::from));
    };
    let problems = cx.diags.len();
    let names = cx.string_list(node, "arms");
    if cx.diags.len() > problems {
        return None;
    }
    let Ok(arms) = <[String; 4]>::try_from(names) else {
        cx.err(
            node.loc,
            "`arms` names the four arms, drawn at the bottom, right, top and left of the picture",
        );
        return None;
    };
    for (i, a) in arms.iter().enumerate() {
        if arms[..i].contains(a) {
            cx.err(node.loc, format!("arm `{a}` is named twice in `arms`"));
            return None;
        }
    }
    Some(arms)
}

/// A cross's three columns (`columns`: each column's name and where it lies, `left`, `middle` or
/// `right`, in the order its squares are made); `L: left, M: middle, R: right` when not given.
fn cross_columns(cx: &mut Cx<'_>, node: Option<&Node>) -> Option<[(String, CrossColumn); 3]> {
    let Some(node) = node else {
        return Some([
            ("L".into(), CrossColumn::Left),
            ("M".into(), CrossColumn::Middle),
            ("R".into(), CrossColumn::Right),
        ]);
    };
    let entries = cx.map(node, "`columns`")?;
    let mut columns = Vec::new();
    for (k, v) in entries {
        let side = cx.string(v, "a column's place")?;
        let Some(place) = CrossColumn::from_name(&side) else {
            let hint = closest(&side, CrossColumn::NAMES.into_iter())
                .map(|c| format!("did you mean `{c}`?"));
            cx.diags.push(
                Diagnostic::new(
                    v.loc,
                    format!(
                        "column `{}` lies `{side}`: a column lies `left`, `middle` or `right`",
                        k.name
                    ),
                )
                .maybe_hint(hint),
            );
            return None;
        };
        if let Some((other, _)) = columns.iter().find(|(_, p)| *p == place) {
            cx.err(
                v.loc,
                format!("columns `{other}` and `{}` both lie `{side}`", k.name),
            );
            return None;
        }
        columns.push((k.name.clone(), place));
    }
    <[(String, CrossColumn); 3]>::try_from(columns)
        .ok()
        .or_else(|| {
            cx.err(
            node.loc,
            "`columns` names the three columns of an arm, one `left`, one `middle` and one `right`",
        );
            None
        })
}

/// What `throws:` says: the table, stored or not, the most throws a turn, the equal throws in a row void.
type Throws = (Vec<ThrowRow>, bool, Option<u16>, Option<u16>);

/// The throw table, whether throws are stored (`resolution: stored`) rather than each played in turn,
/// the most throws of one turn (`max_per_turn`), and how many equal throws in a row are void
/// (`void_runs_of`).
fn throws(cx: &mut Cx<'_>, node: &Node) -> Option<Throws> {
    let e = cx.map(node, "throws")?;
    cx.check_keys(
        e,
        &[
            "shells",
            "p",
            "table",
            "resolution",
            "max_per_turn",
            "void_runs_of",
        ],
        "throws",
    );
    let max_per_turn = field(e, "max_per_turn")
        .and_then(|n| cx.int(n, "max_per_turn", 1, 1000))
        .map(|n| n as u16);
    let stored = match field(e, "resolution") {
        None => false,
        Some(n) => match cx.string(n, "resolution").as_deref() {
            Some("each") => false,
            Some("stored") => true,
            Some(other) => {
                cx.err(
                    n.loc,
                    format!("`resolution` is `each` or `stored`, not `{other}`"),
                );
                false
            }
            None => false,
        },
    };
    let shells = field(e, "shells").and_then(|n| cx.int(n, "shells", 1, 32));
    // `p`: one mouth-up probability for every shell, or a list with one per shell.
    let mut per_shell: Option<Vec<f64>> = None;
    let mut p = 0.5;
    if let Some(pn) = field(e, "p") {
        match &pn.value {
            Value::Seq(items) => {
                let list: Vec<f64> = items
                    .iter()
                    .map(|i| cx.float(i, "p").unwrap_or(0.5))
                    .collect();
                if shells.is_some_and(|n| n as usize != list.len()) {
                    cx.err(
                        pn.loc,
                        format!(
                            "`p` lists {} probabilities for {} shells",
                            list.len(),
                            shells.unwrap_or(0)
                        ),
                    );
                }
                if list.iter().any(|x| !(0.0..=1.0).contains(x)) {
                    cx.err(pn.loc, "every probability in `p` is between 0 and 1");
                }
                per_shell = Some(list);
            }
            _ => {
                p = cx.float(pn, "p").unwrap_or(0.5);
                if !(0.0..=1.0).contains(&p) {
                    cx.err(pn.loc, "`p` is a probability, between 0 and 1");
                }
            }
        }
    }
    let mouths_up = |n: u32, up: u32| match &per_shell {
        Some(list) => poisson_binomial(list, up),
        None => binomial(n, up, p),
    };
    let Some(table) = field(e, "table") else {
        cx.diags.push(
            Diagnostic::new(
                node.loc,
                "`throws` needs a `table`: what each number of shells mouth up is worth",
            )
            .hint(
                "e.g. `table: {0: {name: none, value: 8}, 1: {name: one, value: 1, again: true}}`",
            ),
        );
        return None;
    };
    let mut rows = Vec::new();
    for (k, v) in cx.map(table, "a throw table").unwrap_or(&[]) {
        let r = cx.map(v, "a throw").unwrap_or(&[]);
        cx.check_keys(r, &["name", "value", "again", "probability"], "a throw");
        let probability = match (field(r, "probability"), shells) {
            (Some(pn), _) => match cx.float(pn, "probability") {
                Some(x) if (0.0..=1.0).contains(&x) => x,
                Some(x) => {
                    cx.err(
                        pn.loc,
                        format!("a probability is between 0 and 1, found {x}"),
                    );
                    x // kept, so the sum below does not report the same mistake again
                }
                None => 0.0,
            },
            (None, Some(n)) => match k.name.parse::<u32>() {
                Ok(up) if up <= n as u32 => mouths_up(n as u32, up),
                _ => {
                    cx.err(
                        k.loc,
                        format!("with {n} shells a row is keyed by the number mouth up, 0 to {n}"),
                    );
                    0.0
                }
            },
            (None, None) => {
                cx.err(
                    v.loc,
                    "a throw needs a `probability`, or `shells` for the whole table",
                );
                0.0
            }
        };
        rows.push(ThrowRow {
            name: field(r, "name")
                .and_then(|n| cx.string(n, "name"))
                .unwrap_or_else(|| k.name.clone()),
            value: field(r, "value")
                .and_then(|n| cx.int(n, "value", -1000, 1000))
                .unwrap_or(0),
            probability,
            again: field(r, "again")
                .map(|n| cx.boolean(n, "again"))
                .unwrap_or(false),
        });
    }
    let total: f64 = rows.iter().map(|r| r.probability).sum();
    if (total - 1.0).abs() > 1e-9 {
        // At the `table:` key (a mapping's own location is its first row); the sum without float noise.
        let at = e
            .iter()
            .find(|(k, _)| k.name == "table")
            .map_or(table.loc, |(k, _)| k.loc);
        let shown = (total * 1e9).round() / 1e9;
        cx.err(
            at,
            format!("the throw probabilities add up to {shown}, not 1"),
        );
    }
    // Stored throws are held until a throw without `again` or until `max_per_turn` throws: one of
    // the two must be possible, or the player would throw for ever.
    if stored && max_per_turn.is_none() && !rows.iter().any(|r| !r.again && r.probability > 0.0) {
        let at = field(e, "resolution").map_or(node.loc, |n| n.loc);
        cx.err(
            at,
            "with `resolution: stored` some throw must end the run of throws: every possible throw here \
             has `again: true` and no `max_per_turn` ends the run",
        );
    }
    // A run of equal throws is seen only among the throws held (stored throws).
    let void_runs_of = field(e, "void_runs_of").and_then(|n| {
        let runs = cx.int(n, "void_runs_of", 2, 1000)? as u16;
        if !stored {
            cx.diags.push(
                Diagnostic::new(n.loc, "`void_runs_of` needs stored throws").hint(
                    "equal throws in a row are held before they are played only with `resolution: stored`",
                ),
            );
            return None;
        }
        Some(runs)
    });
    Some((rows, stored, max_per_turn, void_runs_of))
}

/// Probability that exactly `k` shells land mouth up when shell i does so with probability `ps[i]`.
fn poisson_binomial(ps: &[f64], k: u32) -> f64 {
    // dist[j]: probability of j mouths up among the shells seen so far.
    let mut dist = vec![1.0];
    for &p in ps {
        let mut next = vec![0.0; dist.len() + 1];
        for (j, &d) in dist.iter().enumerate() {
            next[j] += d * (1.0 - p);
            next[j + 1] += d * p;
        }
        dist = next;
    }
    dist.get(k as usize).copied().unwrap_or(0.0)
}

fn binomial(n: u32, k: u32, p: f64) -> f64 {
    let mut c = 1.0;
    for i in 0..k {
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

fn caps(cx: &mut Cx<'_>, node: &Node) -> Caps {
    let e = cx.map(node, "caps").unwrap_or(&[]);
    cx.check_keys(e, &["max_turns", "no_capture_turns", "repetition"], "caps");
    let mut get = |name: &str, lo: i64| {
        field(e, name)
            .and_then(|n| cx.int(n, name, lo, 10_000_000))
            .map(|v| v as u32)
    };
    Caps {
        max_turns: get("max_turns", 1),
        no_capture_turns: get("no_capture_turns", 1),
        repetition: get("repetition", 2),
    }
}

// ---------------------------------------------------------------------------------------------------------
// DSL lowering

// The language's built-ins, with their signatures, are declared once, in the engine.
use eng::Ty;
use eng::builtins::{DOMAINS, EFFECTS, FUNCS};

/// Functions and effects added to the language after its first format version. Their names are not
/// reserved: a ruleset of format 1 that used one for a parameter, a variable or a local still loads and
/// plays the same, and since a built-in is only ever called, `name(...)` is always the built-in.
const NOT_RESERVED: &[&str] = &[
    "piece_of", "point_on", "side", "repeats", "reject", "held", "beyond", "spend",
];

/// Argument types as a message lists them: "a player", "a track and a site".
fn args_named(args: &[Ty]) -> String {
    let names: Vec<&str> = args.iter().map(|t| t.name()).collect();
    match names.as_slice() {
        [] => "no argument".into(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn is_builtin(name: &str) -> bool {
    !NOT_RESERVED.contains(&name)
        && (name == "none"
            || FUNCS.iter().any(|f| f.name == name)
            || EFFECTS.iter().any(|e| e.name == name)
            || DOMAINS.iter().any(|d| d.name == name))
}

struct Lowerer<'c, 'a> {
    cx: &'c mut Cx<'a>,
    names: &'c Names,
    choice_names: &'c mut Vec<Vec<String>>,
    scopes: Vec<(String, u16, Ty)>,
    /// Locals whose `let` failed, already reported: naming one later is not reported again.
    poisoned: Vec<String>,
    max_slots: usize,
    /// The YAML string being lowered, to map DSL offsets into the file.
    node: Option<(Loc, String)>,
    /// Where each byte of `node`'s string stands in the file, worked out at its first location.
    offsets: Vec<usize>,
    /// The parts being written in, innermost last (a part that uses itself is an error, not a loop).
    parts_in_use: Vec<String>,
    /// The texts (and their offsets) of the rule and parts that are using the part being lowered.
    saved_texts: Vec<SavedText>,
    /// Parts written in so far (each use counts, nested ones too), against [`MAX_PARTS_WRITTEN`].
    parts_written: u32,
    /// The parameters of the part being written in that stand for their arguments, with them.
    standing_for: Vec<(String, (eng::Expr, Ty))>,
    /// The parameters of the statement part being written in that are locals: their entries in
    /// `scopes`, and their names (hidden while a part it uses is written in, dropped when it ends).
    own_params: Vec<(usize, String)>,
}

/// The text a part's use interrupts, where each of its bytes stands, and the arguments its parameters
/// stand for (see [`Lowerer::enter_part`]).
type SavedText = (
    Option<(Loc, String)>,
    Vec<usize>,
    Vec<(String, (eng::Expr, Ty))>,
    Vec<(usize, String)>,
);

/// Whether the statements set, declare or bind `name` anywhere (an assignment, a `let`, a loop's or
/// choice's variable): a parameter they do is given a local of its own.
fn sets_name(stmts: &[dsl::Stmt], name: &str) -> bool {
    use dsl::StmtKind as K;
    stmts.iter().any(|s| match &s.kind {
        K::Choose { vars, body, .. } | K::For { vars, body, .. } => {
            vars.iter().any(|v| v.name == name) || sets_name(body, name)
        }
        K::If {
            then, otherwise, ..
        } => sets_name(then, name) || sets_name(otherwise, name),
        K::While { body, .. } => sets_name(body, name),
        K::Let { name: n, .. } => n.name == name,
        K::Assign { target, .. } => target.name == name,
        K::Call { .. } => false,
    })
}

/// Most parts written into one rule, condition or invariant, nested uses counted: parts that each use
/// another twice would otherwise double the rule at every level.
const MAX_PARTS_WRITTEN: u32 = 1000;

type Lowered<T> = Result<T, ()>;

impl<'c, 'a> Lowerer<'c, 'a> {
    fn new(cx: &'c mut Cx<'a>, names: &'c Names, choice_names: &'c mut Vec<Vec<String>>) -> Self {
        Lowerer {
            cx,
            names,
            choice_names,
            scopes: Vec::new(),
            poisoned: Vec::new(),
            max_slots: 0,
            node: None,
            offsets: Vec::new(),
            parts_in_use: Vec::new(),
            saved_texts: Vec::new(),
            parts_written: 0,
            standing_for: Vec::new(),
            own_params: Vec::new(),
        }
    }

    fn text<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n str> {
        match &node.value {
            Value::Str(s) => {
                self.node = Some((node.loc, s.clone()));
                self.offsets.clear();
                Some(s)
            }
            Value::Bool(b) => {
                self.node = Some((node.loc, b.to_string()));
                self.offsets.clear();
                Some(if *b { "true" } else { "false" })
            }
            _ => {
                self.cx.err(
                    node.loc,
                    format!(
                        "{what} should be rules-language text, found {}",
                        node.kind()
                    ),
                );
                None
            }
        }
    }

    fn loc(&mut self, span: dsl::Span) -> Loc {
        let Some((scalar, value)) = &self.node else {
            return Loc::default();
        };
        let text = self.cx.sources.text(scalar.file);
        // Every statement and call of a text gets a location (runtime errors name it): one walk over
        // the text for all of them.
        if self.offsets.is_empty() {
            self.offsets = value_offsets(text, *scalar, value);
        }
        let offset = |i: usize| self.offsets[i.min(self.offsets.len() - 1)];
        let start = offset(span.start);
        let end = if span.end > span.start {
            offset(span.end - 1) + 1
        } else {
            start
        };
        Loc {
            file: scalar.file,
            start,
            end: end.max(start),
        }
    }

    fn err(&mut self, span: dsl::Span, msg: impl Into<String>) {
        let loc = self.loc(span);
        self.cx.err(loc, msg);
    }

    fn err_hint(&mut self, span: dsl::Span, msg: impl Into<String>, hint: Option<String>) {
        let loc = self.loc(span);
        self.cx
            .diags
            .push(Diagnostic::new(loc, msg).maybe_hint(hint));
    }

    fn at(&mut self, span: dsl::Span) -> usize {
        let loc = self.loc(span);
        self.cx.origin(loc)
    }

    fn expression(&mut self, node: &Node, want: Option<Ty>) -> Option<eng::Expr> {
        let text = self.text(node, "a condition")?;
        match dsl::parse_expression(text) {
            Ok(e) => {
                let (ir, ty) = self.expr(&e, want).ok()?;
                if let Some(w) = want
                    && ty != w
                {
                    self.err(
                        e.span,
                        format!("expected {}, found {}", w.name(), ty.name()),
                    );
                    return None;
                }
                Some(ir)
            }
            Err(e) => {
                self.err_hint(e.span, e.message, e.hint);
                None
            }
        }
    }

    fn program(&mut self, node: &Node) -> Option<Vec<eng::Stmt>> {
        let text = self.text(node, "`do`")?;
        match dsl::parse_program(text) {
            Ok(stmts) => self.block(&stmts).ok(),
            Err(e) => {
                self.err_hint(e.span, e.message, e.hint);
                None
            }
        }
    }

    fn block(&mut self, stmts: &[dsl::Stmt]) -> Lowered<Vec<eng::Stmt>> {
        let depth = self.scopes.len();
        let lowered = self.statements(stmts);
        self.scopes.truncate(depth);
        lowered
    }

    /// The statements of a block, in the scope they stand in: the locals they declare stay declared
    /// (the block closes them; a part's are the block's that uses it).
    fn statements(&mut self, stmts: &[dsl::Stmt]) -> Lowered<Vec<eng::Stmt>> {
        let mut out = Vec::new();
        let mut failed = false;
        for s in stmts {
            let lowered = match &s.kind {
                dsl::StmtKind::Call { name, args } if self.part(&name.name).is_some() => {
                    self.statement_part(name, args).map(|part| out.extend(part))
                }
                _ => self.stmt(s).map(|x| out.push(x)),
            };
            failed |= lowered.is_err();
        }
        if failed { Err(()) } else { Ok(out) }
    }

    /// The part of `parts:` called `name`, if any.
    fn part(&self, name: &str) -> Option<&'c PartDef> {
        let names: &'c Names = self.names;
        names.parts.iter().find(|p| p.name == name)
    }

    /// `name(args)` as a statement: the part's statements, written in as if they stood here: they read
    /// and set the rule's locals, and a local a part declares stays declared after it. A parameter given
    /// a local's name is that local (the part may set it); any other argument is worked out once, when
    /// the part begins, into a local of the part. (A constant, or `mover`, that the part never sets
    /// stands for itself instead: it cannot change within the move, and so it stays foldable.)
    fn statement_part(&mut self, name: &dsl::Ident, args: &[dsl::Expr]) -> Lowered<Vec<eng::Stmt>> {
        let args = self.part_arguments(name, args)?;
        let part = self.enter_part(name)?;
        let stmts = match self.text(&part.node, "a part").map(dsl::parse_program) {
            Some(Ok(stmts)) => stmts,
            Some(Err(e)) => {
                self.err_hint(e.span, e.message, e.hint);
                return self.leave_part(Err(()));
            }
            None => return self.leave_part(Err(())),
        };
        let mut out = Vec::new();
        for (param, (value, ty)) in part.params.iter().zip(args) {
            match value {
                eng::Expr::Local(slot) => {
                    self.own_params.push((self.scopes.len(), param.clone()));
                    self.scopes.push((param.clone(), slot, ty));
                }
                eng::Expr::Const(_) | eng::Expr::Ambient(eng::Ambient::Mover)
                    if !sets_name(&stmts, param) =>
                {
                    self.standing_for.push((param.clone(), (value, ty)));
                }
                value => {
                    self.own_params.push((self.scopes.len(), param.clone()));
                    let slot = self.scopes.len() as u16;
                    self.scopes.push((param.clone(), slot, ty));
                    self.max_slots = self.max_slots.max(self.scopes.len());
                    out.push(eng::Stmt::SetLocal {
                        slot,
                        op: eng::AssignOp::Set,
                        value,
                    });
                }
            }
        }
        let lowered = self.statements(&stmts).map(|s| out.extend(s));
        self.leave_part(lowered).map(|()| out)
    }

    /// `name(args)` in an expression: the part's expression, as if written here, each parameter standing
    /// for its argument.
    fn expression_part(
        &mut self,
        name: &dsl::Ident,
        args: &[dsl::Expr],
        want: Option<Ty>,
    ) -> Lowered<(eng::Expr, Ty)> {
        let args = self.part_arguments(name, args)?;
        let part = self.enter_part(name)?;
        self.standing_for
            .extend(part.params.iter().cloned().zip(args));
        let lowered = match self.text(&part.node, "a part") {
            Some(text) => match dsl::parse_expression(text) {
                Ok(e) => self.expr(&e, want),
                Err(e) => {
                    self.err_hint(e.span, e.message, e.hint);
                    Err(())
                }
            },
            None => Err(()),
        };
        self.leave_part(lowered)
    }

    /// The arguments of a use of a part, checked against its parameters and lowered where they are
    /// written (in the text that uses the part).
    fn part_arguments(
        &mut self,
        name: &dsl::Ident,
        args: &[dsl::Expr],
    ) -> Lowered<Vec<(eng::Expr, Ty)>> {
        let part = self.part(&name.name).expect("called for a part");
        if args.len() != part.params.len() {
            let message = match part.params.len() {
                0 => format!("part `{}` takes no arguments", name.name),
                n => format!(
                    "part `{}` takes {n} argument{} ({}); {} given",
                    name.name,
                    if n == 1 { "" } else { "s" },
                    part.params.join(", "),
                    args.len()
                ),
            };
            let hint = match part.params.len() {
                0 => "a part's parameters are named in its key: `name(a, b): ...`".to_string(),
                _ => format!(
                    "one argument for each of `{}({})`",
                    part.name,
                    part.params.join(", ")
                ),
            };
            self.err_hint(name.span, message, Some(hint));
            return Err(());
        }
        let lowered: Vec<_> = args.iter().map(|a| self.expr(a, None)).collect();
        lowered.into_iter().collect()
    }

    /// Checks a use of a part and starts lowering its text (in the part's own location in the file).
    fn enter_part(&mut self, name: &dsl::Ident) -> Lowered<&'c PartDef> {
        let part = self.part(&name.name).expect("called for a part");
        if self.parts_in_use.contains(&name.name) {
            self.err_hint(
                name.span,
                format!("part `{}` uses itself", name.name),
                Some(format!(
                    "a part is written in where it is used, so this would never end: {} -> {}",
                    self.parts_in_use.join(" -> "),
                    name.name
                )),
            );
            return Err(());
        }
        self.parts_written = self.parts_written.saturating_add(1);
        if self.parts_written > MAX_PARTS_WRITTEN {
            if self.parts_written > MAX_PARTS_WRITTEN + 1 {
                return Err(()); // reported once, at the first use past the bound
            }
            self.err_hint(
                name.span,
                format!("more than {MAX_PARTS_WRITTEN} parts written into one rule"),
                Some("parts that use other parts several times multiply; use fewer".into()),
            );
            return Err(());
        }
        self.parts_in_use.push(name.name.clone());
        // The text of the rule is left for the part's and taken up again after it, and so are the
        // arguments its own parameters stand for: a part sees only its own.
        for (i, _) in &self.own_params {
            self.scopes[*i].0.clear();
        }
        self.saved_texts.push((
            self.node.take(),
            std::mem::take(&mut self.offsets),
            std::mem::take(&mut self.standing_for),
            std::mem::take(&mut self.own_params),
        ));
        Ok(part)
    }

    fn leave_part<T>(&mut self, lowered: Lowered<T>) -> Lowered<T> {
        self.parts_in_use.pop();
        // The part's parameters end with it (their slots stay taken); its own locals stay.
        for (i, _) in &self.own_params {
            self.scopes[*i].0.clear();
        }
        let (node, offsets, standing_for, own_params) = self.saved_texts.pop().expect("entered");
        self.node = node;
        self.offsets = offsets;
        self.standing_for = standing_for;
        self.own_params = own_params;
        for (i, name) in &self.own_params {
            self.scopes[*i].0.clone_from(name);
        }
        lowered
    }

    fn bind(&mut self, name: &dsl::Ident, ty: Ty) -> u16 {
        if AMBIENT.contains(&name.name.as_str()) {
            self.err(
                name.span,
                format!(
                    "`{}` is a built-in name and cannot be a variable",
                    name.name
                ),
            );
        }
        let slot = self.scopes.len() as u16;
        self.scopes.push((name.name.clone(), slot, ty));
        self.max_slots = self.max_slots.max(self.scopes.len());
        slot
    }

    fn stmt(&mut self, s: &dsl::Stmt) -> Lowered<eng::Stmt> {
        use dsl::StmtKind as K;
        Ok(match &s.kind {
            K::Choose {
                vars,
                domain,
                filter,
                body,
            }
            | K::For {
                vars,
                domain,
                filter,
                body,
            } => {
                let (dom, item_tys) = self.domain(domain)?;
                if vars.len() != item_tys.len() {
                    self.err(
                        vars[0].span,
                        format!(
                            "this domain gives {} value(s) per choice; {} name(s) given",
                            item_tys.len(),
                            vars.len()
                        ),
                    );
                    return Err(());
                }
                let depth = self.scopes.len();
                let slots: Vec<u16> = vars
                    .iter()
                    .zip(&item_tys)
                    .map(|(v, t)| self.bind(v, *t))
                    .collect();
                let filter = match filter {
                    Some(f) => Some(self.typed(f, Ty::Bool)?),
                    None => None,
                };
                let body = self.block(body);
                self.scopes.truncate(depth);
                let body = body?;
                let at = self.at(s.span);
                if matches!(s.kind, K::Choose { .. }) {
                    let id = self.choice_names.len() as u16;
                    self.choice_names
                        .push(vars.iter().map(|v| v.name.clone()).collect());
                    eng::Stmt::Choose {
                        id,
                        slots,
                        domain: dom,
                        filter,
                        body,
                        at,
                    }
                } else {
                    eng::Stmt::For {
                        slots,
                        domain: dom,
                        filter,
                        body,
                        at,
                    }
                }
            }
            K::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.typed(cond, Ty::Bool);
                let then = self.block(then);
                let otherwise = self.block(otherwise);
                eng::Stmt::If {
                    cond: cond?,
                    then: then?,
                    otherwise: otherwise?,
                }
            }
            K::While { cond, body } => {
                let cond = self.typed(cond, Ty::Bool);
                let body = self.block(body);
                eng::Stmt::While {
                    cond: cond?,
                    body: body?,
                    at: self.at(s.span),
                }
            }
            K::Let { name, value } => {
                let Ok((value, ty)) = self.expr(value, None) else {
                    self.poisoned.push(name.name.clone());
                    return Err(());
                };
                let slot = self.bind(name, ty);
                eng::Stmt::SetLocal {
                    slot,
                    op: eng::AssignOp::Set,
                    value,
                }
            }
            K::Assign {
                target,
                index,
                op,
                value,
            } => {
                let op = match op {
                    dsl::AssignOp::Set => eng::AssignOp::Set,
                    dsl::AssignOp::Add => eng::AssignOp::Add,
                    dsl::AssignOp::Sub => eng::AssignOp::Sub,
                };
                if let Some((_, slot, ty)) = self
                    .scopes
                    .iter()
                    .rev()
                    .find(|(n, ..)| *n == target.name)
                    .cloned()
                {
                    if index.is_some() {
                        self.err(
                            target.span,
                            format!(
                                "`{}` is a local value, not a per-player variable",
                                target.name
                            ),
                        );
                        return Err(());
                    }
                    if op != eng::AssignOp::Set && ty != Ty::Int {
                        self.err(
                            target.span,
                            format!(
                                "`{}` holds {}; only numbers can be added to or taken from",
                                target.name,
                                ty.name()
                            ),
                        );
                        return Err(());
                    }
                    let value = self.typed(value, ty)?;
                    return Ok(eng::Stmt::SetLocal { slot, op, value });
                }
                let Some(var) = self.names.vars.iter().position(|v| v.name == target.name) else {
                    if self.poisoned.contains(&target.name) {
                        // (Its `let` failed, and was reported.)
                        self.expr(value, None).ok();
                        return Err(());
                    }
                    let hint = closest(
                        &target.name,
                        self.names.vars.iter().map(|v| v.name.as_str()),
                    )
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| {
                        "declare it under `vars:`, or introduce a local with `let`".into()
                    });
                    self.err_hint(
                        target.span,
                        format!("unknown variable `{}`", target.name),
                        Some(hint),
                    );
                    return Err(());
                };
                let per_player = self.names.vars[var].per_player;
                let player = match (index, per_player) {
                    (Some(i), true) => Some(self.typed(i, Ty::Player)?),
                    (None, false) => None,
                    (None, true) => {
                        self.err_hint(
                            target.span,
                            format!("`{}` has one value per player", target.name),
                            Some(format!("write `{}[mover]` or name the player", target.name)),
                        );
                        return Err(());
                    }
                    (Some(_), false) => {
                        self.err(
                            target.span,
                            format!(
                                "`{}` is one value for the game; it takes no `[player]`",
                                target.name
                            ),
                        );
                        return Err(());
                    }
                };
                let value = self.typed(value, Ty::Int)?;
                eng::Stmt::SetVar {
                    var: var as u16,
                    player,
                    op,
                    value,
                    at: self.at(s.span),
                }
            }
            K::Call { name, args } => {
                let Some(def) = EFFECTS.iter().find(|e| e.name == name.name) else {
                    let names: Vec<&str> = EFFECTS.iter().map(|e| e.name).collect();
                    let hint = closest(&name.name, names.iter().copied())
                        .map(|c| format!("did you mean `{c}`?"))
                        .unwrap_or_else(|| format!("the effects are {}", names.join(", ")));
                    self.err_hint(
                        name.span,
                        format!("unknown effect `{}`", name.name),
                        Some(hint),
                    );
                    return Err(());
                };
                let args = self.args(name, args, def.args)?;
                eng::Stmt::Effect {
                    effect: def.effect,
                    args,
                    at: self.at(s.span),
                }
            }
        })
    }

    fn args(
        &mut self,
        name: &dsl::Ident,
        args: &[dsl::Expr],
        sig: &[Ty],
    ) -> Lowered<Vec<eng::Expr>> {
        if args.len() != sig.len() {
            let list: Vec<&str> = sig.iter().map(|t| t.name()).collect();
            self.err(
                name.span,
                format!(
                    "`{}` takes {} argument(s) ({}), {} given",
                    name.name,
                    sig.len(),
                    list.join(", "),
                    args.len()
                ),
            );
            return Err(());
        }
        let mut out = Vec::new();
        let mut failed = false;
        for (a, t) in args.iter().zip(sig) {
            match self.typed(a, *t) {
                Ok(x) => out.push(x),
                Err(()) => failed = true,
            }
        }
        if failed { Err(()) } else { Ok(out) }
    }

    fn domain(&mut self, e: &dsl::Expr) -> Lowered<(eng::Domain, Vec<Ty>)> {
        let dsl::ExprKind::Call { name, args } = &e.kind else {
            self.err_hint(
                e.span,
                "`choose` and `for` range over a domain".to_string(),
                Some("the domains are sites(), sites_with(piece), neighbours(site), leaps(site), range(a, b), track(name)".into()),
            );
            return Err(());
        };
        let Some(def) = DOMAINS.iter().find(|d| d.name == name.name) else {
            let names = DOMAINS.iter().map(|d| d.name);
            let hint = closest(&name.name, names.clone())
                .map(|c| format!("did you mean `{c}`?"))
                .unwrap_or_else(|| {
                    format!("the domains are {}", names.collect::<Vec<_>>().join(", "))
                });
            self.err_hint(
                name.span,
                format!("unknown domain `{}`", name.name),
                Some(hint),
            );
            return Err(());
        };
        let args = self.args(name, args, def.args)?;
        Ok(((def.make)(args), def.binds.to_vec()))
    }

    /// `x == true` where `x` is a number: one side a `true`/`false` literal, the other of number type.
    fn compares_a_number_with_truth(&mut self, left: &dsl::Expr, right: &dsl::Expr) -> bool {
        use dsl::ExprKind as K;
        let other = match (&left.kind, &right.kind) {
            (_, K::Bool(_)) => left,
            (K::Bool(_), _) => right,
            _ => return false,
        };
        // Typed on a scratch copy of the diagnostics: the real lowering reports the other side's errors.
        let saved = self.cx.diags.len();
        let ty = self.expr(other, None).map(|(_, t)| t);
        self.cx.diags.truncate(saved);
        ty == Ok(Ty::Int)
    }

    fn typed(&mut self, e: &dsl::Expr, want: Ty) -> Lowered<eng::Expr> {
        let (ir, ty) = self.expr(e, Some(want))?;
        if ty != want {
            self.err(
                e.span,
                format!("expected {}, found {}", want.name(), ty.name()),
            );
            return Err(());
        }
        Ok(ir)
    }

    fn expr(&mut self, e: &dsl::Expr, want: Option<Ty>) -> Lowered<(eng::Expr, Ty)> {
        use dsl::ExprKind as K;
        use eng::{Expr as X, Value as V};
        Ok(match &e.kind {
            K::Int(i) => (X::Const(V::Int(*i)), Ty::Int),
            K::Bool(b) => (X::Const(V::Bool(*b)), Ty::Bool),
            K::Site(name) => (X::Const(V::Site(self.site(name, e.span)?)), Ty::Site),
            K::Name(n) => self.name(n, e.span, want)?,
            K::Index { name, index } => {
                let is_var = self.names.vars.iter().any(|v| v.name == name.name);
                if let Some(role) = self.names.roles.iter().position(|(r, _)| *r == name.name)
                    && !is_var
                {
                    // `role[player]`: the player's piece of the role.
                    let player = self.typed(index, Ty::Player)?;
                    return Ok((
                        X::Call(
                            eng::Func::PieceOf,
                            vec![X::Const(V::Int(role as i64)), player],
                        ),
                        Ty::Piece,
                    ));
                }
                let Some(var) = self.names.vars.iter().position(|v| v.name == name.name) else {
                    let known = self
                        .names
                        .vars
                        .iter()
                        .filter(|v| v.per_player)
                        .map(|v| v.name.as_str())
                        .chain(self.names.roles.iter().map(|(r, _)| r.as_str()));
                    let n = &name.name;
                    let hint = closest(n, known)
                        .map(|c| format!("did you mean `{c}`?"))
                        .unwrap_or_else(|| {
                            format!(
                                "give each player's piece `role: {n}` under `pieces:`, or declare `{n}` \
                                 under `vars:` with `per_player: true`"
                            )
                        });
                    self.err_hint(
                        name.span,
                        format!("unknown per-player variable or role `{n}`"),
                        Some(hint),
                    );
                    return Err(());
                };
                if !self.names.vars[var].per_player {
                    self.err(
                        name.span,
                        format!(
                            "`{}` is one value for the game; it takes no `[player]`",
                            name.name
                        ),
                    );
                    return Err(());
                }
                let player = self.typed(index, Ty::Player)?;
                (
                    X::VarOf {
                        var: var as u16,
                        player: Box::new(player),
                    },
                    Ty::Int,
                )
            }
            K::Unary {
                op: dsl::UnOp::Not,
                operand,
            } => (X::Not(Box::new(self.typed(operand, Ty::Bool)?)), Ty::Bool),
            K::Unary {
                op: dsl::UnOp::Neg,
                operand,
            } => (X::Neg(Box::new(self.typed(operand, Ty::Int)?)), Ty::Int),
            K::Binary { op, left, right } => {
                use dsl::BinOp as B;
                let bop = match op {
                    B::Or => eng::BinOp::Or,
                    B::And => eng::BinOp::And,
                    B::Eq => eng::BinOp::Eq,
                    B::Ne => eng::BinOp::Ne,
                    B::Le => eng::BinOp::Le,
                    B::Ge => eng::BinOp::Ge,
                    B::Lt => eng::BinOp::Lt,
                    B::Gt => eng::BinOp::Gt,
                    B::Add => eng::BinOp::Add,
                    B::Sub => eng::BinOp::Sub,
                    B::Mul => eng::BinOp::Mul,
                    B::Div => eng::BinOp::Div,
                    B::Rem => eng::BinOp::Rem,
                };
                match op {
                    B::Or | B::And => {
                        let l = self.typed(left, Ty::Bool);
                        let r = self.typed(right, Ty::Bool);
                        (X::Bin(bop, Box::new(l?), Box::new(r?)), Ty::Bool)
                    }
                    B::Eq | B::Ne if self.compares_a_number_with_truth(left, right) => {
                        let side = if matches!(right.kind, K::Bool(_)) {
                            right
                        } else {
                            left
                        };
                        self.err_hint(
                            side.span,
                            "a number compared with `true` or `false`".to_string(),
                            Some(
                                "a condition is written as it is (`x == true` is `x`, `x == false` is \
                                 `not x`); a number is compared with a number (`x == 1`, `x > 0`)"
                                    .into(),
                            ),
                        );
                        return Err(());
                    }
                    B::Eq | B::Ne => {
                        // The side whose type is known decides how a bare name on the other side is read.
                        let (l, r) = if self.is_bare_name(left) && !self.is_bare_name(right) {
                            let (r, rt) = self.expr(right, None)?;
                            (self.typed(left, rt)?, r)
                        } else {
                            let (l, lt) = self.expr(left, None)?;
                            (l, self.typed(right, lt)?)
                        };
                        (X::Bin(bop, Box::new(l), Box::new(r)), Ty::Bool)
                    }
                    B::Le | B::Ge | B::Lt | B::Gt => {
                        let l = self.typed(left, Ty::Int);
                        let r = self.typed(right, Ty::Int);
                        (X::Bin(bop, Box::new(l?), Box::new(r?)), Ty::Bool)
                    }
                    _ => {
                        let l = self.typed(left, Ty::Int);
                        let r = self.typed(right, Ty::Int);
                        (X::Bin(bop, Box::new(l?), Box::new(r?)), Ty::Int)
                    }
                }
            }
            K::Call { name, args } if self.part(&name.name).is_some() => {
                self.expression_part(name, args, want)?
            }
            K::Call { name, args } => {
                let found = FUNCS
                    .iter()
                    .find(|f| f.name == name.name && f.args.len() == args.len())
                    .or_else(|| FUNCS.iter().find(|f| f.name == name.name));
                let Some(def) = found else {
                    let hint = if DOMAINS.iter().any(|d| d.name == name.name) {
                        Some(format!(
                            "`{}` is a domain: use it after `choose x in` or `for x in`",
                            name.name
                        ))
                    } else if EFFECTS.iter().any(|e| e.name == name.name) {
                        Some(format!(
                            "`{}` is an effect: write it as a statement of its own",
                            name.name
                        ))
                    } else {
                        // Domains and effects too: `neighbors` is a misspelt domain.
                        let known = FUNCS
                            .iter()
                            .map(|f| f.name)
                            .chain(DOMAINS.iter().map(|d| d.name))
                            .chain(EFFECTS.iter().map(|e| e.name));
                        closest(&name.name, known).map(|c| format!("did you mean `{c}`?"))
                    };
                    self.err_hint(name.span, format!("unknown function `{}`", name.name), hint);
                    return Err(());
                };
                let args = self.args(name, args, def.args)?;
                (X::Call(def.func, args), def.result)
            }
        })
    }

    fn is_bare_name(&self, e: &dsl::Expr) -> bool {
        matches!(&e.kind, dsl::ExprKind::Name(n)
            if !self.scopes.iter().any(|(s, ..)| s == n) && !AMBIENT.contains(&n.as_str())
               && !self.standing_for.iter().any(|(p, _)| p == n)
               && !self.names.params.iter().any(|(p, _)| p == n) && !self.names.vars.iter().any(|v| v.name == *n))
    }

    fn site(&mut self, name: &str, span: dsl::Span) -> Lowered<u16> {
        match self.names.sites.iter().position(|s| s == name) {
            Some(i) => Ok(i as u16),
            None => {
                let hint = closest(name, self.names.sites.iter().map(String::as_str))
                    .map(|c| format!("did you mean `@{c}`?"));
                self.err_hint(span, format!("unknown site `{name}`"), hint);
                Err(())
            }
        }
    }

    fn name(&mut self, n: &str, span: dsl::Span, want: Option<Ty>) -> Lowered<(eng::Expr, Ty)> {
        use eng::{Ambient as A, Expr as X, Value as V};
        if let Some((_, arg)) = self.standing_for.iter().rev().find(|(p, _)| p == n) {
            return Ok(arg.clone());
        }
        if let Some((_, slot, ty)) = self.scopes.iter().rev().find(|(s, ..)| s == n) {
            return Ok((X::Local(*slot), *ty));
        }
        if self.poisoned.iter().any(|p| p == n) {
            return Err(());
        }
        match n {
            "mover" => return Ok((X::Ambient(A::Mover), Ty::Player)),
            "throw" => return Ok((X::Ambient(A::Throw), Ty::Int)),
            "stuck" => return Ok((X::Ambient(A::Stuck), Ty::Bool)),
            "ply" => return Ok((X::Ambient(A::Ply), Ty::Int)),
            "turn" => return Ok((X::Ambient(A::Turn), Ty::Int)),
            // `none` stands for "no site / no player": what `along` gives past the end of a track.
            "none" => return Ok((X::Const(V::None), want.unwrap_or(Ty::Site))),
            _ => {}
        }
        match want {
            Some(Ty::Track) => {
                return match self.names.tracks.iter().position(|t| t == n) {
                    Some(i) => Ok((X::Const(V::Track(i as u16)), Ty::Track)),
                    None => {
                        let hint = FUNCS
                            .iter()
                            .find(|f| f.name == n && f.result == Ty::Track)
                            .map(|f| {
                                format!(
                                    "`{n}` is a function: call it, `{n}(...)`, with {}",
                                    args_named(f.args)
                                )
                            })
                            .or_else(|| {
                                closest(n, self.names.tracks.iter().map(String::as_str))
                                    .map(|c| format!("did you mean `{c}`?"))
                            })
                            .or_else(|| Some("tracks are declared under `board: tracks:`".into()));
                        self.err_hint(span, format!("unknown track `{n}`"), hint);
                        Err(())
                    }
                };
            }
            Some(Ty::Role) => {
                return match self.names.roles.iter().position(|(r, _)| r == n) {
                    Some(i) => Ok((X::Const(V::Int(i as i64)), Ty::Role)),
                    None => {
                        let hint = closest(n, self.names.roles.iter().map(|(r, _)| r.as_str()))
                            .map(|c| format!("did you mean `{c}`?"))
                            .or_else(|| Some("roles are given by pieces' `role:`".into()));
                        self.err_hint(span, format!("unknown role `{n}`"), hint);
                        Err(())
                    }
                };
            }
            Some(Ty::Tag) => {
                return match self.names.tags.iter().position(|t| t == n) {
                    Some(i) => Ok((X::Const(V::Int(i as i64)), Ty::Tag)),
                    None => {
                        let hint = closest(n, self.names.tags.iter().map(String::as_str))
                            .map(|c| format!("did you mean `{c}`?"))
                            .or_else(|| Some("no site of the board carries this tag".into()));
                        self.err_hint(span, format!("unknown tag `{n}`"), hint);
                        Err(())
                    }
                };
            }
            _ => {}
        }
        if let Some((_, v)) = self.names.params.iter().find(|(p, _)| p == n) {
            return Ok((X::Const(V::Int(*v)), Ty::Int));
        }
        if let Some(i) = self.names.vars.iter().position(|v| v.name == n) {
            if self.names.vars[i].per_player {
                self.err_hint(
                    span,
                    format!("`{n}` has one value per player"),
                    Some(format!("write `{n}[mover]` or name the player")),
                );
                return Err(());
            }
            let slot = self_var_slot(self.names, i);
            return Ok((X::Var { slot: slot as u16 }, Ty::Int));
        }
        let player = self.names.players.iter().position(|(p, _)| p == n);
        let piece = self.names.pieces.iter().position(|(p, ..)| p == n);
        let site = self.names.sites.iter().position(|s| s == n);
        let pick = |ty: Ty| match ty {
            Ty::Player => player.map(|i| (X::Const(V::Player(i as u8)), Ty::Player)),
            Ty::Piece => piece.map(|i| (X::Const(V::Piece(i as u8)), Ty::Piece)),
            Ty::Site => site.map(|i| (X::Const(V::Site(i as u16)), Ty::Site)),
            _ => None,
        };
        if let Some(found) = want.and_then(pick) {
            return Ok(found);
        }
        let candidates: Vec<(eng::Expr, Ty)> = [Ty::Player, Ty::Piece, Ty::Site]
            .into_iter()
            .filter_map(pick)
            .collect();
        match candidates.len() {
            1 => Ok(candidates.into_iter().next().expect("one")),
            0 => {
                let mut all: Vec<&str> = self.scopes.iter().map(|(s, ..)| s.as_str()).collect();
                all.extend(self.standing_for.iter().map(|(p, _)| p.as_str()));
                all.retain(|s| !s.is_empty()); // (the parameters of a part that has ended)
                all.extend(AMBIENT);
                all.extend(self.names.params.iter().map(|(p, _)| p.as_str()));
                all.extend(self.names.vars.iter().map(|v| v.name.as_str()));
                all.extend(self.names.players.iter().map(|(p, _)| p.as_str()));
                all.extend(self.names.pieces.iter().map(|p| p.0.as_str()));
                all.extend(self.names.sites.iter().map(String::as_str));
                let hint = closest(n, all.into_iter())
                    .map(|c| format!("did you mean `{c}`?"))
                    .or_else(|| {
                        // Nothing close: list the names of the kind wanted, when they are few.
                        let (kind, known): (&str, Vec<&str>) = match want {
                            Some(Ty::Player) => (
                                "players",
                                self.names.players.iter().map(|p| p.0.as_str()).collect(),
                            ),
                            Some(Ty::Piece) => (
                                "pieces",
                                self.names.pieces.iter().map(|p| p.0.as_str()).collect(),
                            ),
                            _ => ("", Vec::new()),
                        };
                        (!known.is_empty() && known.len() <= 12)
                            .then(|| format!("the {kind} are `{}`", known.join("`, `")))
                    });
                let what = want.map_or("name".to_string(), |w| {
                    format!("name (expected {})", w.name())
                });
                self.err_hint(span, format!("unknown {what} `{n}`"), hint);
                Err(())
            }
            _ => {
                let kinds: Vec<&str> = candidates.iter().map(|(_, t)| t.name()).collect();
                match want {
                    // The kind wanted is known and the name is not of it: a type error, not ambiguity.
                    Some(w) => {
                        let hint = (w == Ty::Site && player.is_some())
                            .then(|| format!("for the player's hand, write `hand({n})`"));
                        self.err_hint(
                            span,
                            format!(
                                "expected {}, found `{n}`, which names {}",
                                w.name(),
                                kinds.join(" and ")
                            ),
                            hint,
                        );
                    }
                    None => self.err_hint(
                        span,
                        format!("`{n}` could be {} here", kinds.join(" or ")),
                        Some(
                            "compare it with something of a known kind, or write a site as `@name`"
                                .into(),
                        ),
                    ),
                }
                Err(())
            }
        }
    }
}

fn self_var_slot(names: &Names, var: usize) -> usize {
    names.vars[..var]
        .iter()
        .map(|v| if v.per_player { names.players.len() } else { 1 })
        .sum()
}

//! The structural diff: two resolved YAML trees compared section by section, items matched by name.

use std::collections::BTreeMap;

use keliya_board::BoardSpec;
use keliya_engine::Game;
use keliya_rules::{FileId, Key, Node, YamlValue as V};

use crate::{About, Change, Diff, Kind, Section, Side, Span, line_diff};

/// Top-level keys with a section of their own (every key the schema knows); any other key is compared
/// as plain YAML under "other".
const KNOWN: &[&str] = keliya_rules::TOP_KEYS;

/// More sites or edges than this added (or removed) at once are shown as one change listing them.
const GROUP_OVER: usize = 8;

/// Compares two loaded rulesets. The result lists every change in section order, each with the lines of
/// both rulesets' files it comes from.
pub fn structural(a: Side<'_>, b: Side<'_>) -> Diff {
    let mut d = Differ {
        a: View::new(a),
        b: View::new(b),
        out: Vec::new(),
    };
    let (about_a, about_b) = (About::of(a), About::of(b));
    let mut notes = Vec::new();
    let same_family = about_a.family == about_b.family;
    if !same_family {
        notes.push(format!(
            "different families ({} and {}): the boards are compared by size only, everything else item \
             by item, by name",
            or_none(&about_a.family),
            or_none(&about_b.family)
        ));
    }
    if about_a.players != about_b.players && !about_a.is_library && !about_b.is_library {
        let mut sorted_a = about_a.players.clone();
        let mut sorted_b = about_b.players.clone();
        sorted_a.sort();
        sorted_b.sort();
        if sorted_a != sorted_b {
            notes.push(format!(
                "different players ({} and {}): players are matched by name",
                about_a.players.join(", "),
                about_b.players.join(", ")
            ));
        }
    }
    for (about, which) in [(&about_a, "first"), (&about_b, "second")] {
        if about.is_library {
            notes.push(format!(
                "the {which} ruleset, {}, is a library: its board and players are compared as written",
                about.name
            ));
        }
    }
    d.metadata();
    d.sources();
    d.players();
    d.keyed_generic(Section::Players, "teams", "team");
    d.pieces();
    d.board(same_family);
    d.setup();
    d.keyed_generic(Section::Params, "params", "param");
    d.vars();
    d.throws();
    d.parts();
    d.rules();
    d.ends();
    d.keyed_generic(Section::Caps, "caps", "cap");
    d.invariants();
    d.keyed_generic(Section::Limits, "limits", "limit");
    d.others();
    let mut changes = d.out;
    changes.sort_by_key(|c| c.section);
    Diff {
        a: about_a,
        b: about_b,
        notes,
        changes,
    }
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "none" } else { s }
}

// ---------------------------------------------------------------------------------------------------------
// YAML helpers

/// The entries of a mapping, without those whose value is `~` (a removal left by `extends`).
fn entries(node: Option<&Node>) -> Vec<(&Key, &Node)> {
    match node.map(|n| &n.value) {
        Some(V::Map(es)) => es
            .iter()
            .filter(|(_, v)| !matches!(v.value, V::Null))
            .map(|(k, v)| (k, v))
            .collect(),
        _ => Vec::new(),
    }
}

fn entry<'n>(node: Option<&'n Node>, key: &str) -> Option<(&'n Key, &'n Node)> {
    entries(node).into_iter().find(|(k, _)| k.name == key)
}

fn child<'n>(node: Option<&'n Node>, key: &str) -> Option<&'n Node> {
    entry(node, key).map(|(_, v)| v)
}

fn text_of(node: Option<&Node>) -> Option<String> {
    match node.map(|n| &n.value) {
        Some(V::Str(s)) => Some(s.clone()),
        Some(V::Int(i)) => Some(i.to_string()),
        Some(V::Bool(b)) => Some(b.to_string()),
        Some(V::Float(f)) => Some(f.to_string()),
        _ => None,
    }
}

fn bool_of(node: Option<&Node>) -> bool {
    matches!(node.map(|n| &n.value), Some(V::Bool(true)))
}

fn strings(node: Option<&Node>) -> Vec<String> {
    match node.map(|n| &n.value) {
        Some(V::Seq(items)) => items.iter().filter_map(|i| text_of(Some(i))).collect(),
        _ => text_of(node).into_iter().collect(),
    }
}

/// A YAML value with locations and key order dropped: what two files mean, whatever their layout.
#[derive(Clone, Debug, PartialEq)]
enum Canon {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Seq(Vec<Canon>),
    Map(BTreeMap<String, Canon>),
}

fn canon(node: &Node) -> Canon {
    match &node.value {
        V::Null => Canon::Null,
        V::Bool(b) => Canon::Bool(*b),
        V::Int(i) => Canon::Num(*i as f64),
        V::Float(f) => Canon::Num(*f),
        V::Str(s) => Canon::Str(s.clone()),
        V::Seq(items) => Canon::Seq(items.iter().map(canon).collect()),
        V::Map(_) => Canon::Map(
            entries(Some(node))
                .into_iter()
                .map(|(k, v)| (k.name.clone(), canon(v)))
                .collect(),
        ),
    }
}

/// A value in one line of flow-style YAML, strings quoted at the top level.
fn show(node: &Node) -> String {
    fn go(node: &Node, top: bool) -> String {
        match &node.value {
            V::Null => "~".into(),
            V::Bool(b) => b.to_string(),
            V::Int(i) => i.to_string(),
            V::Float(f) => num(*f),
            V::Str(s) => {
                let plain = !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
                if top || !plain {
                    serde_json::to_string(s).unwrap_or_default()
                } else {
                    s.clone()
                }
            }
            V::Seq(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|i| go(i, false))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            V::Map(_) => format!(
                "{{{}}}",
                entries(Some(node))
                    .into_iter()
                    .map(|(k, v)| format!("{}: {}", k.name, go(v, false)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    short(&go(node, true), 80)
}

/// A number as written: no `.0` on whole numbers.
fn num(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// A probability with six decimals at most, without trailing zeros.
fn prob(p: f64) -> String {
    let s = format!("{p:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".into() } else { s.into() }
}

/// At most `max` characters, with `...` when cut.
fn short(s: &str, max: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max.saturating_sub(3)).collect();
        format!("{}...", cut.trim_end())
    }
}

/// At most `max` characters of one line as written, with `...` when cut.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let c: String = s.chars().take(max.saturating_sub(3)).collect();
        format!("{}...", c.trim_end())
    }
}

/// Names in a list, at most `max` of them, then how many in all.
fn list(names: &[String], max: usize) -> String {
    if names.is_empty() {
        return "(none)".into();
    }
    if names.len() <= max {
        names.join(", ")
    } else {
        format!("{}, ... ({} in all)", names[..max].join(", "), names.len())
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Union of two name lists: the first's order, then the names only the second has.
fn union(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    for n in b {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

/// The entries of two mappings matched by key: `a`'s keys in order, then the keys only `b` has.
fn pair<'n>(
    a: &[(&'n Key, &'n Node)],
    b: &[(&'n Key, &'n Node)],
) -> Vec<(String, Option<Entry<'n>>, Option<Entry<'n>>)> {
    let find = |es: &[Entry<'n>], n: &str| es.iter().find(|(k, _)| k.name == n).copied();
    union(&names(a), &names(b))
        .into_iter()
        .map(|n| (n.clone(), find(a, &n), find(b, &n)))
        .collect()
}

type Entry<'n> = (&'n Key, &'n Node);

fn names(es: &[(&Key, &Node)]) -> Vec<String> {
    es.iter().map(|(k, _)| k.name.clone()).collect()
}

// ---------------------------------------------------------------------------------------------------------
// DSL texts in canonical form

/// The canonical text of a condition: parsed and printed. A text that does not parse (it cannot, in a
/// ruleset that loaded) is compared by its words.
fn expr_text(node: Option<&Node>) -> Option<String> {
    let text = text_of(node)?;
    Some(match keliya_dsl::parse_expression(&text) {
        Ok(e) => e.to_string(),
        Err(_) => short(&text, usize::MAX),
    })
}

/// The text of a part as the diff compares it: its statements (or, when it has none, its expression).
fn part_text(node: &Node) -> String {
    program_text(Some(node))
        .filter(|t| !t.is_empty())
        .or_else(|| expr_text(Some(node)))
        .unwrap_or_default()
}

/// The canonical text of a program, one statement per line, nested blocks indented.
fn program_text(node: Option<&Node>) -> Option<String> {
    let text = text_of(node)?;
    Some(match keliya_dsl::parse_program(&text) {
        Ok(stmts) => stmts
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
        Err(_) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

// ---------------------------------------------------------------------------------------------------------
// One side: its resolved tree, where things are in its files, and what its generators make

struct View<'a> {
    side: Side<'a>,
    root: &'a Node,
    /// The `board.generate` items with what each makes on its own.
    generated: Vec<(&'a Node, BoardSpec)>,
}

impl<'a> View<'a> {
    fn new(side: Side<'a>) -> Self {
        let root = &side.compiled.resolved;
        let board = child(Some(root), "board");
        let generated = match child(board, "generate").map(|g| &g.value) {
            Some(V::Seq(items)) => items
                .iter()
                .filter_map(|item| {
                    let g = keliya_rules::board_generator(side.sources, item)?;
                    Some((
                        item,
                        BoardSpec::with_generated(&[(g, 0)], BoardSpec::default()),
                    ))
                })
                .collect(),
            _ => Vec::new(),
        };
        View {
            side,
            root,
            generated,
        }
    }

    fn game(&self) -> Option<&'a Game> {
        self.side.compiled.game.as_ref()
    }

    fn top(&self, key: &str) -> Option<&'a Node> {
        child(Some(self.root), key)
    }

    fn top_entry(&self, key: &str) -> Option<(&'a Key, &'a Node)> {
        entry(Some(self.root), key)
    }

    fn at(&self, keys: &[&str]) -> Option<&'a Node> {
        let mut n = self.root;
        for k in keys {
            n = child(Some(n), k)?;
        }
        Some(n)
    }

    fn entry_at(&self, keys: &[&str], last: &str) -> Option<(&'a Key, &'a Node)> {
        entry(self.at(keys), last)
    }

    /// Lines `start..end` (bytes) of `file`.
    fn span(&self, file: FileId, start: usize, end: usize) -> Span {
        let sources = self.side.sources;
        let (line, _) = sources.line_col(file, start);
        let end_line = if end > start {
            sources.line_col(file, end - 1).0
        } else {
            line
        };
        let text = sources
            .text(file)
            .lines()
            .nth(line - 1)
            .map(|l| cut(l.trim(), 100))
            .unwrap_or_default();
        Span {
            file: sources.path(file).to_string(),
            line,
            end_line: end_line.max(line),
            text,
        }
    }

    /// A key with its value: from the key to the end of the value, in the key's file.
    fn entry_span(&self, key: &Key, value: &Node) -> Span {
        let file = key.loc.file;
        let mut range = (key.loc.start, key.loc.end.max(key.loc.start));
        extent(value, file, &mut range);
        self.span(file, range.0, range.1)
    }

    fn node_span(&self, node: &Node) -> Span {
        let file = node.loc.file;
        let mut range = (node.loc.start, node.loc.end.max(node.loc.start));
        extent(node, file, &mut range);
        self.span(file, range.0, range.1)
    }

    fn opt_entry_span(&self, e: Option<(&Key, &Node)>) -> Vec<Span> {
        e.map(|(k, v)| self.entry_span(k, v)).into_iter().collect()
    }

    /// Where a board item is written: under `board.<part>.<name>`, or the generator that makes it.
    fn board_item(&self, part: &str, name: &str, made: impl Fn(&BoardSpec) -> bool) -> Vec<Span> {
        if let Some((k, v)) = self.entry_at(&["board", part], name) {
            return vec![self.entry_span(k, v)];
        }
        self.generator_span(made)
    }

    fn generator_span(&self, made: impl Fn(&BoardSpec) -> bool) -> Vec<Span> {
        self.generated
            .iter()
            .filter(|(_, spec)| made(spec))
            .map(|(node, _)| self.node_span(node))
            .take(1)
            .collect()
    }

    fn site_span(&self, name: &str) -> Vec<Span> {
        self.board_item("sites", name, |s| s.sites.iter().any(|x| x.id == name))
    }

    fn edge_span(&self, x: &str, y: &str) -> Vec<Span> {
        let edges = self.at(&["board", "edges"]);
        for (from, to) in [(x, y), (y, x)] {
            if let Some(targets) = child(edges, from) {
                let items: Vec<&Node> = match &targets.value {
                    V::Seq(items) => items.iter().collect(),
                    _ => vec![targets],
                };
                if let Some(t) = items.iter().find(|t| t.as_str() == Some(to)) {
                    return vec![self.node_span(t)];
                }
            }
        }
        self.generator_span(|s| {
            s.edges
                .iter()
                .any(|e| (e.a == x && e.b == y) || (e.a == y && e.b == x))
        })
    }

    fn path_span(&self, part: &str, name: &str) -> Vec<Span> {
        self.board_item(part, name, |s| {
            let list = if part == "lines" { &s.lines } else { &s.tracks };
            list.iter().any(|p| p.name == name)
        })
    }

    /// Where a site's owner is written: its `owner:`, or the generator that gives it one.
    fn owner_span(&self, site: &str) -> Vec<Span> {
        if let Some((k, v)) = entry(self.at(&["board", "sites", site]), "owner") {
            return vec![self.entry_span(k, v)];
        }
        if let Some(spec_site) = self.at(&["board", "sites", site]) {
            return vec![self.node_span(spec_site)];
        }
        for (node, spec) in &self.generated {
            if spec.sites.iter().any(|s| s.id == site && s.owner.is_some()) {
                // The `owners:` list of the generator, if it has one.
                let owners = entries(Some(node))
                    .first()
                    .and_then(|(_, args)| entry(Some(args), "owners"));
                return match owners {
                    Some((k, v)) => vec![self.entry_span(k, v)],
                    None => vec![self.node_span(node)],
                };
            }
        }
        Vec::new()
    }
}

/// Widens `range` to cover every part of `node` written in `file`.
fn extent(node: &Node, file: FileId, range: &mut (usize, usize)) {
    let mut widen = |start: usize, end: usize| {
        range.0 = range.0.min(start);
        range.1 = range.1.max(end.max(start));
    };
    if node.loc.file == file {
        widen(node.loc.start, node.loc.end);
    }
    match &node.value {
        V::Seq(items) => {
            for i in items {
                extent(i, file, range);
            }
        }
        V::Map(es) => {
            for (k, v) in es {
                if k.loc.file == file {
                    range.0 = range.0.min(k.loc.start);
                    range.1 = range.1.max(k.loc.end);
                }
                extent(v, file, range);
            }
        }
        _ => {}
    }
}

/// Spans sorted by file and line, overlapping or touching ranges of one file merged.
fn merge_spans(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by(|x, y| (&x.file, x.line).cmp(&(&y.file, y.line)));
    let mut out: Vec<Span> = Vec::new();
    for s in spans {
        match out.last_mut() {
            Some(last) if last.file == s.file && s.line <= last.end_line + 1 => {
                last.end_line = last.end_line.max(s.end_line);
            }
            _ => out.push(s),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------------
// The sections

struct Differ<'a> {
    a: View<'a>,
    b: View<'a>,
    out: Vec<Change>,
}

impl Differ<'_> {
    #[allow(clippy::too_many_arguments)]
    fn removed(
        &mut self,
        section: Section,
        path: impl Into<String>,
        description: impl Into<String>,
        a: Span,
    ) {
        self.push(
            section,
            Kind::Removed,
            path,
            description,
            Vec::new(),
            vec![a],
            Vec::new(),
        );
    }

    fn added(
        &mut self,
        section: Section,
        path: impl Into<String>,
        description: impl Into<String>,
        b: Span,
    ) {
        self.push(
            section,
            Kind::Added,
            path,
            description,
            Vec::new(),
            Vec::new(),
            vec![b],
        );
    }

    // (One argument per field of a change: a struct would only name them twice.)
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        section: Section,
        kind: Kind,
        path: impl Into<String>,
        description: impl Into<String>,
        detail: Vec<String>,
        a: Vec<Span>,
        b: Vec<Span>,
    ) {
        self.out.push(Change {
            section,
            kind,
            path: path.into(),
            description: description.into(),
            detail,
            a: merge_spans(a),
            b: merge_spans(b),
        });
    }

    /// Two optional values at one path, compared as plain YAML: mappings key by key, the rest as a whole.
    fn generic(
        &mut self,
        section: Section,
        path: &str,
        label: &str,
        ea: Option<(&Key, &Node)>,
        eb: Option<(&Key, &Node)>,
    ) {
        match (ea, eb) {
            (None, None) => {}
            (Some((k, v)), None) => {
                let span = self.a.entry_span(k, v);
                self.push(
                    section,
                    Kind::Removed,
                    path,
                    format!("{label} removed (was {})", show(v)),
                    Vec::new(),
                    vec![span],
                    Vec::new(),
                );
            }
            (None, Some((k, v))) => {
                let span = self.b.entry_span(k, v);
                self.push(
                    section,
                    Kind::Added,
                    path,
                    format!("{label} added: {}", show(v)),
                    Vec::new(),
                    Vec::new(),
                    vec![span],
                );
            }
            (Some((ka, va)), Some((kb, vb))) => {
                if let (V::Map(_), V::Map(_)) = (&va.value, &vb.value) {
                    let (ma, mb) = (entries(Some(va)), entries(Some(vb)));
                    for (n, ca, cb) in pair(&ma, &mb) {
                        self.generic(
                            section,
                            &format!("{path}.{n}"),
                            &format!("{label}.{n}"),
                            ca,
                            cb,
                        );
                    }
                } else if canon(va) != canon(vb) {
                    let (sa, sb) = (self.a.entry_span(ka, va), self.b.entry_span(kb, vb));
                    self.push(
                        section,
                        Kind::Changed,
                        path,
                        format!("{label}: {} -> {}", show(va), show(vb)),
                        Vec::new(),
                        vec![sa],
                        vec![sb],
                    );
                }
            }
        }
    }

    /// Each key of a top-level mapping compared as plain YAML, labelled `<what> <key>`.
    fn keyed_generic(&mut self, section: Section, key: &str, what: &str) {
        let (ma, mb) = (entries(self.a.top(key)), entries(self.b.top(key)));
        for (n, ca, cb) in pair(&ma, &mb) {
            self.generic(
                section,
                &format!("{key}.{n}"),
                &format!("{what} {n}"),
                ca,
                cb,
            );
        }
    }

    fn metadata(&mut self) {
        for key in ["keliya", "kind", "name", "title", "family", "extends"] {
            let (ea, eb) = (self.a.top_entry(key), self.b.top_entry(key));
            self.generic(Section::Metadata, key, key, ea, eb);
        }
        // The rules in words and the choices on open questions: compared entry by entry, by rule id.
        for key in ["rule_text", "choices"] {
            let (ea, eb) = (self.a.top_entry(key), self.b.top_entry(key));
            self.generic(Section::Metadata, key, key, ea, eb);
        }
        // The description is long: shown shortened, compared by its words.
        let (ea, eb) = (
            self.a.top_entry("description"),
            self.b.top_entry("description"),
        );
        let words = |e: Option<(&Key, &Node)>| {
            e.and_then(|(_, v)| text_of(Some(v)))
                .map(|t| short(&t, usize::MAX))
        };
        let (wa, wb) = (words(ea), words(eb));
        if wa != wb {
            let kind = match (&wa, &wb) {
                (None, _) => Kind::Added,
                (_, None) => Kind::Removed,
                _ => Kind::Changed,
            };
            let show_d = |w: &Option<String>| {
                w.as_ref().map_or("(none)".to_string(), |t| {
                    serde_json::to_string(&short(t, 60)).unwrap_or_default()
                })
            };
            let description = format!("description: {} -> {}", show_d(&wa), show_d(&wb));
            let (sa, sb) = (self.a.opt_entry_span(ea), self.b.opt_entry_span(eb));
            self.push(
                Section::Metadata,
                kind,
                "description",
                description,
                Vec::new(),
                sa,
                sb,
            );
        }
    }

    fn sources(&mut self) {
        let items = |v: &View<'_>| -> Vec<(String, Span)> {
            match v.top("sources").map(|n| &n.value) {
                Some(V::Seq(items)) => items
                    .iter()
                    .filter_map(|i| Some((text_of(Some(i))?, v.node_span(i))))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let (sa, sb) = (items(&self.a), items(&self.b));
        for (text, span) in &sa {
            if !sb.iter().any(|(t, _)| t == text) {
                self.push(
                    Section::Sources,
                    Kind::Removed,
                    "sources",
                    format!("source removed: {}", short(text, 100)),
                    Vec::new(),
                    vec![span.clone()],
                    Vec::new(),
                );
            }
        }
        for (text, span) in &sb {
            if !sa.iter().any(|(t, _)| t == text) {
                self.push(
                    Section::Sources,
                    Kind::Added,
                    "sources",
                    format!("source added: {}", short(text, 100)),
                    Vec::new(),
                    Vec::new(),
                    vec![span.clone()],
                );
            }
        }
    }

    fn players(&mut self) {
        let (pa, pb) = (
            entries(self.a.top("players")),
            entries(self.b.top("players")),
        );
        let display = |name: &str, v: &Node| {
            text_of(child(Some(v), "display")).unwrap_or_else(|| name.to_string())
        };
        for (n, ea, eb) in pair(&pa, &pb) {
            let path = format!("players.{n}");
            match (ea, eb) {
                (Some((k, v)), None) => {
                    let span = self.a.entry_span(k, v);
                    self.removed(
                        Section::Players,
                        path,
                        format!("player {n} removed ({})", display(&n, v)),
                        span,
                    );
                }
                (None, Some((k, v))) => {
                    let span = self.b.entry_span(k, v);
                    self.added(
                        Section::Players,
                        path,
                        format!("player {n} added ({})", display(&n, v)),
                        span,
                    );
                }
                (Some((ka, va)), Some((kb, vb))) => {
                    let (da, db) = (display(&n, va), display(&n, vb));
                    if da != db {
                        let (sa, sb) = (self.a.entry_span(ka, va), self.b.entry_span(kb, vb));
                        self.push(
                            Section::Players,
                            Kind::Changed,
                            path,
                            format!("player {n}: shown as {da:?} -> {db:?}"),
                            Vec::new(),
                            vec![sa],
                            vec![sb],
                        );
                    }
                }
                (None, None) => {}
            }
        }
        // Turn order: written, or the players' order by default. Order matters.
        let order = |v: &View<'_>, players: &[(&Key, &Node)]| -> (Vec<String>, Vec<Span>) {
            match v.top_entry("turn_order") {
                Some((k, n)) => (strings(Some(n)), vec![v.entry_span(k, n)]),
                None => (names(players), v.opt_entry_span(v.top_entry("players"))),
            }
        };
        let ((oa, sa), (ob, sb)) = (order(&self.a, &pa), order(&self.b, &pb));
        if oa != ob {
            self.push(
                Section::Players,
                Kind::Changed,
                "turn_order",
                format!("turn order: {} -> {}", list(&oa, 16), list(&ob, 16)),
                Vec::new(),
                sa,
                sb,
            );
        }
    }

    fn pieces(&mut self) {
        let (pa, pb) = (entries(self.a.top("pieces")), entries(self.b.top("pieces")));
        let info = |name: &str, v: &Node| {
            (
                text_of(child(Some(v), "owner")),
                text_of(child(Some(v), "display")).unwrap_or_else(|| name.to_string()),
            )
        };
        let about = |(owner, display): &(Option<String>, String)| {
            format!(
                "shown as {display:?}, owned by {}",
                owner.as_deref().unwrap_or("nobody")
            )
        };
        for (n, ea, eb) in pair(&pa, &pb) {
            let path = format!("pieces.{n}");
            match (ea, eb) {
                (Some((k, v)), None) => {
                    let span = self.a.entry_span(k, v);
                    self.removed(
                        Section::Pieces,
                        path,
                        format!("piece {n} removed ({})", about(&info(&n, v))),
                        span,
                    );
                }
                (None, Some((k, v))) => {
                    let span = self.b.entry_span(k, v);
                    self.added(
                        Section::Pieces,
                        path,
                        format!("piece {n} added ({})", about(&info(&n, v))),
                        span,
                    );
                }
                (Some((ka, va)), Some((kb, vb))) => {
                    let ((oa, da), (ob, db)) = (info(&n, va), info(&n, vb));
                    let mut parts = Vec::new();
                    if oa != ob {
                        parts.push(format!(
                            "owner {} -> {}",
                            oa.as_deref().unwrap_or("nobody"),
                            ob.as_deref().unwrap_or("nobody")
                        ));
                    }
                    if da != db {
                        parts.push(format!("shown as {da:?} -> {db:?}"));
                    }
                    let (ra, rb) = (
                        text_of(child(Some(va), "role")),
                        text_of(child(Some(vb), "role")),
                    );
                    if ra != rb {
                        parts.push(format!(
                            "role {} -> {}",
                            ra.as_deref().unwrap_or("none"),
                            rb.as_deref().unwrap_or("none")
                        ));
                    }
                    if !parts.is_empty() {
                        let (sa, sb) = (self.a.entry_span(ka, va), self.b.entry_span(kb, vb));
                        self.push(
                            Section::Pieces,
                            Kind::Changed,
                            path,
                            format!("piece {n}: {}", parts.join("; ")),
                            Vec::new(),
                            vec![sa],
                            vec![sb],
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    fn board(&mut self, same_family: bool) {
        match (self.a.game(), self.b.game()) {
            (Some(ga), Some(gb)) => {
                self.board_sizes(ga, gb, same_family);
                if same_family {
                    self.sites(ga, gb);
                    self.edges(ga, gb);
                    self.lines(ga, gb);
                    self.tracks(ga, gb);
                    self.routes(ga, gb);
                    self.ownership(ga, gb);
                }
            }
            _ => {
                let (ea, eb) = (self.a.top_entry("board"), self.b.top_entry("board"));
                self.generic(Section::Board, "board", "board", ea, eb);
            }
        }
    }

    fn board_sizes(&mut self, ga: &Game, gb: &Game, same_family: bool) {
        let sizes = |g: &Game| {
            let points = g.board.playing_sites().count();
            [
                (points, "points"),
                (g.board.len() - points, "off-board places"),
                (g.board.edges.len(), "edges"),
                (g.board.lines.len(), "lines"),
                (g.board.tracks.len(), "tracks"),
            ]
        };
        let (za, zb) = (sizes(ga), sizes(gb));
        let parts: Vec<String> = za
            .iter()
            .zip(&zb)
            .filter(|(x, y)| x.0 != y.0)
            .map(|((x, what), (y, _))| format!("{x} {what} -> {y}"))
            .collect();
        if parts.is_empty() {
            return;
        }
        let mut description = format!("board: {}", parts.join(", "));
        if !same_family {
            description.push_str(" (different families: compared by size only)");
        }
        let (sa, sb) = (
            self.a.opt_entry_span(self.a.top_entry("board")),
            self.b.opt_entry_span(self.b.top_entry("board")),
        );
        self.push(
            Section::Board,
            Kind::Changed,
            "board",
            description,
            Vec::new(),
            sa,
            sb,
        );
    }

    fn sites(&mut self, ga: &Game, gb: &Game) {
        let (ba, bb) = (&ga.board, &gb.board);
        let mut added = Vec::new();
        let mut removed = Vec::new();
        let mut changed: Vec<(String, Vec<String>)> = Vec::new();
        let describe = |b: &keliya_board::Board, s: u16| {
            let i = s as usize;
            let mut parts = vec![format!("at ({}, {})", num(b.at[i].0), num(b.at[i].1))];
            if b.offboard[i] {
                parts.push("off the board".into());
            }
            if !b.tags[i].is_empty() {
                parts.push(format!("tags {}", b.tags[i].join(", ")));
            }
            if let Some(o) = &b.owner[i] {
                parts.push(format!("owned by {o}"));
            }
            parts.join(", ")
        };
        for (i, name) in ba.names().iter().enumerate() {
            let Some(j) = bb.site(name) else {
                removed.push((name.clone(), describe(ba, i as u16)));
                continue;
            };
            let j = j as usize;
            let mut parts = Vec::new();
            let (ta, tb) = (&ba.tags[i], &bb.tags[j]);
            let mut sorted_a = ta.clone();
            let mut sorted_b = tb.clone();
            sorted_a.sort();
            sorted_b.sort();
            if sorted_a != sorted_b {
                let t = |v: &Vec<String>| {
                    if v.is_empty() {
                        "(none)".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                parts.push(format!("tags {} -> {}", t(ta), t(tb)));
            }
            if ba.offboard[i] != bb.offboard[j] {
                parts.push(format!(
                    "off the board {} -> {}",
                    yes_no(ba.offboard[i]),
                    yes_no(bb.offboard[j])
                ));
            }
            let (pa, pb) = (ba.at[i], bb.at[j]);
            if (pa.0 - pb.0).abs() > 1e-9 || (pa.1 - pb.1).abs() > 1e-9 {
                parts.push(format!(
                    "drawn at ({}, {}) -> ({}, {})",
                    num(pa.0),
                    num(pa.1),
                    num(pb.0),
                    num(pb.1)
                ));
            }
            if !parts.is_empty() {
                let what = parts.join("; ");
                match changed.iter_mut().find(|(w, _)| *w == what) {
                    Some((_, names)) => names.push(name.clone()),
                    None => changed.push((what, vec![name.clone()])),
                }
            }
        }
        // Sites changed alike (retagged into one section, say) are one change.
        for (what, names) in changed {
            let sa: Vec<Span> = names.iter().flat_map(|n| self.a.site_span(n)).collect();
            let sb: Vec<Span> = names.iter().flat_map(|n| self.b.site_span(n)).collect();
            let path = format!("board.sites.{}", names.join(","));
            let plural = if names.len() > 1 { "s" } else { "" };
            let description = format!("site{plural} {}: {what}", names.join(", "));
            self.push(
                Section::Board,
                Kind::Changed,
                path,
                description,
                Vec::new(),
                sa,
                sb,
            );
        }
        for (j, name) in bb.names().iter().enumerate() {
            if ba.site(name).is_none() {
                added.push((name.clone(), describe(bb, j as u16)));
            }
        }
        self.grouped("site", "sites", "board.sites", removed, added, |v, n| {
            v.site_span(n)
        });
    }

    /// Added and removed items of one kind: one change each, or one change for all when there are many.
    fn grouped(
        &mut self,
        what: &str,
        plural: &str,
        path: &str,
        removed: Vec<(String, String)>,
        added: Vec<(String, String)>,
        span: impl Fn(&View<'_>, &str) -> Vec<Span>,
    ) {
        let mut made = Vec::new();
        for (kind, items) in [(Kind::Removed, removed), (Kind::Added, added)] {
            if items.is_empty() {
                continue;
            }
            let view = if kind == Kind::Added {
                &self.b
            } else {
                &self.a
            };
            let verb = kind.name();
            if items.len() > GROUP_OVER {
                let spans: Vec<Span> = items.iter().flat_map(|(n, _)| span(view, n)).collect();
                let all: Vec<String> = items.iter().map(|(n, _)| n.clone()).collect();
                made.push((
                    kind,
                    path.to_string(),
                    format!("{} {plural} {verb}: {}", items.len(), all.join(", ")),
                    spans,
                ));
            } else {
                for (n, about) in items {
                    let tail = if about.is_empty() {
                        String::new()
                    } else {
                        format!(": {about}")
                    };
                    made.push((
                        kind,
                        format!("{path}.{n}"),
                        format!("{what} {n} {verb}{tail}"),
                        span(view, &n),
                    ));
                }
            }
        }
        for (kind, path, description, spans) in made {
            let (sa, sb) = if kind == Kind::Added {
                (Vec::new(), spans)
            } else {
                (spans, Vec::new())
            };
            self.push(Section::Board, kind, path, description, Vec::new(), sa, sb);
        }
    }

    fn edges(&mut self, ga: &Game, gb: &Game) {
        let named = |g: &Game| -> Vec<(String, String)> {
            g.board
                .edges
                .iter()
                .map(|&(x, y)| (g.board.name(x).to_string(), g.board.name(y).to_string()))
                .collect()
        };
        let (ea, eb) = (named(ga), named(gb));
        let has = |list: &[(String, String)], (x, y): &(String, String)| {
            list.iter()
                .any(|(p, q)| (p == x && q == y) || (p == y && q == x))
        };
        let removed: Vec<(String, String)> = ea
            .iter()
            .filter(|e| !has(&eb, e))
            .map(|(x, y)| (format!("{x}-{y}"), String::new()))
            .collect();
        let added: Vec<(String, String)> = eb
            .iter()
            .filter(|e| !has(&ea, e))
            .map(|(x, y)| (format!("{x}-{y}"), String::new()))
            .collect();
        self.grouped("edge", "edges", "board.edges", removed, added, |v, n| {
            let (x, y) = n.split_once('-').unwrap_or((n, ""));
            // A site name may hold `-`: find the split that names two sites of this board.
            let board = v.game().map(|g| &g.board);
            let split = board
                .and_then(|b| {
                    n.match_indices('-')
                        .map(|(i, _)| (&n[..i], &n[i + 1..]))
                        .find(|(p, q)| b.site(p).is_some() && b.site(q).is_some())
                })
                .unwrap_or((x, y));
            v.edge_span(split.0, split.1)
        });
    }

    fn lines(&mut self, ga: &Game, gb: &Game) {
        let named = |g: &Game| -> Vec<(String, Vec<String>)> {
            g.board
                .lines
                .iter()
                .map(|l| {
                    (
                        l.name.clone(),
                        l.points
                            .iter()
                            .map(|&p| g.board.name(p).to_string())
                            .collect(),
                    )
                })
                .collect()
        };
        let (la, lb) = (named(ga), named(gb));
        let all = union(
            &la.iter().map(|l| l.0.clone()).collect::<Vec<_>>(),
            &lb.iter().map(|l| l.0.clone()).collect::<Vec<_>>(),
        );
        for n in all {
            let pa = la.iter().find(|l| l.0 == n).map(|l| &l.1);
            let pb = lb.iter().find(|l| l.0 == n).map(|l| &l.1);
            let path = format!("board.lines.{n}");
            match (pa, pb) {
                (Some(p), None) => {
                    let s = self.a.path_span("lines", &n);
                    self.push(
                        Section::Board,
                        Kind::Removed,
                        path,
                        format!("line {n} removed ({})", p.join("-")),
                        Vec::new(),
                        s,
                        Vec::new(),
                    );
                }
                (None, Some(p)) => {
                    let s = self.b.path_span("lines", &n);
                    self.push(
                        Section::Board,
                        Kind::Added,
                        path,
                        format!("line {n} added ({})", p.join("-")),
                        Vec::new(),
                        Vec::new(),
                        s,
                    );
                }
                (Some(p), Some(q)) => {
                    // A line is the same read either way: leaps go both ways along it.
                    let reversed: Vec<String> = p.iter().rev().cloned().collect();
                    if p != q && reversed != *q {
                        let (sa, sb) =
                            (self.a.path_span("lines", &n), self.b.path_span("lines", &n));
                        self.push(
                            Section::Board,
                            Kind::Changed,
                            path,
                            format!("line {n}: {} -> {}", p.join("-"), q.join("-")),
                            Vec::new(),
                            sa,
                            sb,
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    fn tracks(&mut self, ga: &Game, gb: &Game) {
        struct T {
            name: String,
            points: Vec<String>,
            owner: Option<String>,
            cyclic: bool,
        }
        let named = |g: &Game| -> Vec<T> {
            g.board
                .tracks
                .iter()
                .map(|t| T {
                    name: t.name.clone(),
                    points: t
                        .points
                        .iter()
                        .map(|&p| g.board.name(p).to_string())
                        .collect(),
                    owner: t.owner.clone(),
                    cyclic: t.cyclic,
                })
                .collect()
        };
        let about = |t: &T| {
            let mut s = format!("{} squares", t.points.len());
            if t.cyclic {
                s.push_str(", cyclic");
            }
            if let Some(o) = &t.owner {
                s.push_str(&format!(", owned by {o}"));
            }
            s
        };
        let (ta, tb) = (named(ga), named(gb));
        let all = union(
            &ta.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            &tb.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
        );
        for n in all {
            let xa = ta.iter().find(|t| t.name == n);
            let xb = tb.iter().find(|t| t.name == n);
            let path = format!("board.tracks.{n}");
            match (xa, xb) {
                (Some(t), None) => {
                    let s = self.a.path_span("tracks", &n);
                    self.push(
                        Section::Board,
                        Kind::Removed,
                        path,
                        format!("track {n} removed ({})", about(t)),
                        Vec::new(),
                        s,
                        Vec::new(),
                    );
                }
                (None, Some(t)) => {
                    let s = self.b.path_span("tracks", &n);
                    self.push(
                        Section::Board,
                        Kind::Added,
                        path,
                        format!("track {n} added ({})", about(t)),
                        Vec::new(),
                        Vec::new(),
                        s,
                    );
                }
                (Some(x), Some(y)) => {
                    let mut parts = Vec::new();
                    let mut detail = Vec::new();
                    if x.points != y.points {
                        if x.points.len() != y.points.len() {
                            parts.push(format!("{} squares -> {}", x.points.len(), y.points.len()));
                        } else {
                            parts.push(format!("{} squares, in another order", x.points.len()));
                        }
                        detail = vec![
                            format!("- {}", x.points.join("-")),
                            format!("+ {}", y.points.join("-")),
                        ];
                    }
                    if x.owner != y.owner {
                        parts.push(format!(
                            "owner {} -> {}",
                            x.owner.as_deref().unwrap_or("nobody"),
                            y.owner.as_deref().unwrap_or("nobody")
                        ));
                    }
                    if x.cyclic != y.cyclic {
                        let c = |b: bool| if b { "cyclic" } else { "open" };
                        parts.push(format!("{} -> {}", c(x.cyclic), c(y.cyclic)));
                    }
                    if !parts.is_empty() {
                        let (sa, sb) = (
                            self.a.path_span("tracks", &n),
                            self.b.path_span("tracks", &n),
                        );
                        self.push(
                            Section::Board,
                            Kind::Changed,
                            path,
                            format!("track {n}: {}", parts.join("; ")),
                            detail,
                            sa,
                            sb,
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    /// Each player's route (the first track it owns), which `route(player)` reads.
    fn routes(&mut self, ga: &Game, gb: &Game) {
        let route = |g: &Game, p: &str| {
            let i = g.player(p)?;
            let t = g.routes.get(i as usize).copied().flatten()?;
            Some(g.board.tracks[t as usize].name.clone())
        };
        for p in &ga.players {
            if gb.player(&p.name).is_none() {
                continue;
            }
            let (ra, rb) = (route(ga, &p.name), route(gb, &p.name));
            if ra != rb {
                let show_r = |r: &Option<String>| r.clone().unwrap_or_else(|| "(none)".into());
                let sa = ra
                    .as_ref()
                    .map_or_else(Vec::new, |t| self.a.path_span("tracks", t));
                let sb = rb
                    .as_ref()
                    .map_or_else(Vec::new, |t| self.b.path_span("tracks", t));
                self.push(
                    Section::Board,
                    Kind::Changed,
                    format!("board.routes.{}", p.name),
                    format!("route of {}: {} -> {}", p.name, show_r(&ra), show_r(&rb)),
                    Vec::new(),
                    sa,
                    sb,
                );
            }
        }
    }

    /// Who owns which sites, as one change: the sites of each owner before and after.
    fn ownership(&mut self, ga: &Game, gb: &Game) {
        let owned = |g: &Game| -> Vec<(String, Vec<String>)> {
            let mut out: Vec<(String, Vec<String>)> = Vec::new();
            for (i, o) in g.board.owner.iter().enumerate() {
                if let Some(o) = o {
                    let name = g.board.name(i as u16).to_string();
                    match out.iter_mut().find(|(p, _)| p == o) {
                        Some((_, sites)) => sites.push(name),
                        None => out.push((o.clone(), vec![name])),
                    }
                }
            }
            out
        };
        let (oa, ob) = (owned(ga), owned(gb));
        let owners = union(
            &oa.iter().map(|o| o.0.clone()).collect::<Vec<_>>(),
            &ob.iter().map(|o| o.0.clone()).collect::<Vec<_>>(),
        );
        let empty = Vec::new();
        let mut parts = Vec::new();
        let mut detail = Vec::new();
        for o in owners {
            let sa = oa.iter().find(|x| x.0 == o).map_or(&empty, |x| &x.1);
            let sb = ob.iter().find(|x| x.0 == o).map_or(&empty, |x| &x.1);
            let mut sorted_a = sa.clone();
            let mut sorted_b = sb.clone();
            sorted_a.sort();
            sorted_b.sort();
            if sorted_a != sorted_b {
                if sa.len() <= 4 && sb.len() <= 4 {
                    parts.push(format!("{o} {} -> {}", list(sa, 4), list(sb, 4)));
                } else {
                    parts.push(format!("{o} {} -> {} sites", sa.len(), sb.len()));
                }
                detail.push(format!("{o}: {} -> {}", list(sa, 16), list(sb, 16)));
            }
        }
        if parts.is_empty() {
            return;
        }
        // Short lists are in the description already.
        if parts.iter().all(|p| !p.ends_with(" sites")) {
            detail.clear();
        }
        // The sites whose owner differs, and where each side says so.
        let owner_of = |g: &Game, n: &str| {
            g.board
                .site(n)
                .and_then(|s| g.board.owner[s as usize].clone())
        };
        let all_sites = union(ga.board.names(), gb.board.names());
        let moved: Vec<&String> = all_sites
            .iter()
            .filter(|n| owner_of(ga, n) != owner_of(gb, n))
            .collect();
        // An owner where it is written; a site without one where the site is written.
        let spans = |v: &View<'_>, g: &Game| -> Vec<Span> {
            moved
                .iter()
                .filter(|n| g.board.site(n).is_some())
                .flat_map(|n| match owner_of(g, n) {
                    Some(_) => v.owner_span(n),
                    None => v.site_span(n),
                })
                .collect()
        };
        let (sa, sb) = (spans(&self.a, ga), spans(&self.b, gb));
        self.push(
            Section::Board,
            Kind::Changed,
            "board.ownership",
            format!("site ownership: {}", parts.join("; ")),
            detail,
            sa,
            sb,
        );
    }

    fn setup(&mut self) {
        // Pieces per site, zero counts dropped, in the order written.
        let contents = |v: &Node| -> Vec<(String, i64)> {
            entries(Some(v))
                .into_iter()
                .filter_map(|(k, n)| match n.value {
                    V::Int(c) if c != 0 => Some((k.name.clone(), c)),
                    _ => None,
                })
                .collect()
        };
        let show_c = |c: &[(String, i64)]| {
            c.iter()
                .map(|(p, n)| format!("{p} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (ma, mb) = (entries(self.a.top("setup")), entries(self.b.top("setup")));
        for (n, ea, eb) in pair(&ma, &mb) {
            let ca = ea.map(|(_, v)| contents(v)).unwrap_or_default();
            let cb = eb.map(|(_, v)| contents(v)).unwrap_or_default();
            let path = format!("setup.{n}");
            let (sa, sb) = (self.a.opt_entry_span(ea), self.b.opt_entry_span(eb));
            match (ca.is_empty(), cb.is_empty()) {
                (true, true) => {}
                (false, true) => self.push(
                    Section::Setup,
                    Kind::Removed,
                    path,
                    format!("setup {n} removed (was {})", show_c(&ca)),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (true, false) => self.push(
                    Section::Setup,
                    Kind::Added,
                    path,
                    format!("setup {n} added: {}", show_c(&cb)),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (false, false) => {
                    let pieces = union(
                        &ca.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
                        &cb.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
                    );
                    let count = |c: &[(String, i64)], p: &str| {
                        c.iter().find(|x| x.0 == p).map_or(0, |x| x.1)
                    };
                    let parts: Vec<String> = pieces
                        .iter()
                        .filter(|p| count(&ca, p) != count(&cb, p))
                        .map(|p| format!("{p} {} -> {}", count(&ca, p), count(&cb, p)))
                        .collect();
                    if !parts.is_empty() {
                        self.push(
                            Section::Setup,
                            Kind::Changed,
                            path,
                            format!("setup {n}: {}", parts.join(", ")),
                            Vec::new(),
                            sa,
                            sb,
                        );
                    }
                }
            }
        }
    }

    fn vars(&mut self) {
        let info = |v: &Node| {
            let per_player = bool_of(child(Some(v), "per_player"));
            let initial = match child(Some(v), "initial").map(|n| &n.value) {
                Some(V::Int(i)) => *i,
                _ => 0,
            };
            (per_player, initial)
        };
        let about = |(per_player, initial): (bool, i64)| {
            format!(
                "{}, initial {initial}",
                if per_player { "per player" } else { "shared" }
            )
        };
        let (ma, mb) = (entries(self.a.top("vars")), entries(self.b.top("vars")));
        for (n, ea, eb) in pair(&ma, &mb) {
            let path = format!("vars.{n}");
            let (sa, sb) = (self.a.opt_entry_span(ea), self.b.opt_entry_span(eb));
            match (ea, eb) {
                (Some((_, v)), None) => self.push(
                    Section::Vars,
                    Kind::Removed,
                    path,
                    format!("variable {n} removed ({})", about(info(v))),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (None, Some((_, v))) => self.push(
                    Section::Vars,
                    Kind::Added,
                    path,
                    format!("variable {n} added ({})", about(info(v))),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (Some((_, va)), Some((_, vb))) => {
                    let (x, y) = (info(va), info(vb));
                    if x != y {
                        self.push(
                            Section::Vars,
                            Kind::Changed,
                            path,
                            format!("variable {n}: {} -> {}", about(x), about(y)),
                            Vec::new(),
                            sa,
                            sb,
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    fn throws(&mut self) {
        let (ea, eb) = (self.a.top_entry("throws"), self.b.top_entry("throws"));
        #[derive(PartialEq)]
        struct Row {
            key: String,
            name: String,
            value: i64,
            again: bool,
            probability: Option<f64>,
        }
        // The rows of a table, with their probabilities as the engine computed them.
        let rows = |v: &View<'_>, throws: &Node| -> Vec<(Row, Vec<Span>)> {
            let table = entries(child(Some(throws), "table"));
            let compiled = v
                .game()
                .and_then(|g| g.throws.as_ref())
                .filter(|r| r.len() == table.len());
            table
                .iter()
                .enumerate()
                .map(|(i, (k, n))| {
                    let probability = compiled.map(|r| r[i].probability).or_else(|| {
                        match child(Some(n), "probability").map(|p| &p.value) {
                            Some(V::Float(f)) => Some(*f),
                            Some(V::Int(x)) => Some(*x as f64),
                            _ => None,
                        }
                    });
                    let row = Row {
                        key: k.name.clone(),
                        name: text_of(child(Some(n), "name")).unwrap_or_else(|| k.name.clone()),
                        value: match child(Some(n), "value").map(|x| &x.value) {
                            Some(V::Int(x)) => *x,
                            _ => 0,
                        },
                        again: bool_of(child(Some(n), "again")),
                        probability,
                    };
                    (row, vec![v.entry_span(k, n)])
                })
                .collect()
        };
        let about = |r: &Row| {
            let mut s = format!("value {}", r.value);
            if let Some(p) = r.probability {
                s.push_str(&format!(", probability {}", prob(p)));
            }
            if r.again {
                s.push_str(", throw again");
            }
            s
        };
        match (ea, eb) {
            (None, None) => {}
            (Some((k, v)), None) => {
                let span = self.a.entry_span(k, v);
                let n = rows(&self.a, v).len();
                self.removed(
                    Section::Throws,
                    "throws",
                    format!("throws removed ({n} outcomes)"),
                    span,
                );
            }
            (None, Some((k, v))) => {
                let span = self.b.entry_span(k, v);
                let n = rows(&self.b, v).len();
                self.added(
                    Section::Throws,
                    "throws",
                    format!("throws added ({n} outcomes)"),
                    span,
                );
            }
            (Some((_, va)), Some((_, vb))) => {
                // The model: how many shells and how likely each lands mouth up.
                for (key, label) in [("shells", "shells"), ("p", "p (mouth up)")] {
                    let (xa, xb) = (entry(Some(va), key), entry(Some(vb), key));
                    self.generic(Section::Throws, &format!("throws.{key}"), label, xa, xb);
                }
                for key in entries(Some(va))
                    .iter()
                    .chain(entries(Some(vb)).iter())
                    .map(|(k, _)| k.name.clone())
                    .filter(|k| !matches!(k.as_str(), "shells" | "p" | "table"))
                    .collect::<Vec<_>>()
                {
                    if self.out.iter().any(|c| c.path == format!("throws.{key}")) {
                        continue;
                    }
                    let (xa, xb) = (entry(Some(va), &key), entry(Some(vb), &key));
                    self.generic(Section::Throws, &format!("throws.{key}"), &key, xa, xb);
                }
                let (ra, rb) = (rows(&self.a, va), rows(&self.b, vb));
                let keys = union(
                    &ra.iter().map(|r| r.0.key.clone()).collect::<Vec<_>>(),
                    &rb.iter().map(|r| r.0.key.clone()).collect::<Vec<_>>(),
                );
                for key in keys {
                    let xa = ra.iter().find(|r| r.0.key == key);
                    let xb = rb.iter().find(|r| r.0.key == key);
                    let path = format!("throws.table.{key}");
                    match (xa, xb) {
                        (Some((r, s)), None) => self.push(
                            Section::Throws,
                            Kind::Removed,
                            path,
                            format!("throw {key} ({}) removed ({})", r.name, about(r)),
                            Vec::new(),
                            s.clone(),
                            Vec::new(),
                        ),
                        (None, Some((r, s))) => self.push(
                            Section::Throws,
                            Kind::Added,
                            path,
                            format!("throw {key} ({}) added ({})", r.name, about(r)),
                            Vec::new(),
                            Vec::new(),
                            s.clone(),
                        ),
                        (Some((x, sa)), Some((y, sb))) => {
                            let mut parts = Vec::new();
                            if x.name != y.name {
                                parts.push(format!("name {} -> {}", x.name, y.name));
                            }
                            if x.value != y.value {
                                parts.push(format!("value {} -> {}", x.value, y.value));
                            }
                            if x.again != y.again {
                                parts.push(format!(
                                    "throw again {} -> {}",
                                    yes_no(x.again),
                                    yes_no(y.again)
                                ));
                            }
                            let differs = match (x.probability, y.probability) {
                                (Some(p), Some(q)) => (p - q).abs() > 1e-12,
                                (p, q) => p.is_some() != q.is_some(),
                            };
                            if differs {
                                let ps = |p: Option<f64>| p.map_or("?".to_string(), prob);
                                parts.push(format!(
                                    "probability {} -> {}",
                                    ps(x.probability),
                                    ps(y.probability)
                                ));
                            }
                            if !parts.is_empty() {
                                self.push(
                                    Section::Throws,
                                    Kind::Changed,
                                    path,
                                    format!("throw {key} ({}): {}", y.name, parts.join("; ")),
                                    Vec::new(),
                                    sa.clone(),
                                    sb.clone(),
                                );
                            }
                        }
                        (None, None) => {}
                    }
                }
            }
        }
    }

    /// Named parts of rule bodies: each compared as the statements (or the expression) it writes in.
    fn parts(&mut self) {
        let (ma, mb) = (entries(self.a.top("parts")), entries(self.b.top("parts")));
        for (n, ea, eb) in pair(&ma, &mb) {
            let path = format!("parts.{n}");
            let indent = |lines: Vec<String>| lines.into_iter().map(|l| format!("  {l}")).collect();
            match (ea, eb) {
                (Some((ka, va)), Some((kb, vb))) => {
                    let (ta, tb) = (part_text(va), part_text(vb));
                    if ta != tb {
                        let lines = line_diff(&ta, &tb, 1);
                        let plus = lines.iter().filter(|l| l.starts_with("+ ")).count();
                        let minus = lines.iter().filter(|l| l.starts_with("- ")).count();
                        let (sa, sb) = (self.a.entry_span(ka, va), self.b.entry_span(kb, vb));
                        self.push(
                            Section::Rules,
                            Kind::Changed,
                            path,
                            format!("part {n} changed (+{plus} -{minus} lines)"),
                            indent(lines),
                            vec![sa],
                            vec![sb],
                        );
                    }
                }
                (Some((k, v)), None) | (None, Some((k, v))) => {
                    let removed = eb.is_none();
                    let view = if removed { &self.a } else { &self.b };
                    let span = vec![view.entry_span(k, v)];
                    let (kind, word, sa, sb) = if removed {
                        (Kind::Removed, "removed", span, Vec::new())
                    } else {
                        (Kind::Added, "added", Vec::new(), span)
                    };
                    let body = part_text(v).lines().map(str::to_string).collect();
                    self.push(
                        Section::Rules,
                        kind,
                        path,
                        format!("part {n} {word}"),
                        indent(body),
                        sa,
                        sb,
                    );
                }
                (None, None) => {}
            }
        }
    }

    fn rules(&mut self) {
        struct R<'n> {
            key: &'n Key,
            node: &'n Node,
            player: Option<String>,
            when: Option<String>,
            body: String,
            notation: Option<String>,
            fallback: bool,
        }
        fn rule<'n>(key: &'n Key, node: &'n Node) -> R<'n> {
            let n = Some(node);
            R {
                key,
                node,
                player: text_of(child(n, "player")),
                when: expr_text(child(n, "when")),
                body: program_text(child(n, "do")).unwrap_or_default(),
                notation: text_of(child(n, "notation")),
                fallback: bool_of(child(n, "fallback")),
            }
        }
        let (ma, mb) = (entries(self.a.top("rules")), entries(self.b.top("rules")));
        let added_detail = |r: &R<'_>| {
            let mut d = Vec::new();
            if let Some(w) = &r.when {
                d.push(format!("when: {w}"));
            }
            d.push("do:".to_string());
            d.extend(r.body.lines().map(|l| format!("  {l}")));
            d
        };
        let about = |r: &R<'_>| {
            let mut parts = Vec::new();
            if let Some(p) = &r.player {
                parts.push(format!("player {p}"));
            }
            if r.fallback {
                parts.push("fallback".to_string());
            }
            let n = r.body.lines().count();
            parts.push(format!("{n} line{}", if n == 1 { "" } else { "s" }));
            parts.join(", ")
        };
        for n in union(&names(&ma), &names(&mb)) {
            let ra = ma
                .iter()
                .find(|(k, _)| k.name == n)
                .map(|(k, v)| rule(k, v));
            let rb = mb
                .iter()
                .find(|(k, _)| k.name == n)
                .map(|(k, v)| rule(k, v));
            let path = format!("rules.{n}");
            match (ra, rb) {
                (Some(r), None) => {
                    let span = self.a.entry_span(r.key, r.node);
                    self.push(
                        Section::Rules,
                        Kind::Removed,
                        path,
                        format!("rule {n} removed ({})", about(&r)),
                        added_detail(&r),
                        vec![span],
                        Vec::new(),
                    );
                }
                (None, Some(r)) => {
                    let span = self.b.entry_span(r.key, r.node);
                    self.push(
                        Section::Rules,
                        Kind::Added,
                        path,
                        format!("rule {n} added ({})", about(&r)),
                        added_detail(&r),
                        Vec::new(),
                        vec![span],
                    );
                }
                (Some(x), Some(y)) => {
                    let mut parts = Vec::new();
                    let mut detail = Vec::new();
                    let mut fields: Vec<&str> = Vec::new();
                    if x.player != y.player {
                        let p = |o: &Option<String>| o.clone().unwrap_or_else(|| "any".into());
                        parts.push(format!("player {} -> {}", p(&x.player), p(&y.player)));
                        fields.push("player");
                    }
                    if x.when != y.when {
                        let w = |o: &Option<String>| o.clone().unwrap_or_else(|| "(always)".into());
                        parts.push("when changed".to_string());
                        detail.push(format!("- when: {}", w(&x.when)));
                        detail.push(format!("+ when: {}", w(&y.when)));
                        fields.push("when");
                    }
                    if x.body != y.body {
                        let lines = line_diff(&x.body, &y.body, 1);
                        let plus = lines.iter().filter(|l| l.starts_with("+ ")).count();
                        let minus = lines.iter().filter(|l| l.starts_with("- ")).count();
                        parts.push(format!("do changed (+{plus} -{minus} lines)"));
                        detail.push("do:".to_string());
                        detail.extend(lines.into_iter().map(|l| format!("  {l}")));
                        fields.push("do");
                    }
                    if x.notation != y.notation {
                        let t = |o: &Option<String>| {
                            o.as_ref()
                                .map_or("(default)".to_string(), |s| format!("{s:?}"))
                        };
                        parts.push(format!("notation {} -> {}", t(&x.notation), t(&y.notation)));
                        fields.push("notation");
                    }
                    if x.fallback != y.fallback {
                        parts.push(format!(
                            "fallback {} -> {}",
                            yes_no(x.fallback),
                            yes_no(y.fallback)
                        ));
                        fields.push("fallback");
                    }
                    if !parts.is_empty() {
                        let spans = |v: &View<'_>, r: &R<'_>| -> Vec<Span> {
                            let mut out = Vec::new();
                            for f in &fields {
                                match entry(Some(r.node), f) {
                                    Some((k, node)) => out.push(v.entry_span(k, node)),
                                    None => out.push(v.span(
                                        r.key.loc.file,
                                        r.key.loc.start,
                                        r.key.loc.end,
                                    )),
                                }
                            }
                            out
                        };
                        let (sa, sb) = (spans(&self.a, &x), spans(&self.b, &y));
                        self.push(
                            Section::Rules,
                            Kind::Changed,
                            path,
                            format!("rule {n}: {}", parts.join("; ")),
                            detail,
                            sa,
                            sb,
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    fn ends(&mut self) {
        let read = |v: &Node| {
            let winner = match text_of(child(Some(v), "winner")) {
                Some(w) if w == "draw" => "draw".to_string(),
                Some(_) => expr_text(child(Some(v), "winner")).unwrap_or_default(),
                None => "?".to_string(),
            };
            (
                expr_text(child(Some(v), "when")).unwrap_or_else(|| "?".into()),
                winner,
            )
        };
        let about = |(when, winner): &(String, String)| {
            let w = if winner == "draw" {
                "a draw".to_string()
            } else {
                format!("{winner} wins")
            };
            format!("when {when}: {w}")
        };
        let (ma, mb) = (entries(self.a.top("ends")), entries(self.b.top("ends")));
        for (n, ea, eb) in pair(&ma, &mb) {
            let path = format!("ends.{n}");
            match (ea, eb) {
                (Some((k, v)), None) => {
                    let span = self.a.entry_span(k, v);
                    self.removed(
                        Section::Ends,
                        path,
                        format!("end {n} removed ({})", about(&read(v))),
                        span,
                    );
                }
                (None, Some((k, v))) => {
                    let span = self.b.entry_span(k, v);
                    self.added(
                        Section::Ends,
                        path,
                        format!("end {n} added ({})", about(&read(v))),
                        span,
                    );
                }
                (Some((_, va)), Some((_, vb))) => {
                    let ((wa, xa), (wb, xb)) = (read(va), read(vb));
                    let mut parts = Vec::new();
                    let mut fields = Vec::new();
                    if wa != wb {
                        parts.push(format!("when {wa} -> {wb}"));
                        fields.push("when");
                    }
                    if xa != xb {
                        parts.push(format!("winner {xa} -> {xb}"));
                        fields.push("winner");
                    }
                    if !parts.is_empty() {
                        let spans = |v: &View<'_>, node: &Node| -> Vec<Span> {
                            fields
                                .iter()
                                .filter_map(|f| entry(Some(node), f))
                                .map(|(k, x)| v.entry_span(k, x))
                                .collect()
                        };
                        let (sa, sb) = (spans(&self.a, va), spans(&self.b, vb));
                        self.push(
                            Section::Ends,
                            Kind::Changed,
                            path,
                            format!("end {n}: {}", parts.join("; ")),
                            Vec::new(),
                            sa,
                            sb,
                        );
                    }
                }
                (None, None) => {}
            }
        }
        // End conditions are checked in order, and the first that holds decides: their order matters.
        let common_a: Vec<String> = names(&ma)
            .into_iter()
            .filter(|n| mb.iter().any(|(k, _)| k.name == *n))
            .collect();
        let common_b: Vec<String> = names(&mb)
            .into_iter()
            .filter(|n| ma.iter().any(|(k, _)| k.name == *n))
            .collect();
        if common_a != common_b {
            let (sa, sb) = (
                self.a.opt_entry_span(self.a.top_entry("ends")),
                self.b.opt_entry_span(self.b.top_entry("ends")),
            );
            self.push(
                Section::Ends,
                Kind::Changed,
                "ends.order",
                format!(
                    "ends checked in another order: {} -> {}",
                    common_a.join(", "),
                    common_b.join(", ")
                ),
                Vec::new(),
                sa,
                sb,
            );
        }
    }

    fn invariants(&mut self) {
        let (ma, mb) = (
            entries(self.a.top("invariants")),
            entries(self.b.top("invariants")),
        );
        for (n, ea, eb) in pair(&ma, &mb) {
            let (sa, sb) = (self.a.opt_entry_span(ea), self.b.opt_entry_span(eb));
            let (xa, xb) = (
                ea.and_then(|(_, v)| expr_text(Some(v))),
                eb.and_then(|(_, v)| expr_text(Some(v))),
            );
            let path = format!("invariants.{n}");
            match (xa, xb) {
                (Some(x), None) => self.push(
                    Section::Invariants,
                    Kind::Removed,
                    path,
                    format!("invariant {n} removed ({x})"),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (None, Some(y)) => self.push(
                    Section::Invariants,
                    Kind::Added,
                    path,
                    format!("invariant {n} added ({y})"),
                    Vec::new(),
                    sa,
                    sb,
                ),
                (Some(x), Some(y)) if x != y => self.push(
                    Section::Invariants,
                    Kind::Changed,
                    path,
                    format!("invariant {n}: {x} -> {y}"),
                    Vec::new(),
                    sa,
                    sb,
                ),
                _ => {}
            }
        }
    }

    fn others(&mut self) {
        let (ma, mb) = (entries(Some(self.a.root)), entries(Some(self.b.root)));
        for n in union(&names(&ma), &names(&mb)) {
            if KNOWN.contains(&n.as_str()) {
                continue;
            }
            let ea = ma.iter().find(|(k, _)| k.name == n).copied();
            let eb = mb.iter().find(|(k, _)| k.name == n).copied();
            self.generic(Section::Other, &n, &n, ea, eb);
        }
    }
}

//! Reading a ruleset and its `extends` chain, merging them, and handing the result to lowering.

use std::path::PathBuf;

use keliya_engine::Game;

use crate::catalog::{Catalog, Found, Origin};
use crate::diag::{Diagnostic, Loc, Sources};
use crate::yaml::{self, Key, Node, Value};

/// Longest `extends` chain accepted.
pub const MAX_CHAIN: usize = 16;

/// What loading produced: the files read (for showing diagnostics) and the ruleset or every problem found.
pub struct Loaded {
    pub sources: Sources,
    pub result: Result<Compiled, Vec<Diagnostic>>,
}

#[derive(Clone, Debug)]
pub struct RuleInfo {
    pub name: String,
    pub player: Option<String>,
    pub when: Option<String>,
    pub body: String,
    pub source: Option<String>,
    /// Where the rule was written (the file that defines or last overrides it).
    pub loc: Loc,
}

#[derive(Clone, Debug, Default)]
pub struct RulesetInfo {
    pub name: String,
    pub title: String,
    pub family: String,
    pub description: String,
    pub sources: Vec<String>,
    /// Each rule in plain words, by rule id (`rule_text:`).
    pub rule_text: Vec<(String, String)>,
    /// The answer taken to each open question, by question id (`choices:`).
    pub choices: Vec<(String, String)>,
    /// The files of the `extends` chain, child first.
    pub chain: Vec<String>,
    pub is_library: bool,
    /// Named parts of rule bodies (`parts:`): name and text, in order.
    pub parts: Vec<(String, String)>,
    pub rules: Vec<RuleInfo>,
    pub ends: Vec<RuleInfo>,
    pub params: Vec<(String, i64)>,
    /// `display:`: the figures a player is shown each turn, in order.
    pub display: Vec<DisplayItem>,
    /// A rule's `labels:` (by rule name): the words its choices are shown with, by choice name.
    pub move_labels: Vec<(String, Vec<(String, String)>)>,
}

/// One figure of `display:`, with the label it is shown by.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayItem {
    pub label: String,
    pub value: DisplayValue,
    /// Shown for this player alone (`player:`); every player otherwise.
    pub player: Option<u8>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DisplayValue {
    /// A variable, by index in `Game::vars` (one figure per player for a per-player variable).
    Var(usize),
    /// How many pieces each player owns on these sites.
    CountAt(Vec<u16>),
}

pub struct Compiled {
    /// `None` for a library, which is checked but not playable on its own.
    pub game: Option<Game>,
    pub info: RulesetInfo,
    /// The merged YAML tree after `extends`, as the engine runs it.
    pub resolved: Node,
    /// Source locations indexed by the `at` fields of the engine's IR.
    pub spans: Vec<Loc>,
    /// Stable hash of the resolved ruleset, for records.
    pub hash: String,
}

impl Compiled {
    pub fn game(&self) -> &Game {
        self.game
            .as_ref()
            .expect("a library is not playable; callers check `info.is_library`")
    }
}

/// Loads `what` (a path or a ruleset name) with everything it extends.
pub fn load(catalog: &Catalog, what: &str) -> Loaded {
    let mut sources = Sources::default();
    let result = load_into(catalog, what, &mut sources, true);
    Loaded { sources, result }
}

/// [`load`] without preparing the game for play (`Game::fold_constants`): its rules as written, run by
/// the tree-walking evaluator. For checking that preparing a game changes nothing it does.
pub fn load_as_written(catalog: &Catalog, what: &str) -> Loaded {
    let mut sources = Sources::default();
    let result = load_into(catalog, what, &mut sources, false);
    Loaded { sources, result }
}

fn load_into(
    catalog: &Catalog,
    what: &str,
    sources: &mut Sources,
    prepare: bool,
) -> Result<Compiled, Vec<Diagnostic>> {
    let Some(found) = catalog.find(what, None) else {
        let file = sources.add(what.to_string(), String::new());
        let known: Vec<String> = catalog.names().into_iter().map(|(n, _)| n).collect();
        let hint = keliya_board::closest(what, known.iter().map(String::as_str))
            .map(|c| format!("did you mean `{c}`?"));
        return Err(vec![
            Diagnostic::new(
                Loc {
                    file,
                    start: 0,
                    end: 0,
                },
                format!("no ruleset named `{what}`"),
            )
            .hint(hint.unwrap_or_else(|| {
                "`keliya list` shows the rulesets; a path to a .yaml file works too".into()
            })),
        ]);
    };
    let mut chain: Vec<(Node, String)> = Vec::new();
    let mut current = found;
    let mut names_seen: Vec<String> = Vec::new();
    // The files of the chain, to recognise a cycle however a file is named (`a`, `./a.yaml`, `dir/a`).
    let mut files_seen: Vec<String> = Vec::new();
    loop {
        let text = match current.text.clone() {
            Ok(t) => t,
            Err(bad) => {
                let file = sources.add(current.display.clone(), bad.text);
                let end = sources.text(file)[bad.at..]
                    .chars()
                    .next()
                    .map_or(bad.at, |c| bad.at + c.len_utf8());
                return Err(vec![
                    Diagnostic::new(
                        Loc {
                            file,
                            start: bad.at,
                            end,
                        },
                        bad.message,
                    )
                    .maybe_hint(bad.hint),
                ]);
            }
        };
        let file = sources.add(current.display.clone(), text);
        let node = yaml::parse(sources.text(file), file).map_err(|d| vec![d])?;
        let Value::Map(entries) = &node.value else {
            return Err(vec![
                Diagnostic::new(
                    node.loc,
                    format!("a ruleset is a mapping of keys, found {}", node.kind()),
                )
                .hint("start with `title: ...` on the first line"),
            ]);
        };
        let parent = entries
            .iter()
            .find(|(k, _)| k.name == "extends")
            .map(|(_, v)| v.clone());
        names_seen.push(current.name.clone());
        files_seen.push(identity(&current));
        chain.push((node, current.display.clone()));
        let Some(parent) = parent else { break };
        let Some(parent_name) = parent.as_str() else {
            return Err(vec![Diagnostic::new(
                parent.loc,
                format!("`extends` takes a ruleset name, found {}", parent.kind()),
            )]);
        };
        let cycle = |names_seen: &[String]| {
            vec![
                Diagnostic::new(
                    parent.loc,
                    format!(
                        "`extends` makes a cycle: {} -> {parent_name}",
                        names_seen.join(" -> ")
                    ),
                )
                .hint("a ruleset cannot extend itself, directly or through others"),
            ]
        };
        if chain.len() >= MAX_CHAIN {
            return Err(vec![Diagnostic::new(
                parent.loc,
                format!("`extends` chain longer than {MAX_CHAIN} files"),
            )]);
        }
        let near = match &current.origin {
            Origin::File(p) => p.parent().map(PathBuf::from),
            Origin::Embedded => None,
        };
        // A parent given as a path that names no file is not found, like a name that names no ruleset.
        let found = catalog
            .find(parent_name, near.as_deref())
            .filter(|f| !matches!(&f.origin, Origin::File(p) if !p.is_file()));
        match found {
            Some(f) => {
                if files_seen.contains(&identity(&f)) {
                    return Err(cycle(&names_seen));
                }
                current = f;
            }
            None => {
                let known: Vec<String> = catalog.names().into_iter().map(|(n, _)| n).collect();
                let hint = keliya_board::closest(parent_name, known.iter().map(String::as_str))
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| {
                        "the parent is looked up beside this file, then among the bundled rulesets"
                            .into()
                    });
                return Err(vec![
                    Diagnostic::new(
                        parent.loc,
                        format!("parent ruleset `{parent_name}` not found"),
                    )
                    .hint(hint),
                ]);
            }
        }
    }
    let displays: Vec<String> = chain.iter().map(|(_, d)| d.clone()).collect();
    let mut iter = chain.into_iter().rev();
    let (mut merged, _) = iter
        .next()
        .expect("the chain holds at least the file asked for");
    let mut overrides = Vec::new();
    for (child, _) in iter {
        merged = merge_noting(without_own_keys(merged), child, &mut overrides);
    }
    // A `$replace: true` or `false` left after the merge had no parent's mapping to replace, or said not to.
    if let Some(at) = leftover_replace(&merged) {
        return Err(vec![
            Diagnostic::new(at, format!("`{REPLACE}` is not used here"))
                .hint(format!(
                    "in a delta, `{REPLACE}: true` inside a mapping makes it replace the parent's mapping whole"
                )),
        ]);
    }
    crate::lower::lower(merged, displays, names_seen[0].clone(), sources, prepare).map_err(
        |diags| {
            diags
                .into_iter()
                .map(|d| with_overridden(d, &overrides))
                .collect()
        },
    )
}

/// A problem inside a value a delta wrote over its parent's is shown with the parent's value too.
fn with_overridden(mut d: Diagnostic, overrides: &[(Loc, Loc)]) -> Diagnostic {
    let inside = overrides
        .iter()
        .filter(|(child, _)| {
            child.file == d.loc.file && child.start <= d.loc.start && d.loc.end <= child.end
        })
        .min_by_key(|(child, _)| child.end - child.start);
    if let Some(&(_, parent)) = inside {
        d.related
            .push((parent, "the parent's value, which this replaces".into()));
    }
    d
}

/// What a found ruleset is, the same for every way of naming it: its file, or its embedded name.
fn identity(found: &Found) -> String {
    match &found.origin {
        Origin::File(p) => {
            let p = p.canonicalize().unwrap_or_else(|_| p.clone());
            format!("file {}", p.display())
        }
        Origin::Embedded => format!("embedded {}", found.name),
    }
}

/// Keys that describe one file and are not inherited: a game extending a library is a game.
fn without_own_keys(mut node: Node) -> Node {
    if let Value::Map(entries) = &mut node.value {
        entries.retain(|(k, _)| !matches!(k.name.as_str(), "kind" | "extends" | "name"));
    }
    node
}

/// The key that makes a delta's mapping replace its parent's whole (`$replace: true`), where mappings
/// otherwise merge key by key. Before it, `$replace` with a value `true` or `false` could stand only where
/// any name is a key and a value may be a truth (`params:`, whose names must be rules-language names), so
/// no ruleset that validated used it.
const REPLACE: &str = "$replace";

/// `child` over `parent`: mappings merge key by key (a `~` value removes the key), anything else replaces,
/// and so does a child's mapping that holds `$replace: true` (the key itself dropped). Keys keep the
/// parent's order; new keys follow. Each value the child replaces whole is noted in `overrides` as (the
/// child's value, the parent's).
fn merge_noting(parent: Node, mut child: Node, overrides: &mut Vec<(Loc, Loc)>) -> Node {
    if let Value::Map(entries) = &mut child.value
        && matches!(parent.value, Value::Map(_))
        && let Some(i) = entries
            .iter()
            .position(|(k, v)| k.name == REPLACE && matches!(v.value, Value::Bool(true)))
    {
        entries.remove(i);
        overrides.push((child.loc, parent.loc));
        return child;
    }
    if !(matches!(parent.value, Value::Map(_)) && matches!(child.value, Value::Map(_))) {
        overrides.push((child.loc, parent.loc));
    }
    match (parent.value, child.value) {
        (Value::Map(mut base), Value::Map(over)) => {
            for (k, v) in over {
                let pos = base.iter().position(|(bk, _)| bk.name == k.name);
                match (pos, &v.value) {
                    (Some(i), Value::Null) => {
                        base.remove(i);
                    }
                    (None, Value::Null) => base.push((k, v)), // reported by the schema if it matters
                    (Some(i), _) => {
                        let (_, old) = base.remove(i);
                        base.insert(i, (k, merge_noting(old, v, overrides)));
                    }
                    (None, _) => base.push((k, v)),
                }
            }
            Node {
                value: Value::Map(base),
                loc: child.loc,
            }
        }
        (_, value) => Node {
            value,
            loc: child.loc,
        },
    }
}

/// Where a `$replace` key with a truth for its value is left in the merged tree, if anywhere (a key
/// `$replace` with another value is whatever the section makes of it, a site's name say).
fn leftover_replace(node: &Node) -> Option<Loc> {
    match &node.value {
        Value::Map(entries) => entries.iter().find_map(|(k, v)| {
            if k.name == REPLACE && matches!(v.value, Value::Bool(_)) {
                Some(k.loc)
            } else {
                leftover_replace(v)
            }
        }),
        Value::Seq(items) => items.iter().find_map(leftover_replace),
        _ => None,
    }
}

/// Canonical text of a tree (keys in order, no locations) for hashing and comparison.
pub(crate) fn canonical(node: &Node, out: &mut String) {
    match &node.value {
        Value::Null => out.push('~'),
        Value::Bool(b) => out.push_str(&b.to_string()),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&format!("{f:?}")),
        Value::Str(s) => out.push_str(&format!("{s:?}")),
        Value::Seq(items) => {
            out.push('[');
            for i in items {
                canonical(i, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (Key { name, .. }, v) in entries {
                out.push_str(&format!("{name:?}:"));
                canonical(v, out);
                out.push(',');
            }
            out.push('}');
        }
    }
}

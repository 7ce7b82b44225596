//! `display:`: what a player is shown each turn besides the board (the figures that decide the game).
//! It changes nothing in play, so it is left out of the ruleset's hash.

use keliya_board::{Board, closest};

use super::{Cx, Names, field};
use crate::load::{DisplayItem, DisplayValue};
use crate::yaml::{Node, Value};

/// The entries of `display:`, in order: `NAME: ~` or `NAME: {label: TEXT}` shows variable NAME;
/// `LABEL: {count_at: PLACE}` shows how many pieces each player owns on PLACE (a site, or every site with
/// that tag). `player: P` shows a per-player figure for P alone. `{param}` in a label is the parameter's
/// value.
pub(super) fn display(
    cx: &mut Cx<'_>,
    node: &Node,
    names: &Names,
    board: Option<&Board>,
) -> Vec<DisplayItem> {
    let mut out = Vec::new();
    for (k, v) in cx.map(node, "display").unwrap_or(&[]) {
        let entries = match &v.value {
            Value::Null => &[][..],
            Value::Str(_) => {
                cx.err(
                    v.loc,
                    format!("a display entry is `~` or a mapping, found {}", v.kind()),
                );
                continue;
            }
            _ => cx.map(v, "a display entry").unwrap_or(&[]),
        };
        cx.check_keys(entries, &["label", "count_at", "player"], "a display entry");
        let player = field(entries, "player").and_then(|p| cx.player_ref(p, names));
        let label = field(entries, "label")
            .and_then(|n| cx.string(n, "label"))
            .unwrap_or_else(|| k.name.replace('_', " "));
        let label = with_params(&label, &names.params);
        let value = if let Some(site) = field(entries, "count_at") {
            let Some(name) = cx.string(site, "count_at") else {
                continue;
            };
            let Some(b) = board else { continue };
            let sites: Vec<u16> = match b.site(&name) {
                Some(id) => vec![id],
                None => (0..b.len() as u16)
                    .filter(|&s| b.has_tag(s, &name))
                    .collect(),
            };
            if sites.is_empty() {
                let hint = closest(&name, (0..b.len() as u16).map(|s| b.name(s)))
                    .map(|c| format!("did you mean `{c}`?"));
                cx.diags.push(
                    crate::diag::Diagnostic::new(
                        site.loc,
                        format!("no site or tag named `{name}`"),
                    )
                    .maybe_hint(hint),
                );
                continue;
            }
            DisplayValue::CountAt(sites)
        } else {
            match names.vars.iter().position(|var| var.name == k.name) {
                Some(i) => DisplayValue::Var(i),
                None => {
                    let hint = closest(&k.name, names.vars.iter().map(|v| v.name.as_str()))
                        .map(|c| format!("did you mean `{c}`?"))
                        .unwrap_or_else(|| {
                            "a display entry names a variable of `vars:`, or counts pieces with \
                             `count_at: SITE`"
                                .into()
                        });
                    cx.diags.push(
                        crate::diag::Diagnostic::new(
                            k.loc,
                            format!("no variable named `{}` to display", k.name),
                        )
                        .hint(hint),
                    );
                    continue;
                }
            }
        };
        out.push(DisplayItem {
            label,
            value,
            player,
        });
    }
    out
}

/// A rule's `labels:`: `CHOICE: WORD` for each `choose` variable worth a word when a move is shown (an
/// empty word hides the choice).
pub(super) fn choice_labels(cx: &mut Cx<'_>, node: &Node) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, v) in cx.map(node, "labels").unwrap_or(&[]) {
        let word = match &v.value {
            Value::Null => String::new(),
            _ => cx.string(v, "a label").unwrap_or_default(),
        };
        out.push((k.name.clone(), word));
    }
    out
}

/// The tree without what only changes how the game is shown (`display:`, rules' `labels:`), for the
/// hash: records made before a ruleset says how to show itself still replay after.
pub(super) fn without_display(root: &Node) -> Node {
    let mut played = root.clone();
    if let Value::Map(top) = &mut played.value {
        top.retain(|(k, _)| k.name != "display");
        for (k, rules) in top.iter_mut() {
            if k.name != "rules" {
                continue;
            }
            if let Value::Map(rules) = &mut rules.value {
                for (_, rule) in rules.iter_mut() {
                    if let Value::Map(keys) = &mut rule.value {
                        keys.retain(|(k, _)| k.name != "labels");
                    }
                }
            }
        }
    }
    played
}

/// `{name}` replaced by the value of parameter `name`; other braces kept.
fn with_params(label: &str, params: &[(String, i64)]) -> String {
    let mut out = label.to_string();
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_label_names_parameters_in_braces() {
        let params = vec![("goal".to_string(), 4)];
        assert_eq!(
            super::with_params("captures (wins at {goal}) {other}", &params),
            "captures (wins at 4) {other}"
        );
    }
}

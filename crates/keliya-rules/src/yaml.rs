//! YAML into a tree of nodes that each know where they came from. All YAML handling is behind this module,
//! so the YAML crate can be swapped without touching the schema.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::diag::{Diagnostic, FileId, Loc};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub name: String,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub loc: Loc,
}

impl Node {
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "a number",
            Value::Float(_) => "a fractional number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Largest ruleset file accepted; real rulesets are a few kilobytes.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Deepest nesting of YAML collections accepted.
pub const MAX_DEPTH: usize = 32;

pub fn parse(text: &str, file: FileId) -> Result<Node, Diagnostic> {
    let whole = Loc {
        file,
        start: 0,
        end: 0,
    };
    if text.len() > MAX_FILE_BYTES {
        let (message, hint) = too_large(text.len() as u64);
        return Err(Diagnostic::new(whole, message).hint(hint));
    }
    if let Some(i) = text.find('\0') {
        return Err(Diagnostic::new(
            Loc {
                file,
                start: i,
                end: i + 1,
            },
            "file holds binary data (a NUL byte)",
        )
        .hint("a ruleset is a UTF-8 YAML text file"));
    }
    // Lines end with LF, CRLF or a lone CR (old Mac files), as YAML reads them.
    if text.trim().is_empty()
        || text
            .split(['\n', '\r'])
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Err(Diagnostic::new(whole, "file is empty")
            .hint("a ruleset needs at least `title:` and `players:`; see docs/ruleset-format.md"));
    }
    let mut budget = serde_saphyr::Budget::default();
    // Tight limits: an alias bomb or a flood of events is refused quickly with bounded memory.
    budget.max_events = 200_000;
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_recorded_anchor_events = 10_000;
    budget.max_depth = MAX_DEPTH;
    budget.max_nodes = 200_000;
    budget.max_total_scalar_bytes = 4 * MAX_FILE_BYTES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    // A tag of an application's own (`!foo`) means nothing to keliya: refused, rather than silently
    // dropped.
    options.reject_unsupported_tags = true;
    let raw: Result<Spanned<Raw>, _> = serde_saphyr::from_str_with_options(text, options);
    match raw {
        Ok(r) => match binary_tag(text) {
            // serde-saphyr decodes a `!!binary` value to text before keliya sees it: refused here,
            // where the tags are still known.
            Some(at) => Err(Diagnostic::new(
                Loc {
                    file,
                    start: at.start,
                    end: at.end,
                },
                "YAML: unsupported tag `!!binary` (base64-encoded bytes)",
            )
            .hint("keliya reads plain YAML values: remove the tag and write the text itself")),
            None => Ok(convert(r, file, text)),
        },
        Err(e) => {
            let (start, len) = e
                .location()
                .map(|l| {
                    let span = l.span();
                    let start = span
                        .byte_offset()
                        .map(|b| b as usize)
                        .unwrap_or_else(|| offset_of(text, l.line(), l.column()));
                    (start, span.byte_len().unwrap_or(1) as usize)
                })
                .unwrap_or((0, 0));
            let start = start.min(text.len());
            let (message, hint) = clean_message(&e.to_string());
            Err(Diagnostic::new(
                Loc {
                    file,
                    start,
                    end: (start + len).min(text.len()),
                },
                message,
            )
            .maybe_hint(hint))
        }
    }
}

/// Where the first node tagged `!!binary` stands (its tag, or the node when the tag has no place), if
/// any. Only a file that mentions `binary` or declares a tag handle (`%TAG`, which may spell the tag in
/// pieces) can have one, so every other file is not read twice.
fn binary_tag(text: &str) -> Option<std::ops::Range<usize>> {
    use serde_saphyr::granit_parser::{Event, Parser};
    if !text.contains("binary") && !text.contains("%TAG") {
        return None;
    }
    for item in Parser::new_from_str(text) {
        // The file parsed as a whole already: an error here ends the search (it cannot be met).
        let (event, span) = item.ok()?;
        let (Event::Scalar(.., Some(tag))
        | Event::SequenceStart(_, _, Some(tag))
        | Event::MappingStart(_, _, Some(tag))) = &event
        else {
            continue;
        };
        // `!!binary`, however it is spelt (`!<tag:yaml.org,2002:binary>`, a `%TAG` handle), and the
        // spelling serde-saphyr reads as the same.
        let binary = tag.suffix_in_namespace("tag:yaml.org,2002:").as_deref() == Some("binary")
            || tag.suffix_in_namespace("!").as_deref() == Some("!binary");
        if binary {
            let at = span.tag_span().unwrap_or(span);
            let start = at.start.byte_offset().unwrap_or(0).min(text.len());
            let end = at
                .end
                .byte_offset()
                .unwrap_or(start)
                .clamp(start, text.len());
            return Some(start..end);
        }
    }
    None
}

/// The message and hint for a file of `bytes` bytes, over [`MAX_FILE_BYTES`].
pub(crate) fn too_large(bytes: u64) -> (String, &'static str) {
    (
        format!("file is {bytes} bytes; a ruleset may have at most {MAX_FILE_BYTES}"),
        "rulesets are small: use board generators and `extends` rather than long lists",
    )
}

/// serde-saphyr's message includes its own excerpt; keep the first line, without the position it repeats.
/// A breached budget is printed by serde-saphyr as a Rust debug value; say in words which limit it was.
fn clean_message(msg: &str) -> (String, Option<String>) {
    let first = msg.lines().next().unwrap_or(msg);
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first.find(": ") {
        Some(i) if first[..i].starts_with("line ") => &first[i + 2..],
        _ => first,
    };
    let first = first
        .split(", set DuplicateKeyPolicy")
        .next()
        .unwrap_or(first);
    if let Some(breach) = first.strip_prefix("budget breached: ") {
        let kind = breach.split([' ', '{']).next().unwrap_or(breach);
        let (what, hint) = match kind {
            "RecordedAnchorEvents" | "Aliases" | "Anchors" | "AliasAnchorRatio" => (
                "anchors and aliases (`&name`, `*name`) expand to too much data",
                "aliases that repeat aliases multiply the data (an \"alias bomb\"); \
                 write the values out, or use `extends`",
            ),
            "Depth" => (
                // MAX_DEPTH: only the collections count, never a bracket in text or a comment.
                "nesting deeper than 32 levels",
                "a ruleset nests a few levels; flatten the structure",
            ),
            _ => (
                "the file holds too many values",
                "rulesets are small: use board generators and `extends` rather than long lists",
            ),
        };
        return (format!("YAML: {what}"), Some(hint.to_string()));
    }
    // The parser's own guard against runaway recursion, met before the depth budget in a long run of
    // unclosed brackets: the same limit to the reader.
    if first.starts_with("recursion limit exceeded") {
        return (
            format!("YAML: nesting deeper than {MAX_DEPTH} levels"),
            Some("a ruleset nests a few levels; flatten the structure".into()),
        );
    }
    // `.inf`, `-.inf` or `.nan`: YAML's infinity and not-a-number, which no value of a ruleset may be.
    if let Some(rest) = first.strip_prefix("non-finite float ") {
        let written = rest.split(" rejected").next().unwrap_or(rest);
        return (
            format!("YAML: {written} is not a finite number"),
            Some("`.inf` and `.nan` stand for infinity and not-a-number; write a number".into()),
        );
    }
    if first.starts_with("unsupported tag") {
        return (
            format!("YAML: {first}"),
            Some("keliya reads plain YAML values: remove the tag".into()),
        );
    }
    // A value tagged `!!int` (or `!!float`) whose text is not such a number.
    if let Some(kind) = ["invalid u64", "invalid i64", "invalid f64"]
        .into_iter()
        .find(|k| first.starts_with(k))
    {
        let what = if kind.ends_with("f64") {
            "`!!float` needs a number"
        } else {
            "`!!int` needs a whole number"
        };
        return (
            format!("YAML: {what}"),
            Some("remove the tag, or write the number".into()),
        );
    }
    if first.starts_with("multiple YAML documents") {
        return (
            "YAML: a second document (after `---`); a ruleset is one document".into(),
            Some("remove the `---` line, or put the second ruleset in its own file".into()),
        );
    }
    if let Some(kind) = first
        .strip_prefix("invalid type: ")
        .and_then(|r| r.strip_suffix(", expected a plain key"))
    {
        return (
            format!("YAML: a key must be plain text, found a {kind}"),
            None,
        );
    }
    // The parser notices an unclosed `{` or `[` only where the text stops making sense, often a line later.
    let hint = if first.contains("flow mapping") {
        Some("is a `{` before this point missing its `}`?".to_string())
    } else if first.contains("flow sequence") {
        Some("is a `[` before this point missing its `]`?".to_string())
    } else if first.contains("mapping values are not allowed")
        || first.contains("did not find expected key")
        || first.contains("block mapping")
    {
        // What a line indented by one space too many or too few reads as.
        Some(
            "check the indentation: the keys of one mapping start in the same column, indented with \
             spaces (not tabs) under their parent"
                .to_string(),
        )
    } else {
        None
    };
    (format!("YAML: {first}"), hint)
}

fn offset_of(text: &str, line: u64, col: u64) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i as u64 + 1 == line {
            return off
                + l.char_indices()
                    .nth(col.saturating_sub(1) as usize)
                    .map_or(l.len(), |(b, _)| b);
        }
        off += l.len();
    }
    text.len()
}

enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<String>, Spanned<Raw>)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E>(self) -> Result<Raw, E> {
                Ok(Raw::Null)
            }
            fn visit_none<E>(self) -> Result<Raw, E> {
                Ok(Raw::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
                Ok(Raw::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
                Ok(Raw::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
                i64::try_from(v)
                    .map(Raw::Int)
                    .map_err(|_| E::custom("number too large"))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
                Ok(Raw::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
                Ok(Raw::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Raw, E> {
                Ok(Raw::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Raw::Seq(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = a.next_key::<Spanned<KeyText>>()? {
                    let val = a.next_value()?;
                    v.push((Spanned::new(k.value.0, k.referenced, k.defined), val));
                }
                Ok(Raw::Map(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A mapping key as text, whatever its YAML type (`0:` in a throw table is a number).
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = KeyText;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a plain key")
            }
            fn visit_str<E>(self, v: &str) -> Result<KeyText, E> {
                Ok(KeyText(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<KeyText, E> {
                Ok(KeyText("~".into()))
            }
        }
        d.deserialize_any(V)
    }
}

fn loc_of(l: &serde_saphyr::Location, file: FileId, text: &str) -> Loc {
    let span = l.span();
    let start = span
        .byte_offset()
        .map(|b| b as usize)
        .unwrap_or_else(|| offset_of(text, l.line(), l.column()));
    let len = span.byte_len().map(|b| b as usize).unwrap_or(0);
    let start = start.min(text.len());
    Loc {
        file,
        start,
        end: (start + len).min(text.len()),
    }
}

/// A key's name: YAML reads a plain key `no`, `yes`, `on` or `off` as a boolean, which would name a site
/// `false` or `true`; the name is the text written.
fn key_name(parsed: String, loc: Loc, text: &str) -> String {
    if parsed != "true" && parsed != "false" {
        return parsed;
    }
    match text.get(loc.start..loc.end) {
        Some(written) if !written.is_empty() && !written.starts_with(['"', '\'']) => {
            written.to_string()
        }
        _ => parsed,
    }
}

fn convert(r: Spanned<Raw>, file: FileId, text: &str) -> Node {
    let loc = loc_of(&r.referenced, file, text);
    let value = match r.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(v) => Value::Seq(v.into_iter().map(|x| convert(x, file, text)).collect()),
        Raw::Map(v) => Value::Map(
            v.into_iter()
                .map(|(k, x)| {
                    let loc = loc_of(&k.referenced, file, text);
                    (
                        Key {
                            name: key_name(k.value, loc, text),
                            loc,
                        },
                        convert(x, file, text),
                    )
                })
                .collect(),
        ),
    };
    Node { value, loc }
}

/// Where, in the file, each byte of a string scalar's value stands, and its end (`value.len()`). Walks the
/// scalar's source text and the value together, once, so plain, quoted and block scalars all map, escapes
/// of double-quoted ones too; the many locations of one rules-language text then cost one walk.
pub fn value_offsets(text: &str, scalar: Loc, value: &str) -> Vec<usize> {
    let start = floor_boundary(text, scalar.start.min(text.len()));
    let end = if scalar.end > start {
        floor_boundary(text, scalar.end.min(text.len()))
    } else {
        text.len()
    };
    // The scalar's own text when its length is known, so a search never runs into the next value.
    let src = &text[start..end];
    // A block scalar's location starts at its first line of text: leading blank lines are before it.
    let lead = if src.starts_with(['"', '\'', '\n']) {
        0
    } else {
        value.len() - value.trim_start_matches('\n').len()
    };
    let double_quoted = src.starts_with('"');
    // Where `c` next stands in the source from byte `pos`, looking a bounded distance ahead: what lies
    // between two characters of the value is indentation, a line break, quotes or an escape, never much.
    // A character not found (written as an escape) leaves the position where it is.
    let next = |pos: usize, c: char| {
        src[pos..]
            .char_indices()
            .take(256)
            .find(|&(_, sc)| sc == c)
            .map(|(o, _)| pos + o)
    };
    let mut offsets = Vec::with_capacity(value.len() + 1);
    let mut pos = 0;
    for c in value[lead..].chars() {
        // As `value_offset`: where this character stands, then past it.
        let at = if double_quoted
            && let Some((e, len)) = escape(&src[pos..])
            && e == c
        {
            let at = pos;
            pos += len;
            at
        } else {
            match next(pos, c) {
                Some(found) => {
                    pos = found + c.len_utf8();
                    found
                }
                None => pos,
            }
        };
        // Every byte of the character (a byte inside one maps to its start), and the leading blank
        // lines before the first, which map where it does.
        let bytes = if offsets.is_empty() {
            lead + c.len_utf8()
        } else {
            c.len_utf8()
        };
        offsets.extend(std::iter::repeat_n(start + at, bytes));
    }
    if offsets.is_empty() {
        offsets.extend(std::iter::repeat_n(start, lead));
    }
    offsets.push(start + pos);
    offsets
}

/// Where, in the file, the byte `index` of a string scalar's value stands (a byte inside a character
/// stands where the character does; an index past the end, at the end). See [`value_offsets`].
pub fn value_offset(text: &str, scalar: Loc, value: &str, index: usize) -> usize {
    let all = value_offsets(text, scalar, value);
    all[index.min(all.len() - 1)]
}

/// The character a YAML double-quoted escape at the start of `s` stands for, and its length in bytes.
fn escape(s: &str) -> Option<(char, usize)> {
    let mut chars = s.chars();
    if chars.next() != Some('\\') {
        return None;
    }
    let k = chars.next()?;
    let hex = |n: usize| {
        let digits = s.get(2..2 + n)?;
        let c = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
        Some((c, 2 + n))
    };
    let simple = match k {
        'x' => return hex(2),
        'u' => return hex(4),
        'U' => return hex(8),
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{b}',
        'f' => '\u{c}',
        'r' => '\r',
        'e' => '\u{1b}',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        ' ' | '"' | '/' | '\\' => k,
        _ => return None,
    };
    Some((simple, 1 + k.len_utf8()))
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_know_their_bytes() {
        let text = "a: 1\nb: \"x y\"\nc:\n  - |\n    foo\n    bar\n";
        let node = parse(text, 0).unwrap();
        let Value::Map(m) = &node.value else { panic!() };
        assert_eq!(m[1].0.name, "b");
        assert_eq!(&text[m[1].1.loc.start..m[1].1.loc.end], "\"x y\"");
        let Value::Seq(items) = &m[2].1.value else {
            panic!()
        };
        let block = &items[0];
        let v = block.as_str().unwrap();
        let bar = v.find("bar").unwrap();
        assert_eq!(&text[value_offset(text, block.loc, v, bar)..][..3], "bar");
        let q = m[1].1.as_str().unwrap();
        assert_eq!(&text[value_offset(text, m[1].1.loc, q, 2)..][..1], "y");
        // Leading blank lines of a block scalar come before its location; an escaped character is not
        // found in the source, and the search does not run on into the next value.
        let text = "a: |\n\n  x\n  @bad\nb: >\n\n\n  p\n  q\nc: \"\\u00e9 z\"\nd: \"\\x20a\\tw\"\ne: \u{e9}\n";
        let node = parse(text, 0).unwrap();
        let Value::Map(m) = &node.value else { panic!() };
        for ((_, n), word) in m.iter().zip(["@bad", "q", "z", "w"]) {
            let v = n.as_str().unwrap();
            let i = v.find(word).unwrap();
            assert_eq!(&text[value_offset(text, n.loc, v, i)..][..word.len()], word);
        }
    }

    #[test]
    fn every_character_of_a_plain_or_block_scalar_maps_to_itself() {
        let text = "a: |\n\n  x = 1\n  @bad(y)\nb: >\n\n\n  p\n  q r\ne: \u{e9} f\nf: 'it''s'\n";
        let node = parse(text, 0).unwrap();
        let Value::Map(m) = &node.value else { panic!() };
        for (key, n) in m {
            let v = n.as_str().unwrap();
            let all = value_offsets(text, n.loc, v);
            assert_eq!(all.len(), v.len() + 1);
            for (i, c) in v.char_indices() {
                // (A folded line break is a space in the value; a doubled quote, one quote.)
                if c == '\n' || key.name == "b" && c == ' ' || c == '\'' {
                    continue;
                }
                assert!(text[all[i]..].starts_with(c), "{v:?} byte {i}");
                for b in 1..c.len_utf8() {
                    assert_eq!(all[i + b], all[i], "inside {c:?}");
                }
            }
        }
    }

    #[test]
    fn hostile_files_are_refused_with_a_location() {
        assert!(parse("", 0).unwrap_err().message.contains("empty"));
        assert!(parse("a: \0", 0).unwrap_err().message.contains("binary"));
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
        let t = std::time::Instant::now();
        assert!(parse(bomb, 0).is_err());
        assert!(t.elapsed().as_secs() < 2);
        let dup = parse("a: 1\na: 2\n", 0).unwrap_err();
        assert_eq!(dup.loc.start, 5);
        assert!(dup.message.contains("duplicate"), "{}", dup.message);
    }
}

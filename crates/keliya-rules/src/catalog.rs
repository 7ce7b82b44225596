//! Finding rulesets: a path, a name in a rulesets folder, or a ruleset embedded in the binary.

use std::path::{Path, PathBuf};

/// Where ruleset names are looked up, in order: the folders, then the embedded copies.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub dirs: Vec<PathBuf>,
    pub embedded: Vec<(String, &'static str)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    File(PathBuf),
    Embedded,
}

#[derive(Clone, Debug)]
pub struct Found {
    pub name: String,
    /// The path shown in messages: the file's path, or `<embedded>/name.yaml`.
    pub display: String,
    pub origin: Origin,
    pub text: Result<String, Unreadable>,
}

/// A file that cannot be read as a ruleset: why, and where.
#[derive(Clone, Debug)]
pub struct Unreadable {
    pub message: String,
    pub hint: Option<String>,
    /// What can be shown of the file (invalid bytes and control characters replaced by `\u{FFFD}`).
    pub text: String,
    /// Byte offset in `text` of the first offending character.
    pub at: usize,
}

/// Whether a ruleset is named by a path (it ends in `.yaml` or `.yml`, or starts with `.` or `/`) rather
/// than by a name.
pub fn looks_like_path(what: &str) -> bool {
    what.ends_with(".yaml")
        || what.ends_with(".yml")
        || what.starts_with('.')
        || what.starts_with('/')
}

impl Catalog {
    /// `what` is a path to a file, or a ruleset name such as `my-game` or `lib/hunt`.
    /// `near` is the folder of the file that asks (for `extends`), searched first.
    pub fn find(&self, what: &str, near: Option<&Path>) -> Option<Found> {
        let as_path = Path::new(what);
        if looks_like_path(what) {
            let name = as_path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            // A relative path in `extends` is relative to the file that asks, not to the current folder.
            let path = match near {
                Some(dir) if as_path.is_relative() => dir.join(as_path),
                _ => as_path.to_path_buf(),
            };
            return Some(read(name, path));
        }
        let file = format!("{what}.yaml");
        // The asking file's folder and the two above it (a variant in `rulesets/game/` extends `game`),
        // the same folders however the asking file's path was typed (`sub/c.yaml` or, from `sub`,
        // `c.yaml`).
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(n) = near {
            let mut dir: PathBuf = n.components().collect();
            for _ in 0..3 {
                let above = up(&dir);
                dirs.push(std::mem::replace(&mut dir, above));
            }
        }
        dirs.extend(self.dirs.iter().cloned());
        for dir in dirs {
            let p = dir.join(&file);
            if p.is_file() {
                return Some(read(what.to_string(), p));
            }
        }
        self.embedded
            .iter()
            .find(|(n, _)| n == what)
            .map(|(n, text)| Found {
                name: n.clone(),
                display: format!("<embedded>/{n}.yaml"),
                origin: Origin::Embedded,
                text: Ok(text.to_string()),
            })
    }

    /// Every ruleset name known, with where it comes from; a folder's copy wins over an embedded one.
    pub fn names(&self) -> Vec<(String, Origin)> {
        let mut out: Vec<(String, Origin)> = Vec::new();
        for dir in &self.dirs {
            let mut found = Vec::new();
            collect(dir, dir, &mut found);
            found.sort();
            for (name, path) in found {
                if !out.iter().any(|(n, _)| *n == name) {
                    out.push((name, Origin::File(path)));
                }
            }
        }
        for (n, _) in &self.embedded {
            if !out.iter().any(|(m, _)| m == n) {
                out.push((n.clone(), Origin::Embedded));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "yaml")
            && let Ok(rel) = p.with_extension("").strip_prefix(root)
        {
            out.push((rel.to_string_lossy().replace('\\', "/"), p.clone()));
        }
    }
}

/// The folder above `dir`, written as `dir` is: `a/b` gives `a`, `a` gives the empty path (the current
/// folder), which gives `..`; `..` gives `../..`; the root stays the root.
fn up(dir: &Path) -> PathBuf {
    use std::path::Component;
    match dir.components().next_back() {
        Some(Component::Normal(_)) => dir.parent().map(Path::to_path_buf).unwrap_or_default(),
        Some(Component::ParentDir) | None | Some(Component::CurDir) => dir.join(".."),
        Some(Component::RootDir | Component::Prefix(_)) => dir.to_path_buf(),
    }
}

/// A ruleset file's bytes. Only a regular file is read: a FIFO with no writer would block for ever and a
/// device such as `/dev/zero` never ends, and neither is a ruleset. A file over the size limit is
/// refused by its size, unread, and one that grows while it is read is read no further than the limit.
fn read_file(path: &Path) -> Result<Vec<u8>, (String, Option<String>)> {
    use std::io::Read;
    let cannot = |e: std::io::Error| (format!("cannot read file: {e}"), None);
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a FIFO, a device or a socket)"
        };
        return Err((
            format!("cannot read file: {what}"),
            Some("a ruleset is a YAML text file".into()),
        ));
    }
    let limit = crate::yaml::MAX_FILE_BYTES as u64;
    if meta.len() > limit {
        let (message, hint) = crate::yaml::too_large(meta.len());
        return Err((message, Some(hint.into())));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    Ok(bytes)
}

fn read(name: String, path: PathBuf) -> Found {
    let text = match read_file(&path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| {
            let bad = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let nul = bytes.iter().position(|&b| b == 0);
            let at = nul.map_or(bad, |n| n.min(bad));
            Unreadable {
                message: if nul.is_some() {
                    "file holds binary data, not UTF-8 text".into()
                } else {
                    format!("file is not UTF-8 text (invalid byte 0x{:02x})", bytes[bad])
                },
                hint: Some("a ruleset is a UTF-8 YAML text file".into()),
                // The prefix before `at` is valid UTF-8, so its shown form has the same characters.
                at: printable(&String::from_utf8_lossy(&bytes[..at])).len(),
                text: printable(&String::from_utf8_lossy(&bytes)),
            }
        }),
        Err((message, hint)) => Err(Unreadable {
            message,
            hint,
            text: String::new(),
            at: 0,
        }),
    };
    Found {
        name,
        display: path.display().to_string(),
        origin: Origin::File(path),
        text,
    }
}

/// Text safe to show on a terminal: control characters other than newline and tab, and the invisible
/// marks that reorder text (bidirectional controls), replaced.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\n' && c != '\t') || bidi {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

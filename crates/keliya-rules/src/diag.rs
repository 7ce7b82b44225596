//! Diagnostics: every problem with a file and a byte range, a message and an optional hint.
//! Rendering (underlines, colours) belongs to the CLI; this module only knows lines and columns.

/// Index of a file in [`Sources`].
pub type FileId = usize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub loc: Loc,
    pub message: String,
    pub hint: Option<String>,
    /// Other places worth showing with it, each with a label (the parent's value a delta overrides).
    pub related: Vec<(Loc, String)>,
}

impl Diagnostic {
    pub fn new(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            loc,
            message: message.into(),
            hint: None,
            related: Vec::new(),
        }
    }
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    pub fn maybe_hint(mut self, hint: Option<String>) -> Self {
        self.hint = hint;
        self
    }
}

/// The texts of every file read, so diagnostics can be shown with their source lines.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    pub fn add(&mut self, path: String, text: String) -> FileId {
        self.files.push((path, text));
        self.files.len() - 1
    }
    pub fn path(&self, f: FileId) -> &str {
        &self.files[f].0
    }
    pub fn text(&self, f: FileId) -> &str {
        &self.files[f].1
    }
    pub fn find(&self, path: &str) -> Option<FileId> {
        self.files.iter().position(|(p, _)| p == path)
    }
    /// 1-based line and column (in characters) of a byte offset. A line ends with LF, CRLF or a lone CR,
    /// as YAML reads it.
    pub fn line_col(&self, f: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(f);
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let before = &text[..offset];
        let lone_crs = before
            .match_indices('\r')
            .filter(|&(i, _)| !text[i + 1..].starts_with('\n'));
        let line = before.matches('\n').count() + lone_crs.count() + 1;
        let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        (line, text[line_start..offset].chars().count() + 1)
    }
    /// The text of 1-based line `n` of a file, without its line end (LF, CRLF or a lone CR).
    pub fn line(&self, f: FileId, n: usize) -> Option<&str> {
        let text = self.text(f);
        if text.is_empty() {
            return None;
        }
        // As `str::lines`: a line end at the very end starts no further line.
        let text = ["\r\n", "\n", "\r"]
            .iter()
            .find_map(|end| text.strip_suffix(end))
            .unwrap_or(text);
        let mut lines = text.split('\n').flat_map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            l.split('\r')
        });
        lines.nth(n.checked_sub(1)?)
    }
    /// `path:line:col: error: message` (and the hint on the next line), without the source excerpt.
    pub fn short(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.loc.file, d.loc.start);
        let mut s = format!(
            "{}:{line}:{col}: error: {}",
            self.path(d.loc.file),
            d.message
        );
        if let Some(h) = &d.hint {
            s.push_str(&format!("\n  hint: {h}"));
        }
        s
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

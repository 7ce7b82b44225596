//! Boards as graphs.
//!
//! A [`BoardSpec`] is the authoring form: named sites, edges, straight lines and tracks, as written in a
//! ruleset (after generators have run). [`BoardSpec::compile`] checks it and produces a [`Board`]: flat arrays
//! indexed by [`SiteId`], which is what the engine reads in its move loop.
//!
//! Architecture invariant: this crate knows nothing about rules, pieces or players beyond the owner *names*
//! written on sites and tracks. Every spec item carries an opaque `origin` the caller uses to point at source.

mod generate;

use std::collections::HashMap;

use petgraph::graph::{NodeIndex, UnGraph};

pub use generate::{CrossColumn, Generator, generate_limit};

/// Index of a site in a compiled [`Board`].
pub type SiteId = u16;

/// Opaque handle the caller attaches to every spec item so a problem can be reported at its source.
pub type Origin = usize;

#[derive(Clone, Debug, PartialEq)]
pub struct SiteSpec {
    pub id: String,
    pub at: (f64, f64),
    pub tags: Vec<String>,
    pub owner: Option<String>,
    /// Off-board places (hand, store, waiting area) are sites that are not drawn on the board.
    pub offboard: bool,
    pub origin: Origin,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EdgeSpec {
    pub a: String,
    pub b: String,
    pub origin: Origin,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PathSpec {
    pub name: String,
    pub points: Vec<String>,
    pub owner: Option<String>,
    /// A track whose last point is followed by its first (a sowing cycle).
    pub cyclic: bool,
    pub origin: Origin,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardSpec {
    pub sites: Vec<SiteSpec>,
    pub edges: Vec<EdgeSpec>,
    /// Straight lines: leaps go from a point over the next to the one after, along a line, both ways.
    pub lines: Vec<PathSpec>,
    /// Ordered routes (race paths, sowing cycles); may pass a site twice.
    pub tracks: Vec<PathSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub origin: Origin,
    pub message: String,
    pub hint: Option<String>,
}

impl BoardError {
    fn new(origin: Origin, message: String, hint: Option<String>) -> Self {
        BoardError {
            origin,
            message,
            hint,
        }
    }
}

/// Upper bound on sites, so ids fit [`SiteId`] and a hostile file cannot ask for a huge board.
pub const MAX_SITES: usize = 4096;

#[derive(Clone, Debug)]
pub struct Line {
    pub name: String,
    pub points: Vec<SiteId>,
}

#[derive(Clone, Debug)]
pub struct Track {
    pub name: String,
    pub owner: Option<String>,
    pub cyclic: bool,
    pub points: Vec<SiteId>,
}

/// The compiled board: everything the move loop needs as flat, index-addressed arrays.
#[derive(Clone, Debug)]
pub struct Board {
    names: Vec<String>,
    index: HashMap<String, SiteId>,
    pub at: Vec<(f64, f64)>,
    pub offboard: Vec<bool>,
    pub tags: Vec<Vec<String>>,
    pub owner: Vec<Option<String>>,
    /// Undirected edges in authoring order, each once.
    pub edges: Vec<(SiteId, SiteId)>,
    neighbour_start: Vec<u32>,
    neighbours: Vec<SiteId>,
    leap_start: Vec<u32>,
    /// (over, land) pairs per site, in line order.
    leaps: Vec<(SiteId, SiteId)>,
    pub lines: Vec<Line>,
    pub tracks: Vec<Track>,
    /// For each track, each site's first position on it (`u32::MAX` when it is not on it): `along` and
    /// `index_on` in constant time.
    track_positions: Vec<Vec<u32>>,
    /// For each track and site (`track * sites + site`), the point one step further along it from the
    /// site's first position, or `u32::MAX`: `along(t, s, 1)`, a sowing's every step, in one load.
    one_step: Vec<u32>,
    /// The on-board sites, in id order.
    playing: Vec<SiteId>,
    /// The same as a bit set (bit `s` for site `s`), on boards of up to 64 places.
    playing_bits: Option<u64>,
    /// The same on boards of up to 128 places.
    playing_wide: Option<u128>,
    /// Per site, as bit sets, on boards of up to 64 places (empty otherwise): its neighbours, the
    /// points its leaps go over, and the points they land on.
    reach_bits: Vec<Reach>,
    /// The board has reach bits and names each neighbour of each site once, so that a site's neighbour
    /// bits list the same points as its neighbour list.
    neighbour_bits_exact: bool,
}

/// What a site reaches in one step or leap, as bit sets (bit `s` for site `s`); every bit set where
/// the board is too large for sets, so that a test "nothing reachable" never holds there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub neighbours: u64,
    pub leaps_over: u64,
    pub leaps_land: u64,
}

impl Reach {
    const ALL: Reach = Reach {
        neighbours: u64::MAX,
        leaps_over: u64::MAX,
        leaps_land: u64::MAX,
    };
}

impl Board {
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    pub fn name(&self, s: SiteId) -> &str {
        &self.names[s as usize]
    }
    pub fn site(&self, name: &str) -> Option<SiteId> {
        self.index.get(name).copied()
    }
    pub fn names(&self) -> &[String] {
        &self.names
    }
    #[inline]
    pub fn neighbours(&self, s: SiteId) -> &[SiteId] {
        let s = s as usize;
        &self.neighbours[self.neighbour_start[s] as usize..self.neighbour_start[s + 1] as usize]
    }
    #[inline]
    pub fn leaps(&self, s: SiteId) -> &[(SiteId, SiteId)] {
        let s = s as usize;
        &self.leaps[self.leap_start[s] as usize..self.leap_start[s + 1] as usize]
    }
    /// The point after `b` on a straight line that runs from `a` through `b` (`b` next to `a` on it), or
    /// `None` where the line ends there or no line joins them so: a step of a slide along a line. The
    /// first line in written order that has them side by side decides.
    pub fn beyond(&self, a: SiteId, b: SiteId) -> Option<SiteId> {
        self.lines.iter().find_map(|line| {
            let p = &line.points;
            p.windows(2).enumerate().find_map(|(i, w)| match w {
                [x, y] if *x == a && *y == b => Some(p.get(i + 2).copied()),
                [x, y] if *x == b && *y == a => Some(i.checked_sub(1).map(|j| p[j])),
                _ => None,
            })
        })?
    }
    pub fn has_tag(&self, s: SiteId, tag: &str) -> bool {
        self.tags[s as usize].iter().any(|t| t == tag)
    }
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }
    /// The point `steps` further along track `t` from `from` (its first occurrence), wrapping on a cyclic
    /// track; `None` past the end of an open track or when `from` is not on it.
    #[inline]
    pub fn along(&self, t: usize, from: SiteId, steps: i64) -> Option<SiteId> {
        if steps == 1 && (from as usize) < self.names.len() {
            return match self.one_step.get(t * self.names.len() + from as usize) {
                Some(&next) if next != u32::MAX => Some(next as SiteId),
                _ => None,
            };
        }
        self.along_by(t, from, steps)
    }

    /// [`Board::along`] by the track's positions.
    fn along_by(&self, t: usize, from: SiteId, steps: i64) -> Option<SiteId> {
        along_track(&self.tracks[t], &self.track_positions[t], from, steps)
    }
    /// The first position of `site` on track `t`, from 0.
    pub fn index_on(&self, t: usize, site: SiteId) -> Option<usize> {
        match self.track_positions[t].get(site as usize) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }
    /// On-board sites, in id order.
    pub fn playing_sites(&self) -> impl Iterator<Item = SiteId> + '_ {
        self.playing.iter().copied()
    }
    /// The on-board sites, in order, as a list.
    #[inline]
    pub fn playing_list(&self) -> &[SiteId] {
        &self.playing
    }
    /// What `s` reaches in one step or leap, as bit sets; every bit set on a board of more than 64
    /// places.
    #[inline]
    pub fn reach(&self, s: SiteId) -> Reach {
        self.reach_bits
            .get(s as usize)
            .copied()
            .unwrap_or(Reach::ALL)
    }
    /// Whether every site's neighbour bits ([`Board::reach`]) list the same points as its neighbour
    /// list: the board has at most 64 places and no list names a point twice.
    #[inline]
    pub fn neighbour_bits_exact(&self) -> bool {
        self.neighbour_bits_exact
    }
    /// The on-board sites as a bit set (bit `s` for site `s`); `None` on a board of more than 64
    /// places.
    #[inline]
    pub fn playing_bits(&self) -> Option<u64> {
        self.playing_bits
    }
    /// [`Board::playing_bits`] on boards of up to 128 places.
    #[inline]
    pub fn playing_wide(&self) -> Option<u128> {
        self.playing_wide
    }
}

impl BoardSpec {
    /// Applies generators before the explicit parts, so explicit sites can retag generated ones.
    pub fn with_generated(generators: &[(Generator, Origin)], explicit: BoardSpec) -> BoardSpec {
        let mut spec = BoardSpec::default();
        for (g, origin) in generators {
            g.generate(*origin, &mut spec);
        }
        spec.merge(explicit);
        spec
    }

    /// Adds `other` on top of `self`: sites with the same id are replaced, the rest appended.
    pub fn merge(&mut self, other: BoardSpec) {
        for site in other.sites {
            match self.sites.iter_mut().find(|s| s.id == site.id) {
                Some(old) => *old = site,
                None => self.sites.push(site),
            }
        }
        self.edges.extend(other.edges);
        for line in other.lines {
            match self.lines.iter_mut().find(|l| l.name == line.name) {
                Some(old) => *old = line,
                None => self.lines.push(line),
            }
        }
        for track in other.tracks {
            match self.tracks.iter_mut().find(|t| t.name == track.name) {
                Some(old) => *old = track,
                None => self.tracks.push(track),
            }
        }
    }

    /// Checks the spec and builds the flat board. Reports every problem, not just the first.
    pub fn compile(&self) -> Result<Board, Vec<BoardError>> {
        let mut errors = Vec::new();
        if self.sites.len() > MAX_SITES {
            let origin = self.sites[MAX_SITES].origin;
            return Err(vec![BoardError::new(
                origin,
                format!(
                    "a board may have at most {MAX_SITES} sites, this one has {}",
                    self.sites.len()
                ),
                None,
            )]);
        }
        let mut graph: UnGraph<SiteId, ()> = UnGraph::default();
        let mut index = HashMap::new();
        for (i, site) in self.sites.iter().enumerate() {
            let id = i as SiteId;
            if index.insert(site.id.clone(), id).is_some() {
                errors.push(BoardError::new(
                    site.origin,
                    format!("site `{}` is defined twice", site.id),
                    None,
                ));
            }
            graph.add_node(id);
        }
        let lookup = |name: &str,
                      origin: Origin,
                      what: &str,
                      errors: &mut Vec<BoardError>|
         -> Option<SiteId> {
            match index.get(name) {
                Some(&s) => Some(s),
                None => {
                    errors.push(BoardError::new(
                        origin,
                        format!("{what} names unknown site `{name}`"),
                        closest(name, self.sites.iter().map(|s| s.id.as_str()))
                            .map(|c| format!("did you mean `{c}`?")),
                    ));
                    None
                }
            }
        };
        let mut edges = Vec::new();
        for e in &self.edges {
            let (a, b) = (
                lookup(&e.a, e.origin, "edge", &mut errors),
                lookup(&e.b, e.origin, "edge", &mut errors),
            );
            let (Some(a), Some(b)) = (a, b) else { continue };
            if a == b {
                errors.push(BoardError::new(
                    e.origin,
                    format!("edge joins `{}` to itself", e.a),
                    None,
                ));
                continue;
            }
            let (na, nb) = (NodeIndex::new(a as usize), NodeIndex::new(b as usize));
            if graph.find_edge(na, nb).is_some() {
                continue; // the same edge written from both ends is one edge
            }
            if self.sites[a as usize].offboard || self.sites[b as usize].offboard {
                errors.push(BoardError::new(
                    e.origin,
                    format!("edge `{}-{}` touches an off-board site", e.a, e.b),
                    Some(
                        "off-board places (hand, store) are reached by rules, not by edges".into(),
                    ),
                ));
                continue;
            }
            graph.add_edge(na, nb, ());
            edges.push((a, b));
        }
        let mut lines = Vec::new();
        for l in &self.lines {
            let pts: Vec<Option<SiteId>> = l
                .points
                .iter()
                .map(|p| lookup(p, l.origin, &format!("line `{}`", l.name), &mut errors))
                .collect();
            if pts.len() < 2 {
                errors.push(BoardError::new(
                    l.origin,
                    format!("line `{}` needs at least two points", l.name),
                    None,
                ));
            }
            let mut ok = pts.iter().all(Option::is_some);
            for w in pts.windows(2) {
                if let [Some(a), Some(b)] = w
                    && graph
                        .find_edge(NodeIndex::new(*a as usize), NodeIndex::new(*b as usize))
                        .is_none()
                {
                    ok = false;
                    let hint = "a straight line must follow the board's edges; add the edge or fix the order";
                    errors.push(BoardError::new(
                        l.origin,
                        format!(
                            "line `{}`: consecutive points `{}` and `{}` are not joined by an edge",
                            l.name, self.sites[*a as usize].id, self.sites[*b as usize].id
                        ),
                        Some(hint.into()),
                    ));
                }
            }
            if ok {
                lines.push(Line {
                    name: l.name.clone(),
                    points: pts.into_iter().flatten().collect(),
                });
            }
        }
        let mut tracks = Vec::new();
        for t in &self.tracks {
            let pts: Vec<Option<SiteId>> = t
                .points
                .iter()
                .map(|p| lookup(p, t.origin, &format!("track `{}`", t.name), &mut errors))
                .collect();
            if t.points.is_empty() {
                errors.push(BoardError::new(
                    t.origin,
                    format!("track `{}` is empty", t.name),
                    None,
                ));
            }
            if pts.iter().all(Option::is_some) {
                tracks.push(Track {
                    name: t.name.clone(),
                    owner: t.owner.clone(),
                    cyclic: t.cyclic,
                    points: pts.into_iter().flatten().collect(),
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let n = self.sites.len();
        // Neighbours in edge-authoring order, so move order is stable and readable.
        let mut adjacency: Vec<Vec<SiteId>> = vec![Vec::new(); n];
        for &(a, b) in &edges {
            adjacency[a as usize].push(b);
            adjacency[b as usize].push(a);
        }
        let mut leap_lists: Vec<Vec<(SiteId, SiteId)>> = vec![Vec::new(); n];
        for line in &lines {
            for w in line.points.windows(3) {
                leap_lists[w[0] as usize].push((w[1], w[2]));
                leap_lists[w[2] as usize].push((w[1], w[0]));
            }
        }
        let (neighbour_start, neighbours) = flatten(adjacency);
        let (leap_start, leaps) = flatten(leap_lists);
        let track_positions = tracks
            .iter()
            .map(|t| {
                let mut at = vec![u32::MAX; n];
                for (i, &p) in t.points.iter().enumerate().rev() {
                    at[p as usize] = i as u32;
                }
                at
            })
            .collect();
        let one_step = tracks
            .iter()
            .zip(&track_positions)
            .flat_map(|(track, positions): (&Track, &Vec<u32>)| {
                (0..n as SiteId).map(move |s| along_track(track, positions, s, 1))
            })
            .map(|next| next.map_or(u32::MAX, u32::from))
            .collect();
        let playing: Vec<SiteId> = (0..n as SiteId)
            .filter(|&s| !self.sites[s as usize].offboard)
            .collect();
        let reach_bits = if n <= 64 {
            (0..n)
                .map(|s| {
                    let bits = |sites: &mut dyn Iterator<Item = SiteId>| {
                        sites.fold(0u64, |bits, s| bits | 1 << s)
                    };
                    let leaps = &leaps[leap_start[s] as usize..leap_start[s + 1] as usize];
                    let near =
                        &neighbours[neighbour_start[s] as usize..neighbour_start[s + 1] as usize];
                    Reach {
                        neighbours: bits(&mut near.iter().copied()),
                        leaps_over: bits(&mut leaps.iter().map(|&(over, _)| over)),
                        leaps_land: bits(&mut leaps.iter().map(|&(_, land)| land)),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let neighbour_bits_exact = n <= 64
            && reach_bits.iter().enumerate().all(|(s, reach)| {
                let listed = neighbour_start[s + 1] - neighbour_start[s];
                reach.neighbours.count_ones() == listed
            });
        Ok(Board {
            names: self.sites.iter().map(|s| s.id.clone()).collect(),
            index,
            at: self.sites.iter().map(|s| s.at).collect(),
            offboard: self.sites.iter().map(|s| s.offboard).collect(),
            tags: self.sites.iter().map(|s| s.tags.clone()).collect(),
            owner: self.sites.iter().map(|s| s.owner.clone()).collect(),
            edges,
            neighbour_start,
            neighbours,
            leap_start,
            leaps,
            lines,
            tracks,
            track_positions,
            one_step,
            playing_bits: (n <= 64).then(|| playing.iter().fold(0u64, |bits, &s| bits | 1 << s)),
            playing_wide: (n <= 128).then(|| playing.iter().fold(0u128, |bits, &s| bits | 1 << s)),
            reach_bits,
            neighbour_bits_exact,
            playing,
        })
    }
}

/// The point `steps` further along `track` from `from`'s first position (`positions`, by site), as
/// [`Board::along`] says.
fn along_track(track: &Track, positions: &[u32], from: SiteId, steps: i64) -> Option<SiteId> {
    let i = match positions.get(from as usize) {
        Some(&i) if i != u32::MAX => i64::from(i),
        _ => return None,
    };
    let n = track.points.len() as i64;
    // (Any number of steps, however large, from the rules: no overflow.)
    let j = i.saturating_add(steps);
    if (0..n).contains(&j) {
        Some(track.points[j as usize])
    } else if track.cyclic {
        // (Only past an end: the division is the dearest part of a sowing's step.)
        Some(track.points[(i + steps.rem_euclid(n)).rem_euclid(n) as usize])
    } else {
        None
    }
}

fn flatten<T: Copy>(lists: Vec<Vec<T>>) -> (Vec<u32>, Vec<T>) {
    let mut start = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::new();
    for l in lists {
        start.push(flat.len() as u32);
        flat.extend(l);
    }
    start.push(flat.len() as u32);
    (start, flat)
}

/// The candidate nearest to `name` by edit distance, if it is near enough to be a likely typo.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(&cb));
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(id: &str) -> SiteSpec {
        SiteSpec {
            id: id.into(),
            at: (0.0, 0.0),
            tags: vec![],
            owner: None,
            offboard: false,
            origin: 0,
        }
    }
    fn edge(a: &str, b: &str) -> EdgeSpec {
        EdgeSpec {
            a: a.into(),
            b: b.into(),
            origin: 0,
        }
    }

    #[test]
    fn leaps_follow_lines_both_ways() {
        let spec = BoardSpec {
            sites: vec![site("a"), site("b"), site("c")],
            edges: vec![edge("a", "b"), edge("b", "c")],
            lines: vec![PathSpec {
                name: "l".into(),
                points: vec!["a".into(), "b".into(), "c".into()],
                owner: None,
                cyclic: false,
                origin: 0,
            }],
            tracks: vec![],
        };
        let board = spec.compile().unwrap();
        let (a, b, c) = (
            board.site("a").unwrap(),
            board.site("b").unwrap(),
            board.site("c").unwrap(),
        );
        assert_eq!(board.leaps(a), &[(b, c)]);
        assert_eq!(board.leaps(c), &[(b, a)]);
        assert!(board.leaps(b).is_empty());
        assert_eq!(board.neighbours(b), &[a, c]);
    }

    #[test]
    fn along_an_open_track_stops_at_its_ends_for_any_number_of_steps() {
        let spec = BoardSpec {
            sites: vec![site("a"), site("b"), site("c")],
            tracks: vec![PathSpec {
                name: "t".into(),
                points: vec!["a".into(), "b".into(), "c".into()],
                owner: None,
                cyclic: false,
                origin: 0,
            }],
            ..Default::default()
        };
        let board = spec.compile().unwrap();
        let (a, b, c) = (
            board.site("a").unwrap(),
            board.site("b").unwrap(),
            board.site("c").unwrap(),
        );
        assert_eq!(board.along(0, a, 2), Some(c));
        assert_eq!(board.along(0, c, -1), Some(b));
        assert_eq!(board.along(0, c, 1), None);
        assert_eq!(board.along(0, a, -1), None);
        assert_eq!(board.along(0, b, i64::MAX), None);
        assert_eq!(board.along(0, b, i64::MIN), None);
    }

    /// A step of one is read from a table made when the board is compiled; any other by the track's
    /// positions. The two agree on open and cyclic tracks, on a track through a point twice (its first
    /// position counts) and off the track.
    #[test]
    fn one_step_along_agrees_with_the_positions() {
        let track = |name: &str, points: &[&str], cyclic| PathSpec {
            name: name.into(),
            points: points.iter().map(|p| p.to_string()).collect(),
            owner: None,
            cyclic,
            origin: 0,
        };
        let spec = BoardSpec {
            sites: ["a", "b", "c", "d", "e"].map(site).to_vec(),
            tracks: vec![
                track("open", &["a", "b", "c"], false),
                track("cycle", &["c", "d", "e", "a"], true),
                track("twice", &["b", "c", "b", "d"], false),
            ],
            ..Default::default()
        };
        let board = spec.compile().unwrap();
        let id = |name: &str| board.site(name).unwrap();
        assert_eq!(board.along(0, id("b"), 1), Some(id("c")));
        assert_eq!(board.along(0, id("c"), 1), None);
        assert_eq!(board.along(1, id("a"), 1), Some(id("c")));
        assert_eq!(board.along(2, id("b"), 1), Some(id("c")));
        assert_eq!(board.along(2, id("e"), 1), None);
        for t in 0..board.tracks.len() {
            for s in 0..board.len() as SiteId + 2 {
                assert_eq!(
                    board.along(t, s, 1),
                    board.along_by(t, s, 1),
                    "track {t}, site {s}"
                );
            }
        }
    }

    /// The on-board sites as a bit set are the list's, off-board places left out, on boards of up to
    /// 64 places; a larger board has no set.
    #[test]
    fn the_playing_sites_as_bits_are_the_list() {
        for n in [1, 5, 63, 64, 65, 70, 128, 129] {
            let mut sites: Vec<SiteSpec> = (0..n).map(|i| site(&format!("s{i}"))).collect();
            for i in (0..n).step_by(3) {
                sites[i].offboard = true;
            }
            let board = BoardSpec {
                sites,
                ..Default::default()
            }
            .compile()
            .unwrap();
            assert_eq!(board.playing_list().len(), n - n.div_ceil(3));
            let listed = board
                .playing_list()
                .iter()
                .fold(0u64, |bits, &s| bits | 1 << (s % 64));
            let expected = (n <= 64).then_some(listed);
            assert_eq!(board.playing_bits(), expected, "{n} sites");
            let wide = board
                .playing_list()
                .iter()
                .fold(0u128, |bits, &s| bits | 1 << (s % 128));
            assert_eq!(
                board.playing_wide(),
                (n <= 128).then_some(wide),
                "{n} sites"
            );
        }
    }

    /// A site's reach as bit sets is its neighbours and leaps as listed, on a board of points and lines
    /// (a row of `n` joined by one line); on a board of more than 64 places every bit is set.
    #[test]
    fn what_a_site_reaches_as_bits_is_its_lists() {
        for n in [5, 64, 65] {
            let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
            let board = BoardSpec {
                sites: names.iter().map(|name| site(name)).collect(),
                edges: names.windows(2).map(|w| edge(&w[0], &w[1])).collect(),
                lines: vec![PathSpec {
                    name: "row".into(),
                    points: names.clone(),
                    owner: None,
                    cyclic: false,
                    origin: 0,
                }],
                ..Default::default()
            }
            .compile()
            .unwrap();
            assert_eq!(board.neighbour_bits_exact(), n <= 64, "{n} places");
            for s in 0..n as SiteId {
                let reach = board.reach(s);
                if n > 64 {
                    assert_eq!(reach, Reach::ALL);
                    continue;
                }
                let bits = |sites: Vec<SiteId>| sites.iter().fold(0u64, |b, &x| b | 1 << x);
                assert_eq!(reach.neighbours, bits(board.neighbours(s).to_vec()));
                assert_eq!(
                    reach.leaps_over,
                    bits(board.leaps(s).iter().map(|l| l.0).collect())
                );
                assert_eq!(
                    reach.leaps_land,
                    bits(board.leaps(s).iter().map(|l| l.1).collect())
                );
                // Inside the row, two neighbours and two leaps (one each way).
                if (2..n - 2).contains(&(s as usize)) {
                    assert_eq!(reach.neighbours.count_ones(), 2);
                    assert_eq!(reach.leaps_land.count_ones(), 2);
                }
            }
        }
    }

    #[test]
    fn line_through_non_adjacent_points_is_rejected() {
        let spec = BoardSpec {
            sites: vec![site("a"), site("b"), site("c")],
            edges: vec![edge("a", "b")],
            lines: vec![PathSpec {
                name: "l".into(),
                points: vec!["a".into(), "b".into(), "c".into()],
                owner: None,
                cyclic: false,
                origin: 7,
            }],
            tracks: vec![],
        };
        let errs = spec.compile().unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].origin, 7);
        assert!(
            errs[0].message.contains("`b` and `c` are not joined"),
            "{}",
            errs[0].message
        );
    }

    #[test]
    fn unknown_site_gets_a_suggestion() {
        let spec = BoardSpec {
            sites: vec![site("M1")],
            edges: vec![edge("M1", "M2")],
            ..Default::default()
        };
        let errs = spec.compile().unwrap_err();
        assert_eq!(errs[0].hint.as_deref(), Some("did you mean `M1`?"));
    }
}

//! Generators that write the regular parts of a board, so large boards stay short in a ruleset.

use crate::{BoardSpec, EdgeSpec, Origin, PathSpec, SiteSpec};

/// A board part described by a few numbers. Site names are documented in `docs/ruleset-format.md`.
#[derive(Clone, Debug, PartialEq)]
pub enum Generator {
    /// `prefix1 .. prefixN` joined in a row, with a track of the same name.
    Track { prefix: String, squares: u32 },
    /// `rows` x `holes` holes `r{row}h{hole}`; one sowing track `cycle` that runs row 1 left to right,
    /// then each next row back the other way (counter-clockwise when row 1 is drawn at the bottom).
    /// Row `i` is owned by `owners[i]` where given.
    Mancala {
        rows: u32,
        holes: u32,
        owners: Vec<String>,
    },
    /// `r{row}c{col}` with orthogonal edges; every row and column is a line.
    Grid { rows: u32, cols: u32 },
    /// Apex `A`, `rays` straight lines down from it crossed by `levels` horizontal lines: `r{level}c{ray}`.
    Triangle { rays: u32, levels: u32 },
}

/// Generators are bounded so a hostile file cannot ask for millions of sites.
pub const MAX_GENERATED: u32 = 4096;

/// The most sites one generator may make.
pub fn generate_limit() -> u32 {
    MAX_GENERATED
}

impl Generator {
    pub fn site_count(&self) -> u64 {
        match *self {
            Generator::Track { squares, .. } => squares as u64,
            Generator::Mancala { rows, holes, .. } => rows as u64 * holes as u64,
            Generator::Grid { rows, cols } => rows as u64 * cols as u64,
            Generator::Triangle { rays, levels } => 1 + rays as u64 * levels as u64,
        }
    }

    pub(crate) fn generate(&self, origin: Origin, spec: &mut BoardSpec) {
        if self.site_count() > MAX_GENERATED as u64 {
            return; // rejected by the caller's validation, which reports it with its location
        }
        let site = |id: String, x: f64, y: f64| SiteSpec {
            id,
            at: (x, y),
            tags: vec![],
            owner: None,
            offboard: false,
            origin,
        };
        let edge = |a: &str, b: &str| EdgeSpec {
            a: a.into(),
            b: b.into(),
            origin,
        };
        let path = |name: String, points: Vec<String>| PathSpec {
            name,
            points,
            owner: None,
            cyclic: false,
            origin,
        };
        match self {
            Generator::Track { prefix, squares } => {
                let names: Vec<String> = (1..=*squares).map(|i| format!("{prefix}{i}")).collect();
                for (i, n) in names.iter().enumerate() {
                    spec.sites.push(site(n.clone(), i as f64, 0.0));
                }
                for w in names.windows(2) {
                    spec.edges.push(edge(&w[0], &w[1]));
                }
                spec.tracks.push(path(prefix.clone(), names));
            }
            Generator::Mancala {
                rows,
                holes,
                owners,
            } => {
                let mut cycle = Vec::new();
                for r in 1..=*rows {
                    let mut row: Vec<String> = (1..=*holes).map(|h| format!("r{r}h{h}")).collect();
                    for (h, n) in row.iter().enumerate() {
                        let mut hole = site(n.clone(), h as f64, -(r as f64));
                        hole.owner = owners.get(r as usize - 1).cloned();
                        spec.sites.push(hole);
                    }
                    for w in row.windows(2) {
                        spec.edges.push(edge(&w[0], &w[1]));
                    }
                    if r % 2 == 0 {
                        row.reverse();
                    }
                    cycle.extend(row);
                }
                spec.tracks.push(PathSpec {
                    cyclic: true,
                    ..path("cycle".into(), cycle)
                });
            }
            Generator::Grid { rows, cols } => {
                let name = |r: u32, c: u32| format!("r{r}c{c}");
                for r in 1..=*rows {
                    for c in 1..=*cols {
                        spec.sites.push(site(name(r, c), c as f64, r as f64));
                        if c > 1 {
                            spec.edges.push(edge(&name(r, c - 1), &name(r, c)));
                        }
                        if r > 1 {
                            spec.edges.push(edge(&name(r - 1, c), &name(r, c)));
                        }
                    }
                    spec.lines.push(path(
                        format!("row{r}"),
                        (1..=*cols).map(|c| name(r, c)).collect(),
                    ));
                }
                for c in 1..=*cols {
                    spec.lines.push(path(
                        format!("col{c}"),
                        (1..=*rows).map(|r| name(r, c)).collect(),
                    ));
                }
            }
            Generator::Triangle { rays, levels } => {
                let name = |l: u32, r: u32| format!("r{l}c{r}");
                spec.sites.push(site("A".into(), 0.0, 0.0));
                let half = (*rays as f64 - 1.0) / 2.0;
                for l in 1..=*levels {
                    for r in 0..*rays {
                        spec.sites.push(site(
                            name(l, r),
                            (r as f64 - half) * l as f64 / half.max(1.0),
                            l as f64,
                        ));
                        let above = if l == 1 {
                            "A".to_string()
                        } else {
                            name(l - 1, r)
                        };
                        spec.edges.push(edge(&above, &name(l, r)));
                        if r > 0 {
                            spec.edges.push(edge(&name(l, r - 1), &name(l, r)));
                        }
                    }
                }
                for r in 0..*rays {
                    let mut pts = vec!["A".to_string()];
                    pts.extend((1..=*levels).map(|l| name(l, r)));
                    spec.lines.push(path(format!("ray{r}"), pts));
                }
                for l in 1..=*levels {
                    spec.lines.push(path(
                        format!("level{l}"),
                        (0..*rays).map(|r| name(l, r)).collect(),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_of_five_rays_and_four_levels_has_the_counts_of_the_21_point_board() {
        let spec = BoardSpec::with_generated(
            &[(Generator::Triangle { rays: 5, levels: 4 }, 0)],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        assert_eq!(board.len(), 21);
        assert_eq!(board.edges.len(), 36);
        let leaps: usize = (0..21).map(|s| board.leaps(s).len()).sum();
        assert_eq!(leaps, 54);
    }

    #[test]
    fn mancala_cycle_visits_every_hole_once() {
        let spec = BoardSpec::with_generated(
            &[(
                Generator::Mancala {
                    rows: 2,
                    holes: 7,
                    owners: vec!["south".into()],
                },
                0,
            )],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        let cycle = &board.track("cycle").unwrap().points;
        assert_eq!(cycle.len(), 14);
        assert_eq!(board.name(cycle[7]), "r2h7");
        assert_eq!(board.owner[0].as_deref(), Some("south"));
        assert_eq!(board.owner[7], None);
        // Counter-clockwise and round: after the last hole of row 2 comes the first of row 1.
        assert_eq!(board.along(0, cycle[13], 1), Some(cycle[0]));
        assert_eq!(board.along(0, cycle[0], -1), Some(cycle[13]));
        // Any number of steps from the rules, without overflow: i64::MAX is 7 and i64::MIN is 6 modulo 14.
        assert_eq!(board.along(0, cycle[1], i64::MAX), Some(cycle[8]));
        assert_eq!(board.along(0, cycle[13], i64::MAX), Some(cycle[6]));
        assert_eq!(board.along(0, cycle[0], i64::MIN), Some(cycle[6]));
        assert_eq!(board.along(0, cycle[0], 28), Some(cycle[0]));
    }

    #[test]
    fn grid_and_track_sizes() {
        let spec = BoardSpec::with_generated(
            &[
                (Generator::Grid { rows: 3, cols: 4 }, 0),
                (
                    Generator::Track {
                        prefix: "t".into(),
                        squares: 5,
                    },
                    0,
                ),
            ],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        assert_eq!(board.len(), 17);
        assert_eq!(board.edges.len(), 3 * 3 + 2 * 4 + 4);
        assert_eq!(board.track("t").unwrap().points.len(), 5);
    }
}

//! The few statistical tests the behavioural diff needs, written out: a two-proportion z-test for rates
//! and Welch's t-test for means, with the normal and Student t distributions they rest on.

/// The level below which a p-value is called significant.
pub const ALPHA: f64 = 0.05;

/// A test's outcome: the statistic (z or t), its degrees of freedom (t only) and the two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub statistic: f64,
    pub df: Option<f64>,
    pub p_value: f64,
}

/// Two-proportion z-test (pooled) of `k1/n1` against `k2/n2`, two-sided. `None` when a sample is empty.
/// When both rates are 0 or both 1 there is no variation to test: z = 0, p = 1.
pub fn two_proportion_z(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<Outcome> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let (p1, p2) = (k1 as f64 / n1f, k2 as f64 / n2f);
    let pooled = (k1 + k2) as f64 / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    if se == 0.0 || !se.is_finite() {
        return Some(Outcome {
            statistic: 0.0,
            df: None,
            p_value: 1.0,
        });
    }
    let z = (p2 - p1) / se;
    Some(Outcome {
        statistic: z,
        df: None,
        p_value: two_sided_normal(z),
    })
}

/// Welch's unequal-variance t-test of the means of two samples, two-sided. `None` when a sample has fewer
/// than two values. Two samples without variance: p = 1 if their means are equal, else 0.
pub fn welch_t(a: &[f64], b: &[f64]) -> Option<Outcome> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (m1, v1) = mean_var(a);
    let (m2, v2) = mean_var(b);
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let (s1, s2) = (v1 / n1, v2 / n2);
    let se = (s1 + s2).sqrt();
    if se == 0.0 {
        let same = m1 == m2;
        return Some(Outcome {
            statistic: if same { 0.0 } else { f64::INFINITY },
            df: None,
            p_value: if same { 1.0 } else { 0.0 },
        });
    }
    let t = (m2 - m1) / se;
    let df = (s1 + s2).powi(2) / (s1 * s1 / (n1 - 1.0) + s2 * s2 / (n2 - 1.0));
    Some(Outcome {
        statistic: t,
        df: Some(df),
        p_value: two_sided_t(t, df),
    })
}

/// Mean and sample variance (n - 1).
pub fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    if x.is_empty() {
        return (0.0, 0.0);
    }
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() < 2 {
        0.0
    } else {
        x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    };
    (mean, var)
}

/// P(|Z| >= |z|) for a standard normal Z.
pub fn two_sided_normal(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// P(|T| >= |t|) for Student's t with `df` degrees of freedom: the regularised incomplete beta
/// I_{df/(df+t²)}(df/2, 1/2).
pub fn two_sided_t(t: f64, df: f64) -> f64 {
    if !t.is_finite() {
        return 0.0;
    }
    let x = df / (df + t * t);
    incomplete_beta(x, df / 2.0, 0.5).clamp(0.0, 1.0)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit; relative error below 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function I_x(a, b), by its continued fraction.
pub fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-14 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn normal_tail() {
        assert!(close(two_sided_normal(1.959_964), 0.05, 1e-6));
        assert!(close(two_sided_normal(0.0), 1.0, 1e-6));
        assert!(close(two_sided_normal(-2.575_829), 0.01, 1e-6));
    }

    #[test]
    fn student_t_tail() {
        // Tables: t = 2.228 at df = 10 and t = 2.086 at df = 20 are the 5% two-sided critical values.
        assert!(close(two_sided_t(2.228_139, 10.0), 0.05, 1e-5));
        assert!(close(two_sided_t(2.085_963, 20.0), 0.05, 1e-5));
        assert!(close(two_sided_t(1.0, 1.0), 0.5, 1e-9));
        // A large df approaches the normal.
        assert!(close(two_sided_t(1.959_964, 1e6), 0.05, 1e-4));
    }

    #[test]
    fn proportions() {
        // 50/100 v 65/100: z = 2.1456, p = 0.0319.
        let o = two_proportion_z(50, 100, 65, 100).unwrap();
        assert!(close(o.statistic, 2.1456, 1e-3), "{o:?}");
        assert!(close(o.p_value, 0.0319, 1e-3), "{o:?}");
        assert_eq!(two_proportion_z(0, 10, 0, 10).unwrap().p_value, 1.0);
        assert!(two_proportion_z(0, 0, 1, 2).is_none());
    }

    #[test]
    fn welch() {
        // Means 20.4 and 23, variances 1.3 and 2.5: t = 2.6 / sqrt(0.76) = 2.982, df = 7.27, p = 0.0198.
        let a = [20.0, 22.0, 19.0, 20.0, 21.0];
        let b = [22.0, 25.0, 21.0, 23.0, 24.0];
        let o = welch_t(&a, &b).unwrap();
        let (m1, v1) = mean_var(&a);
        let (m2, v2) = mean_var(&b);
        let t = (m2 - m1) / (v1 / 5.0 + v2 / 5.0).sqrt();
        assert!(close(o.statistic, t, 1e-12) && close(t, 2.982, 1e-3));
        assert!(close(o.df.unwrap(), 7.27, 0.01), "{o:?}");
        assert!(close(o.p_value, 0.0198, 0.001), "{o:?}");
        assert_eq!(welch_t(&[1.0, 1.0], &[1.0, 1.0]).unwrap().p_value, 1.0);
        assert_eq!(welch_t(&[1.0, 1.0], &[2.0, 2.0]).unwrap().p_value, 0.0);
        assert!(welch_t(&[1.0], &[2.0, 3.0]).is_none());
    }
}

//! Progress of long runs on standard error: a bar with the rate and the time left on a terminal, nothing
//! at all when standard error is piped or redirected (so scripts and logs see only results).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress(ProgressBar);

impl Progress {
    /// A bar over `total` steps counted in `unit` (`games`), drawn only on a terminal.
    pub fn new(total: u64, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{per_sec}}, {{eta}} left");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(bar)
    }

    /// A bar over `seconds` of measuring, for `bench`.
    pub fn timed(seconds: f64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(
            Some((seconds * 1000.0) as u64),
            ProgressDrawTarget::stderr(),
        );
        let template = format!("{{bar:30}} {what}, {{eta}} left");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(bar)
    }

    pub fn step(&self) {
        self.0.inc(1);
    }

    /// For a timed bar: this many milliseconds of it are done.
    pub fn at_millis(&self, done: u64) {
        self.0.set_position(done);
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A run that stops early (an error) takes its bar away before the error is printed.
impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

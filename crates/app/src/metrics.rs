//! Responsiveness figures shown in the status bar and read by the benchmarks.

use crate::platform::Instant;
use std::time::Duration;

/// Responsiveness: the time a frame takes to build, from a move to the first value on the
/// board, and from Stop to the engine stopping.
#[derive(Default)]
pub struct Metrics {
    frames: std::collections::VecDeque<Duration>,
    pub(super) awaiting_first_value: bool,
    pub first_value: Option<Duration>,
    pub(super) stop_asked: Option<Instant>,
    pub stop_latency: Option<Duration>,
}

impl Metrics {
    pub(super) fn record_frame(&mut self, t: Duration) {
        if self.frames.len() == 600 {
            self.frames.pop_front();
        }
        self.frames.push_back(t);
    }

    /// The 99th percentile of the last 600 frames' build time.
    pub fn frame_p99(&self) -> Duration {
        self.frame_percentile(99)
    }

    /// The `p`th percentile (0..=100) of the last 600 frames' build time.
    pub fn frame_percentile(&self, p: usize) -> Duration {
        let mut v: Vec<Duration> = self.frames.iter().copied().collect();
        v.sort();
        v.get(v.len().saturating_sub(1) * p.min(100) / 100)
            .copied()
            .unwrap_or_default()
    }

    /// Forgets the frames measured so far (benchmarks measure one phase at a time).
    pub fn clear_frames(&mut self) {
        self.frames.clear();
    }

    pub(super) fn summary(&self) -> String {
        let ms = |d: Option<Duration>| {
            d.map_or("-".to_string(), |d| {
                format!("{:.1} ms", d.as_secs_f64() * 1e3)
            })
        };
        format!(
            "UI frame p99 {} | first value {} | stop {}",
            ms(Some(self.frame_p99())),
            ms(self.first_value),
            ms(self.stop_latency)
        )
    }
}

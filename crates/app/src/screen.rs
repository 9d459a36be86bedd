//! Fitting the window to the screen it opens on. The size and place saved last time may
//! not fit this screen (a smaller monitor, a higher scaling, a monitor unplugged), and the
//! default size does not fit a small one (800x600): the window is shrunk to the screen's
//! usable area and moved onto it, once, as it opens.

use eframe::egui::{self, Pos2, Rect, Vec2};

/// Where the window goes: its outer top-left corner and inner size, in points; `None`
/// when it fits already. `outer` is the window with its frame, `inner` its content's
/// size, `area` the screen's usable part (without the taskbar where known).
pub fn fit_window(outer: Rect, inner: Vec2, area: Rect) -> Option<(Pos2, Vec2)> {
    let frame = (outer.size() - inner).max(Vec2::ZERO);
    let smallest = Vec2::from(crate::settings::MIN_WINDOW);
    // At least the smallest window the layout is made for, even on a tinier screen.
    let fitted = inner.min(area.size() - frame).max(smallest);
    let size = fitted + frame;
    let axis = |pos: f32, len: f32, lo: f32, hi: f32| {
        if len >= hi - lo {
            lo
        } else {
            // Not `clamp`, which panics on a NaN bound (a screen reported as nothing).
            pos.min(hi - len).max(lo)
        }
    };
    let min = Pos2::new(
        axis(outer.min.x, size.x, area.min.x, area.max.x),
        axis(outer.min.y, size.y, area.min.y, area.max.y),
    );
    let moved = (min - outer.min).length() > 0.5;
    let resized = (fitted - inner).length() > 0.5;
    (moved || resized).then_some((min, fitted))
}

/// The usable area of the screen showing most of `outer` (points; `pixels_per_point`
/// converts): on Windows the monitor's work area (without the taskbar), of the monitor
/// nearest the window; elsewhere the monitor winit reports, taken to start at the
/// desktop's origin.
pub fn screen_area(outer: Rect, monitor: Vec2, pixels_per_point: f32) -> Rect {
    #[cfg(windows)]
    if let Some(area) = windows_work_area(outer, pixels_per_point) {
        return area;
    }
    let _ = (outer, pixels_per_point);
    Rect::from_min_size(Pos2::ZERO, monitor)
}

#[cfg(windows)]
fn windows_work_area(outer: Rect, pixels_per_point: f32) -> Option<Rect> {
    use windows_sys::Win32::Foundation::RECT;
    use windows_sys::Win32::Graphics::Gdi::{
        GetMonitorInfoW, MONITOR_DEFAULTTONEAREST, MONITORINFO, MonitorFromRect,
    };
    let px = |v: f32| (v * pixels_per_point).round() as i32;
    let rect = RECT {
        left: px(outer.min.x),
        top: px(outer.min.y),
        right: px(outer.max.x),
        bottom: px(outer.max.y),
    };
    let mut info = MONITORINFO {
        cbSize: std::mem::size_of::<MONITORINFO>() as u32,
        rcMonitor: RECT {
            left: 0,
            top: 0,
            right: 0,
            bottom: 0,
        },
        rcWork: RECT {
            left: 0,
            top: 0,
            right: 0,
            bottom: 0,
        },
        dwFlags: 0,
    };
    // SAFETY: `rect` and `info` live across the calls, `info.cbSize` is its size as the
    // API asks; MONITOR_DEFAULTTONEAREST always gives a monitor.
    let ok = unsafe {
        let monitor = MonitorFromRect(&rect, MONITOR_DEFAULTTONEAREST);
        !monitor.is_null() && GetMonitorInfoW(monitor, &mut info) != 0
    };
    let w = info.rcWork;
    let pt = |v: i32| v as f32 / pixels_per_point;
    (ok && w.right > w.left && w.bottom > w.top).then(|| {
        Rect::from_min_max(
            Pos2::new(pt(w.left), pt(w.top)),
            Pos2::new(pt(w.right), pt(w.bottom)),
        )
    })
}

impl crate::App {
    /// Fits the window to its screen once the platform has said where it is and how
    /// large the screen is (the first frames); after that the person decides.
    pub(crate) fn fit_window_to_screen(&mut self, ctx: &egui::Context) {
        let info = ctx.input(|i| i.viewport().clone());
        if info.maximized == Some(true) || info.fullscreen == Some(true) {
            self.view.fit_window = false;
            return;
        }
        let (Some(outer), Some(inner), Some(monitor)) =
            (info.outer_rect, info.inner_rect, info.monitor_size)
        else {
            // Not known yet: asked again on a later frame (a few at most).
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            return;
        };
        self.view.fit_window = false;
        let area = screen_area(outer, monitor, ctx.pixels_per_point());
        if let Some((position, size)) = fit_window(outer, inner.size(), area) {
            crate::platform::place_window(ctx, position, size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect::from_min_size(Pos2::new(x, y), Vec2::new(w, h))
    }

    /// A screen whose size comes as no number (NaN) or as nothing: the window keeps its
    /// place and the smallest size rather than the app stopping as it opens.
    #[test]
    fn a_screen_of_no_size_never_stops_the_app() {
        let outer = rect(10.0, 10.0, 1016.0, 758.0);
        for area in [
            rect(0.0, 0.0, f32::NAN, f32::NAN),
            rect(f32::NAN, 0.0, 800.0, 600.0),
            rect(0.0, 0.0, 0.0, 0.0),
            rect(0.0, 0.0, f32::INFINITY, 600.0),
        ] {
            if let Some((_, size)) = fit_window(outer, Vec2::new(1000.0, 720.0), area) {
                assert!(
                    size.x >= crate::settings::MIN_WINDOW[0],
                    "{area:?}: {size:?}"
                );
            }
        }
    }

    /// A title bar of 30 points and borders of 8.
    const FRAME: Vec2 = Vec2::new(16.0, 38.0);

    fn window(x: f32, y: f32, w: f32, h: f32) -> (Rect, Vec2) {
        (rect(x, y, w + FRAME.x, h + FRAME.y), Vec2::new(w, h))
    }

    #[test]
    fn a_window_that_fits_stays_put() {
        let (outer, inner) = window(100.0, 80.0, 1000.0, 720.0);
        assert_eq!(
            fit_window(outer, inner, rect(0.0, 0.0, 1920.0, 1040.0)),
            None
        );
    }

    #[test]
    fn the_default_window_shrinks_to_a_small_screen() {
        // 800x600 with a 40-point taskbar: the status bar must be on screen.
        let (outer, inner) = window(0.0, 0.0, 1000.0, 720.0);
        let (pos, size) = fit_window(outer, inner, rect(0.0, 0.0, 800.0, 560.0)).unwrap();
        assert_eq!(pos, Pos2::ZERO);
        assert_eq!(size, Vec2::new(800.0 - FRAME.x, 560.0 - FRAME.y));
    }

    #[test]
    fn a_saved_window_off_screen_comes_back_onto_it() {
        // Saved on a 1920x1080 screen at the right, restored on 800x600.
        let (outer, inner) = window(1200.0, 500.0, 700.0, 500.0);
        let area = rect(0.0, 0.0, 800.0, 600.0);
        let (pos, size) = fit_window(outer, inner, area).unwrap();
        assert_eq!(size, Vec2::new(700.0, 500.0), "it fits: same size");
        assert_eq!(pos, Pos2::new(800.0 - 716.0, 600.0 - 538.0));
        // Above the screen (the title bar out of reach): moved down.
        let (outer, inner) = window(10.0, -300.0, 600.0, 400.0);
        assert_eq!(
            fit_window(outer, inner, area).unwrap().0,
            Pos2::new(10.0, 0.0)
        );
    }

    #[test]
    fn a_second_monitor_left_of_the_first_is_a_screen_too() {
        let left_monitor = rect(-1280.0, 0.0, 1280.0, 984.0);
        let (outer, inner) = window(-1200.0, 50.0, 1000.0, 720.0);
        assert_eq!(fit_window(outer, inner, left_monitor), None);
    }

    #[test]
    fn at_150_percent_a_tall_window_is_cut_to_the_screen() {
        // 1920x1080 pixels at 150%: 1280x720 points, 693 usable with the taskbar.
        let (outer, inner) = window(20.0, 20.0, 1000.0, 900.0);
        let (pos, size) = fit_window(outer, inner, rect(0.0, 0.0, 1280.0, 693.0)).unwrap();
        assert_eq!(size, Vec2::new(1000.0, 693.0 - FRAME.y));
        assert_eq!(pos, Pos2::new(20.0, 0.0));
    }

    #[test]
    fn never_below_the_smallest_window() {
        let (outer, inner) = window(0.0, 0.0, 1000.0, 720.0);
        // A screen smaller than the smallest window both ways.
        let (_, size) = fit_window(outer, inner, rect(0.0, 0.0, 300.0, 300.0)).unwrap();
        assert_eq!(size, Vec2::from(crate::settings::MIN_WINDOW));
    }
}

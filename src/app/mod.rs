//! The desktop app. (Under construction: the `app` branch replaces this file.)

use std::path::PathBuf;

/// Opens the app window, optionally with a game or script file; returns when it closes.
pub fn run(_open: Option<PathBuf>) -> anyhow::Result<()> {
    anyhow::bail!("the desktop app is not built yet")
}

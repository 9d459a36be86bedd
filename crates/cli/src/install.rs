//! `okapi install-desktop`: puts Okapi in the desktop's application menu like any other
//! program, by the freedesktop.org rules every Linux and BSD desktop follows: a desktop
//! entry in `$XDG_DATA_HOME/applications` (`~/.local/share/applications`) and its icon in
//! `$XDG_DATA_HOME/icons/hicolor/256x256/apps`. Nothing needs root; removing the two files
//! undoes it.

use anyhow::Context;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct InstallArgs {
    /// The data folder to install into instead of $XDG_DATA_HOME (~/.local/share).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The program the menu entry starts (default: this okapi).
    #[arg(long, value_name = "PATH")]
    pub exec: Option<PathBuf>,
}

/// The two files written, for the message and the tests.
#[derive(Debug)]
pub struct Installed {
    pub entry: PathBuf,
    pub icon: PathBuf,
}

/// `$XDG_DATA_HOME`, or `~/.local/share` when it is unset or not absolute (as the
/// specification says).
fn default_data_dir() -> anyhow::Result<PathBuf> {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from)
        && d.is_absolute()
    {
        return Ok(d);
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .context("HOME is not set: give the folder with --data-dir")?;
    Ok(PathBuf::from(home).join(".local/share"))
}

/// A desktop entry's Exec argument, quoted as the specification asks when it holds
/// characters the launcher would split or expand.
fn exec_quoted(path: &Path) -> String {
    let text = path.display().to_string();
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        return text;
    }
    let mut q = String::from("\"");
    for c in text.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    // `%` is the launcher's field code: a literal one is written twice.
    q.replace('%', "%%")
}

/// The desktop entry starting `exec`, with the icon at `icon`.
pub fn desktop_entry(exec: &Path, icon: &Path) -> String {
    format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Name=Okapi\n\
         GenericName=Othello analyser\n\
         Comment=Play and analyse Othello (Reversi): live move values, endgame solver, scripts\n\
         Exec={} app %f\n\
         Icon={}\n\
         Terminal=false\n\
         Categories=Game;BoardGame;\n\
         Keywords=Othello;Reversi;WZebra;endgame;\n\
         StartupWMClass=okapi\n",
        exec_quoted(exec),
        icon.display()
    )
}

/// Writes the icon and the desktop entry under `data_dir` (each atomically).
pub fn install(data_dir: &Path, exec: &Path, icon_png: &[u8]) -> anyhow::Result<Installed> {
    let icon_dir = data_dir.join("icons/hicolor/256x256/apps");
    let apps = data_dir.join("applications");
    for dir in [&icon_dir, &apps] {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let icon = icon_dir.join("okapi.png");
    okapi_core::formats::write_atomic(&icon, icon_png)
        .with_context(|| format!("cannot write {}", icon.display()))?;
    let entry = apps.join("okapi.desktop");
    okapi_core::formats::write_atomic(&entry, desktop_entry(exec, &icon).as_bytes())
        .with_context(|| format!("cannot write {}", entry.display()))?;
    Ok(Installed { entry, icon })
}

/// The app's icon (256x256), the one its window shows too.
pub const ICON_PNG: &[u8] = include_bytes!("../../../assets/okapi.png");

/// `okapi install-desktop`.
pub fn run(args: InstallArgs) -> anyhow::Result<()> {
    let data_dir = match args.data_dir {
        Some(d) => d,
        None => default_data_dir()?,
    };
    let exec = match args.exec {
        Some(e) => e,
        None => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .context("cannot tell where this okapi is: give it with --exec")?,
    };
    let done = install(&data_dir, &exec, ICON_PNG)?;
    outln!(
        "Okapi is in the applications menu (it starts {}).\nWrote {}\nWrote {}\nTo undo: delete those two files.",
        exec.display(),
        done.entry.display(),
        done.icon.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_and_icon_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let done = install(dir.path(), Path::new("/opt/okapi/bin/okapi"), b"png").unwrap();
        assert_eq!(done.entry, dir.path().join("applications/okapi.desktop"));
        assert_eq!(std::fs::read(&done.icon).unwrap(), b"png");
        let entry = std::fs::read_to_string(&done.entry).unwrap();
        assert!(
            entry.starts_with("[Desktop Entry]\nType=Application\n"),
            "{entry}"
        );
        assert!(
            entry.contains("\nExec=/opt/okapi/bin/okapi app %f\n"),
            "{entry}"
        );
        assert!(
            entry.contains(&format!("\nIcon={}\n", done.icon.display())),
            "{entry}"
        );
        assert!(entry.contains("\nStartupWMClass=okapi\n"), "{entry}");
        // Every line is a group header or key=value, as desktop-file-validate wants.
        for line in entry.lines().skip(1) {
            assert!(
                line.split_once('=').is_some_and(|(k, _)| !k.is_empty()),
                "{line}"
            );
        }
    }

    #[test]
    fn exec_paths_with_spaces_are_quoted() {
        assert_eq!(exec_quoted(Path::new("/a/b/okapi")), "/a/b/okapi");
        assert_eq!(
            exec_quoted(Path::new("/home/Ann Lee/bin/okapi")),
            "\"/home/Ann Lee/bin/okapi\""
        );
        assert_eq!(exec_quoted(Path::new("/x/$y")), "\"/x/\\$y\"");
    }
}

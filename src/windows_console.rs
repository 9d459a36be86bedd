//! Windows: the console of the prompt a command was typed in.
//!
//! The binary is a GUI program (`windows_subsystem = "windows"`), so that the app opens
//! with no console window behind it (one closing would end the app). Windows gives such a
//! program no console: typed in cmd or PowerShell, `okapi solve …` would print nothing.
//! [`attach`] gives the command line its console back: the prompt's own one, or, for the
//! interactive `okapi console`, a console window of its own (the prompt does not wait
//! for a GUI program, so it would read the same keyboard). Standard streams redirected to
//! a file or a pipe (`> out.txt`, NBoard talking to `okapi nboard`) are left as they are.

use windows_sys::Win32::Foundation::{GENERIC_READ, GENERIC_WRITE, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FILE_SHARE_READ, FILE_SHARE_WRITE, OPEN_EXISTING,
};
use windows_sys::Win32::System::Console::{
    ATTACH_PARENT_PROCESS, AllocConsole, AttachConsole, GetStdHandle, STD_ERROR_HANDLE, STD_HANDLE,
    STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, SetStdHandle,
};

/// Connects the standard streams that have nowhere to go to a console: the parent
/// prompt's, or a new window's when `own_window` (an interactive session) or when the
/// program was not started from a prompt but needs one anyway (`own_window` only).
pub fn attach(own_window: bool) {
    let missing: Vec<STD_HANDLE> = [STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE]
        .into_iter()
        .filter(|&id| {
            // SAFETY: GetStdHandle only reads the process's standard handle table.
            let h = unsafe { GetStdHandle(id) };
            h.is_null() || h == INVALID_HANDLE_VALUE
        })
        .collect();
    if missing.is_empty() {
        return;
    }
    // SAFETY: plain calls without pointers; a failure (no parent console: started from
    // Explorer or a shortcut) leaves the process as it was, and is answered below.
    let attached = unsafe {
        if own_window {
            AllocConsole() != 0
        } else {
            AttachConsole(ATTACH_PARENT_PROCESS) != 0
        }
    };
    if !attached {
        return;
    }
    for id in missing {
        let name = if id == STD_INPUT_HANDLE {
            "CONIN$"
        } else {
            "CONOUT$"
        };
        let wide: Vec<u16> = name.encode_utf16().chain([0]).collect();
        // SAFETY: `wide` is a NUL-terminated UTF-16 string that outlives the call; the
        // other pointers are null, which CreateFileW allows (no security attributes, no
        // template file).
        let handle: HANDLE = unsafe {
            CreateFileW(
                wide.as_ptr(),
                GENERIC_READ | GENERIC_WRITE,
                FILE_SHARE_READ | FILE_SHARE_WRITE,
                std::ptr::null(),
                OPEN_EXISTING,
                0,
                std::ptr::null_mut(),
            )
        };
        if handle != INVALID_HANDLE_VALUE {
            // SAFETY: `handle` is a console handle just opened and kept for the life of
            // the process; the standard library reads the table at each write.
            unsafe { SetStdHandle(id, handle) };
        }
    }
}

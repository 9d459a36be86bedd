//! Windows builds: compiles `packaging/windows/okapi.rc` (the icon, the manifest, the
//! version information) into the `okapi` program, with mingw's windres or MSVC's rc.exe
//! (the `embed-resource` crate finds the one of the target), and with the GNU linker marks
//! the program as made for Windows 10 (its header's OS and subsystem versions; the
//! standard library needs Windows 10's `ProcessPrng`), with a main-thread stack of 8 MB.
//! Other targets: nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    for file in ["okapi.rc", "okapi.ico", "okapi.exe.manifest"] {
        println!("cargo:rerun-if-changed=packaging/windows/{file}");
    }
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets the version");
    let mut parts: Vec<u16> = version
        .split(['.', '-', '+'])
        .take(3)
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    parts.resize(4, 0);
    let binary = parts
        .iter()
        .map(u16::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let macros = [
        format!("OKAPI_VERSION_BINARY={binary}"),
        format!("OKAPI_VERSION_TEXT={version}"),
    ];
    embed_resource::compile("packaging/windows/okapi.rc", &macros)
        .manifest_required()
        .expect("the Windows resources (packaging/windows/okapi.rc) compile");
    // The main thread's stack as large as Linux gives it (8 MB; Windows gives 1 MB): a
    // stack overflow ends a program with no console without a word, where the panic
    // message box would have said why.
    match std::env::var("CARGO_CFG_TARGET_ENV").as_deref() {
        Ok("msvc") => println!("cargo:rustc-link-arg-bins=/STACK:8388608"),
        Ok("gnu") => println!("cargo:rustc-link-arg-bins=-Wl,--stack,8388608"),
        _ => {}
    }
    if std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu") {
        for arg in [
            "--major-os-version=10",
            "--minor-os-version=0",
            "--major-subsystem-version=10",
            "--minor-subsystem-version=0",
        ] {
            println!("cargo:rustc-link-arg-bins=-Wl,{arg}");
        }
    }
}

//! The engine configuration of a command's flags (`--hash-bits N`, `-h N`, `--threads N`,
//! `-n N`), made with the one constructor every front end uses
//! ([`okapi_engine::EngineConfig::new`]). A table larger than half of the memory available
//! (`-h 30` asks for 16 GiB) is made smaller, said on standard error in one line: the
//! table's size does not change any result within the memory it gets (only the time), so
//! a capped run writes the same answers.

use okapi_engine::EngineConfig;

/// The configuration for `flag N` (the table's flag as the user wrote it) and `threads`
/// (`None`: every core); a warning on standard error if the table was capped, an error
/// if either is outside what the engine takes (the flags' parsers check them first).
pub fn engine_config(
    flag: &str,
    hash_bits: u32,
    threads: Option<usize>,
) -> Result<EngineConfig, String> {
    shared_engine_config(flag, hash_bits, threads, 1)
}

/// [`engine_config`] for each of `engines` engines running at once (their tables share
/// the memory).
pub fn shared_engine_config(
    flag: &str,
    hash_bits: u32,
    threads: Option<usize>,
    engines: u32,
) -> Result<EngineConfig, String> {
    let threads = threads.unwrap_or_else(okapi_core::search::available_threads);
    let config = EngineConfig::shared(hash_bits, threads, engines).map_err(|e| match e {
        okapi_engine::ConfigError::HashBits { bits } => format!("{flag} {bits}: {e}"),
        okapi_engine::ConfigError::Threads { threads, .. } => {
            format!("{threads} threads: {e}")
        }
    })?;
    if let Some(cap) = config.capped() {
        errln!("okapi: warning: {}", cap.message(flag));
    }
    Ok(config)
}

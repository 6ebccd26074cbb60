//! Library errors: each variant names the input and says what to do about it.

use std::path::PathBuf;

/// What can go wrong in the library; the binary adds context and prints it once.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Text that must be UTF-8 is not.
    #[error(
        "{input}: not valid UTF-8 at byte {offset}; convert it to UTF-8 (e.g. iconv) and try again"
    )]
    InvalidUtf8 {
        /// Which input (a path, or a description such as `line 3`).
        input: String,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// Input that looks binary (it holds NUL bytes) where text is expected.
    #[error("{input}: looks like a binary file (NUL byte at {offset}); extract its text first")]
    Binary {
        /// Which input.
        input: String,
        /// Byte offset of the first NUL.
        offset: usize,
    },
}

/// Result with the library's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Decodes `bytes` as UTF-8 text, naming `input` in the error; refuses NUL bytes as binary.
pub fn decode_text(input: &str, bytes: Vec<u8>) -> Result<String> {
    if let Some(offset) = memchr::memchr(0, &bytes) {
        return Err(Error::Binary {
            input: input.to_string(),
            offset,
        });
    }
    String::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 {
        input: input.to_string(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Reads a UTF-8 text file (see [`decode_text`]).
pub fn read_text_file(path: &std::path::Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_text(&path.display().to_string(), bytes)
}

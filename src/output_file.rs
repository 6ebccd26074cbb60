//! Files citestore writes for a user (the report page, man pages): whole or not at all, and only
//! ever into a regular file the user may write.
//!
//! Invariants:
//! - A target that exists and is not a regular file (a device such as `/dev/null`, a FIFO, a
//!   folder, `/dev/stdout`'s pipe or terminal) or that has no write bit (mode 0444) is refused
//!   before anything is written, even for root, who could otherwise rename over it.
//! - A link to a regular file is followed once, when the target is checked: the real file is
//!   replaced and the link is left as it was. A link that points nowhere is refused.
//! - The bytes go to a temporary file beside the real target, created with an unpredictable name
//!   and `O_CREAT | O_EXCL` (the `tempfile` crate), so a link planted in the folder is never
//!   followed; it is flushed to disk and renamed over the target, so a reader sees the old file
//!   or the new one, and a failure leaves no new file.
//! - A replaced file keeps its mode (and, when root replaces it, its owner); a new file gets
//!   `0666` less the umask, as any file the user creates.

use crate::error::{Error, Result};
use std::fs::{File, Metadata, Permissions};
use std::io::Write as _;
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

/// A checked place to write: where the bytes will land and what is there now.
#[derive(Debug)]
pub(crate) struct OutputFile {
    /// The path as the user gave it (named in errors).
    given: PathBuf,
    /// The real file to replace or create (links resolved).
    real: PathBuf,
    /// The file there now, when there is one.
    existing: Option<Metadata>,
}

impl OutputFile {
    /// Checks `path` as a place to write a whole file (see the module docs); writes nothing.
    pub(crate) fn check(path: &Path) -> Result<OutputFile> {
        let refuse = |why: String| Error::BadOutput {
            path: path.to_path_buf(),
            why,
        };
        if path.file_name().is_none() {
            return Err(refuse("not a file name; give a file path".into()));
        }
        match std::fs::metadata(path) {
            Ok(meta) => {
                if !meta.is_file() {
                    return Err(refuse(format!(
                        "is {}, not a regular file; give the path of a file to write",
                        kind_of(&meta)
                    )));
                }
                if meta.permissions().mode() & 0o222 == 0 || !writable_by_user(path) {
                    return Err(refuse(format!(
                        "is read-only (mode {:04o}); make it writable (chmod u+w) or give another path",
                        meta.permissions().mode() & 0o7777
                    )));
                }
                let real = std::fs::canonicalize(path).map_err(|source| io(path, source))?;
                Ok(OutputFile {
                    given: path.to_path_buf(),
                    real,
                    existing: Some(meta),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(path).is_ok() {
                    return Err(refuse(
                        "is a link to a file that does not exist; give the real path".into(),
                    ));
                }
                let dir = folder_of(path);
                if !dir.is_dir() {
                    return Err(Error::NotFound {
                        path: dir.to_path_buf(),
                    });
                }
                let real_dir = std::fs::canonicalize(dir).map_err(|source| io(dir, source))?;
                let name = path.file_name().expect("checked above");
                Ok(OutputFile {
                    given: path.to_path_buf(),
                    real: real_dir.join(name),
                    existing: None,
                })
            }
            Err(source) => Err(io(path, source)),
        }
    }

    /// Writes `bytes` as the whole file: a temporary file beside it, flushed, then renamed over.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<()> {
        let fail = |source| io(&self.given, source);
        let dir = folder_of(&self.real);
        let name = self.real.file_name().expect("checked").to_string_lossy();
        let mut temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(fail)?;
        temp.write_all(bytes).map_err(fail)?;
        self.set_mode_and_owner(temp.as_file()).map_err(fail)?;
        temp.as_file().sync_all().map_err(fail)?;
        temp.persist(&self.real).map_err(|e| fail(e.error))?;
        Ok(())
    }

    /// The replaced file's mode and owner, or a new file's default mode.
    fn set_mode_and_owner(&self, file: &File) -> std::io::Result<()> {
        match &self.existing {
            Some(meta) => {
                file.set_permissions(Permissions::from_mode(meta.mode() & 0o7777))?;
                let owner = (meta.uid(), meta.gid());
                let ours = file.metadata()?;
                if owner != (ours.uid(), ours.gid()) {
                    // Only root can give a file away; anyone else keeps it as their own.
                    let _ = std::os::unix::fs::fchown(file, Some(owner.0), Some(owner.1));
                }
                Ok(())
            }
            None => file.set_permissions(Permissions::from_mode(0o666 & !umask())),
        }
    }
}

/// Checks `path` and writes `bytes` there whole (see [`OutputFile`]).
#[cfg(test)]
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    OutputFile::check(path)?.write(bytes)
}

fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// What a file that is not a regular file is, for the message.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// Whether the kernel lets this user write `path` (root passes unless the mount is read-only).
fn writable_by_user(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt as _;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access(2) only reads it.
    unsafe { libc::access(c_path.as_ptr(), libc::W_OK) == 0 }
}

/// The process's umask. Linux reports it in `/proc/self/status` without changing it, which a
/// library called from several threads needs; elsewhere it is set and put back at once.
fn umask() -> u32 {
    let reported = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find_map(|l| l.strip_prefix("Umask:"))?;
            u32::from_str_radix(line.trim(), 8).ok()
        });
    reported.unwrap_or_else(|| {
        // SAFETY: umask(2) cannot fail; the old mask is restored at once.
        unsafe {
            let old = libc::umask(0o022);
            libc::umask(old);
            old as u32
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_path_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let read_only = dir.path().join("ro.html");
        std::fs::write(&read_only, "keep").unwrap();
        std::fs::set_permissions(&read_only, Permissions::from_mode(0o444)).unwrap();
        let dangling = dir.path().join("dangling.html");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let cases: [(&Path, &str); 4] = [
            (
                Path::new("/dev/null"),
                "is a character device, not a regular file",
            ),
            (dir.path(), "is a folder, not a regular file"),
            (&read_only, "is read-only (mode 0444)"),
            (&dangling, "is a link to a file that does not exist"),
        ];
        for (path, says) in cases {
            let err = write_whole(path, b"new").unwrap_err().to_string();
            assert!(err.contains(says), "{path:?}: {err}");
            assert!(err.starts_with(&path.display().to_string()), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    }

    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_link_keeps_pointing_at_it() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.html");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640);
    }
}

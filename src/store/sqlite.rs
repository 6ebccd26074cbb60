//! SQLite, the embedded store: opening a file for what a command does, its pragmas, and the
//! guard that removes a file a failed command created.
//!
//! Invariants:
//! - A file is judged before anything is written to it: a file its owner marked read-only, or
//!   one in a place this user may not write, is refused for writing with what to do; a command
//!   that only reads opens it so that nothing is created beside it where it may not be.
//! - Opening sets `busy_timeout` (5 s); a writing open then sets `journal_mode=WAL` (readers
//!   never wait for the writer), `foreign_keys=ON`, `synchronous=NORMAL`; a reading one
//!   `query_only`.
//! - [`NewDatabase`] never removes a file that existed when it was made, nor one in which
//!   another process has meanwhile stored documents.

use super::db::Conn;
use super::errors::classify_sqlite;
use super::open::Purpose;
use super::{Location, Store};
use crate::error::{Error, Result};
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Opens the file at `path` for `purpose`: a missing file is refused unless the command may
/// create it; a write command is refused where it may not write.
pub(super) fn connect(path: &Path, purpose: Purpose) -> Result<Store> {
    if matches!(purpose, Purpose::Read | Purpose::Existing) && !path.exists() {
        return Err(Error::NoDatabase {
            path: path.to_path_buf(),
        });
    }
    let conn = match purpose {
        Purpose::Read => connect_for_reading(path)?,
        Purpose::Create | Purpose::Adopt | Purpose::Existing => connect_for_writing(path)?,
    };
    connected(conn, path)
}

/// The connection of a write command, refused (untouched) where the file may not be written.
fn connect_for_writing(path: &Path) -> Result<Connection> {
    if let Ok(meta) = std::fs::metadata(path) {
        // Checked by hand because root can write a read-only file, and a store must not
        // quietly write what its owner marked read-only.
        if meta.permissions().readonly() {
            return Err(Error::ReadOnlyDatabase {
                path: path.to_path_buf(),
            });
        }
    }
    if let Some(Unwritable { why, todo }) = unwritable(path) {
        return Err(Error::ReadOnlyLocation {
            path: path.to_path_buf(),
            why,
            todo,
        });
    }
    Connection::open(path).map_err(|e| classify_sqlite(path, e))
}

/// The connection of [`Store::open_read`]. Where the file and its folder may be written,
/// a read-write connection (it deletes the -wal and -shm it needed when it closes; a
/// read-only one would leave them behind). Where they may not (a file its owner marked
/// read-only, which citestore never writes; a read-only mount; a folder this user may not
/// write, where SQLite cannot make its -shm), a database whose -wal holds no writes is
/// opened `immutable` (nothing to replay, no file made beside it); one whose -wal holds
/// writes is opened read-only, and refused with what to do when SQLite cannot read it so.
fn connect_for_reading(path: &Path) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let marked = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    let unwritable = unwritable(path);
    if !marked && unwritable.is_none() {
        return Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_READ_WRITE)
            .map_err(|e| classify_sqlite(path, e));
    }
    let flags = flags | OpenFlags::SQLITE_OPEN_READ_ONLY;
    let wal = companion(path, "-wal");
    if std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0 {
        return Connection::open_with_flags(format!("{}?immutable=1", file_uri(path)), flags)
            .map_err(|e| classify_sqlite(path, e));
    }
    let refuse = || Error::UnappliedWal {
        path: path.to_path_buf(),
        wal: wal.clone(),
        why: unwritable.as_ref().map_or_else(
            || "the file is marked read-only".to_string(),
            |u| u.why.clone(),
        ),
    };
    let conn =
        Connection::open_with_flags(path, flags).map_err(|e| match e.sqlite_error_code() {
            Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly) => refuse(),
            _ => classify_sqlite(path, e),
        })?;
    // SQLite opens lazily: the first read is where a -wal it cannot replay shows.
    match conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(())) {
        Ok(()) => Ok(conn),
        Err(e)
            if matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
            ) =>
        {
            Err(refuse())
        }
        Err(e) => Err(classify_sqlite(path, e)),
    }
}

fn connected(conn: Connection, path: &Path) -> Result<Store> {
    conn.busy_timeout(Duration::from_millis(5000))
        .map_err(|e| classify_sqlite(path, e))?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(Store {
        conn: Conn::Sqlite(conn),
        location: Location::Sqlite(path.to_path_buf()),
        path: path.to_path_buf(),
    })
}

impl Store {
    /// The SQLite connection; only called on paths that opened one.
    pub(super) fn sqlite(&self) -> &Connection {
        self.conn
            .sqlite()
            .expect("a SQLite-only step runs on a SQLite store")
    }

    /// Sets the pragmas of a writing connection (see the module invariants); PostgreSQL needs
    /// none.
    pub(super) fn configure(&self) -> Result<()> {
        let Some(conn) = self.conn.sqlite() else {
            return Ok(());
        };
        self.configure_sqlite(conn)
            .map_err(|e| classify_sqlite(&self.path, e))
    }

    fn configure_sqlite(&self, conn: &Connection) -> rusqlite::Result<()> {
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
        debug_assert_eq!(mode.to_ascii_lowercase(), "wal");
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// Makes this connection refuse every write (`query_only`): a reading command's store.
    pub(super) fn refuse_writes_sqlite(&self) -> Result<()> {
        self.sqlite()
            .pragma_update(None, "query_only", true)
            .map_err(|e| classify_sqlite(&self.path, e))
    }
}

/// A SQLite connection that writes thousands of transactions (a sweep): statement journals in
/// memory (they were spilled to temporary files: hundreds of MB written for nothing); a page
/// cache of 8 MiB instead of 2 (fewer pages read again); and the WAL checkpointed every
/// 64 MiB instead of 4 (each checkpoint waits for the disk twice; pages changed again before
/// the next one are written to the database file once).
pub(super) const SWEEP_PRAGMAS: &str =
    "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -8192; PRAGMA wal_autocheckpoint = 16384";

/// Why a SQLite database cannot be written where it is, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unwritable {
    why: String,
    todo: String,
}

/// Why this process may not write the database at `path` (or create it there): its mount is
/// read-only, or this user may not write the file or its folder (SQLite makes its -wal and
/// -shm there); `None` when it may, or when the folder does not exist (opening says so). Asked
/// of the kernel (`statvfs`, `faccessat` with the effective ids), so root, who may write any
/// folder of a read-write mount, is told only of a read-only mount.
fn unwritable(path: &Path) -> Option<Unwritable> {
    use std::os::unix::ffi::OsStrExt as _;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let c_folder = std::ffi::CString::new(folder.as_os_str().as_bytes()).ok()?;
    let c_file = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let may_write = |c: &std::ffi::CStr| {
        // SAFETY: `c` is a valid NUL-terminated path; faccessat only reads it.
        unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) == 0 }
    };
    let copy = "or copy the database (with any -wal beside it) to a place you may write and \
                choose it with --db";
    // SAFETY: statvfs fills the zeroed struct it is given; `c_folder` is NUL-terminated.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above: `stat` is ours, `c_folder` NUL-terminated.
    if unsafe { libc::statvfs(c_folder.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    if stat.f_flag & libc::ST_RDONLY != 0 {
        return Some(Unwritable {
            why: format!("{} is on a read-only mount", folder.display()),
            todo: format!("remount it read-write (mount -o remount,rw), {copy}"),
        });
    }
    if path.exists() && !may_write(&c_file) {
        return Some(Unwritable {
            why: "this user may not write the file".to_string(),
            todo: format!("ask its owner for write access, {copy}"),
        });
    }
    if !may_write(&c_folder) {
        return Some(Unwritable {
            why: format!(
                "this user may not write its folder {}, where SQLite keeps the -wal and -shm",
                folder.display()
            ),
            todo: format!("ask the folder's owner for write access, {copy}"),
        });
    }
    None
}

/// `path` with `suffix` appended (`-wal`, `-shm`, `-journal`).
fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `path` as an SQLite `file:` URI (bytes other than unreserved ones and `/` percent-encoded).
fn file_uri(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file:");
    for &byte in absolute.as_os_str().as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// A database file a command is about to create. Unless [`NewDatabase::keep`] is called,
/// dropping it removes the file and its `-wal`, `-shm` and `-journal` again, so a failed command
/// leaves no new file behind. It never removes a file that existed when it was made, nor one in
/// which another process has meanwhile stored documents.
///
/// Declare it before the [`Store`] it guards, so the store's connection closes first.
#[derive(Debug)]
pub struct NewDatabase {
    created: Option<PathBuf>,
}

impl NewDatabase {
    /// Watches `path`: armed only when nothing is there yet.
    pub fn watch(location: &Location) -> NewDatabase {
        let Location::Sqlite(path) = location else {
            // A server's database is never a new file; its writes are one transaction.
            return NewDatabase { created: None };
        };
        let absent = matches!(
            std::fs::symlink_metadata(path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound
        );
        NewDatabase {
            created: absent.then(|| path.to_path_buf()),
        }
    }

    /// The command succeeded: keep the file.
    pub fn keep(mut self) {
        self.created = None;
    }
}

impl Drop for NewDatabase {
    fn drop(&mut self) {
        let Some(path) = self.created.take() else {
            return;
        };
        if holds_documents(&path) {
            return;
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            // Best effort: a file that is not there is what we want.
            let _ = std::fs::remove_file(PathBuf::from(name));
        }
    }
}

/// True when `path` is a database with at least one committed document.
fn holds_documents(path: &Path) -> bool {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let Ok(conn) = Connection::open_with_flags(path, flags) else {
        return false;
    };
    conn.query_row("SELECT EXISTS (SELECT 1 FROM documents)", [], |row| {
        row.get::<_, bool>(0)
    })
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::db::args;

    #[test]
    fn a_new_database_is_removed_unless_kept_or_filled_by_another() {
        let dir = tempfile::tempdir().unwrap();
        let files = || {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        // (kept, another process commits a document meanwhile, files left)
        let cases = [
            (false, false, vec![]),
            (true, false, vec!["s.db"]),
            (false, true, vec!["s.db"]),
        ];
        for (kept, filled, left) in cases {
            let path = dir.path().join("s.db");
            let location = Location::from(path.as_path());
            let guard = NewDatabase::watch(&location);
            let store = Store::open(&location).unwrap();
            if filled {
                let mut other = Store::open(&location).unwrap();
                let writer = other.writer().unwrap();
                writer.insert_document("d", "d", "text", "now").unwrap();
                writer.commit().unwrap();
            }
            drop(store);
            if kept {
                guard.keep();
            } else {
                drop(guard);
            }
            assert_eq!(files(), left, "kept {kept}, filled {filled}");
            let _ = std::fs::remove_file(&path);
        }
        // A file that was there before is never removed.
        let path = dir.path().join("s.db");
        std::fs::write(&path, b"").unwrap();
        drop(NewDatabase::watch(&Location::from(path.as_path())));
        assert_eq!(files(), ["s.db"]);
    }

    #[test]
    fn foreign_keys_are_enforced() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&Location::from(dir.path().join("s.db"))).unwrap();
        let err = store.conn.execute(
            "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (42, 'x', 'now')",
            args![],
        );
        assert!(err.is_err());
    }
}

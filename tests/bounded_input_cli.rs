//! Inputs read with a cap that trusts no `stat` (issue 22, item 7), and JSON read past a
//! leading byte order mark (item 9), through the real binary.
//!
//! An endless input (`/dev/zero` given as a file, or fed to stdin) is refused once more than
//! 256 MiB arrive: one line naming the input and the limit, exit 2, the store and the folder as
//! they were. Each child runs under an address-space limit, so a reader that grows without
//! bound fails the test (the child dies) instead of taking the machine's memory.

use crate::common;

use common::{dump, repo, Scratch};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// The most address space a child may map: the 256 MiB limit read into one buffer (which may
/// double once) plus the binary, far below what an unbounded reader reaches.
const CHILD_ADDRESS_SPACE: u64 = 2 << 30;

/// What a child did: exit code, stdout, stderr, peak resident set (KiB, from GNU time).
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    max_rss_kib: i64,
}

/// Runs `cmd` with stdin from `stdin` (a file such as `/dev/zero`, or nothing) and its address
/// space limited to `address_space` bytes; its own peak RSS taken from GNU time
/// ([`common::Timed`]).
fn run_limited(cmd: Command, stdin: Option<&Path>, address_space: u64) -> Ran {
    let mut timed = common::Timed::new(&cmd);
    timed.cmd.stdin(match stdin {
        Some(path) => Stdio::from(std::fs::File::open(path).unwrap()),
        None => Stdio::null(),
    });
    let limit = libc::rlimit {
        rlim_cur: address_space,
        rlim_max: address_space,
    };
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec. GNU
    // time's child inherits the limit.
    unsafe {
        timed.cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = timed.cmd.output().unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        max_rss_kib: timed.peak_kib(),
    }
}

/// Every file under `dir` and its bytes: a new `-wal`, a new file, a changed byte shows here.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir(dir)
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(&path).unwrap())
        })
        .collect()
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The citing fixture's documents, chunked, and a context over them; returns its id.
fn cited_store(s: &Scratch) -> String {
    for name in ["rate-card.md", "plans.md"] {
        s.write(
            &format!("docs/{name}"),
            std::fs::read(repo("fixtures/cite/docs").join(name)).unwrap(),
        );
    }
    s.ingest(&["docs", "--chunker", "paragraph:150"]);
    let out = s.succeeds(&[
        "context",
        "--doc",
        "rate-card.md",
        "--doc",
        "plans.md",
        "--json",
    ]);
    let context: serde_json::Value = serde_json::from_str(&out).unwrap();
    context["context"].as_str().unwrap().to_string()
}

#[test]
fn endless_inputs_are_refused_at_the_limit_in_one_line_and_write_nothing() {
    let s = Scratch::new();
    let ctx = cited_store(&s);
    s.write("quote.txt", "Growth");
    s.write("chunk.txt", "Growth – included 500,000 calls/mo");
    let zero = Path::new("/dev/zero");
    let document = "the 268435456-byte limit for one document";
    let input = "the 268435456-byte limit for one input";
    // (arguments, stdin, the input the line names, the limit it names)
    let cases: Vec<(Vec<&str>, Option<&Path>, &str, &str)> = vec![
        (
            vec!["cite", "--context", &ctx, "/dev/zero"],
            None,
            "/dev/zero",
            input,
        ),
        (
            vec!["cite", "--context", &ctx, "-"],
            Some(zero),
            "stdin",
            input,
        ),
        (
            vec!["import-anthropic", "--context", &ctx, "/dev/zero"],
            None,
            "/dev/zero",
            input,
        ),
        (
            vec!["import-anthropic", "--context", &ctx, "-"],
            Some(zero),
            "stdin",
            input,
        ),
        (
            vec!["locate", "--chunk", "/dev/zero", "--quote", "Growth"],
            None,
            "/dev/zero",
            input,
        ),
        (
            vec![
                "locate",
                "--chunk",
                "chunk.txt",
                "--quote-file",
                "/dev/zero",
            ],
            None,
            "/dev/zero",
            input,
        ),
        (vec!["locate", "--batch", "-"], Some(zero), "stdin", input),
        (
            vec!["locate", "--batch", "/dev/zero"],
            None,
            "/dev/zero",
            input,
        ),
        (vec!["ingest", "/dev/zero"], None, "/dev/zero", document),
        (
            vec!["ingest", "/dev/stdin"],
            Some(zero),
            "/dev/stdin",
            document,
        ),
        (
            vec!["ingest", "docs/plans.md", "--chunks", "/dev/zero"],
            None,
            "/dev/zero",
            input,
        ),
        (
            vec!["context", "--from", "/dev/zero"],
            None,
            "/dev/zero",
            input,
        ),
    ];
    for (args, stdin, names, limit) in cases {
        let (store_before, folder_before) = (dump(&s.db()), files(s.dir.path()));
        let mut cmd = s.spawnable();
        cmd.args(&args);
        let ran = run_limited(cmd, stdin, CHILD_ADDRESS_SPACE);
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.stderr);
        assert!(ran.stdout.is_empty(), "{args:?} printed {:?}", ran.stdout);
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {:?}", ran.stderr);
        let line = ran.stderr.trim_end();
        assert!(
            line.starts_with("citestore: ") && line.contains(names) && line.contains(limit),
            "{args:?}: {line}"
        );
        assert_eq!(dump(&s.db()), store_before, "{args:?}: the store changed");
        assert_eq!(
            files(s.dir.path()),
            folder_before,
            "{args:?}: the folder changed"
        );
    }
}

/// A new store refused an endless document leaves no database file behind.
#[test]
fn an_endless_document_into_a_new_store_leaves_no_file() {
    let s = Scratch::new();
    if s.url.is_some() {
        // A PostgreSQL store is a server's database, not a file in the folder; the test above
        // covers it.
        return;
    }
    let mut cmd = s.spawnable();
    cmd.args(["ingest", "/dev/stdin"]);
    let ran = run_limited(cmd, Some(Path::new("/dev/zero")), CHILD_ADDRESS_SPACE);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(files(s.dir.path()).is_empty(), "{:?}", files(s.dir.path()));
}

/// A UTF-8 byte order mark before JSON (cite's answer from a file and from stdin, chunks
/// JSONL, a `--from` list, a locate batch) is read as the JSON without it.
#[test]
fn a_byte_order_mark_before_json_is_accepted_everywhere() {
    const BOM: &str = "\u{feff}";
    let s = Scratch::new();
    let ctx = cited_store(&s);
    let answer = std::fs::read_to_string(repo("fixtures/cite/answer.json")).unwrap();
    let plain = s.write("answer.json", &answer);
    let marked = s.write("answer-bom.json", format!("{BOM}{answer}"));
    let cited = s.succeeds(&["cite", "--context", &ctx, plain.to_str().unwrap(), "--json"]);
    let again = s.succeeds(&[
        "cite",
        "--context",
        &ctx,
        marked.to_str().unwrap(),
        "--json",
    ]);
    let ids = |out: &str| -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        v["claims"].clone()
    };
    assert_eq!(ids(&again), ids(&cited), "the same citations, BOM or not");
    let piped = common::succeeded(
        s.cmd()
            .args(["cite", "--context", &ctx, "-", "--json"])
            .write_stdin(format!("{BOM}{answer}")),
    );
    assert_eq!(ids(&String::from_utf8(piped.stdout).unwrap()), ids(&cited));

    s.write("notes.txt", "Alpha one. Beta two.");
    s.write(
        "notes.jsonl",
        format!("{BOM}{{\"start\": 0, \"end\": 10, \"id\": \"a\"}}\n"),
    );
    s.ingest(&["notes.txt", "--chunks", "notes.jsonl"]);
    s.write("ids.json", format!("{BOM}[\"a\"]"));
    let from: serde_json::Value =
        serde_json::from_str(&s.succeeds(&["context", "--from", "ids.json", "--json"])).unwrap();
    assert_eq!(from["chunks"][0]["text"], "Alpha one.");

    s.write(
        "batch.jsonl",
        format!("{BOM}{{\"chunk\": \"Alpha one.\", \"quote\": \"one\"}}\n"),
    );
    let found: serde_json::Value =
        serde_json::from_str(s.succeeds(&["locate", "--batch", "batch.jsonl"]).trim()).unwrap();
    assert_eq!(
        (found["start"].as_u64(), found["end"].as_u64()),
        (Some(6), Some(9))
    );
}

/// Ingesting and chunking a large document holds at most four times its size (issue 22: a
/// 200 MB document took 2.5 GB, a `usize` per char to map chunk offsets and the text copied
/// into a `Vec<char>`). 48 MB here, the debug build's peak RSS measured by GNU time: about 3.4×
/// its size with the fix, about 15× without.
#[test]
fn a_large_document_ingests_within_four_times_its_size() {
    if common::sqlite_only("the embedded store's peak memory; on PostgreSQL the client's buffers add about half the document (203 MB for 45 MB, debug)") {
        return;
    }
    let s = Scratch::new();
    let words = [
        "plan", "calls", "month", "overage", "billing", "limit", "seat",
    ];
    let mut text = String::with_capacity(48_100_000);
    let mut n = 0usize;
    while text.len() < 48_000_000 {
        for k in 0..12 {
            text.push_str(words[(n * 7 + k * 3) % words.len()]);
            text.push(' ');
        }
        text.push_str(&format!("{n}.\n"));
        if n % 8 == 7 {
            text.push('\n');
        }
        n += 1;
    }
    let size = text.len() as i64;
    s.write("big.txt", &text);
    drop(text);
    let mut cmd = s.spawnable();
    cmd.args(["ingest", "big.txt", "--chunker", "paragraph:1500", "-q"]);
    let ran = run_limited(cmd, None, 64 << 30);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let peak = ran.max_rss_kib * 1024;
    assert!(
        peak <= 4 * size,
        "peak RSS {} MB for a {} MB document",
        peak >> 20,
        size >> 20
    );
    let doc = &s.docs()[0];
    assert!(doc.char_len > 47_000_000 && doc.chunks > 30_000, "{doc:?}");
}

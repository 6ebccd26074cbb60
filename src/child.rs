//! Running another program (a `command:` judge, `pdftotext`, an `--extract-cmd`) under one
//! deadline, so that nothing it does can hang, kill or flood citestore.
//!
//! Invariants, for every [`run`]:
//! - The program leads a process group of its own. When `run` returns — finished, failed or
//!   timed out — that whole group has been sent SIGKILL and the program has been reaped, so
//!   nothing it started is left running (unless it left the group itself, e.g. with `setsid`).
//!   The group is killed before the program is reaped: an unreaped leader keeps its process
//!   group id from being reused, so the signal never reaches a stranger.
//! - One deadline covers writing the input, the run, and reading both pipes to end of file. A
//!   run is complete when the program has exited, its input is written (or refused) and both
//!   pipes are closed; a process it left behind that keeps a pipe open makes it time out.
//! - stdout and stderr are read at the same time, by threads, so a program that fills one pipe
//!   never waits on citestore reading the other. stdout is kept up to [`Limits::stdout_cap`]
//!   (past it, the run is [`RunError::OutputTooLarge`]); stderr keeps only its last
//!   [`STDERR_TAIL`] bytes, enough for the line that says why.
//! - Writing the input never raises SIGPIPE in this process (main restores its default action
//!   for `| head`, so it would kill us): the writer thread blocks the signal, gets `EPIPE`
//!   instead, and takes the pending signal before it ends.

use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// The longest time limit taken for a child (a year): a limit is a guard, not a schedule.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 3600);

/// How many bytes of the end of a program's stderr are kept.
pub const STDERR_TAIL: usize = 16 * 1024;

/// `secs` as a time limit, or why not: a number of seconds above zero (at least a nanosecond
/// once converted) and at most [`MAX_TIMEOUT`]. NaN, infinities, negatives and absurdly large
/// values are refused here, before any conversion that could panic.
pub fn timeout_from_secs(secs: f64) -> Result<Duration, String> {
    let max = MAX_TIMEOUT.as_secs_f64();
    if !(secs > 0.0 && secs <= max) {
        return Err(format!(
            "give a positive number of seconds, at most {max} (a year)"
        ));
    }
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|limit| !limit.is_zero())
        .ok_or_else(|| "give a positive number of seconds (this one rounds to 0)".to_string())
}

/// A number as a user wrote it, short: `-5`, `0.5`, `NaN`, `inf`, and `1e30` rather than its
/// thirty-one digits.
pub fn shown(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e9 {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// What a run may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The one deadline, from the start: input, run and output together.
    pub timeout: Duration,
    /// The most bytes of stdout kept; more is an error.
    pub stdout_cap: usize,
}

/// A program that ran to the end within its limits.
#[derive(Debug)]
pub struct Finished {
    /// How it exited.
    pub status: ExitStatus,
    /// All it wrote to stdout (at most [`Limits::stdout_cap`] bytes).
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes it wrote to stderr.
    pub stderr_tail: Vec<u8>,
    /// It closed its stdin before reading all the input it was given (the write failed with
    /// `EPIPE`). Input small enough to fit in the pipe's buffer is never reported unread.
    pub input_unread: bool,
}

impl Finished {
    /// The line of its stderr that says why it failed: the last line mentioning an error, else
    /// the last non-empty line. Programs warn before they fail (pdftotext prints `Syntax
    /// Warning: …` lines before `Syntax Error: …`), so the first line is rarely the reason.
    pub fn reason(&self) -> String {
        failure_line(&String::from_utf8_lossy(&self.stderr_tail)).to_string()
    }
}

/// Why a run gave no [`Finished`]. Every variant is after the group was killed and reaped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program could not be started (not found, not executable, …).
    #[error("cannot run it: {0}")]
    Spawn(#[source] std::io::Error),
    /// The deadline passed first.
    #[error("{}", timed_out_message(*.seconds, *.exited))]
    TimedOut {
        /// The limit, in seconds.
        seconds: f64,
        /// The program itself had exited: something it started kept a pipe open.
        exited: bool,
    },
    /// It wrote more than [`Limits::stdout_cap`] bytes to stdout.
    #[error("its output passed {cap} bytes")]
    OutputTooLarge {
        /// The cap, in bytes.
        cap: usize,
    },
    /// Reading its output failed.
    #[error("reading its output: {0}")]
    Read(#[source] std::io::Error),
}

fn timed_out_message(seconds: f64, exited: bool) -> String {
    if exited {
        format!("timed out after {seconds} s (it exited, but a process it started kept its output open)")
    } else {
        format!("timed out after {seconds} s")
    }
}

/// Runs `command` with `input` on its stdin (stdin is closed when `None`), within `limits`;
/// see the module docs for what is guaranteed.
pub fn run(
    mut command: Command,
    input: Option<Vec<u8>>,
    limits: Limits,
) -> Result<Finished, RunError> {
    // The limit is at most MAX_TIMEOUT, so this cannot overflow; the fallback is for a caller
    // that built Limits by hand.
    let deadline = Instant::now()
        .checked_add(limits.timeout)
        .unwrap_or_else(|| Instant::now() + MAX_TIMEOUT);
    let stdin = if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    };
    command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn().map_err(RunError::Spawn)?;
    let (events, received) = mpsc::channel();
    watch_exit(child.id(), events.clone());
    if let Some(stdout) = child.stdout.take() {
        let cap = limits.stdout_cap;
        on_thread(events.clone(), move || {
            Event::Stdout(read_capped(stdout, cap))
        });
    }
    if let Some(stderr) = child.stderr.take() {
        on_thread(events.clone(), move || {
            Event::Stderr(read_tail(stderr, STDERR_TAIL))
        });
    }
    match (input, child.stdin.take()) {
        (Some(bytes), Some(stdin)) => {
            on_thread(events, move || Event::Input(write_input(stdin, &bytes)))
        }
        _ => {
            let _ = events.send(Event::Input(Ok(())));
        }
    }
    let mut got = Collected::default();
    let outcome = collect(&received, &mut got, deadline, limits);
    stop_group(&mut child, &received, &mut got);
    outcome?;
    Ok(Finished {
        status: child.wait().map_err(RunError::Read)?,
        stdout: got.stdout.unwrap_or_default(),
        stderr_tail: got.stderr.unwrap_or_default(),
        input_unread: got.input_unread,
    })
}

/// What the helper threads report.
enum Event {
    /// The program exited (not yet reaped).
    Exited,
    /// stdout read to its end, or past the cap (`None`).
    Stdout(std::io::Result<Option<Vec<u8>>>),
    /// The tail of stderr, read to its end.
    Stderr(std::io::Result<Vec<u8>>),
    /// The input written and closed, or refused.
    Input(std::io::Result<()>),
}

#[derive(Default)]
struct Collected {
    exited: bool,
    stdout: Option<Vec<u8>>,
    stderr: Option<Vec<u8>>,
    input_done: bool,
    input_unread: bool,
}

impl Collected {
    fn complete(&self) -> bool {
        self.exited && self.stdout.is_some() && self.stderr.is_some() && self.input_done
    }

    fn take(&mut self, event: Event, limits: Limits) -> Result<(), RunError> {
        match event {
            Event::Exited => self.exited = true,
            Event::Stdout(Ok(Some(bytes))) => self.stdout = Some(bytes),
            Event::Stdout(Ok(None)) => {
                return Err(RunError::OutputTooLarge {
                    cap: limits.stdout_cap,
                })
            }
            Event::Stderr(Ok(bytes)) => self.stderr = Some(bytes),
            Event::Stdout(Err(e)) | Event::Stderr(Err(e)) => return Err(RunError::Read(e)),
            Event::Input(result) => {
                self.input_done = true;
                // Any failure to hand over the input means the program did not take it all;
                // EPIPE is the usual one (it exited or closed stdin without reading).
                self.input_unread = result.is_err();
            }
        }
        Ok(())
    }
}

/// Takes events until the run is complete, fails, or the deadline passes.
fn collect(
    received: &Receiver<Event>,
    got: &mut Collected,
    deadline: Instant,
    limits: Limits,
) -> Result<(), RunError> {
    while !got.complete() {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(event) => got.take(event, limits)?,
            Err(_) => {
                return Err(RunError::TimedOut {
                    seconds: limits.timeout.as_secs_f64(),
                    exited: got.exited,
                })
            }
        }
    }
    Ok(())
}

/// Kills the program's whole process group, then waits until the exit watcher has seen the
/// program end (it cannot outlive SIGKILL), so the caller may reap it.
fn stop_group(child: &mut Child, received: &Receiver<Event>, got: &mut Collected) {
    // SAFETY: kill(2) with a negative pid signals a process group and touches no memory. The
    // leader is not reaped yet, so its id still names its group and no other.
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    while !got.exited {
        match received.recv() {
            Ok(Event::Exited) => got.exited = true,
            Ok(_) => {}
            // The watcher always reports; a closed channel means it is gone, so stop waiting.
            Err(_) => break,
        }
    }
}

fn on_thread(events: Sender<Event>, work: impl FnOnce() -> Event + Send + 'static) {
    std::thread::spawn(move || {
        // The receiver is gone only after the run ended, when nobody wants the result.
        let _ = events.send(work());
    });
}

/// Reports when process `pid` exits, without reaping it (`WNOWAIT`): the caller kills the
/// group first and reaps after.
fn watch_exit(pid: u32, events: Sender<Event>) {
    on_thread(events, move || {
        loop {
            // SAFETY: waitid only writes the siginfo_t we own; WNOWAIT leaves the child
            // waitable for Child::wait.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: as above: `info` is ours and `pid` is the child this thread waits for.
            let done = unsafe {
                libc::waitid(
                    libc::P_PID,
                    pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOWAIT,
                )
            };
            // Interrupted: wait again. Any other failure (ECHILD) means there is nothing left
            // to wait for.
            if done == 0 || std::io::Error::last_os_error().kind() != ErrorKind::Interrupted {
                return Event::Exited;
            }
        }
    });
}

/// All of `pipe`, or `None` once it holds more than `cap` bytes (the rest is not read).
fn read_capped(pipe: impl Read, cap: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    pipe.take(cap as u64 + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() <= cap).then_some(bytes))
}

/// The last `keep` bytes of `pipe`, read to its end in bounded memory.
fn read_tail(mut pipe: impl Read, keep: usize) -> std::io::Result<Vec<u8>> {
    let mut tail = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        tail.extend_from_slice(&buffer[..n]);
        // Trimmed only when twice the tail, so each byte is moved at most once on average.
        if tail.len() > 2 * keep {
            tail.drain(..tail.len() - keep);
        }
    }
    if tail.len() > keep {
        tail.drain(..tail.len() - keep);
    }
    Ok(tail)
}

/// Writes `bytes` to the program's stdin and closes it, with SIGPIPE blocked on this thread so
/// a program that does not read makes the write fail with `EPIPE` instead of killing us.
fn write_input(mut stdin: ChildStdin, bytes: &[u8]) -> std::io::Result<()> {
    let sigpipe = sigpipe_set();
    // SAFETY: changes this thread's signal mask only; the set is initialised above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_BLOCK, &sigpipe, std::ptr::null_mut());
    }
    let written = stdin.write_all(bytes).and_then(|()| stdin.flush());
    drop(stdin);
    if written.is_err() {
        take_pending_sigpipe(&sigpipe);
    }
    written
}

fn sigpipe_set() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        set
    }
}

/// Takes a SIGPIPE pending on this thread (the failed write raised it while it was blocked), so
/// it can never be delivered; the thread ends with the signal still blocked.
fn take_pending_sigpipe(sigpipe: &libc::sigset_t) {
    // SAFETY: sigpending/sigismember/sigwait read and write sets we own; sigwait returns at
    // once because the signal is pending and blocked.
    unsafe {
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pending);
        if libc::sigpending(&mut pending) == 0 && libc::sigismember(&pending, libc::SIGPIPE) == 1 {
            let mut taken = 0;
            libc::sigwait(sigpipe, &mut taken);
        }
    }
}

/// See [`Finished::reason`].
fn failure_line(stderr: &str) -> &str {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .rev()
        .find(|l| l.to_lowercase().contains("error"))
        .or_else(|| lines().next_back())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_shows_its_error_line_not_its_first_warning() {
        // (stderr, the line shown)
        let cases = [
            (
                "Syntax Warning: May not be a PDF file (continuing anyway)\n\
                 Syntax Warning: bad xref\n\
                 Syntax Error: Couldn't find trailer dictionary\n\
                 Syntax Error: Couldn't read xref table\n",
                "Syntax Error: Couldn't read xref table",
            ),
            ("warming up\nERROR: disk full\nbye\n", "ERROR: disk full"),
            ("first\n  second  \n\n", "second"),
            ("", ""),
        ];
        for (stderr, want) in cases {
            assert_eq!(failure_line(stderr), want, "{stderr:?}");
        }
    }

    #[test]
    fn timeouts_are_positive_finite_and_at_most_a_year() {
        for bad in [
            0.0,
            -1.0,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            1e-12,
            1e30,
            4e7,
        ] {
            assert!(timeout_from_secs(bad).is_err(), "{bad}");
        }
        assert_eq!(timeout_from_secs(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(
            timeout_from_secs(MAX_TIMEOUT.as_secs_f64()),
            Ok(MAX_TIMEOUT)
        );
        let shown_as = [
            (1e30, "1e30"),
            (-5.0, "-5"),
            (0.5, "0.5"),
            (f64::NAN, "NaN"),
        ];
        for (value, want) in shown_as {
            assert_eq!(shown(value), want);
        }
    }

    #[test]
    fn stderr_keeps_its_tail() {
        let text: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(
            read_tail(&text[..], 1000).unwrap(),
            &text[text.len() - 1000..]
        );
        assert_eq!(read_tail(&b"short"[..], 1000).unwrap(), b"short");
    }

    #[test]
    fn stdout_past_its_cap_is_refused() {
        assert_eq!(
            read_capped(&b"12345"[..], 5).unwrap(),
            Some(b"12345".to_vec())
        );
        assert_eq!(read_capped(&b"123456"[..], 5).unwrap(), None);
    }
}

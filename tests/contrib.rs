//! The scheduling recipe in contrib/: the systemd units pass `systemd-analyze verify` (and a
//! broken copy does not), the timer is nightly, persistent and spread, the service is hardened,
//! the command both the service and the cron line run sweeps a real store and exits by its
//! health, the alert script hands a report to its hook, and the cron line parses and mails only
//! when the sweep needs attention.
//!
//! Installed paths in the files are rewritten to this checkout: the binary to the one cargo
//! built, /var/lib/citestore and /etc/citestore/citestore.toml to a scratch folder.

use crate::common;

use common::{repo, swap_in_version_2, Scratch};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SERVICE: &str = "citestore-sweep.service";
const TIMER: &str = "citestore-sweep.timer";
const ALERT_TEMPLATE: &str = "citestore-alert@.service";
const INSTALLED_BIN: &str = "/usr/local/bin/citestore";
const INSTALLED_ALERT: &str = "/usr/local/lib/citestore/citestore-alert";
const STATE_DIR: &str = "/var/lib/citestore";
const CONFIG: &str = "/etc/citestore/citestore.toml";

fn contrib(rel: &str) -> String {
    std::fs::read_to_string(repo("contrib").join(rel)).unwrap()
}

/// `name` on PATH; when missing, fails under CI=true naming the package, else says why it skips.
fn tool(name: &str, package: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let why = format!(
            "{name} not found: install the `{package}` package \
             (apt-get install -y --no-install-recommends {package})"
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("skipped: {why}");
    }
    found
}

/// The values of `key` in `[section]` of a unit file, in order.
fn values(unit: &str, section: &str, key: &str) -> Vec<String> {
    let mut current = "";
    let mut out = Vec::new();
    for line in unit.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name;
        } else if let Some((k, v)) = line.split_once('=') {
            if current == section && k.trim() == key {
                out.push(v.trim().to_string());
            }
        }
    }
    out
}

fn value(unit: &str, section: &str, key: &str) -> String {
    let all = values(unit, section, key);
    assert_eq!(all.len(), 1, "[{section}] {key}= set {} times", all.len());
    all[0].clone()
}

/// A unit file with the installed paths pointing into this checkout and `state`.
fn localised(text: &str, state: &Path) -> String {
    text.replace(INSTALLED_BIN, env!("CARGO_BIN_EXE_citestore"))
        .replace(
            INSTALLED_ALERT,
            repo("contrib/systemd/citestore-alert").to_str().unwrap(),
        )
        .replace(CONFIG, state.join("citestore.toml").to_str().unwrap())
        .replace(STATE_DIR, state.to_str().unwrap())
}

/// The alert instance the service's OnFailure= starts.
fn alert_instance() -> String {
    value(&unit(SERVICE), "Unit", "OnFailure").replace("%n", SERVICE)
}

/// A unit file of contrib/systemd, as shipped.
fn unit(name: &str) -> String {
    contrib(&format!("systemd/{name}"))
}

/// Writes the three units (after `edit`) into `dir` and runs `systemd-analyze verify` on the
/// service, the timer and the alert instance; Err holds anything it printed. A warning (an
/// unknown key, a bad value it ignores) counts as a failure.
fn verify(sa: &Path, dir: &Path, edit: impl Fn(&str, String) -> String) -> Result<(), String> {
    for name in [SERVICE, TIMER, ALERT_TEMPLATE] {
        let text = localised(&unit(name), dir);
        std::fs::write(dir.join(name), edit(name, text)).unwrap();
    }
    let out = Command::new(sa)
        .args(["verify", "--man=no"])
        .arg(dir.join(SERVICE))
        .arg(dir.join(TIMER))
        .arg(dir.join(alert_instance()))
        .current_dir(dir)
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() && printed.trim().is_empty() {
        Ok(())
    } else {
        Err(printed)
    }
}

#[test]
fn units_pass_systemd_analyze_verify() {
    let Some(sa) = tool("systemd-analyze", "systemd") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    verify(&sa, dir.path(), |_, text| text).unwrap();
}

/// A change to a unit file's text.
type Edit = fn(String) -> String;

#[test]
fn systemd_analyze_verify_catches_broken_units() {
    let Some(sa) = tool("systemd-analyze", "systemd") else {
        return;
    };
    // (what is broken, the file, the edit)
    let cases: [(&str, &str, Edit); 4] = [
        ("a misspelt key", SERVICE, |t| {
            t.replace("ProtectSystem=", "ProtectSystm=")
        }),
        ("a binary that is not there", SERVICE, |t| {
            t.replace(env!("CARGO_BIN_EXE_citestore"), "/nonexistent/citestore")
        }),
        ("a calendar that does not parse", TIMER, |t| {
            t.replace("OnCalendar=", "OnCalendar=nightly-ish ")
        }),
        ("an alert script that is not there", ALERT_TEMPLATE, |t| {
            t.replace("citestore-alert %i", "citestore-alert-missing %i")
        }),
    ];
    for (what, file, edit) in cases {
        let dir = tempfile::tempdir().unwrap();
        let result = verify(&sa, dir.path(), |name, text| {
            if name == file {
                edit(text)
            } else {
                text
            }
        });
        assert!(result.is_err(), "{what} in {file} passed verify");
    }
}

#[test]
fn the_service_alerts_through_a_template_in_contrib() {
    let instance = alert_instance();
    assert_eq!(instance, format!("citestore-alert@{SERVICE}.service"));
    let alert = unit(ALERT_TEMPLATE);
    let exec = value(&alert, "Service", "ExecStart");
    assert_eq!(exec, format!("{INSTALLED_ALERT} %i"));
    let service = unit(SERVICE);
    assert_eq!(value(&service, "Service", "Type"), "oneshot");
}

#[test]
fn timer_is_nightly_persistent_and_spread() {
    let timer = unit(TIMER);
    assert_eq!(value(&timer, "Timer", "Persistent"), "true");
    assert_eq!(value(&timer, "Install", "WantedBy"), "timers.target");
    assert!(!value(&timer, "Timer", "RandomizedDelaySec").is_empty());
    let Some(sa) = tool("systemd-analyze", "systemd") else {
        return;
    };
    let calendar = value(&timer, "Timer", "OnCalendar");
    let out = Command::new(&sa)
        .args(["calendar", &calendar])
        .output()
        .unwrap();
    assert!(out.status.success(), "{calendar:?} does not parse");
    let text = String::from_utf8(out.stdout).unwrap();
    let normalized = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Normalized form: "))
        .unwrap();
    // Every day, at one time of the night.
    let (days, time) = normalized.split_once(' ').unwrap();
    assert_eq!(days, "*-*-*", "{normalized}");
    let hour: u32 = time[..2].parse().unwrap();
    assert!(hour < 6, "{normalized} is not at night");
    let delay = value(&timer, "Timer", "RandomizedDelaySec");
    let out = Command::new(&sa)
        .args(["timespan", &delay])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "RandomizedDelaySec={delay} does not parse"
    );
}

#[test]
fn service_is_hardened() {
    let service = unit(SERVICE);
    for (key, want) in [
        ("NoNewPrivileges", "yes"),
        ("PrivateTmp", "yes"),
        ("ProtectSystem", "strict"),
        ("User", "citestore"),
        ("WorkingDirectory", STATE_DIR),
        ("ReadWritePaths", STATE_DIR),
    ] {
        assert_eq!(value(&service, "Service", key), want, "{key}=");
    }
    let Some(sa) = tool("systemd-analyze", "systemd") else {
        return;
    };
    // systemd's own exposure score (0 safe … 10 unsafe), offline; --threshold is in tenths.
    let dir = tempfile::tempdir().unwrap();
    verify(&sa, dir.path(), |_, text| text).unwrap();
    for (unit, most) in [(SERVICE.to_string(), "15"), (alert_instance(), "30")] {
        let out = Command::new(&sa)
            .args(["security", "--offline=yes", "--threshold", most])
            .arg(dir.path().join(&unit))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{unit}: exposure over {most}/100: {}",
            text.lines().last().unwrap_or("")
        );
    }
}

/// A folder laid out like the installed one: the bundled example ingested and cited from it,
/// and a citestore.toml naming its database.
fn installed_store() -> Scratch {
    let s = common::cited_example();
    s.write(
        "citestore.toml",
        format!("db = {:?}\n", s.db().to_str().unwrap()),
    );
    s
}

/// Runs the service's ExecStart, localised to `s`, in its WorkingDirectory.
fn run_exec_start(s: &Scratch) -> Output {
    let service = localised(&unit(SERVICE), s.dir.path());
    let exec = value(&service, "Service", "ExecStart");
    // Plain words only: a quote, a prefix or a specifier would need systemd's own parser.
    assert!(
        !exec.contains(['"', '\'', '%', '\\']) && !exec.starts_with(['-', '@', '+', '!', ':']),
        "{exec}"
    );
    let words: Vec<&str> = exec.split_whitespace().collect();
    Command::new(words[0])
        .args(&words[1..])
        .current_dir(value(&service, "Service", "WorkingDirectory"))
        .env_remove("CITESTORE_DB")
        .env_remove("CITESTORE_CONFIG")
        .output()
        .unwrap()
}

#[test]
fn service_command_sweeps_and_fails_when_citations_need_attention() {
    if common::sqlite_only("it deletes the database file") {
        return;
    }
    let s = installed_store();
    let out = run_exec_start(&s);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "all intact: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("store now: intact"), "{stdout}");
    // Every source is found (a missing one would make its citations lost).
    assert!(!stdout.contains("source missing"), "{stdout}");

    swap_in_version_2(&s);
    let out = run_exec_start(&s);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "lost and degraded: {stdout}");
    assert!(stdout.contains("lost 1"), "{stdout}");
    assert!(stdout.contains("degraded"), "{stdout}");

    std::fs::remove_file(s.db()).unwrap();
    let out = run_exec_start(&s);
    assert_eq!(out.status.code(), Some(2), "no database");
    assert!(!s.db().exists(), "a failed sweep created the database");
}

/// A PATH with fake `systemctl` and `journalctl` answering for one failed run, and a hook.
struct AlertBench {
    dir: tempfile::TempDir,
}

impl AlertBench {
    /// `status`: the failed run's ExecMainStatus (None: systemctl cannot reach systemd);
    /// `hook_exit`: what the hook returns (None: no hook installed).
    fn new(status: Option<&str>, hook_exit: Option<i32>) -> AlertBench {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let systemctl = match status {
            Some(status) => format!(
                "#!/bin/sh\ncase \"$*\" in\n\
                 *ExecMainStatus*) echo {status} ;;\n\
                 *Result*) echo exit-code ;;\n\
                 *InvocationID*) echo 0123abcd ;;\nesac\n"
            ),
            None => "#!/bin/sh\necho 'System has not been booted with systemd' >&2\nexit 1\n"
                .to_string(),
        };
        let journalctl = "#!/bin/sh\necho \"sweep output for: $*\"\n";
        executable(&bin.join("systemctl"), &systemctl);
        executable(&bin.join("journalctl"), journalctl);
        if let Some(code) = hook_exit {
            let hook = format!(
                "#!/bin/sh\nprintf '%s\\n' \"$1\" > \"$(dirname \"$0\")/subject\"\n\
                 cat > \"$(dirname \"$0\")/report\"\nexit {code}\n"
            );
            executable(&dir.path().join("hook"), &hook);
        }
        AlertBench { dir }
    }

    fn run(&self) -> Output {
        let path = format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap()
        );
        Command::new(repo("contrib/systemd/citestore-alert"))
            .arg(SERVICE)
            .env("PATH", path)
            .env("CITESTORE_ALERT_HOOK", self.dir.path().join("hook"))
            .output()
            .unwrap()
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap()
    }
}

fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn alert_hands_the_failed_run_to_the_hook() {
    // (exit status of the failed sweep, what the report must say)
    let cases = [
        (Some("1"), "citations are lost or degraded"),
        (Some("2"), "Some document could not be swept"),
        (None, "could not be read from systemd"),
    ];
    for (status, says) in cases {
        let bench = AlertBench::new(status, Some(0));
        let out = bench.run();
        assert!(out.status.success(), "{status:?}: {out:?}");
        let subject = bench.read("subject");
        assert!(
            subject.starts_with(&format!("citestore: {SERVICE} failed on ")),
            "{subject}"
        );
        let report = bench.read("report");
        assert!(report.contains(says), "{status:?}: {report}");
        assert!(
            report.contains(&format!("exit status {}", status.unwrap_or("unknown"))),
            "{report}"
        );
        // The failed run's own journal when systemd names it, else the unit's last lines.
        let journal = if status.is_some() {
            "_SYSTEMD_INVOCATION_ID=0123abcd"
        } else {
            "-u citestore-sweep.service"
        };
        assert!(
            report.contains("sweep output for: ") && report.contains(journal),
            "{report}"
        );
    }
}

#[test]
fn alert_fails_when_its_hook_fails_and_logs_when_there_is_none() {
    let failing = AlertBench::new(Some("1"), Some(3));
    assert_eq!(failing.run().status.code(), Some(3));

    let none = AlertBench::new(Some("1"), None);
    let out = none.run();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("No alert hook at "), "{stdout}");
    assert!(
        stdout.contains("citations are lost or degraded"),
        "{stdout}"
    );
}

/// The cron.d file: environment assignments and the one job line.
struct Crontab {
    env: Vec<(String, String)>,
    fields: [String; 5],
    user: String,
    command: String,
}

fn crontab() -> Crontab {
    let text = contrib("cron/citestore");
    let mut env = Vec::new();
    let mut jobs = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.split_whitespace().next().unwrap();
        match first.split_once('=') {
            Some((k, v)) => env.push((k.to_string(), v.to_string())),
            None => jobs.push(line),
        }
    }
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let mut rest = jobs[0];
    let mut words = Vec::new();
    for _ in 0..6 {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap();
        words.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    let user = words.pop().unwrap();
    Crontab {
        env,
        fields: words.try_into().unwrap(),
        user,
        command: rest.trim().to_string(),
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// One cron field as cron(8) reads it: `*` or comma-separated numbers and ranges, each with an
/// optional `/step`; names (`jan`, `mon`) for month and day of week, alone only.
fn cron_field(field: &str, lo: u32, hi: u32, names: &[&str]) -> Result<(), String> {
    let number = |s: &str| -> Result<u32, String> {
        let n = match names.iter().position(|n| n.eq_ignore_ascii_case(s)) {
            Some(i) => i as u32 + lo,
            None => s.parse().map_err(|_| format!("{s:?} is not a number"))?,
        };
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(format!("{n} is outside {lo}-{hi}"))
        }
    };
    for item in field.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, Some(s)),
            None => (item, None),
        };
        if let Some(step) = step {
            let n: u32 = step.parse().map_err(|_| format!("step {step:?}"))?;
            if n == 0 {
                return Err("step 0".into());
            }
        }
        if range == "*" {
            continue;
        }
        match range.split_once('-') {
            Some((a, b)) => {
                if number(a)? > number(b)? {
                    return Err(format!("range {range} runs backwards"));
                }
            }
            None if step.is_some() => return Err(format!("{item}: a step needs * or a range")),
            None => {
                number(range)?;
            }
        }
    }
    Ok(())
}

/// The five time fields, against their ranges (day of week 0-7, 7 is Sunday again).
fn cron_schedule(fields: &[&str; 5]) -> Result<(), String> {
    let spec: [(u32, u32, &[&str]); 5] = [
        (0, 59, &[]),
        (0, 23, &[]),
        (1, 31, &[]),
        (1, 12, &MONTHS),
        (0, 7, &DAYS),
    ];
    for (field, (lo, hi, names)) in fields.iter().zip(spec) {
        cron_field(field, lo, hi, names).map_err(|e| format!("{field}: {e}"))?;
    }
    Ok(())
}

#[test]
fn cron_field_check_accepts_cron_and_refuses_the_rest() {
    let good = [
        ["17", "3", "*", "*", "*"],
        ["*/15", "0-6", "1,15", "jan", "mon"],
        ["0", "2-4/2", "*", "*", "7"],
    ];
    for fields in good {
        assert_eq!(cron_schedule(&fields), Ok(()), "{fields:?}");
    }
    let bad = [
        ["60", "3", "*", "*", "*"],
        ["17", "24", "*", "*", "*"],
        ["17", "3", "0", "*", "*"],
        ["17", "3", "*", "13", "*"],
        ["17", "3", "*", "*", "8"],
        ["17", "5-3", "*", "*", "*"],
        ["*/0", "3", "*", "*", "*"],
        ["17", "3", "*", "*", "daily"],
        ["@daily", "3", "*", "*", "*"],
    ];
    for fields in bad {
        assert!(cron_schedule(&fields).is_err(), "{fields:?} accepted");
    }
}

#[test]
fn cron_line_parses_mails_and_locks() {
    let tab = crontab();
    let fields: [&str; 5] = std::array::from_fn(|i| tab.fields[i].as_str());
    cron_schedule(&fields).unwrap();
    assert_eq!(tab.user, "citestore");
    let env = |k: &str| tab.env.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    assert!(env("MAILTO").is_some_and(|m| !m.is_empty()), "no MAILTO");
    assert_eq!(env("SHELL").map(String::as_str), Some("/bin/sh"));
    // cron turns an unescaped % into a newline: the command must have none.
    assert!(!tab.command.contains('%'), "{}", tab.command);
    assert!(tab.command.contains("flock -n "), "{}", tab.command);
    let service = unit(SERVICE);
    let exec = value(&service, "Service", "ExecStart");
    let sweep = exec.strip_prefix(INSTALLED_BIN).unwrap();
    assert!(
        tab.command.contains(&format!("citestore{sweep}")),
        "the cron line and the service run different sweeps"
    );
}

/// Runs the cron command as cron would (`SHELL -c`, the file's PATH ahead of ours so the built
/// binary answers to `citestore`), localised to `s`: what cron would mail.
fn run_cron(s: &Scratch, sh: &Path) -> Output {
    let tab = crontab();
    let bin = s.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let link = bin.join("citestore");
    if !link.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_citestore"), &link).unwrap();
    }
    Command::new(sh)
        .arg("-c")
        .arg(localised(&tab.command, s.dir.path()))
        .current_dir("/")
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env_remove("CITESTORE_DB")
        .env_remove("CITESTORE_CONFIG")
        .output()
        .unwrap()
}

fn mailed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn cron_job_mails_only_when_the_sweep_needs_attention() {
    if common::sqlite_only("it deletes the database file") {
        return;
    }
    let Some(_) = tool("flock", "util-linux") else {
        return;
    };
    let tab = crontab();
    let sh = PathBuf::from(&tab.env.iter().find(|(k, _)| k == "SHELL").unwrap().1);
    let s = installed_store();

    let quiet = run_cron(&s, &sh);
    assert_eq!(
        mailed(&quiet),
        "",
        "a night with nothing to report sends mail"
    );

    swap_in_version_2(&s);
    let mail = mailed(&run_cron(&s, &sh));
    assert!(mail.starts_with("citestore sweep exited 1:"), "{mail}");
    assert!(mail.contains("lost 1"), "{mail}");
    assert!(!mail.contains("sources not found"), "{mail}");

    // A run still holding the lock: this night is skipped, and says so.
    let lock = std::fs::File::create(s.path("sweep.lock")).unwrap();
    assert_eq!(
        // SAFETY: flock on a file descriptor this test owns.
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    let mail = mailed(&run_cron(&s, &sh));
    assert!(mail.starts_with("citestore sweep skipped:"), "{mail}");
    drop(lock);

    std::fs::remove_file(s.db()).unwrap();
    let mail = mailed(&run_cron(&s, &sh));
    assert!(mail.starts_with("citestore sweep exited 2:"), "{mail}");
    assert!(
        mail.contains(&format!("{}: no database here", s.db().display())),
        "{mail}"
    );
}

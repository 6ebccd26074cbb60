//! `--color`, `NO_COLOR` and `CLICOLOR_FORCE` through the real binary, in a pipe and on a
//! terminal (`script` gives the binary a pseudo-terminal).

use crate::common;

use common::Scratch;

const REVERSE: &str = "\x1b[7m";

fn bin() -> String {
    assert_cmd::cargo::cargo_bin("citestore")
        .display()
        .to_string()
}

/// `locate` of a quote in a chunk, run in a pipe with `env` set and `args` first.
fn piped(s: &Scratch, env: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = std::process::Command::new(bin());
    cmd.current_dir(s.dir.path())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(args)
        .args(["locate", "--chunk", "chunk.txt", "--quote", "500 calls"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The same on a terminal, through `script`.
fn on_terminal(s: &Scratch, env: &str, args: &str) -> String {
    let command = format!(
        "env -u NO_COLOR -u CLICOLOR_FORCE {env} {} {args} locate --chunk chunk.txt --quote '500 calls'",
        bin()
    );
    let out = std::process::Command::new("script")
        .current_dir(s.dir.path())
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs the binary on a terminal");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Environment, flags, and whether the output is coloured.
type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str], bool);

#[test]
fn colour_follows_the_flag_the_environment_and_the_terminal() {
    let s = Scratch::new();
    s.write("chunk.txt", "The Growth plan includes 500 calls a month.\n");
    // In a pipe: plain marks unless forced.
    let cases: &[Case<'_>] = &[
        (&[], &[], false),
        (&[], &["--color", "always"], true),
        (&[], &["--color", "never"], false),
        (&[("CLICOLOR_FORCE", "1")], &[], true),
        (&[("CLICOLOR_FORCE", "0")], &[], false),
        (&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], &[], false),
        (&[("NO_COLOR", "1")], &["--color", "always"], true),
    ];
    for (env, args, coloured) in cases {
        let out = piped(&s, env, args);
        assert_eq!(
            out.contains(REVERSE),
            *coloured,
            "{env:?} {args:?}: {out:?}"
        );
        assert_eq!(
            out.contains("[[500 calls]]"),
            !*coloured,
            "{env:?} {args:?}: {out:?}"
        );
    }
    // On a terminal: coloured by default, never with NO_COLOR or --color never.
    for (env, args, coloured) in [
        ("", "", true),
        ("NO_COLOR=1", "", false),
        ("", "--color never", false),
        ("NO_COLOR=", "", true),
    ] {
        let out = on_terminal(&s, env, args);
        assert_eq!(out.contains(REVERSE), coloured, "{env:?} {args:?}: {out:?}");
    }
}

#[test]
fn an_unknown_colour_choice_is_refused() {
    let s = Scratch::new();
    let out = s
        .cmd()
        .args(["--color", "sometimes", "docs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sometimes"));
}

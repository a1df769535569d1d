//! What the CLI's end-to-end tests share: the binary, and its output for a command that
//! must succeed.

use assert_cmd::Command;

pub fn othello() -> Command {
    Command::cargo_bin("othello").expect("the othello binary is built")
}

/// Standard output of a command that must succeed (its standard error says why not).
pub fn stdout_of(args: &[&str]) -> String {
    let out = othello().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

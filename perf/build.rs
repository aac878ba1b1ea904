//! Records, for the report, what the race is built with: the compiler (`rustc -V`), the profile,
//! and the tagstream sources in `..` (the last commit that changed them, and whether the work tree
//! differs from it), taken at build time so that they describe the code actually compiled in.
use std::process::Command;

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// FNV-1a, to name a set of uncommitted changes.
fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = run(&rustc, &["-V"])
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=PERF_RUSTC_VERSION={version}");
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_owned());
    println!("cargo:rustc-env=PERF_PROFILE={profile}");

    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_owned());
    let repo = format!("{manifest}/..");
    let git = |args: &[&str]| {
        let mut all = vec!["-C", repo.as_str()];
        all.extend_from_slice(args);
        run("git", &all)
    };
    // The last commit that changed tagstream's sources, not HEAD: commits to perf/ alone leave
    // the code measured as it was.
    let tagstream = match git(&["log", "-1", "--format=%h", "--", "src", "Cargo.toml"])
        .filter(|rev| !rev.is_empty())
    {
        Some(rev) => {
            let status =
                git(&["status", "--porcelain", "--", "src", "Cargo.toml"]).unwrap_or_default();
            if status.is_empty() {
                format!("git {rev}")
            } else {
                let diff = git(&["diff", "HEAD", "--", "src", "Cargo.toml"]).unwrap_or_default();
                let id = fnv(format!("{status}\n{diff}").as_bytes());
                format!(
                    "git {rev} + uncommitted changes in src/ (diff id {:08x})",
                    id >> 32
                )
            }
        }
        None => "git revision unknown".to_owned(),
    };
    println!("cargo:rustc-env=PERF_TAGSTREAM_GIT={tagstream}");

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../src");
    println!("cargo:rerun-if-changed=../Cargo.toml");
    // A commit or checkout changes the index (HEAD itself names only the branch).
    println!("cargo:rerun-if-changed=../.git/HEAD");
    println!("cargo:rerun-if-changed=../.git/index");
    println!("cargo:rerun-if-env-changed=RUSTC");
}

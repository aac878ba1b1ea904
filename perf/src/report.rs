//! What the race prints and writes: machine, crate versions, the table, the targets, the chart.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::corpus::Corpus;
use crate::subjects::{Dialect, Outcome};

/// One subject's results.
pub struct Row {
    pub name: String,
    /// Seconds per timed pass over the whole corpus.
    pub times: Vec<f64>,
    /// The same passes in this thread's CPU time (leaves out waiting for a core).
    pub cpu_times: Vec<f64>,
    pub outcome: Outcome,
    /// Every pass (warm-up included) produced the same outcome.
    pub consistent: bool,
}

impl Row {
    pub fn median(&self) -> f64 {
        median(&self.times)
    }

    pub fn cpu_median(&self) -> f64 {
        median(&self.cpu_times)
    }
}

pub fn median(times: &[f64]) -> f64 {
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        t[n / 2]
    } else {
        (t[n / 2 - 1] + t[n / 2]) / 2.0
    }
}

/// MB/s (10^6 bytes per second).
pub fn mbps(bytes: usize, seconds: f64) -> f64 {
    bytes as f64 / seconds / 1e6
}

pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub simd: String,
    pub rustc: String,
    pub kernel: String,
}

impl Machine {
    pub fn detect() -> Machine {
        let info = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |key: &str| {
            info.lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        };
        let cpu = field("model name").unwrap_or_else(|| "unknown-cpu".to_owned());
        let cores = info
            .lines()
            .filter(|l| l.split(':').next().is_some_and(|k| k.trim() == "processor"))
            .count()
            .max(std::thread::available_parallelism().map_or(0, |n| n.get()));
        let flags = field("flags").unwrap_or_default();
        let flags: Vec<&str> = flags.split_whitespace().collect();
        let simd = ["sse4_2", "avx2", "avx512f", "avx512bw", "avx512vl"]
            .iter()
            .filter(|f| flags.contains(f))
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| format!("Linux {}", s.trim()))
            .unwrap_or_else(|_| std::env::consts::OS.to_owned());
        Machine {
            cpu,
            cores,
            simd,
            rustc: env!("PERF_RUSTC_VERSION").to_owned(),
            kernel,
        }
    }

    pub fn slug(&self) -> String {
        let mut slug = String::new();
        for c in self.cpu.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.ends_with('-') && !slug.is_empty() {
                slug.push('-');
            }
        }
        let slug = slug.trim_end_matches('-');
        if slug.is_empty() {
            "unknown-cpu".to_owned()
        } else {
            slug.to_owned()
        }
    }
}

/// Today (UTC) as `YYYY-MM-DD` and the time as `HH:MM`.
pub fn today() -> (String, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    (
        format!("{y:04}-{m:02}-{d:02}"),
        format!("{:02}:{:02} UTC", s / 3600, s % 3600 / 60),
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Versions of the crates in the race, from perf/Cargo.lock.
pub fn crate_versions(lock: &Path, dialect: Dialect) -> Vec<(String, String)> {
    let text = fs::read_to_string(lock).unwrap_or_default();
    let mut found = BTreeMap::new();
    for block in text.split("[[package]]") {
        let get = |key: &str| {
            block.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
            })
        };
        if let (Some(name), Some(version)) = (get("name"), get("version")) {
            found.insert(name, version);
        }
    }
    let names: &[&str] = match dialect {
        Dialect::Html => &[
            "tagstream",
            "html5ever",
            "markup5ever",
            "html5gum",
            "lol_html",
        ],
        Dialect::Xml => &[
            "tagstream",
            "quick-xml",
            "xml5ever",
            "markup5ever",
            "markup5ever_rcdom",
        ],
    };
    names
        .iter()
        .map(|n| {
            let v = found
                .get(*n)
                .cloned()
                .unwrap_or_else(|| "? (no Cargo.lock entry)".to_owned());
            ((*n).to_owned(), v)
        })
        .collect()
}

/// The tagstream sources compiled in: git revision, and whether they differed from it (taken by
/// build.rs at build time).
pub fn tagstream_git() -> String {
    env!("PERF_TAGSTREAM_GIT").to_owned()
}

/// Instructions per byte, as written by callgrind.sh.
pub struct Ipb {
    pub file: PathBuf,
    /// The file's `# key: value` header lines.
    pub header: Vec<String>,
    pub per_subject: BTreeMap<String, f64>,
}

impl Ipb {
    pub fn read(file: &Path) -> Result<Ipb, String> {
        let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut header = Vec::new();
        let mut per_subject = BTreeMap::new();
        for line in text.lines() {
            let line = line.trim();
            if let Some(h) = line.strip_prefix('#') {
                let h = h.trim();
                if h.contains(": ") {
                    header.push(h.to_owned());
                }
                continue;
            }
            let mut fields = line.split_whitespace();
            if let (Some(name), Some(v)) = (fields.next(), fields.next())
                && let Ok(v) = v.parse::<f64>()
            {
                per_subject.insert(name.to_owned(), v);
            }
        }
        Ok(Ipb {
            file: file.to_owned(),
            header,
            per_subject,
        })
    }

    /// The newest `<prefix>*.txt` in `dir` (names carry the date, so the last name is newest).
    pub fn newest_in(dir: &Path, prefix: &str) -> Option<PathBuf> {
        let mut files: Vec<PathBuf> = fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".txt"))
            })
            .collect();
        files.sort();
        files.pop()
    }
}

/// What callgrind.sh names its files for the dialect's race: `callgrind-<date>.txt` (HTML) or
/// `xml-callgrind-<date>.txt` (`--xml`).
pub fn ipb_prefix(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Html => "callgrind-",
        Dialect::Xml => "xml-callgrind-",
    }
}

/// The XML race's second run: the subjects but quick-xml on every file.
pub struct AllFiles<'a> {
    pub corpus: &'a Corpus,
    pub rows: Vec<Row>,
}

pub struct Race<'a> {
    pub machine: &'a Machine,
    pub dialect: Dialect,
    pub date: String,
    pub time: String,
    pub crates: Vec<(String, String)>,
    pub tagstream_git: String,
    pub corpus: &'a Corpus,
    pub passes: usize,
    pub chunk_size: usize,
    pub rows: Vec<Row>,
    /// The XML race on all files (`None` in the HTML race).
    pub all_files: Option<AllFiles<'a>>,
    pub ipb: Option<Ipb>,
    pub profile: String,
    /// /proc/loadavg's 1-minute figure before and after the passes (other work on the machine
    /// slows the subjects down).
    pub load: (String, String),
}

/// The 1-minute load average, if the system tells it.
pub fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// A goal from the issue.
struct Target {
    what: &'static str,
    measured: Option<f64>,
    /// The same ratio computed from instructions/byte (fewer instructions = faster), when counted.
    by_instructions: Option<f64>,
    /// The ratio within each pass (both subjects timed in the same round), as quartiles: what
    /// the machine's load did to it while the passes ran.
    per_pass: Option<Quartiles>,
    goal: f64,
    unit: &'static str,
}

/// Lower quartile, median and upper quartile.
type Quartiles = (f64, f64, f64);

/// The quartiles of `values` (the outer two by nearest rank, the median as [`median`] takes it),
/// or `None` if there are none.
fn quartiles(values: &[f64]) -> Option<Quartiles> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (!v.is_empty()).then(|| (at(0.25), median(&v), at(0.75)))
}

impl Target {
    fn show(&self, v: f64) -> String {
        match self.unit {
            "×" => format!("{v:.2}×"),
            "%" => percent(v),
            _ => format!("{v:.0} MB/s"),
        }
    }
}

/// A ratio as a percentage with one decimal.
fn percent(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

impl Race<'_> {
    fn row(&self, name: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.name == name)
    }

    fn speed(&self, name: &str) -> Option<f64> {
        self.row(name).map(|r| mbps(self.corpus.bytes, r.median()))
    }

    fn ratio(&self, a: &str, b: &str) -> Option<f64> {
        Some(self.speed(a)? / self.speed(b)?)
    }

    /// `a`'s speed over `b`'s within each pass.
    fn pass_ratios(&self, a: &str, b: &str) -> Option<Quartiles> {
        let (a, b) = (self.row(a)?, self.row(b)?);
        let ratios: Vec<f64> = a
            .times
            .iter()
            .zip(&b.times)
            .map(|(ta, tb)| tb / ta)
            .collect();
        quartiles(&ratios)
    }

    /// How many times fewer instructions per byte `a` needs than `b`.
    fn ipb_ratio(&self, a: &str, b: &str) -> Option<f64> {
        let ipb = &self.ipb.as_ref()?.per_subject;
        Some(ipb.get(b)? / ipb.get(a)?)
    }

    /// The target `a`'s speed over `b`'s ≥ `goal`, by the medians, by instructions and pass by
    /// pass.
    fn ratio_target(
        &self,
        what: &'static str,
        (a, b): (&str, &str),
        goal: f64,
        unit: &'static str,
    ) -> Target {
        Target {
            what,
            measured: self.ratio(a, b),
            by_instructions: self.ipb_ratio(a, b),
            per_pass: self.pass_ratios(a, b),
            goal,
            unit,
        }
    }

    /// The target `subject`'s median speed ≥ `goal` MB/s.
    fn speed_target(&self, what: &'static str, subject: &str, goal: f64) -> Target {
        Target {
            what,
            measured: self.speed(subject),
            by_instructions: None,
            per_pass: None,
            goal,
            unit: "MB/s",
        }
    }

    fn targets(&self) -> Vec<Target> {
        match self.dialect {
            Dialect::Html => self.html_targets(),
            Dialect::Xml => self.xml_targets(),
        }
    }

    /// Issue 26's goals for the XML5 tokenizer, then issue 29's for its tree stage and tree.
    fn xml_targets(&self) -> Vec<Target> {
        vec![
            self.ratio_target(
                "tagstream-xml5 vs quick-xml",
                ("tagstream-xml5", "quick-xml"),
                1.5,
                "×",
            ),
            self.ratio_target(
                "tagstream-xml5 vs xml5ever",
                ("tagstream-xml5", "xml5ever"),
                10.0,
                "×",
            ),
            self.ratio_target(
                "tagstream-xml5-chunks / tagstream-xml5",
                ("tagstream-xml5-chunks", "tagstream-xml5"),
                0.95,
                "%",
            ),
            self.speed_target("tagstream-xml5, absolute", "tagstream-xml5", 1000.0),
            self.speed_target(
                "tagstream-xml5-decoded, absolute",
                "tagstream-xml5-decoded",
                500.0,
            ),
            self.speed_target(
                "tagstream-xml5-errors, absolute",
                "tagstream-xml5-errors",
                300.0,
            ),
            // Issue 29's goals for the tree stage and the tree.
            self.ratio_target(
                "tagstream-xml5-tree-events vs quick-xml-ns",
                ("tagstream-xml5-tree-events", "quick-xml-ns"),
                1.2,
                "×",
            ),
            self.ratio_target(
                "tagstream-xml5-tree vs xml5ever-tree",
                ("tagstream-xml5-tree", "xml5ever-tree"),
                5.0,
                "×",
            ),
            self.speed_target(
                "tagstream-xml5-tree-events, absolute",
                "tagstream-xml5-tree-events",
                600.0,
            ),
        ]
    }

    /// The HTML goals (issues 1 and 5).
    fn html_targets(&self) -> Vec<Target> {
        vec![
            self.ratio_target(
                "tagstream vs lol_html-bare",
                ("tagstream", "lol_html-bare"),
                1.0,
                "×",
            ),
            self.ratio_target(
                "tagstream vs html5ever",
                ("tagstream", "html5ever"),
                10.0,
                "×",
            ),
            self.ratio_target(
                "tagstream-decode vs html5gum (callback)",
                ("tagstream-decode", "html5gum"),
                3.0,
                "×",
            ),
            self.ratio_target(
                "tagstream-chunks / tagstream",
                ("tagstream-chunks", "tagstream"),
                0.95,
                "%",
            ),
            self.ratio_target(
                "tagstream-sgml / tagstream",
                ("tagstream-sgml", "tagstream"),
                0.5,
                "%",
            ),
            self.speed_target("tagstream (default), absolute", "tagstream", 1000.0),
            self.speed_target("tagstream-decode, absolute", "tagstream-decode", 600.0),
            self.speed_target("tagstream-errors, absolute", "tagstream-errors", 400.0),
        ]
    }

    /// The results table (Markdown).
    pub fn table(&self) -> String {
        self.table_of(self.corpus, &self.rows, self.ipb.as_ref())
    }

    /// The table of `rows`, timed over `corpus`, with the instructions/byte of `ipb` (counted
    /// over the same corpus) when given.
    fn table_of(&self, corpus: &Corpus, rows: &[Row], ipb: Option<&Ipb>) -> String {
        let base_name = self.dialect.base();
        let base = rows
            .iter()
            .find(|r| r.name == base_name)
            .map(|r| mbps(corpus.bytes, r.median()));
        let mut t = String::new();
        let _ = writeln!(
            t,
            "| subject | median MB/s | min–max MB/s | {base_name} / subject | instructions/byte | \
             median MB/s, CPU time | checksum |"
        );
        t.push_str("|---|---:|---:|---:|---:|---:|---|\n");
        for row in rows {
            let med = mbps(corpus.bytes, row.median());
            let lo = row.times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let hi = row.times.iter().copied().fold(f64::INFINITY, f64::min);
            let ratio = base.map_or("–".to_owned(), |b| format!("{:.2}×", b / med));
            let ipb = ipb
                .and_then(|i| i.per_subject.get(&row.name))
                .map_or("–".to_owned(), |v| format!("{v:.2}"));
            let mut sum = group(row.outcome.checksum);
            if row.outcome.errors > 0 || row.name.ends_with("-errors") {
                let what = if row.name.starts_with("lol_html") {
                    "bail-outs"
                } else if row.name.starts_with("quick-xml") {
                    "files stopped by an error"
                } else {
                    "parse errors"
                };
                let _ = write!(sum, " + {} {what}", group(row.outcome.errors));
            }
            if !row.consistent {
                sum.push_str(" (CHANGED between passes!)");
            }
            let _ = writeln!(
                t,
                "| {} | {} | {}–{} | {} | {} | {} | {} |",
                row.name,
                fmt_speed(med),
                fmt_speed(mbps(corpus.bytes, lo)),
                fmt_speed(mbps(corpus.bytes, hi)),
                ratio,
                ipb,
                fmt_speed(mbps(corpus.bytes, row.cpu_median())),
                sum
            );
        }
        t
    }

    /// The targets table (Markdown).
    pub fn targets_table(&self) -> String {
        let mut t = String::from(
            "| target | measured | goal | met? | same ratio by instructions/byte | within each pass: \
             median (quartiles) |\n|---|---:|---:|---|---:|---:|\n",
        );
        for target in self.targets() {
            let (measured, met) = match target.measured {
                Some(v) if v >= target.goal => (target.show(v), "yes"),
                Some(v) => (target.show(v), "**no**"),
                None => ("not run".to_owned(), "–"),
            };
            let _ = writeln!(
                t,
                "| {} | {} | ≥ {} | {} | {} | {} |",
                target.what,
                measured,
                target.show(target.goal),
                met,
                target
                    .by_instructions
                    .map_or("–".to_owned(), |v| target.show(v)),
                target
                    .per_pass
                    .map_or("–".to_owned(), |(low, mid, high)| format!(
                        "{} ({}–{})",
                        target.show(mid),
                        target.show(low),
                        target.show(high)
                    ))
            );
        }
        t
    }

    /// What chunking costs a streaming peer, beside the chunks target: `lol_html-bare` written
    /// in chunks against written whole (not a target; `None` when either was not run).
    fn chunking_reference(&self) -> Option<String> {
        let (a, b) = ("lol_html-bare-chunks", "lol_html-bare");
        let per_pass = self
            .pass_ratios(a, b)
            .map_or(String::new(), |(low, mid, high)| {
                format!(
                    "; within each pass {} ({}–{})",
                    percent(mid),
                    percent(low),
                    percent(high)
                )
            });
        Some(format!(
            "For reference, not a target, the same chunking with lol_html and no handlers (a \
             streaming rewriter that produces no tokens): {a} / {b} = {}{per_pass}.",
            percent(self.ratio(a, b)?),
        ))
    }

    /// Cross-checks: the three span-consuming tagstream subjects must sum to the same.
    pub fn cross_checks(&self) -> Vec<String> {
        let mut notes = same_sums(self.dialect.base(), &self.rows, "");
        if let Some(all) = &self.all_files {
            notes.extend(same_sums(self.dialect.base(), &all.rows, " on all files"));
        }
        if let (Some(a), Some(b)) = (self.row("tagstream-decode"), self.row("html5gum-iter")) {
            // Both add up decoded tag, attribute and text lengths and attribute counts; they can
            // differ only by what each one makes of doctypes, PIs and the like.
            notes.push(format!(
                "tagstream-decode's checksum {} html5gum-iter's, and tagstream-errors found {} \
                 parse errors where html5gum-iter reported {} (informative: the sums are defined \
                 alike but not identically)",
                if a.outcome.checksum == b.outcome.checksum {
                    "equals"
                } else {
                    "differs from"
                },
                self.row("tagstream-errors")
                    .map_or("?".to_owned(), |r| group(r.outcome.errors)),
                group(b.outcome.errors)
            ));
        }
        for name in [
            "lol_html-bare",
            "lol_html-bare-chunks",
            "tagstream-lossless",
            "tagstream-passthrough",
            "tagstream-rewrite",
        ] {
            if let Some(r) = self.row(name) {
                let same = r.outcome.checksum == self.corpus.bytes as u64;
                notes.push(format!(
                    "{name} output bytes {} the corpus bytes",
                    if same { "equal" } else { "DIFFER from" }
                ));
            }
        }
        if let Some(ipb) = &self.ipb
            && let Some(rev) = ipb
                .header
                .iter()
                .find_map(|h| h.strip_prefix("tagstream: "))
            && rev != self.tagstream_git
        {
            notes.push(format!(
                "instructions/byte were counted on other tagstream sources ({rev}) than the \
                 timings ({}): run ./callgrind.sh again",
                self.tagstream_git
            ));
        }
        for r in &self.rows {
            if !r.consistent {
                notes.push(format!("{}: the outcome changed between passes", r.name));
            }
        }
        for r in self.all_files.iter().flat_map(|a| &a.rows) {
            if !r.consistent {
                notes.push(format!(
                    "{} on all files: the outcome changed between passes",
                    r.name
                ));
            }
        }
        notes
    }

    pub fn markdown(&self, svg_name: &str) -> String {
        let m = self.machine;
        let c = self.corpus;
        let mut s = String::new();
        let title = match self.dialect {
            Dialect::Html => "tagstream race",
            Dialect::Xml => "tagstream XML race",
        };
        let _ = writeln!(s, "# {title}: {} on {}\n", self.date, m.cpu);
        let _ = writeln!(s, "## Setup\n");
        let _ = writeln!(
            s,
            "- **Machine:** {}, {} logical cores ({}), {}",
            m.cpu, m.cores, m.simd, m.kernel
        );
        let _ = writeln!(
            s,
            "- **Compiler:** {}; `{}` profile with lto = \"fat\", codegen-units = 1, generic \
             x86-64 target (no target-cpu=native)",
            m.rustc, self.profile
        );
        let _ = writeln!(
            s,
            "- **Date:** {} {}; 1-minute load average {} before the passes, {} after",
            self.date, self.time, self.load.0, self.load.1
        );
        let crates = self
            .crates
            .iter()
            .map(|(n, v)| {
                if n == "tagstream" {
                    format!("{n} {v} (path `..`, {})", self.tagstream_git)
                } else {
                    format!("{n} {v}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(s, "- **Crates** (perf/Cargo.lock): {crates}");
        let limit = match c.limit {
            Some(n) => format!(
                " (first {n} of {} pages by name: `--corpus-limit`)",
                c.available
            ),
            None => String::new(),
        };
        let non_utf8 = |c: &Corpus| {
            if c.non_utf8 > 0 {
                format!(
                    "; {} files not UTF-8 (given lossily to the &str peers)",
                    c.non_utf8
                )
            } else {
                String::new()
            }
        };
        match &self.all_files {
            Some(all) => {
                let _ = writeln!(
                    s,
                    "- **Corpus:** `{}`: {} files, {} bytes{limit}{}. quick-xml reads {} of them \
                     ({}, {} bytes, {} of the bytes) to the end without an error: the race times \
                     every subject on those; the subjects but quick-xml then run again on all \
                     files. Each file is tokenized as its own document",
                    all.corpus.origin,
                    all.corpus.pages.len(),
                    group(all.corpus.bytes as u64),
                    non_utf8(all.corpus),
                    c.pages.len(),
                    percent(c.pages.len() as f64 / all.corpus.pages.len() as f64),
                    group(c.bytes as u64),
                    percent(c.bytes as f64 / all.corpus.bytes as f64),
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "- **Corpus:** `{}`, {} files, {} bytes{limit}; each page tokenized as its \
                     own document{}",
                    c.origin,
                    c.pages.len(),
                    group(c.bytes as u64),
                    non_utf8(c)
                );
            }
        }
        let _ = writeln!(
            s,
            "- **Passes:** in one process, every subject once a pass, in an order shuffled anew \
             each pass (seeded by the pass, so each subject follows every other about equally \
             often), 1 warm-up pass + {} timed passes each; a pass is the whole \
             corpus; the table shows the median pass (MB = 10^6 bytes){}",
            self.passes,
            if self.passes < 9 {
                " — fewer than 9 passes: indicative only"
            } else {
                ""
            }
        );
        match self.dialect {
            Dialect::Html => {
                let _ = writeln!(
                    s,
                    "- **Text states:** every subject switches text states naively after start \
                     tags (script → script data; style, xmp, iframe, noembed, noframes → RAWTEXT; \
                     textarea, title → RCDATA; plaintext → PLAINTEXT). the peers do it by hand; \
                     tagstream's built-in tree-builder simulator does it (on by default, as users \
                     get it), which also covers SVG/MathML content, so tagstream does a little \
                     more work here"
                );
            }
            Dialect::Xml => {
                let _ = writeln!(
                    s,
                    "- **Tokens and trees:** XML has no text states; the token subjects neither \
                     build a tree nor resolve namespaces; the tree subjects (tagstream-xml5-tree-events, \
                     tagstream-xml5-tree, quick-xml-ns, xml5ever-tree) resolve namespaces, and \
                     tagstream-xml5-tree and xml5ever-tree also build one"
                );
            }
        }
        let _ = writeln!(
            s,
            "- **{}-chunks** chunk size: {} bytes",
            self.dialect.base(),
            self.chunk_size
        );
        match &self.ipb {
            Some(i) => {
                let _ = writeln!(
                    s,
                    "- **Instructions/byte:** valgrind callgrind (Ir, corpus loading subtracted), \
                     from `{}`: {}",
                    i.file.display(),
                    i.header.join("; ")
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "- **Instructions/byte:** not measured (run `./callgrind.sh`)"
                );
            }
        }
        let _ = writeln!(s, "\n## Results\n");
        if self.all_files.is_some() {
            let _ = writeln!(
                s,
                "On the {} files ({} bytes) quick-xml reads whole:\n",
                c.pages.len(),
                group(c.bytes as u64)
            );
        }
        s.push_str(&self.table());
        if let Some(all) = &self.all_files {
            let _ = writeln!(
                s,
                "\nOn all {} files ({} bytes; instructions/byte are counted on the files above \
                 only):\n",
                all.corpus.pages.len(),
                group(all.corpus.bytes as u64)
            );
            s.push_str(&self.table_of(all.corpus, &all.rows, None));
        }
        let base = self.dialect.base();
        let _ = writeln!(
            s,
            "\n\"{base} / subject\" is {base}'s (default mode) median MB/s divided by the \
             subject's: above 1 means {base} is faster. \"CPU time\" is the median of the same \
             passes timed by this thread's CPU clock, which leaves out the time spent waiting for \
             a core while other work ran (the other columns and the targets use the wall clock). \
             Checksums are each subject's own sum over every token (see perf/README.md); they \
             only compare within a subject.\n"
        );
        let _ = writeln!(s, "![MB/s per subject]({svg_name})\n");
        let _ = writeln!(s, "## Targets\n");
        s.push_str(&self.targets_table());
        let _ = writeln!(
            s,
            "\n\"Same ratio by instructions/byte\" is the ratio from the instruction counts (how many \
             times fewer instructions per byte): it does not move with the machine's load, but it \
             weighs every instruction alike, so it is a steadier sign, not the measure. The last \
             column takes the ratio within each pass, where both subjects ran within a second or \
             so of each other, and gives the median and quartiles of those: it shows how far the \
             machine's load moved the ratio while the passes ran."
        );
        if let Some(line) = self.chunking_reference() {
            let _ = writeln!(s, "\n{line}");
        }
        let checks = self.cross_checks();
        if !checks.is_empty() {
            let _ = writeln!(s, "\n## Checks\n");
            for n in checks {
                let _ = writeln!(s, "- {n}");
            }
        }
        let _ = writeln!(s, "\n## Subjects\n");
        for (name, what) in self.dialect.subjects() {
            if self.row(name).is_some() {
                let _ = writeln!(s, "- **{name}**: {what}");
            }
        }
        s
    }

    /// A horizontal bar chart of the median MB/s, with min–max whiskers.
    pub fn svg(&self) -> String {
        let label_w = 180.0;
        let bar_w = 560.0;
        let row_h = 30.0;
        let top = 56.0;
        let width = label_w + bar_w + 190.0;
        let height = top + row_h * self.rows.len() as f64 + 40.0;
        let speeds: Vec<(f64, f64, f64)> = self
            .rows
            .iter()
            .map(|r| {
                let tmax = r.times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let tmin = r.times.iter().copied().fold(f64::INFINITY, f64::min);
                (
                    mbps(self.corpus.bytes, r.median()),
                    mbps(self.corpus.bytes, tmax),
                    mbps(self.corpus.bytes, tmin),
                )
            })
            .collect();
        let scale_max = speeds
            .iter()
            .map(|s| s.2)
            .fold(1000.0_f64, f64::max)
            .max(1.0)
            * 1.05;
        let x = |v: f64| label_w + (v / scale_max).min(1.0) * bar_w;
        let base = self.speed(self.dialect.base());
        let mut s = String::new();
        let _ = writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"##
        );
        let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
        let _ = writeln!(
            s,
            r##"<text x="{:.0}" y="22" font-size="15" font-weight="bold">Tokenizing {} files ({} bytes): median MB/s, whiskers min–max</text>"##,
            10.0,
            self.corpus.pages.len(),
            group(self.corpus.bytes as u64)
        );
        let _ = writeln!(
            s,
            r##"<text x="10" y="40" fill="#555">{} · {} · {} timed passes · {} · (n×) = {} ÷ subject</text>"##,
            xml(&self.machine.cpu),
            xml(&self.machine.rustc),
            self.passes,
            self.date,
            self.dialect.base()
        );
        // Grid lines.
        let step = nice_step(scale_max);
        let mut g = 0.0;
        while g <= scale_max {
            let gx = x(g);
            let _ = writeln!(
                s,
                r##"<line x1="{gx:.1}" y1="{:.1}" x2="{gx:.1}" y2="{:.1}" stroke="#e4e4e4"/><text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#777" font-size="11">{g:.0}</text>"##,
                top - 6.0,
                top + row_h * self.rows.len() as f64,
                top + row_h * self.rows.len() as f64 + 14.0
            );
            g += step;
        }
        // The 1000 MB/s goal for tagstream's default mode.
        let tx = x(1000.0);
        let _ = writeln!(
            s,
            r##"<line x1="{tx:.1}" y1="{:.1}" x2="{tx:.1}" y2="{:.1}" stroke="#c0392b" stroke-dasharray="5,4"/><text x="{tx:.1}" y="{:.1}" text-anchor="middle" fill="#c0392b" font-size="11">goal 1000 MB/s</text>"##,
            top - 6.0,
            top + row_h * self.rows.len() as f64,
            top + row_h * self.rows.len() as f64 + 28.0
        );
        for (i, (row, (med, lo, hi))) in self.rows.iter().zip(&speeds).enumerate() {
            let y = top + row_h * i as f64;
            let color = if row.name.starts_with("tagstream") {
                "#2b7bb9"
            } else {
                "#e08a3c"
            };
            let ratio = base.map_or(String::new(), |b| format!(" ({:.2}×)", b / med));
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                label_w - 8.0,
                y + 15.0,
                xml(&row.name)
            );
            let _ = writeln!(
                s,
                r##"<rect x="{label_w:.1}" y="{:.1}" width="{:.1}" height="20" fill="{color}"/>"##,
                y + 1.0,
                x(*med) - label_w
            );
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#222"/>"##,
                x(*lo),
                y + 11.0,
                x(*hi),
                y + 11.0
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}">{} MB/s{}</text>"##,
                x(*hi).max(x(*med)) + 6.0,
                y + 15.0,
                fmt_speed(*med),
                xml(&ratio)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// `base`'s errors-on and chunked subjects sum the same tokens as `base` (`where_` says which
/// run, for the note).
fn same_sums(base: &str, rows: &[Row], where_: &str) -> Vec<String> {
    let Some(base_row) = rows.iter().find(|r| r.name == base) else {
        return Vec::new();
    };
    [format!("{base}-errors"), format!("{base}-chunks")]
        .iter()
        .filter_map(|other| {
            let r = rows.iter().find(|r| &r.name == other)?;
            let same = r.outcome.checksum == base_row.outcome.checksum;
            Some(format!(
                "{other} checksum{where_} {} {base}'s{}",
                if same { "equals" } else { "DIFFERS from" },
                if same {
                    ""
                } else {
                    " (the tokens are not the same: a bug)"
                }
            ))
        })
        .collect()
}

fn nice_step(max: f64) -> f64 {
    let raw = max / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if raw <= m * mag {
            return m * mag;
        }
    }
    10.0 * mag
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn fmt_speed(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// 24580483 → "24,580,483".
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

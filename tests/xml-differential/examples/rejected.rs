//! The files below a folder that roxmltree rejects, with its error: `cargo run --example
//! rejected -- datasets/xml-corpus` (to see what the test skips and why).

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("a folder");
    let mut files = Vec::new();
    walk(std::path::Path::new(&dir), &mut files);
    for path in files {
        let bytes = std::fs::read(&path).expect("a readable file");
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Err(e) = tagstream_xml_differential::oracle_tree(text) {
            println!("{}: {e}", path.display());
        }
    }
}

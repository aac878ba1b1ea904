//! tagstream's XML5 tree against quick-xml's `NsReader` (the oracle) on every well-formed
//! document of the XML corpus and of the W3C XML conformance suite: each element in document
//! order, its expanded name, its attributes (expanded names and values; the namespace
//! declarations, which tagstream keeps as attributes in the XMLNS namespace, left out) and the
//! text directly inside it, references resolved.
//!
//! quick-xml is the oracle because it resolves namespaces while streaming, as this stage does,
//! and is already the XML race's peer (perf/). It checks less than a validating parser: a
//! document is taken as well-formed when it reads to the end without an error, every prefix it
//! uses is bound, and it is valid UTF-8. Documents that use entities declared in a DTD are left
//! out (tagstream does not expand them yet; quick-xml does not either), and so are those quick-xml
//! stops on.
//!
//! Differences are classified; each class names the rule behind it, and a difference of no known
//! class fails the test (see `KNOWN`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quick_xml::NsReader;
use quick_xml::XmlVersion;
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use tagstream::xml5::tree::{Document, NodeKind, XMLNS_NAMESPACE};

/// One element as compared.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Element {
    namespace: Option<String>,
    local: String,
    /// (namespace, local name, value), sorted.
    attributes: Vec<(Option<String>, String, String)>,
    /// The text directly inside it, all its text and CDATA children joined.
    text: String,
}

/// Why a document is left out of the comparison.
#[derive(Debug)]
enum Skip {
    NotUtf8,
    OracleError,
    DtdEntity,
    UnboundPrefix,
}

/// The known classes of difference: name, and the rule that explains it.
const KNOWN: &[(&str, &str)] = &[
    (
        "c1-numeric-reference",
        "a numeric character reference to U+0080–U+009F is that C1 control in XML 1.0; the XML5 \
         tokenizer takes HTML's numeric rules, which map these to windows-1252's characters \
         (&#146; is U+2019), as its module docs say",
    ),
    (
        "attribute-value-normalization",
        "XML 1.0 §3.3.3 normalizes each tab, line feed and carriage return in an attribute value to \
     a space (after line-end normalization); the XML5 draft, like HTML, keeps them as written \
     (CR and CRLF become LF)",
    ),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "xml" || e == "svg") {
            out.push(path);
        }
    }
}

fn resolved(result: ResolveResult<'_>) -> Result<Option<String>, Skip> {
    match result {
        ResolveResult::Bound(ns) => Ok(Some(ns.as_ref().to_owned())),
        ResolveResult::Unbound => Ok(None),
        ResolveResult::Unknown(_) => Err(Skip::UnboundPrefix),
    }
}

/// The predefined entities (XML 1.0 §4.6).
fn predefined(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "apos" => '\'',
        "quot" => '"',
        _ => return None,
    })
}

/// The elements quick-xml's `NsReader` sees.
fn oracle(text: &str) -> Result<Vec<Element>, Skip> {
    let mut reader = NsReader::from_str(text);
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|_| Skip::OracleError)?;
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(tag) | Event::Empty(tag) => {
                let namespace = resolved(ns)?;
                let mut attributes = Vec::new();
                for attribute in tag.attributes() {
                    let attribute = attribute.map_err(|_| Skip::OracleError)?;
                    let key = attribute.key.as_ref();
                    if key == "xmlns" || key.starts_with("xmlns:") {
                        continue;
                    }
                    let (ans, local) = reader.resolver().resolve_attribute(attribute.key);
                    let value = attribute
                        .normalized_value(XmlVersion::Implicit1_0)
                        .map_err(|_| Skip::DtdEntity)?;
                    let local = local.as_ref().to_owned();
                    attributes.push((resolved(ans)?, local, value.into_owned()));
                }
                attributes.sort();
                elements.push(Element {
                    namespace,
                    local: tag.local_name().as_ref().to_owned(),
                    attributes,
                    text: String::new(),
                });
                if !empty {
                    open.push(elements.len() - 1);
                }
            }
            Event::End(_) => {
                open.pop();
            }
            Event::Text(t) => {
                if let Some(&i) = open.last() {
                    elements[i].text.push_str(&t.xml10_content());
                }
            }
            Event::CData(c) => {
                let content = c.xml10_content();
                if let Some(&i) = open.last() {
                    elements[i].text.push_str(&content);
                }
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref().map_err(|_| Skip::OracleError)? {
                    Some(c) => c,
                    None => predefined(r.as_ref()).ok_or(Skip::DtdEntity)?,
                };
                if let Some(&i) = open.last() {
                    elements[i].text.push(c);
                }
            }
            Event::Eof => return Ok(elements),
            _ => {}
        }
    }
}

/// The elements of tagstream's tree.
fn ours(bytes: &[u8]) -> Vec<Element> {
    let doc = Document::parse(bytes);
    doc.document()
        .descendants()
        .filter_map(|node| {
            let element = node.element()?;
            let name = element.name();
            let mut attributes: Vec<_> = element
                .attributes()
                .filter(|(n, _)| n.namespace != Some(XMLNS_NAMESPACE))
                .map(|(n, v)| {
                    (
                        n.namespace.map(str::to_owned),
                        n.local.to_owned(),
                        v.to_owned(),
                    )
                })
                .collect();
            attributes.sort();
            let text: String = node
                .children()
                .filter_map(|c| match c.kind() {
                    NodeKind::Text(t) => Some(t),
                    _ => None,
                })
                .collect();
            Some(Element {
                namespace: name.namespace.map(str::to_owned),
                local: name.local.to_owned(),
                attributes,
                text,
            })
        })
        .collect()
}

/// Whether `got` is `want` but for characters where `want` has a C1 control.
fn differs_only_at_c1(want: &str, got: &str) -> bool {
    want.chars().count() == got.chars().count()
        && want
            .chars()
            .zip(got.chars())
            .all(|(w, g)| w == g || ('\u{80}'..='\u{9F}').contains(&w))
}

/// The known class of a difference between two elements, if it has one.
fn classify(want: &Element, got: &Element) -> Option<&'static str> {
    let same_name = want.namespace == got.namespace && want.local == got.local;
    if same_name && want.attributes == got.attributes && differs_only_at_c1(&want.text, &got.text) {
        return Some("c1-numeric-reference");
    }
    let normalized = |v: &str| v.replace(['\t', '\n', '\r'], " ");
    let same_but_values = want.namespace == got.namespace
        && want.local == got.local
        && want.text == got.text
        && want.attributes.len() == got.attributes.len()
        && want
            .attributes
            .iter()
            .zip(&got.attributes)
            .all(|(w, g)| w.0 == g.0 && w.1 == g.1 && (w.2 == g.2 || w.2 == normalized(&g.2)));
    same_but_values.then_some("attribute-value-normalization")
}

/// The W3C suite's documents to compare, from its flattened catalog (read with tagstream's own
/// tree): the tests of type `valid` or `invalid` (well-formed: `not-wf` and `error` are not),
/// for XML 1.0 (XML 1.1's line ends and characters differ), namespace-aware (not
/// `NAMESPACE="no"`), with no external entities (`ENTITIES="none"`).
fn well_formed_xmlconf(xmlconf: &Path) -> Vec<PathBuf> {
    let Ok(catalog) = std::fs::read(xmlconf.join("xmlconf-flattened.xml")) else {
        return Vec::new();
    };
    let doc = Document::parse(&catalog);
    let mut paths = Vec::new();
    for node in doc.document().descendants() {
        let Some(test) = node.element().filter(|e| e.name().local == "TEST") else {
            continue;
        };
        let attribute = |name: &str| test.attribute(None, name).unwrap_or("");
        let one_one = attribute("VERSION") == "1.1" || attribute("RECOMMENDATION").contains("1.1");
        let wanted = matches!(attribute("TYPE"), "valid" | "invalid")
            && !one_one
            && attribute("NAMESPACE") != "no"
            && attribute("ENTITIES") == "none";
        if !wanted {
            continue;
        }
        let base = std::iter::successors(node.parent(), |n| n.parent())
            .filter_map(|n| n.element())
            .find_map(|e| e.attribute(Some(tagstream::xml5::tree::XML_NAMESPACE), "base"))
            .unwrap_or("");
        paths.push(xmlconf.join(base).join(attribute("URI")));
    }
    paths
}

#[test]
fn the_xml5_tree_matches_quick_xml_on_well_formed_documents() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = std::env::var_os("TAGSTREAM_XML_CORPUS")
        .map_or_else(|| root.join("datasets/xml-corpus"), PathBuf::from);
    let xmlconf = std::env::var_os("TAGSTREAM_XMLCONF")
        .map_or_else(|| root.join("datasets/xmlconf"), PathBuf::from);
    let mut paths = Vec::new();
    files(&corpus, &mut paths);
    paths.extend(well_formed_xmlconf(&xmlconf));
    paths.sort();
    if paths.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no XML corpus at {} or {} (datasets/fetch-xml-corpus.sh)",
            corpus.display(),
            xmlconf.display()
        );
        eprintln!("differential-xml: no corpus found, nothing compared");
        return;
    }
    let (mut compared, mut identical, mut elements) = (0usize, 0usize, 0usize);
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut known: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut unknown = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            *skipped.entry("Missing".to_owned()).or_default() += 1;
            continue;
        };
        let skip = |skipped: &mut BTreeMap<String, usize>, why: Skip| {
            *skipped.entry(format!("{why:?}")).or_default() += 1;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            skip(&mut skipped, Skip::NotUtf8);
            continue;
        };
        let want = match oracle(text) {
            Ok(want) if !want.is_empty() => want,
            Ok(_) => {
                skip(&mut skipped, Skip::OracleError);
                continue;
            }
            Err(why) => {
                skip(&mut skipped, why);
                continue;
            }
        };
        compared += 1;
        elements += want.len();
        let got = ours(&bytes);
        if got == want {
            identical += 1;
            continue;
        }
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let first = want.iter().zip(&got).position(|(w, g)| w != g);
        let class = match first {
            Some(i) if want.len() == got.len() => {
                let all_known = want
                    .iter()
                    .zip(&got)
                    .filter(|(w, g)| w != g)
                    .all(|(w, g)| classify(w, g).is_some());
                all_known.then(|| classify(&want[i], &got[i])).flatten()
            }
            _ => None,
        };
        match class {
            Some(class) => known.entry(class).or_default().push(name),
            None => {
                let i = first.unwrap_or(want.len().min(got.len()));
                unknown.push(format!(
                    "{name}: element {i} of {}/{}:\n  quick-xml {:?}\n  tagstream {:?}",
                    want.len(),
                    got.len(),
                    want.get(i),
                    got.get(i)
                ));
            }
        }
    }
    eprintln!(
        "differential-xml: {} files; {compared} compared ({elements} elements), {identical} identical; skipped {skipped:?}",
        paths.len()
    );
    for (class, docs) in &known {
        let rule = KNOWN
            .iter()
            .find(|(n, _)| n == class)
            .map_or("", |(_, r)| *r);
        eprintln!(
            "  {class}: {} documents ({rule}); e.g. {}",
            docs.len(),
            docs[0]
        );
    }
    assert!(
        unknown.is_empty(),
        "{} documents differ in no known way:\n{}",
        unknown.len(),
        unknown.join("\n")
    );
    assert!(compared > 0, "nothing compared");
}

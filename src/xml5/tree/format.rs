//! The xml5lib-tests tree format (`tree-construction/*.dat`, the `#document` block) for a
//! [`Document`]: one line per node, `| ` and two spaces per level, elements as
//! `<{namespace}prefix:local>`, their attributes one level deeper as
//! `{namespace}prefix:local="value"` (sorted, as the suite lists them), text in double quotes,
//! `<!-- data -->`, `<?target data?>` and `<!DOCTYPE name "public" "system">`. Nothing is
//! escaped, as in the suite.

use std::fmt::Write;

use super::dom::{Document, Node, NodeKind};
use super::names::QName;

/// The `#document` block for `doc`: its lines, each ending in a newline.
///
/// ```
/// use tagstream::xml5::tree::{Document, xml5lib_tree};
/// let doc = Document::parse(b"<!--c--><a xmlns:p='urn:p' p:x='1'>t</a>");
/// assert_eq!(xml5lib_tree(&doc), "\
/// | <!-- c -->
/// | <a>
/// |   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"
/// |   {urn:p}p:x=\"1\"
/// |   \"t\"
/// ");
/// ```
pub fn xml5lib_tree(doc: &Document) -> String {
    let mut out = String::new();
    let mut attributes = Vec::new();
    for child in doc.document().children() {
        write_node(&mut out, &mut attributes, child, 0);
    }
    out
}

/// `node` and everything below it at `depth`.
fn write_node(out: &mut String, scratch: &mut Vec<String>, node: Node<'_>, depth: usize) {
    // The descendants walk with their depth (a parent's depth + 1), without recursion.
    let mut stack = vec![(node, depth)];
    while let Some((node, depth)) = stack.pop() {
        write_line(out, scratch, node, depth);
        let first = stack.len();
        stack.extend(node.children().map(|child| (child, depth + 1)));
        stack[first..].reverse();
    }
}

fn write_line(out: &mut String, scratch: &mut Vec<String>, node: Node<'_>, depth: usize) {
    let indent = |out: &mut String, depth: usize| {
        out.push_str("| ");
        out.extend(std::iter::repeat_n("  ", depth));
    };
    indent(out, depth);
    match node.kind() {
        NodeKind::Document => {}
        NodeKind::Element(element) => {
            out.push('<');
            write_name(out, element.name());
            out.push('>');
            scratch.clear();
            for (name, value) in element.attributes() {
                let mut line = String::new();
                write_name(&mut line, name);
                let _ = write!(line, "=\"{value}\"");
                scratch.push(line);
            }
            scratch.sort_unstable();
            for line in scratch.iter() {
                out.push('\n');
                indent(out, depth + 1);
                out.push_str(line);
            }
        }
        NodeKind::Text(text) => {
            let _ = write!(out, "\"{text}\"");
        }
        NodeKind::Comment(data) => {
            let _ = write!(out, "<!-- {data} -->");
        }
        NodeKind::ProcessingInstruction { target, data } => {
            let _ = write!(out, "<?{target} {data}?>");
        }
        NodeKind::Doctype {
            name,
            public_id,
            system_id,
        } => {
            let _ = write!(out, "<!DOCTYPE {}", name.unwrap_or(""));
            let (public_id, system_id) = (public_id.unwrap_or(""), system_id.unwrap_or(""));
            if !public_id.is_empty() || !system_id.is_empty() {
                let _ = write!(out, " \"{public_id}\" \"{system_id}\"");
            }
            out.push('>');
        }
    }
    out.push('\n');
}

/// `{namespace}prefix:local`, the namespace part only when there is one.
fn write_name(out: &mut String, name: QName<'_>) {
    if let Some(namespace) = name.namespace {
        let _ = write!(out, "{{{namespace}}}");
    }
    let _ = write!(out, "{name}");
}

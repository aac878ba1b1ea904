//! The html5lib-tests serializer suite, data-driven: every case of `serializer/*.test` (230) must
//! serialize to one of its expected outputs.
//!
//! The suite has no format document; html5lib-python's `test_serializer.py` drives it, and so does
//! this runner: the JSON token arrays (`["StartTag", namespace, name, attributes]`,
//! `["EmptyTag", name, attributes]`, `["EndTag", namespace, name]`, `["Characters", text]`,
//! `["SpaceCharacters", text]`, `["Comment", text]`, `["Doctype", name, public id, system id]`)
//! become serializer calls; the serializer starts from html5lib's defaults (optional tags omitted,
//! boolean attributes minimized) with attributes sorted, as the Python runner sorts them; a case's
//! `options` set the serializer options of the same names, and `encoding` feeds
//! `inject_meta_charset`. `xhtml` expectations are not run (there is no XHTML serializer).
//! A DOCTYPE identifier given as `""` is a document tree's "missing" (DOM identifiers are
//! strings), so it is no identifier.
//!
//! [`DEVIATIONS`] lists the cases where today's HTML Standard (§13.1) says something else than the
//! suite: the default output must differ from the suite's, and the output with
//! `html5lib_compat` must match it.
//!
//! The suite is the copy vendored in `tests/data/html5lib-tests` (`HTML5LIB_TESTS_DIR` overrides
//! it); a missing suite fails the run.

#[path = "common/html5lib_suite.rs"]
mod html5lib_suite;

use html5lib_suite::html5lib_suite;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use tagstream::write::{Doctype, Namespace, Quote, QuoteAttrValues, Serializer, SerializerOptions};

/// The cases where the serializer follows today's HTML Standard, not the suite, and why.
const DEVIATIONS: &[(&str, &str)] = &[
    (
        "optionaltags.test: html start-tag followed by space character",
        "§13.1.2.4: an html start tag may be omitted unless a comment follows (whitespace there is dropped by the parser)",
    ),
    (
        "optionaltags.test: html end-tag followed by space character",
        "§13.1.2.4: an html end tag may be omitted unless a comment follows",
    ),
    (
        "optionaltags.test: body end-tag followed by space character",
        "§13.1.2.4: a body end tag may be omitted unless a comment follows",
    ),
    (
        "optionaltags.test: p end-tag followed by datagrid start-tag",
        "§13.1.2.4: datagrid is no longer in the list of elements that close a p",
    ),
    (
        "optionaltags.test: p end-tag followed by dir start-tag",
        "§13.1.2.4: dir is no longer in the list of elements that close a p",
    ),
    (
        "optionaltags.test: tfoot end-tag followed by tbody start-tag",
        "§13.1.2.4: a tfoot end tag may be omitted only at the end of its parent",
    ),
    (
        "options.test: quote_attr_values=true with irrelevant",
        "`irrelevant` is not a boolean attribute of today's standard (it became `hidden`)",
    ),
    (
        "core.test: proper attribute value quoting (with CR)",
        "a literal CR reads back as LF; the default writes &#13;",
    ),
    (
        "whitespace.test: text within <pre>",
        "a literal CR reads back as LF; the default writes &#13;",
    ),
    (
        "whitespace.test: text within <pre>, with inner markup",
        "a literal CR reads back as LF; the default writes &#13;",
    ),
    (
        "whitespace.test: text within <textarea>",
        "a literal CR reads back as LF; the default writes &#13;",
    ),
    (
        "whitespace.test: text within <script>",
        "a CR in raw text reads back as LF and no reference can stand for it: refused by default",
    ),
    (
        "whitespace.test: text within <style>",
        "a CR in raw text reads back as LF and no reference can stand for it: refused by default",
    ),
];

const FILES: &[&str] = &[
    "core.test",
    "injectmeta.test",
    "optionaltags.test",
    "options.test",
    "whitespace.test",
];

#[derive(Clone)]
struct Case {
    name: String,
    input: Vec<Value>,
    expected: Vec<String>,
    options: Value,
}

fn main() {
    let args = Arguments::from_args();
    let dir = html5lib_suite(&args, "serializer", "html5lib-tests serializer suite");
    let mut cases = Vec::new();
    for file in FILES {
        let text =
            std::fs::read_to_string(dir.join("serializer").join(file)).expect("read test file");
        let json: Value = serde_json::from_str(&text).expect("parse test file");
        for test in json["tests"].as_array().expect("tests array") {
            cases.push(Case {
                name: format!(
                    "{file}: {}",
                    test["description"].as_str().expect("description")
                ),
                input: test["input"].as_array().expect("input").clone(),
                expected: test["expected"]
                    .as_array()
                    .expect("expected")
                    .iter()
                    .map(|e| e.as_str().expect("expected string").to_owned())
                    .collect(),
                options: test.get("options").cloned().unwrap_or(Value::Null),
            });
        }
    }
    let count = cases.len();
    let mut trials: Vec<Trial> = cases
        .into_iter()
        .map(|case| Trial::test(case.name.clone(), move || check(&case)))
        .collect();
    trials.push(Trial::test("suite counts", move || {
        if count == 230 {
            Ok(())
        } else {
            Err(format!("{count} cases, expected 230").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}

fn check(case: &Case) -> Result<(), Failed> {
    let deviation = DEVIATIONS.iter().find(|(name, _)| *name == case.name);
    let options = options(&case.options)?;
    let default = serialize(&case.input, options.clone());
    let matches =
        |out: &Result<String, String>| out.as_ref().is_ok_and(|o| case.expected.contains(o));
    match deviation {
        None if matches(&default) => Ok(()),
        None => Err(format!("got {default:?}\n   expected one of {:?}", case.expected).into()),
        Some((_, why)) => {
            if matches(&default) {
                return Err(format!("listed as a deviation ({why}) but matches the suite").into());
            }
            let compat = serialize(&case.input, options.html5lib_compat(true));
            if matches(&compat) {
                Ok(())
            } else {
                Err(format!(
                    "html5lib_compat: got {compat:?}\n   expected one of {:?}",
                    case.expected
                )
                .into())
            }
        }
    }
}

/// The serializer options for a case: html5lib's defaults, sorted attributes, then the case's.
fn options(json: &Value) -> Result<SerializerOptions, Failed> {
    let mut options = SerializerOptions::new()
        .omit_optional_tags(true)
        .minimize_boolean_attributes(true)
        .alphabetical_attributes(true);
    let Some(map) = json.as_object() else {
        return Ok(options);
    };
    let flag = |v: &Value| v.as_bool().ok_or_else(|| format!("not a boolean: {v}"));
    let mut inject = false;
    for (key, value) in map {
        options = match key.as_str() {
            "quote_attr_values" => options.quote_attr_values(match value {
                Value::Bool(true) => QuoteAttrValues::Always,
                Value::String(s) if s == "always" => QuoteAttrValues::Always,
                Value::String(s) if s == "legacy" => QuoteAttrValues::Legacy,
                _ => QuoteAttrValues::Spec,
            }),
            "quote_char" => options.quote_char(if value == "'" {
                Quote::Single
            } else {
                Quote::Double
            }),
            "use_best_quote_char" => options.use_best_quote_char(flag(value)?),
            "minimize_boolean_attributes" => options.minimize_boolean_attributes(flag(value)?),
            "use_trailing_solidus" => options.use_trailing_solidus(flag(value)?),
            "space_before_trailing_solidus" => options.space_before_trailing_solidus(flag(value)?),
            "escape_lt_in_attrs" => options.escape_lt_in_attrs(flag(value)?),
            "escape_rcdata" => options.escape_rcdata(flag(value)?),
            "omit_optional_tags" => options.omit_optional_tags(flag(value)?),
            "strip_whitespace" => options.strip_whitespace(flag(value)?),
            "alphabetical_attributes" => options.alphabetical_attributes(flag(value)?),
            "inject_meta_charset" => {
                inject = flag(value)?;
                options
            }
            "encoding" => options,
            other => return Err(format!("unknown option {other}").into()),
        };
    }
    let encoding = map.get("encoding").and_then(Value::as_str);
    if inject {
        options = options.inject_meta_charset(encoding);
    }
    Ok(options)
}

/// The output for `input`, or the first refusal.
fn serialize(input: &[Value], options: SerializerOptions) -> Result<String, String> {
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, options);
    for token in input {
        write(&mut s, token).map_err(|e| e.to_string())?;
    }
    s.finish().map_err(|e| e.to_string())?;
    drop(s);
    String::from_utf8(out).map_err(|e| e.to_string())
}

fn write(
    s: &mut Serializer<&mut Vec<u8>>,
    token: &Value,
) -> Result<(), tagstream::write::WriteError> {
    let t = token.as_array().expect("token array");
    let str_at = |i: usize| t.get(i).and_then(Value::as_str);
    match str_at(0).expect("token type") {
        "StartTag" => {
            let attributes = attributes(&t[3]);
            let views: Vec<(&str, &str)> = attributes
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            s.start_tag_in(
                namespace(str_at(1)),
                str_at(2).expect("name"),
                &views,
                false,
            )
        }
        "EmptyTag" => {
            let attributes = attributes(&t[2]);
            let views: Vec<(&str, &str)> = attributes
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            s.start_tag(str_at(1).expect("name"), &views)
        }
        "EndTag" => s.end_tag(str_at(2).expect("name")),
        "Characters" | "SpaceCharacters" => s.text(str_at(1).expect("text")),
        "Comment" => s.comment(str_at(1).expect("text")),
        "Doctype" => {
            let id = |i: usize| str_at(i).filter(|id| !id.is_empty());
            s.doctype(&Doctype {
                name: str_at(1),
                public_id: id(2),
                system_id: id(3),
                force_quirks: false,
            })
        }
        other => panic!("unknown token type {other}"),
    }
}

/// Attributes as a list of `{"namespace", "name", "value"}` (or `{}` for none).
fn attributes(json: &Value) -> Vec<(String, String)> {
    let Some(list) = json.as_array() else {
        return Vec::new();
    };
    list.iter()
        .map(|a| {
            let name = a["name"].as_str().expect("attribute name").to_owned();
            (
                name,
                a["value"].as_str().expect("attribute value").to_owned(),
            )
        })
        .collect()
}

fn namespace(uri: Option<&str>) -> Namespace {
    match uri {
        Some("http://www.w3.org/2000/svg") => Namespace::Svg,
        Some("http://www.w3.org/1998/Math/MathML") => Namespace::MathMl,
        _ => Namespace::Html,
    }
}

//! The two attribute micro-syntaxes that hold URLs next to other things: `srcset`
//! ([parse a srcset attribute](https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute))
//! and `<meta http-equiv=refresh content>`
//! ([shared declarative refresh steps](https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps)).
//!
//! Both return slices of their input: nothing is copied.

/// ASCII whitespace as the HTML Standard defines it: tab, LF, FF, CR, space.
pub(crate) fn is_html_space(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// `input` without leading and trailing ASCII whitespace.
pub(crate) fn trim_html_space(input: &str) -> &str {
    input.trim_matches(|c: char| c.is_ascii() && is_html_space(c as u8))
}

/// The first position at or after `pos` where `keep` is false.
fn skip_while(bytes: &[u8], mut pos: usize, keep: impl Fn(u8) -> bool) -> usize {
    while pos < bytes.len() && keep(bytes[pos]) {
        pos += 1;
    }
    pos
}

/// One image candidate of a `srcset` attribute: a URL and its descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ImageCandidate<'a> {
    /// The URL, as written (a slice of the attribute value).
    pub url: &'a str,
    /// A width descriptor (`480w`).
    pub width: Option<u64>,
    /// A pixel density descriptor (`2x`).
    pub density: Option<f64>,
    /// The future-compatible height descriptor (`300h`, only allowed with a width).
    pub height: Option<u64>,
}

/// The image candidates of a `srcset` value, in order, following the HTML Standard's algorithm:
/// URLs may contain commas (only a comma that ends a URL separates candidates), and a candidate
/// whose descriptors are invalid is dropped, as browsers drop it.
///
/// ```
/// use tagstream::extract::parse_srcset;
///
/// let candidates = parse_srcset("a.jpg 1x, /img,crop=1,2.jpg 2x, b.jpg 480w, bad.jpg 0w");
/// let urls: Vec<&str> = candidates.iter().map(|c| c.url).collect();
/// assert_eq!(urls, ["a.jpg", "/img,crop=1,2.jpg", "b.jpg"]);
/// assert_eq!(candidates[1].density, Some(2.0));
/// assert_eq!(candidates[2].width, Some(480));
/// ```
pub fn parse_srcset(input: &str) -> Vec<ImageCandidate<'_>> {
    let bytes = input.as_bytes();
    let mut candidates = Vec::new();
    let mut pos = 0;
    loop {
        // Splitting loop: whitespace and commas before a URL are separators.
        pos = skip_while(bytes, pos, |b| is_html_space(b) || b == b',');
        if pos == bytes.len() {
            return candidates;
        }
        let start = pos;
        pos = skip_while(bytes, pos, |b| !is_html_space(b));
        let url = &input[start..pos];
        let descriptors = if url.ends_with(',') {
            Vec::new()
        } else {
            let (descriptors, next) = tokenize_descriptors(input, pos);
            pos = next;
            descriptors
        };
        if let Some(candidate) = candidate(url.trim_end_matches(','), &descriptors) {
            candidates.push(candidate);
        }
    }
}

/// The descriptor tokenizer's states.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DescriptorState {
    InDescriptor,
    InParens,
    AfterDescriptor,
}

/// Split the descriptors after a URL, up to and including the comma that ends the candidate.
/// Returns them with the position after that comma (or the end of input).
fn tokenize_descriptors(input: &str, pos: usize) -> (Vec<&str>, usize) {
    use DescriptorState::*;
    let bytes = input.as_bytes();
    let mut pos = skip_while(bytes, pos, is_html_space);
    let mut descriptors = Vec::new();
    // Start of the current descriptor, when it is not empty.
    let mut current: Option<usize> = None;
    let mut state = InDescriptor;
    loop {
        let byte = bytes.get(pos).copied();
        match (state, byte) {
            (_, None) => {
                descriptors.extend(current.map(|start| &input[start..pos]));
                return (descriptors, pos);
            }
            (InDescriptor, Some(b)) if is_html_space(b) => {
                if let Some(start) = current.take() {
                    descriptors.push(&input[start..pos]);
                    state = AfterDescriptor;
                }
            }
            (InDescriptor, Some(b',')) => {
                descriptors.extend(current.map(|start| &input[start..pos]));
                return (descriptors, pos + 1);
            }
            (InDescriptor, Some(b'(')) => {
                current.get_or_insert(pos);
                state = InParens;
            }
            (InDescriptor, Some(_)) => {
                current.get_or_insert(pos);
            }
            (InParens, Some(b')')) => state = InDescriptor,
            (InParens, Some(_)) => {}
            (AfterDescriptor, Some(b)) if is_html_space(b) => {}
            (AfterDescriptor, Some(_)) => {
                // Reconsume in the in-descriptor state.
                state = InDescriptor;
                continue;
            }
        }
        pos += 1;
    }
}

/// The descriptor parser: the candidate, or `None` when a descriptor is invalid.
fn candidate<'a>(url: &'a str, descriptors: &[&str]) -> Option<ImageCandidate<'a>> {
    let mut candidate = ImageCandidate {
        url,
        ..ImageCandidate::default()
    };
    for descriptor in descriptors {
        // The unit is the last character: an ASCII letter, or the descriptor is invalid.
        let unit = descriptor.bytes().last().filter(u8::is_ascii)?;
        let value = &descriptor[..descriptor.len() - 1];
        match unit {
            b'w' if candidate.width.is_none() && candidate.density.is_none() => {
                candidate.width = Some(positive_integer(value)?);
            }
            b'x' if candidate.width.is_none()
                && candidate.density.is_none()
                && candidate.height.is_none() =>
            {
                candidate.density = Some(non_negative_float(value)?);
            }
            b'h' if candidate.height.is_none() && candidate.density.is_none() => {
                candidate.height = Some(positive_integer(value)?);
            }
            _ => return None,
        }
    }
    if candidate.height.is_some() && candidate.width.is_none() {
        return None;
    }
    Some(candidate)
}

/// A valid non-negative integer greater than zero.
fn positive_integer(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok().filter(|&n| n > 0)
}

/// A valid floating-point number (`-`? digits, `.digits`, or both; an optional exponent) that
/// is not negative.
fn non_negative_float(value: &str) -> Option<f64> {
    let bytes = value.as_bytes();
    let mut pos = usize::from(bytes.first() == Some(&b'-'));
    let int_end = skip_while(bytes, pos, |b| b.is_ascii_digit());
    let mut digits = int_end > pos;
    pos = int_end;
    if bytes.get(pos) == Some(&b'.') {
        let frac_end = skip_while(bytes, pos + 1, |b| b.is_ascii_digit());
        if frac_end == pos + 1 {
            return None;
        }
        digits = true;
        pos = frac_end;
    }
    if digits && matches!(bytes.get(pos), Some(b'e' | b'E')) {
        pos += 1 + usize::from(matches!(bytes.get(pos + 1), Some(b'-' | b'+')));
        let exp_end = skip_while(bytes, pos, |b| b.is_ascii_digit());
        digits = exp_end > pos;
        pos = exp_end;
    }
    if !digits || pos != bytes.len() {
        return None;
    }
    value.parse::<f64>().ok().filter(|&n| n >= 0.0)
}

/// What a `<meta http-equiv=refresh content=…>` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refresh<'a> {
    /// Seconds to wait (the integer part; saturates at `u64::MAX`).
    pub seconds: u64,
    /// The URL to load, as written (a slice of the content); `None` reloads the page itself.
    pub url: Option<&'a str>,
}

/// Parse a refresh `content` value with the HTML Standard's shared declarative refresh steps;
/// `None` when the value is not a refresh (no time, or junk after it).
///
/// ```
/// use tagstream::extract::parse_refresh;
///
/// let refresh = parse_refresh("5; URL='/next?a=1'").unwrap();
/// assert_eq!((refresh.seconds, refresh.url), (5, Some("/next?a=1")));
/// assert_eq!(parse_refresh("0;https://example.com/").unwrap().url, Some("https://example.com/"));
/// assert_eq!(parse_refresh("10").unwrap().url, None);
/// assert_eq!(parse_refresh("soon"), None);
/// ```
pub fn parse_refresh(content: &str) -> Option<Refresh<'_>> {
    let bytes = content.as_bytes();
    let mut pos = skip_while(bytes, 0, is_html_space);
    let digits_end = skip_while(bytes, pos, |b| b.is_ascii_digit());
    if digits_end == pos && bytes.get(pos) != Some(&b'.') {
        return None;
    }
    let seconds = content[pos..digits_end].bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    pos = skip_while(bytes, digits_end, |b| b.is_ascii_digit() || b == b'.');
    if pos < bytes.len() {
        if !(is_html_space(bytes[pos]) || bytes[pos] == b';' || bytes[pos] == b',') {
            return None;
        }
        pos = skip_while(bytes, pos, is_html_space);
        if matches!(bytes.get(pos), Some(b';' | b',')) {
            pos += 1;
        }
        pos = skip_while(bytes, pos, is_html_space);
    }
    let url = (pos < bytes.len()).then(|| refresh_url(content, pos));
    Some(Refresh { seconds, url })
}

/// The URL part of a refresh value from `pos` on: after an optional `URL=` and inside optional
/// quotes.
fn refresh_url(content: &str, start: usize) -> &str {
    let bytes = content.as_bytes();
    let mut pos = start;
    let has = |pos: usize, letter: u8| bytes.get(pos).map(u8::to_ascii_lowercase) == Some(letter);
    if has(pos, b'u') {
        if !(has(pos + 1, b'r') && has(pos + 2, b'l')) {
            return &content[start..];
        }
        pos = skip_while(bytes, pos + 3, is_html_space);
        if bytes.get(pos) != Some(&b'=') {
            return &content[start..];
        }
        pos = skip_while(bytes, pos + 1, is_html_space);
    }
    match bytes.get(pos) {
        Some(&quote @ (b'\'' | b'"')) => {
            let rest = &content[pos + 1..];
            rest.find(char::from(quote))
                .map_or(rest, |end| &rest[..end])
        }
        _ => &content[pos..],
    }
}

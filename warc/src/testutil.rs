//! What the crate's tests build archives from.

/// A WARC `response` record holding an HTTP 200 response with `body`, its `Content-Type` header
/// `content_type` (none when empty).
pub(crate) fn response_record(uri: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let header = match content_type {
        "" => String::new(),
        value => format!("Content-Type: {value}\r\n"),
    };
    let mut http = format!("HTTP/1.1 200 OK\r\n{header}\r\n").into_bytes();
    http.extend_from_slice(body);
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(&http);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

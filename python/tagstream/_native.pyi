# Types of the extension module (python/src/); tests/test_stubs.py checks the signatures.
import os
from typing import BinaryIO, Iterator, List, Optional, Tuple, Union, overload

Html = Union[bytes, bytearray, memoryview, str]
Span = Tuple[int, int]
# tagstream.warc: an archive is a path or a binary file object.
Archive = Union[str, os.PathLike, BinaryIO]
Skipped = Tuple[Optional[int], str]

__version__: str

class LimitError(Exception):
    limit: str  # "carry" or "arena"
    max: int
    needed: int
    offset: int

class Link:
    element: str
    attribute: str
    url: str
    resolved: Optional[str]
    span: Optional[Span]
    in_template: bool
    def __init__(
        self,
        element: str,
        attribute: str,
        url: str,
        resolved: Optional[str],
        span: Optional[Span],
        in_template: bool,
    ) -> None: ...

class Links:
    links: List[Link]
    encoding: str
    def __init__(self, links: List[Link], encoding: str) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Link: ...
    def __iter__(self) -> Iterator[Link]: ...

class Text:
    title: Optional[str]
    description: Optional[str]
    text: str
    encoding: str
    def __init__(
        self, title: Optional[str], description: Optional[str], text: str, encoding: str
    ) -> None: ...

class Token:
    kind: str
    name: Optional[str]
    attributes: List[Tuple[str, str]]
    text: Optional[str]
    text_kind: Optional[str]
    self_closing: bool
    public_id: Optional[str]
    system_id: Optional[str]
    force_quirks: bool
    raw: bytes
    span: Span
    internal_subset: Optional[str]  # an XML5 DOCTYPE's, as written
    def __init__(
        self,
        kind: str,
        name: Optional[str],
        attributes: List[Tuple[str, str]],
        text: Optional[str],
        text_kind: Optional[str],
        self_closing: bool,
        public_id: Optional[str],
        system_id: Optional[str],
        force_quirks: bool,
        raw: bytes,
        span: Span,
        internal_subset: Optional[str] = None,
    ) -> None: ...

class ParseError:
    code: str
    offset: int
    line: int
    column: int
    def __init__(self, code: str, offset: int, line: int, column: int) -> None: ...

class Lexeme:
    kind: str
    span: Span
    text: str
    raw: bytes
    def __init__(self, kind: str, span: Span, text: str, raw: bytes) -> None: ...

class Event:
    channel: str  # "primary", "auxiliary" or "problem"
    lexemes: List[Lexeme]
    code: Optional[str]
    line: Optional[int]
    column: Optional[int]
    span: Span
    def __init__(
        self,
        channel: str,
        lexemes: List[Lexeme],
        code: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None: ...

Item = Union[Token, ParseError, Event]

class Tokens:
    """A read-only sequence of the items of one call; a slice is a Tokens too."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Item: ...
    @overload
    def __getitem__(self, index: slice) -> Tokens: ...
    def __iter__(self) -> Iterator[Item]: ...
    def __add__(self, other: Union[Tokens, List[Item]]) -> List[Item]: ...
    def __radd__(self, other: List[Item]) -> List[Item]: ...
    def index(self, value: object) -> int: ...
    def count(self, value: object) -> int: ...

def links(
    html: Html,
    base_url: Optional[str] = None,
    encoding: Optional[str] = None,
    scripting: bool = False,
    default_encoding: Optional[str] = None,
) -> Links: ...
def text(
    html: Html,
    blocks: bool = False,
    encoding: Optional[str] = None,
    scripting: bool = False,
    default_encoding: Optional[str] = None,
) -> Text: ...
def tokens(
    html: Html,
    errors: bool = False,
    simulate: bool = True,
    dialect: str = "html",
    lossless: bool = False,
    scripting: bool = False,
    max_arena: Optional[int] = None,
    normalize: bool = False,
) -> Tokens: ...

class Tokenizer:
    def __init__(
        self,
        errors: bool = False,
        simulate: bool = True,
        dialect: str = "html",
        lossless: bool = False,
        scripting: bool = False,
        max_carry: Optional[int] = None,
        max_arena: Optional[int] = None,
        normalize: bool = False,
    ) -> None: ...
    def feed(self, chunk: Html) -> Tokens: ...
    def finish(self) -> Tokens: ...

# tagstream.warc (python/tagstream/warc.py names them records, links and text).

class Record:
    offset: int
    uri: Optional[str]
    status: str
    headers: List[Tuple[str, str]]
    charset: Optional[str]
    payload: bytes
    def __init__(
        self,
        offset: int,
        uri: Optional[str],
        status: str,
        headers: List[Tuple[str, str]],
        charset: Optional[str],
        payload: bytes,
    ) -> None: ...
    def __repr__(self) -> str: ...

class Records:
    skipped: List[Skipped]
    def __iter__(self) -> Iterator[Record]: ...
    def __next__(self) -> Record: ...

class Pages:
    pages: List[Tuple[int, Optional[str], Union[Links, Text]]]
    skipped: List[Skipped]
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Tuple[int, Optional[str], Union[Links, Text]]]: ...

def warc_records(source: Archive) -> Records: ...
def warc_links(
    source: Archive, scripting: bool = False, default_encoding: Optional[str] = None
) -> Pages: ...
def warc_text(
    source: Archive,
    blocks: bool = False,
    scripting: bool = False,
    default_encoding: Optional[str] = None,
) -> Pages: ...

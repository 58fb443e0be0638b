"""Text files as readinglist reads its inputs: bytes -> text, whole or streamed line by line.

:func:`read_text` gives a file's whole text (a CSL-JSON file: its parser wants it);
:func:`iter_text` gives it in pieces as the file is read (a .bib, split as it comes);
:func:`iter_lines` gives an abstract list's lines as the file is read, 1 MB at a time, so that
memory does not grow with the file. All accept UTF-8 (a BOM is stripped) and UTF-16/UTF-32
with a BOM, and raise :class:`~readinglist.errors.InputError` with one line naming the file when
it is missing, unreadable, binary (``x.txt: not a text file (binary data near byte 12)``) or not
decodable (``x.txt: not UTF-8 text (invalid byte 0xe9 on line 3)``).

Lines are split as :meth:`str.splitlines` splits them (LF, CRLF, lone CR, and the other Unicode
line boundaries). A line longer than ``max_line`` characters is not kept whole: it comes as a
:class:`LongLine` (its first characters and its length), so one 200 MB line costs no memory.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
from collections.abc import Iterator

from ..errors import InputError

__all__ = ["read_text", "iter_text", "iter_lines", "LongLine", "CHUNK"]

#: Bytes read at a time by :func:`iter_lines`.
CHUNK = 1 << 20

_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
#: What ends a line for str.splitlines (CRLF is one end).
_LINE_ENDS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_END = re.compile("[" + re.escape(_LINE_ENDS) + "]")


class LongLine(str):
    """A line longer than :func:`iter_lines`' ``max_line``: the string is its first characters
    (for a report), :attr:`length` its real length in characters."""

    length: int

    def __new__(cls, head: str, length: int) -> LongLine:
        obj = super().__new__(cls, head[: min(200, length)])  # (never its line end)
        obj.length = length
        return obj


@contextlib.contextmanager
def _read_errors(name: str) -> Iterator[None]:
    """An input file that cannot be opened or read, as the one-line InputError naming it."""
    from ..store.atomic import NotRegularFile, TooLarge, describe

    try:
        yield
    except FileNotFoundError:
        raise InputError(f"{name}: file not found") from None
    except NotRegularFile as exc:
        raise InputError(f"{name}: is {exc.strerror}") from None
    except TooLarge as exc:
        raise InputError(f"{name}: too large to read: {describe(exc)} (the limit for an input file)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {describe(exc)}") from None


def read_text(path: str | os.PathLike) -> str:
    """The whole text of the file at ``path`` (at most :data:`~readinglist.store.atomic.INPUT_LIMIT`
    bytes); InputError as the module says."""
    from ..store.atomic import read_bounded

    name = _name(path)
    with _read_errors(name):
        data = read_bounded(path)
    encoding, skip = _encoding(name, data)
    if encoding != "utf-8" or skip:
        try:
            text = data[skip:].decode(encoding)
        except UnicodeDecodeError as exc:
            raise InputError(f"{name}: not {encoding.upper()} text (bad data near byte {exc.start + skip})") from None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(name, data, exc.start, 0) from None
    _check_text(name, text)
    return text


def iter_text(path: str | os.PathLike) -> Iterator[str]:
    """The text of the file at ``path`` in pieces as it is read (about :data:`CHUNK` bytes each,
    never empty): joined, they are :func:`read_text`'s text. InputError as the module says
    (raised when the bad part is reached). The file may be of any size."""
    for text, _ in _decoded(path):
        if text:
            yield text


def _decoded(path: str | os.PathLike) -> Iterator[tuple[str, bool]]:
    """(text, final) for each chunk of the file read and decoded, the last one final (its text
    maybe empty): the one reading behind :func:`iter_text` and :func:`iter_lines`."""
    from ..store.atomic import open_regular

    name = _name(path)
    with _read_errors(name):
        fd = open_regular(path)
    with open(fd, "rb", buffering=0, closefd=True) as fh:

        def read() -> bytes:
            with _read_errors(name):
                return fh.read(CHUNK)

        data = read()
        while 0 < len(data) < 4:  # (enough to see a BOM)
            more = read()
            if not more:
                break
            data += more
        encoding, skip = _encoding(name, data)
        decoder = codecs.getincrementaldecoder(encoding)()
        utf8 = encoding == "utf-8"
        data = data[skip:]
        offset = skip  # of ``data`` in the file
        lines_before = 0  # line ends in the bytes before ``data`` (UTF-8: for the error's line)
        first = True
        while True:
            final = not data
            if utf8 and not final:
                nul = data.find(b"\x00")
                if nul >= 0:
                    raise InputError(f"{name}: not a text file (binary data near byte {offset + nul})")
            try:
                text = decoder.decode(data, final)
            except UnicodeDecodeError as exc:
                buffered = len(exc.object) - len(data)  # bytes the decoder kept from the last chunk
                if not utf8:
                    raise InputError(f"{name}: not {encoding.upper()} text (bad data near byte {offset - buffered + exc.start})") from None
                raise _not_utf8(name, data, max(0, exc.start - buffered), offset, lines_before) from None
            if first:
                _check_text(name, text)
                first = False
            elif not utf8 and "\x00" in text:
                raise InputError(f"{name}: not a text file (NUL character in it)")
            if utf8:
                lines_before += data.count(b"\n")
            offset += len(data)
            yield text, final
            if final:
                return
            data = read()


def iter_lines(path: str | os.PathLike, *, max_line: int = 1 << 20) -> Iterator[str]:
    """The lines of the text file at ``path`` (without their line ends), read a chunk at a time;
    a line longer than ``max_line`` characters comes as a :class:`LongLine`. InputError as the
    module says (raised when the bad part is reached: a caller that must not act on half a file
    reads it all first). The file may be of any size."""
    carry = ""  # the last line read, maybe unfinished (at most max_line + 2 characters)
    long_head: str | None = None  # the unfinished line is a LongLine: its first characters
    long_len = 0  # and its length so far
    skip_lf = False  # a LongLine ended in CR at a chunk's end: a LF starting the next is its end
    for text, final in _decoded(path):
        if skip_lf and text:
            text = text[1:] if text[0] == "\n" else text
            skip_lf = False
        if long_head is not None:  # the end of a line too long to keep
            m = _END.search(text)
            if len(long_head) < 200:  # (the head a report shows)
                long_head += text[: min(200 - len(long_head), m.start() if m else len(text))]
            if m is None:
                long_len += len(text)
                if final:
                    yield LongLine(long_head, long_len)
                    return
                continue
            yield LongLine(long_head, long_len + m.start())
            long_head = None
            if text.startswith("\r\n", m.start()):
                text = text[m.start() + 2 :]
            else:
                skip_lf = m.group() == "\r" and m.end() == len(text)
                text = text[m.end() :]
        text = carry + text if carry else text
        carry = ""
        lines = text.splitlines(keepends=True)
        if not final and lines:
            carry = lines.pop()  # (it may go on in the next chunk, or be a CR before its LF)
        for line in lines:
            end = 2 if line.endswith("\r\n") else 1 if line[-1:] in _LINE_ENDS else 0
            if len(line) - end > max_line:
                yield LongLine(line[:200], len(line) - end)
            else:
                yield line[: len(line) - end] if end else line
        if len(carry) > max_line + 2:
            if carry[-1] in _LINE_ENDS:  # a whole line (a CR, perhaps before the next chunk's LF)
                end = 2 if carry.endswith("\r\n") else 1
                yield LongLine(carry[:200], len(carry) - end)
                skip_lf = carry[-1] == "\r"
            else:
                long_head, long_len = carry[:200], len(carry)
            carry = ""


def _name(path: str | os.PathLike) -> str:
    name = os.fspath(path)
    if not name:
        raise InputError("an empty file name")
    return name


def _encoding(name: str, data: bytes) -> tuple[str, int]:
    """(encoding, BOM length) of a file that starts with ``data``; InputError for a binary file."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{name}: not a text file (binary data near byte {nul})")
    return "utf-8", 0


def _not_utf8(name: str, data: bytes, at: int, offset: int, lines_before: int = 0) -> InputError:
    """The error for invalid UTF-8 at ``data[at]`` (``data`` starts at byte ``offset``)."""
    if offset == 0 and _looks_binary(data):
        return InputError(f"{name}: not a text file (binary data near byte {at})")
    line = lines_before + data.count(b"\n", 0, at) + 1
    return InputError(f"{name}: not UTF-8 text (invalid byte 0x{data[at]:02x} on line {line})")


def _looks_binary(data: bytes) -> bool:
    head = data[:8192]
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > max(4, len(head) // 50)


def _check_text(name: str, text: str) -> None:
    if "\x00" in text:
        raise InputError(f"{name}: not a text file (NUL character at offset {text.index(chr(0))})")
    head = text[:8192]
    controls = _CONTROL.findall(head)
    if len(controls) > max(4, len(head) // 50):
        first = controls and head.index(controls[0])
        raise InputError(f"{name}: not a text file (binary data near character {first})")

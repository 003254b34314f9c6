"""Bytes someone gives kcompat as a text file, decoded or refused by what they are.

UTF-8 (with or without a byte-order mark) is read as it is; UTF-16 and UTF-32 with a byte-order
mark (what PowerShell's ``>`` writes) are decoded; gzip is decompressed within the same size limit
(a decompression bomb is stopped at the limit, never expanded whole); other binary formats are
named (an ELF executable, a zip archive, xz...), so the message says what the file is, not only
that it holds NUL bytes.
"""

from __future__ import annotations

import codecs

from .errors import KcompatError

#: Byte-order marks, longest first (UTF-32 LE starts with UTF-16 LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
#: Binary formats by their first bytes, and what to say about them.
_MAGIC = (
    (b"\x1f\x8b", "gzip-compressed"),
    (b"BZh", "bzip2-compressed: decompress it first (bunzip2)"),
    (b"\xfd7zXZ\x00", "xz-compressed: decompress it first (unxz)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed: decompress it first (unzstd)"),
    (b"PK\x03\x04", "a zip archive: extract the file first"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image, not text"),
    (b"GIF8", "a GIF image, not text"),
    (b"\xff\xd8\xff", "a JPEG image, not text"),
    (b"%PDF-", "a PDF document, not text"),
    (b"\x7fELF", "an executable (ELF), not text"),
)
#: gzip members read from one input (a concatenation of a few is valid gzip; thousands is hostile).
MAX_GZIP_MEMBERS = 16


def decode_input(data: bytes | str, source: str, max_bytes: int, what: str = "a text file") -> str:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """``data`` as text, or a KcompatError naming what it is instead (``what`` is what was
    expected, for the messages: "a text file", "a YAML text file")."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise KcompatError(f"{source}: {len(raw):,} bytes, larger than the limit of {max_bytes:,} bytes")
    if raw.startswith(b"\x1f\x8b"):
        raw = _gunzip(raw, source, max_bytes)
        for magic, _ in _MAGIC:
            if raw.startswith(magic):
                raise KcompatError(f"{source}: gzip-compressed, and what it holds is {_described(raw)}")
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            try:
                return raw[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise KcompatError(f"{source}: {name} text (byte-order mark) that does not decode (byte {exc.start + len(bom)})") from None
    for magic, _ in _MAGIC:
        if raw.startswith(magic):
            raise KcompatError(f"{source}: {_described(raw)}")
    if b"\x00" in raw:
        utf16 = _utf16_without_bom(raw)
        if utf16:
            raise KcompatError(
                f"{source}: {utf16} text without a byte-order mark: save it as UTF-8 "
                f"(iconv -f {utf16} -t UTF-8) and give it again"
            )
        raise KcompatError(f"{source}: binary data (NUL bytes), not {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KcompatError(f"{source}: not UTF-8 text (byte {exc.start})") from None


def _described(raw: bytes) -> str:
    return next(text for magic, text in _MAGIC if raw.startswith(magic))


def _gunzip(raw: bytes, source: str, max_bytes: int) -> bytes:
    """The decompressed bytes, never more than ``max_bytes + 1`` held (a bomb is stopped there)."""
    import zlib  # (gzip input only: not on every command's start)

    out = bytearray()
    rest = raw
    for _ in range(MAX_GZIP_MEMBERS):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += inflater.decompress(rest, max_bytes + 1 - len(out))
        except zlib.error as exc:
            raise KcompatError(f"{source}: gzip-compressed, but the data is damaged ({exc})") from None
        if len(out) > max_bytes:
            raise KcompatError(f"{source}: gzip-compressed, and it decompresses to more than the limit of {max_bytes:,} bytes")
        if not inflater.eof:
            raise KcompatError(f"{source}: gzip-compressed, but cut short (the file ends inside the compressed data)")
        rest = inflater.unused_data
        if not rest.startswith(b"\x1f\x8b"):
            if rest.strip(b"\x00"):
                raise KcompatError(f"{source}: gzip-compressed, with {len(rest):,} bytes of something else after it")
            return bytes(out)
    raise KcompatError(f"{source}: gzip-compressed, with more than {MAX_GZIP_MEMBERS} members")


def _utf16_without_bom(raw: bytes) -> str | None:
    """UTF-16LE or UTF-16BE when the NUL bytes are where ASCII text in UTF-16 puts them."""
    sample = raw[:4096]
    if len(sample) < 4 or len(sample) % 2:
        return None
    if sample[1::2].count(0) >= len(sample) // 2 * 0.9 and 0 not in sample[0::2]:
        return "UTF-16LE"
    if sample[0::2].count(0) >= len(sample) // 2 * 0.9 and 0 not in sample[1::2]:
        return "UTF-16BE"
    return None

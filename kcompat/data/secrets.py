"""The secrets kcompat has read in this process, so that nothing it writes can show them.

Whatever reads a credential (:mod:`kcompat.data.live`: a kubeconfig's ``token``, ``tokenFile``,
``password``, client key, an exec plugin's credential, a server's or proxy's URL user-info)
:func:`keep` s it here. Every byte the CLI writes passes :func:`redact`, which replaces each kept
value by :data:`REDACTED`: a message, a progress line or a traceback that forgot a credential
still cannot print it. Messages are written without credentials in the first place; this is the
net under them.

A value shorter than :data:`SHORTEST` characters is not kept: replacing every "ab" of a page
would garble it, and such a value is no secret worth the name. The forms a value may take on its
way out are kept with it: as :func:`kcompat.core.errors.printable` writes it, and (a PEM key) each
of its lines.
"""

from __future__ import annotations

#: what a secret is replaced by
REDACTED = "[redacted]"
#: characters a value needs to be kept
SHORTEST = 4

_kept: set[str] = set()
_ordered: tuple[str, ...] = ()  # longest first: a secret that holds another is replaced whole


def keep(value: object) -> None:
    """Remember ``value`` (a str or bytes credential) and the forms it may be shown in."""
    global _ordered
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    if not isinstance(value, str):
        return
    from kcompat.core.errors import printable

    forms = {value, value.strip(), printable(value), printable(value.strip())}
    if "\n" in value.strip():
        forms.update(line.strip() for line in value.splitlines() if not line.startswith("-----"))
    forms = {form for form in forms if len(form) >= SHORTEST}
    if forms <= _kept:
        return
    _kept.update(forms)
    _ordered = tuple(sorted(_kept, key=len, reverse=True))  # replaced whole: a reader sees the old tuple or the new


def any_kept() -> bool:
    """Whether a secret has been read (:func:`redact` has something to do)."""
    return bool(_ordered)


def redact(text: str) -> str:
    """``text`` with every kept secret replaced by :data:`REDACTED`."""
    for secret in _ordered:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def forget_all() -> None:
    """Forget every kept secret (a test starting afresh; a long-lived process between requests)."""
    global _ordered
    _kept.clear()
    _ordered = ()

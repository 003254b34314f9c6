"""KEP links as the gate comments write them, and as they are shown.

The Go comments above the gates name their KEP in several spellings (``// kep:
https://kep.k8s.io/4381``, ``http://kep.k8s.io/753``, 68 of the 216 links in the bundled
descriptions use ``http``); ``data/features/descriptions.yaml`` keeps them as written. Every
answer shows the one canonical form, ``https://kep.k8s.io/N`` (kep.k8s.io redirects it to the
KEP's directory in kubernetes/enhancements), so a link the comment wrote with ``http`` is a link
like any other, not "no KEP link".
"""

from __future__ import annotations

import re

#: ``[http[s]://]kep.k8s.io/N[/]`` in any case.
_KEP_SITE = re.compile(r"\A(?:https?://)?kep\.k8s\.io/(\d{1,6})/?\Z", re.I)
#: A link the pages may open: https, no spaces, quotes or angle brackets.
_SAFE_HTTPS = re.compile(r"\Ahttps://[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+\Z")


def kep_link(written: str | None) -> str | None:
    """The link to show for a KEP link as written: ``https://kep.k8s.io/N`` for any spelling of
    a kep.k8s.io link, another ``https`` link as it is, and None for anything else (no link, an
    ``http`` link elsewhere, a ``javascript:`` text): never a link that is not https."""
    if not written:
        return None
    text = written.strip()
    site = _KEP_SITE.match(text)
    if site:
        return f"https://kep.k8s.io/{int(site.group(1))}"
    return text if _SAFE_HTTPS.match(text) else None

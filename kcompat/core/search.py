"""Finding gates by what people type: part of the name, words of the description, a KEP number,
an abbreviation (``DRA`` finds DynamicResourceAllocation, ``dynamic resource allocation`` finds
the DRA* gates). Case-insensitive; pure (the descriptions and KEP links come from the caller). And the other way
round: the names closest to a mistyped one (:func:`closest_names`).

A query matches a gate when any of these holds:

* the query, spaces removed, is a substring of the name (``jobmanaged``, ``Job Managed By``);
* it is a KEP number (``4381``, ``KEP-4381``, ``kep 4381``, ``#4381``) and the gate's KEP link ends
  with that number;
* it is an abbreviation (2 to 6 letters) that spells the initials of consecutive words of the
  name (``DRA`` = Dynamic Resource Allocation, ``HPA`` = Horizontal Pod Autoscaler);
* it has several words whose initials are an abbreviation the name contains (``dynamic resource
  allocation`` finds DRAAdminAccess);
* every word of the query (3 characters or more) occurs in the gate's description.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: Longest query looked at (a search box, not a document).
MAX_QUERY_LENGTH = 200
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|$)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_KEP = re.compile(r"^(?:kep[\s#-]*|#)?(\d{1,6})$", re.I)
_ABBREVIATION = re.compile(r"^[A-Za-z]{2,6}$")
_KEP_NUMBER = re.compile(r"(\d+)/?$")


@dataclass(frozen=True)
class GateText:
    """What a gate can be found by besides its name."""

    description: str | None = None
    kep: str | None = None


def name_words(name: str) -> list[str]:
    """The CamelCase words of a gate name, acronym runs kept whole: DRAAdminAccess -> DRA, Admin, Access."""
    return _WORDS.findall(name)


def _initials(words: list[str]) -> list[str]:
    return [w[0].casefold() for w in words]


def _spells_initials(abbreviation: str, words: list[str]) -> bool:
    letters = _initials(words)
    want = list(abbreviation.casefold())
    n = len(want)
    return any(letters[i:i + n] == want for i in range(len(letters) - n + 1))


def kep_number(link: str | None) -> str | None:
    """The number a KEP link ends with (https://kep.k8s.io/4381 -> 4381)."""
    if not link:
        return None
    match = _KEP_NUMBER.search(link.strip())
    return match.group(1) if match else None


def matches(query: str, name: str, text: GateText | None = None) -> bool:
    """Whether ``query`` finds gate ``name`` (see the module docstring)."""
    query = (query or "").strip()[:MAX_QUERY_LENGTH]
    if not query:
        return True
    folded_name = name.casefold()
    if "".join(query.split()).casefold() in folded_name:
        return True
    text = text or GateText()
    kep = _KEP.match(query)
    if kep:
        return kep_number(text.kep) == str(int(kep.group(1)))
    words = name_words(name)
    if _ABBREVIATION.match(query) and _spells_initials(query, words):
        return True
    terms = query.split()
    if len(terms) >= 2:
        abbreviation = "".join(t[0] for t in terms if t).casefold()
        if any(w.casefold() == abbreviation for w in words) or (len(abbreviation) >= 2 and _spells_initials(abbreviation, words)):
            return True
    long_terms = [t.casefold() for t in terms if len(t) >= 3]
    if long_terms and text.description:
        description = text.description.casefold()
        if all(t in description for t in long_terms):
            return True
    return False


def search_gates(query: str, names: Iterable[str], texts: Mapping[str, GateText] | None = None) -> tuple[str, ...]:
    """The names ``query`` finds, in the order given."""
    texts = texts or {}
    return tuple(n for n in names if matches(query, n, texts.get(n)))


#: Names longer than this get no suggestions (no gate name is near it; difflib is quadratic).
MAX_SUGGESTED_NAME_LENGTH = 128
MAX_SUGGESTIONS = 3
SIMILARITY_CUTOFF = 0.75


def closest_names(name: str, known: Iterable[str], limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
    """The known names closest to a mistyped ``name``, best first ("did you mean ...?"); () when
    none is close. A name equal but for case is the only suggestion."""
    if not name or len(name) > MAX_SUGGESTED_NAME_LENGTH:
        return ()
    known = tuple(known)
    folded = name.casefold()
    same_case = tuple(k for k in known if k.casefold() == folded and k != name)
    if same_case:
        return same_case[:limit]
    by_folded: dict[str, str] = {}
    for k in known:
        by_folded.setdefault(k.casefold(), k)
    import difflib  # only when a name is unknown: kcompat gates starts without it

    matches = difflib.get_close_matches(folded, list(by_folded), n=limit, cutoff=SIMILARITY_CUTOFF)
    return tuple(by_folded[m] for m in matches)

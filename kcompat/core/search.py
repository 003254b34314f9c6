"""Finding gates by what people type: part of the name, words of the description, a KEP number,
an abbreviation (``DRA`` finds DynamicResourceAllocation, ``dynamic resource allocation`` finds
the DRA* gates). Case-insensitive; pure (the descriptions and KEP links come from the caller). And the other way
round: the names closest to a mistyped one (:func:`closest_names`).

Names are read as their CamelCase words (:func:`name_words`: DRAAdminAccess = DRA, Admin,
Access; EtcdRangeStream = Etcd, Range, Stream), descriptions as their words, each split the same
way. A query matches a gate when any of these holds, and :func:`match` says which (the first
that holds, in this order):

* ``name``: the query, spaces removed, spells whole consecutive words of the name
  (``jobmanaged``, ``Job Managed By``, ``DRA``; the last word may be a plural: ``job`` finds
  SuspendedJobs); a query of :data:`MIN_PREFIX` characters or more may end inside a word
  (``jobmana``). It always starts at a word: ``DRA`` is not found in Etc\\ **dRa**\\ nge, nor
  in **Dra**\\ ining;
* ``KEP``: it is a KEP number (``4381``, ``KEP-4381``, ``kep 4381``, ``#4381``) and the gate's
  KEP link ends with that number;
* ``abbreviation``: it is an abbreviation (2 to 6 letters) that spells the initials of
  consecutive words of the name (``DRA`` = Dynamic Resource Allocation, ``HPA`` = Horizontal Pod
  Autoscaler), or it has several words whose initials are an abbreviation the name contains
  (``dynamic resource allocation`` finds DRAAdminAccess);
* ``description``: every word of the query (3 characters or more) is a word of the gate's
  description by the same rule as the name (whole words; a word of :data:`MIN_PREFIX`
  characters or more may be the start of a longer one: ``sidecar`` finds "sidecars").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: Longest query looked at (a search box, not a document).
MAX_QUERY_LENGTH = 200
#: Shortest query (or query word) that may end inside a word: shorter ones are whole words
#: (``DRA``, ``pod``), so a three-letter abbreviation never matches the start of another word.
MIN_PREFIX = 4
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|$)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_TEXT_WORDS = re.compile(r"[A-Za-z0-9]+")
_KEP = re.compile(r"^(?:kep[\s#-]*|#)?(\d{1,6})$", re.I)
_ABBREVIATION = re.compile(r"^[A-Za-z]{2,6}$")
_KEP_NUMBER = re.compile(r"(\d+)/?$")

#: Where a query found a gate, in the order :func:`match` tries them.
MATCH_KINDS = ("name", "KEP", "abbreviation", "description")


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


def _in_words(term: str, text: str) -> bool:
    """Whether ``term`` (case-folded, no spaces) spells whole consecutive CamelCase words of
    ``text`` (one word, or a name), starting at a word, the last one possibly in its plural
    (``job`` finds SuspendedJobs); from :data:`MIN_PREFIX` characters it may end inside the last one."""
    folded = text.casefold()
    spans = [m.span() for m in _WORDS.finditer(text)]
    ends = {end for _, end in spans}
    for start, _ in spans:
        if folded.startswith(term, start):
            end = start + len(term)
            plural = folded[end:end + 1] == "s" and end + 1 in ends
            if end in ends or plural or len(term) >= MIN_PREFIX:
                return True
    return False


def _description_has(term: str, description: str) -> bool:
    return any(_in_words(term, word) for word in _TEXT_WORDS.findall(description))


def match(query: str, name: str, text: GateText | None = None) -> str | None:
    """Where ``query`` finds gate ``name``: one of :data:`MATCH_KINDS` (see the module
    docstring), ``"name"`` for an empty query, or None when it does not find it."""
    query = (query or "").strip()[:MAX_QUERY_LENGTH]
    if not query:
        return "name"
    joined = "".join(query.split()).casefold()
    if joined and _in_words(joined, name):
        return "name"
    text = text or GateText()
    kep = _KEP.match(query)
    if kep:
        return "KEP" if kep_number(text.kep) == str(int(kep.group(1))) else None
    words = name_words(name)
    if _ABBREVIATION.match(query) and _spells_initials(query, words):
        return "abbreviation"
    terms = query.split()
    if len(terms) >= 2:
        abbreviation = "".join(t[0] for t in terms if t).casefold()
        if any(w.casefold() == abbreviation for w in words) or (len(abbreviation) >= 2 and _spells_initials(abbreviation, words)):
            return "abbreviation"
    long_terms = [cleaned for t in terms if len(cleaned := "".join(_TEXT_WORDS.findall(t)).casefold()) >= 3]
    if long_terms and text.description and all(_description_has(t, text.description) for t in long_terms):
        return "description"
    return None


def matches(query: str, name: str, text: GateText | None = None) -> bool:
    """Whether ``query`` finds gate ``name`` (see the module docstring)."""
    return match(query, name, text) is not None


def search_matches(query: str, names: Iterable[str], texts: Mapping[str, GateText] | None = None) -> dict[str, str]:
    """The names ``query`` finds, in the order given, each with where it matched (:func:`match`)."""
    texts = texts or {}
    found = {}
    for n in names:
        where = match(query, n, texts.get(n))
        if where is not None:
            found[n] = where
    return found


def search_gates(query: str, names: Iterable[str], texts: Mapping[str, GateText] | None = None) -> tuple[str, ...]:
    """The names ``query`` finds, in the order given."""
    return tuple(search_matches(query, names, texts))


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

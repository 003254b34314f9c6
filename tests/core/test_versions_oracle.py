"""packaging.version as an independent ordering oracle for kcompat/core/versions.py.

Kubernetes versions are not PEP 440 versions: ``v1.31.1-beta.0.353+4f3d…`` (a build of master) and
``1.30.4-eks-a737599`` are refused by PEP 440, a generic ``1.31`` equals ``1.31.0-beta.0`` for
Kubernetes (pre-releases only order between two semantic versions) but is greater for PEP 440, and
``+build`` metadata is ignored by Kubernetes but a local version label that orders for PEP 440.
On the subset both read the same way - ``[v]X.Y.Z`` with an optional ``-alpha.N``, ``-beta.N`` or
``-rc.N`` - the two orderings must agree, and that is what these properties check."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.version import InvalidVersion
from packaging.version import Version as Pep440

from kcompat.core.versions import parse_version

numbers = st.integers(min_value=0, max_value=40)
pre_releases = st.one_of(st.just(""), st.builds(lambda label, n: f"-{label}.{n}", st.sampled_from(["alpha", "beta", "rc"]), numbers))
releases = st.builds(lambda v, x, y, z, pre: f"{v}{x}.{y}.{z}{pre}", st.sampled_from(["", "v"]), st.integers(0, 3), numbers, numbers, pre_releases)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _pep440_cmp(a: str, b: str) -> int:
    pa, pb = Pep440(a), Pep440(b)
    return (pa > pb) - (pa < pb)


@given(releases, releases)
def test_release_versions_order_as_pep_440_orders_them(a, b):
    ka, kb = parse_version(a), parse_version(b)
    assert ka.semver and kb.semver
    expected = _pep440_cmp(a, b)
    assert _sign(ka.compare(kb)) == expected, (a, b)
    assert (ka < kb) == (expected < 0) and (ka == kb) == (expected == 0)


@given(st.lists(releases, min_size=2, max_size=12))
def test_sorting_agrees_with_pep_440(texts):
    ours = [str(Pep440(t)) for t in sorted(texts, key=parse_version)]
    theirs = [str(Pep440(t)) for t in sorted(texts, key=Pep440)]
    assert ours == theirs


@pytest.mark.parametrize(
    "text",
    ["v1.31.1-beta.0.353+4f3d2a1b0c9e8d", "1.30.4-eks-a737599", "1.29.3-gke.1093000", "v1.32.0-alpha.0.1+dirty"],
)
def test_real_kubernetes_versions_outside_pep_440_still_parse(text):
    with pytest.raises(InvalidVersion):
        Pep440(text)
    assert parse_version(text).semver


def test_where_the_two_orderings_differ_on_purpose():
    # generic vs semantic: Kubernetes ignores the pre-release, PEP 440 does not
    assert parse_version("1.31") == parse_version("1.31.0-beta.0")
    assert Pep440("1.31") > Pep440("1.31.0-beta.0")
    # build metadata: ignored by Kubernetes, a local label that sorts after for PEP 440
    assert parse_version("1.31.0+abc") == parse_version("1.31.0")
    assert Pep440("1.31.0+abc") > Pep440("1.31.0")

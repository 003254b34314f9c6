"""The texts of kcompat inspect's refusals, warnings and remedies that are built from typed values
(a flag parse error, a variable the inputs cannot tell, a YAML number where a string belongs...):
every one in this module, so they are written once and can move together. The binary's and the
tools' own words (pflag, Go's encoding/json) are reproduced exactly, with their sources named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import cut, echo, go_quote

if TYPE_CHECKING:
    from ..safe_yaml import GoScalar
    from .model import Fact, FlagParseError, Unread, Where


def go_quote_rune(ch: str) -> str:
    """Go's ``%q`` of a rune (``strconv.QuoteRune``): ``'e'``, ``'\\''``, ``'\\x00'``."""
    if ch == "'":
        return "'\\''"
    if ch == '"':
        return "'\"'"
    return "'" + go_quote(ch)[1:-1] + "'"


def pflag_error(error: FlagParseError) -> str:
    """spf13/pflag's error text (``errors.go``: ``NotExistError``, ``ValueRequiredError``,
    ``InvalidSyntaxError``) for a word the binary's flag parser refuses."""
    if error.kind == "unknown-shorthand":
        return f"unknown shorthand flag: {go_quote_rune(error.name[0])} in -{error.name}"
    if error.kind == "needs-argument-shorthand":
        return f"flag needs an argument: {go_quote_rune(error.name[0])} in -{error.name}"
    if error.kind == "needs-argument":
        return f"flag needs an argument: --{error.name}"
    if error.kind == "bad-syntax":
        return f"bad flag syntax: {error.word}"
    return f"{error.word}: the binary prints its usage and exits (pflag's -h, --help): it does not start"


def pflag_remedy(error: FlagParseError, known_flags: tuple[str, ...]) -> str:
    """What to write instead, for the hint beside pflag's error."""
    name = error.word.lstrip("-").split("=", 1)[0]
    if error.kind == "unknown-shorthand" and name in known_flags:
        return f"{error.where}: {cut(error.word)} has one dash, so pflag reads it as shorthand letters: write -{cut(error.word)}"
    if error.kind == "unknown-shorthand":
        return f"{error.where}: {cut(error.word)} has one dash, so pflag reads it as shorthand letters: long flags take two (--{cut(name)})"
    if error.kind.startswith("needs-argument"):
        return f"{error.where}: {cut(error.word)} is the last word: give its value (--{cut(name)}=VALUE)"
    return f"{error.where}: remove {cut(error.word)} from the command line"


# --- Go's encoding/json, as kubeadm and the kubelet decode YAML ----------------------------------


def go_type_error(value: GoScalar, struct: str, field: str, go_type: str = "string") -> str:
    """``json.UnmarshalTypeError.Error()`` (sigs.k8s.io/json, the fork of encoding/json the
    Kubernetes decoders use: ``internal/golang/encoding/json/decode.go``): the struct decoded
    last, then the JSON field path from the top (map keys and list indexes are not in it)."""
    return f"json: cannot unmarshal {value.kind} into Go struct field {struct}.{field} of type {go_type}"


def _type_remedy(value: GoScalar) -> str:
    if value.kind == "number":
        read = f" {value.value!r}" if str(value.value) != value.text else ""
        return f"unquoted, YAML reads {cut(value.text)} as the number{read}: write \"{cut(value.text)}\" in quotes"
    if value.kind == "bool":
        return f"unquoted, YAML reads {cut(value.text)} as a boolean: write \"{cut(value.text)}\" in quotes"
    return f"{value.text} where a string belongs"


def kubeadm_type_error(where: Where, value: GoScalar, struct: str, field: str, written: str) -> str:
    """kubeadm refuses a config with a number or a boolean where its type has a string
    (``runtime.DecodeInto`` in ``cmd/kubeadm/app/util/config``)."""
    return f"{where}: kubeadm refuses this config: {go_type_error(value, struct, field)} ({written}: {_type_remedy(value)})"


def kubelet_type_error(where: Where, value: GoScalar, struct: str, field: str, written: str) -> str:
    """The kubelet refuses a static pod file it cannot decode (``pkg/kubelet/config/file.go``)."""
    return (
        f"{where}: the kubelet would not run this static pod: couldn't parse as pod({go_type_error(value, struct, field)}) "
        f"({written}: {_type_remedy(value)})"
    )


def kubelet_left_as_written(where: Where, name: str) -> str:
    return (
        f"{where}: $({cut(name)}) is not defined by the container's env, so the kubelet passes it as written "
        f"(write $$({cut(name)}) for a literal, or define {cut(name)} in env)"
    )


# --- binary versions that name no release -------------------------------------------------------

IMAGE_BY_DIGEST = "an image by digest alone names no release"
IMAGE_WITHOUT_TAG = "an image without a tag (the registry's latest) names no release"


def not_a_release(value: str) -> str:
    """Why a tag or a version field is not a release version."""
    if value.lower() in ("latest", "stable", "edge", "main", "master", "nightly"):
        return f"the tag {cut(value)} moves from release to release: it names none"
    return f"{cut(value)!r} is not a release version (like v1.36.2)"


def kubeadm_label(label: str) -> str:
    return f"kubeadm resolves {cut(label)} from dl.k8s.io when it runs: which release that gave is not in the input"


def kubeadm_label_release(label: str, release: str) -> str:
    return f"kubernetesVersion: {cut(label)} (the newest {release} patch when kubeadm ran)"


def binary_not_used(described: str) -> str:
    return f"{described}; not used for the binary"


def given_binary_differs(found: str, given: str, how: str | None) -> str | None:
    """The inputs name a binary version and another one was given beside them (``how``: "release"
    or "patch"; None: they agree): the inputs' one is used, being what the running binary says."""
    if how is None:
        return None
    return (
        f"{found} but {given}: another {how}; the inputs' version is used (what the running binary says wins over "
        "a version given beside it)"
    )


def no_binary_version(unusable: list[str]) -> str:
    """No input names a release: each candidate seen is named with why it cannot be used."""
    told = f": {'; '.join(unusable)}" if unusable else ""
    return (
        f"no binary version in the inputs{told}. Give it with --binary (e.g. --binary 1.36), or add /version JSON, /metrics "
        "(kubernetes_build_info), a static pod manifest whose image has a version tag, a kubeadm ClusterConfiguration "
        "(kubernetesVersion: v1.36.2) or a kind config (node image)"
    )


# --- values the inputs cannot tell ---------------------------------------------------------------


def from_value_from(name: str, source: str) -> str:
    return f"{name} is set from {source}, which the inputs do not show"


def from_env_from(name: str, sources: str) -> str:
    return f"{name} is not in the container's env, and its envFrom ({sources}) may set it: not in the inputs"


def unset_in_container(name: str) -> str:
    return f"{name} is not set by the container's env in the inputs (the image may set it; if nothing does, the shell passes an empty value)"


def unset_in_text(name: str) -> str:
    return f"{name} is a shell variable the input does not set"


def unset_in_unit(name: str, files: tuple[str, ...]) -> str:
    if files:
        return f"{name} is not set by an Environment= line in the input; EnvironmentFile={', '.join(cut(f) for f in files)} may set it"
    return (
        f"{name} is not set by an Environment= line in the input (an EnvironmentFile= or the service manager may set it; "
        "if nothing does, systemd passes an empty value)"
    )


def unread_flag(unread: Unread) -> str:
    """A flag whose value the inputs cannot tell: the answer would be a guess."""
    return (
        f"{unread.where}: the value of --{unread.flag} cannot be known from the inputs: {echo(unread.written, 100)}: {unread.why}; "
        "give the command line the process runs with (ps aux | grep kube-apiserver shows it expanded)"
    )


def unread_flag_replaced(unread: Unread, source: str) -> str:
    return f"{unread.where}: the value of --{unread.flag} cannot be known from this input ({unread.why}); {source} is used"


def hidden_flags(unread: Unread) -> str:
    """A part of a command line that may hold flags kcompat cannot see."""
    return f"{unread.where}: {echo(unread.written, 100)} may hold flags that cannot be read: {unread.why}"


def script_doubts(where: Where, program: str, doubts: tuple[str, ...]) -> str:
    return (
        f"{where}: {program} is started by a shell script with {', '.join(doubts)}: the line read is the one the "
        "script holds, which it may not run as written"
    )


def script_unreadable(shell: str, why: str) -> str:
    return f"the {shell} -c script cannot be split into commands ({why})"


SCRIPT_ELSEWHERE = "the command line it runs is in a file the inputs do not show"
SCRIPT_NOT_GIVEN = "the script itself is not in the inputs"


def several_invocations(where: Where, component: str, count: int) -> str:
    return f"{where}: the script starts {component} in {count} places; the first is read"


def no_emulated_version(binary: str, reports_emulation: bool, version_given: bool) -> str:
    """No input shows the emulated version (the answer assumes the binary's own release).
    ``reports_emulation``: a /version of this release has the emulation fields (1.33 and later)."""
    if version_given and reports_emulation:
        return (
            f"no input shows the emulated version: the /version given has no emulationMajor/emulationMinor, which a {binary} "
            f"server reports (an edited or cut /version?); assumed {binary}; add the command line or the static pod manifest"
        )
    if version_given:
        return (
            f"no input shows the emulated version (a {binary} server's /version does not report it; from 1.33 on it does): "
            f"assumed {binary}; add the command line or the static pod manifest"
        )
    return (
        f"no input shows the emulated version: assumed the binary's own release ({binary}); add the command line, "
        "the static pod manifest, or /version (from 1.33 on, it reports the emulated version)"
    )


# --- what an input is ------------------------------------------------------------------------------


def version_field_contradicts(where: Where, key: str, value: str, git_version: str, git_where: Where) -> str:
    return (
        f"{where}: /version {key} {go_quote(cut(value))} contradicts gitVersion {cut(git_version)} ({git_where}): "
        "an edited /version, or the answers of two servers pasted together?"
    )


def build_info_contradicts(where: Where, git_version: str, earlier: Fact) -> str:
    return (
        f"{where}: kubernetes_build_info git_version {cut(git_version)} contradicts {earlier.where} ({cut(earlier.value)}): "
        "a /metrics of two different servers?"
    )


def json_not_version(doc: object) -> str:
    """What a JSON document given as /version is, when it is not one."""
    if isinstance(doc, list):
        return f"a JSON array of {len(doc):,} item(s), not a /version response (a JSON object with gitVersion)"
    if isinstance(doc, dict) and doc.get("kind") == "Status":
        said = ": ".join(echo(doc[k], 200) for k in ("code", "message") if doc.get(k) not in (None, ""))
        return f"an API error (Status{' ' + said if said else ''}), not a /version response"
    if isinstance(doc, dict):
        return "a JSON object without gitVersion: not a /version response"
    return f"JSON {type(doc).__name__ if doc is not None else 'null'}, not a /version response (a JSON object with gitVersion)"


def html_page(title: str | None) -> str:
    named = f" ({echo(title, 100)})" if title else ""
    return f"an HTML page{named}, not an answer of the API server: a login page or a proxy answered instead"


def given_as(source: str, expected: str, found: str) -> str:
    """An input given in the place of one endpoint that holds something else."""
    return f"{source}: given as {expected}, but this is {found}"

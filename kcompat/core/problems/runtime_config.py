"""kube-apiserver: ``--runtime-config`` (apiserver ``APIEnablementOptions.Validate``,
``MergeAPIResourceConfigs``, ``removeUnintroducedKinds``) and the forward-compatibility flags
(``ServerRunOptions.Validate``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import cut, echo, quote_cut
from ..versions import Version
from .base import Problem, Verdict


@dataclass(frozen=True, slots=True)
class ForwardCompatSameVersion(Problem):
    """``ServerRunOptions.<Option> cannot be set to true if the emulation version is the same as
    the binary version``; ``flag`` is the option's command-line name."""

    flag: str
    option: str

    @property
    def message(self) -> str:
        return f"ServerRunOptions.{self.option} cannot be set to true if the emulation version is the same as the binary version"


@dataclass(frozen=True, slots=True)
class ApiVersionIntroducedLater(Problem):
    """An explicitly enabled group/version none of whose resources exists at the emulated version."""

    group_version: str
    emulated: Version

    @property
    def message(self) -> str:
        return (
            f"cannot enable version {self.group_version} in runtime-config because all the resources have been introduced "
            f"after the current version {self.emulated}. Consider setting --runtime-config-emulation-forward-compatible=true"
        )


@dataclass(frozen=True, slots=True)
class ApiResourceIntroducedLater(Problem):
    """An explicitly enabled resource introduced after the emulated version."""

    group: str
    version: str
    resource: str
    introduced: Version
    emulated: Version

    @property
    def message(self) -> str:
        return (
            f"cannot enable resource {self.group}/{self.version}, Resource={self.resource} in runtime-config because it is "
            f"introduced at {self.introduced} after the current version {self.emulated}. "
            "Consider setting --runtime-config-emulation-forward-compatible=true"
        )


@dataclass(frozen=True, slots=True)
class GroupVersionNotRegistered(Problem):
    """``group version G/V that has not been registered``; ``group_version`` as the binary writes it."""

    group_version: str

    @property
    def shown(self) -> str:
        """The group/version as the message echoes it (cut)."""
        return cut(self.group_version)

    @property
    def message(self) -> str:
        return f"group version {self.shown} that has not been registered"


@dataclass(frozen=True, slots=True)
class UnknownApiGroups(Problem):
    """``unknown api groups ...``: sorted unique group/versions (1.36+) or bare groups (before)."""

    names: tuple[str, ...]

    @property
    def message(self) -> str:
        return f"unknown api groups {echo(','.join(self.names), 200)}"


@dataclass(frozen=True, slots=True)
class OnlyApiAllFalse(Problem):
    """``--runtime-config=api/all=false`` and nothing else (apiserver
    ``APIEnablementOptions.Validate``): "invalid key with only ..." up to 1.35, "invalid
    runtime-config with only ..." from 1.36 (``noun``)."""

    key: str
    noun: str = "runtime-config"

    @property
    def message(self) -> str:
        return f"invalid {self.noun} with only {self.key}=false"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidKey(Problem):
    """A key with other than two or three path segments."""

    key: str

    @property
    def message(self) -> str:
        return f"runtime-config invalid key {echo(self.key)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidLevel(Problem):
    """``api/all``, ``api/ga``, ``api/beta`` or ``api/alpha`` with a value other than true/false."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return f"invalid value {self.key}={echo(self.value)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidBool(Problem):
    """A group/version item whose value is no Go boolean."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return (
            f"invalid value of {echo(self.key)}: {echo(self.value)}, err: strconv.ParseBool: parsing {quote_cut(self.value)}: "
            "invalid syntax"
        )


@dataclass(frozen=True, slots=True)
class RuntimeConfigResourceNotLowercase(Problem):
    """A group/version/resource item whose resource is not lowercase."""

    key: str
    resource: str

    @property
    def message(self) -> str:
        return f"invalid key {echo(self.key)}: group/version/resource and resource is always lowercase plural, not {quote_cut(self.resource)}"


@dataclass(frozen=True, slots=True)
class AlphaApiWhileEmulating(Problem):
    """1.34+ ``ApplyTo``: an explicitly enabled alpha API while emulating an older release."""

    verdict = Verdict.WARNS
    group_version: str
    emulated: Version
    #: the binary as ``version.Version.String()`` prints it (always x.y.z)
    binary: str

    @property
    def message(self) -> str:
        return (
            f"alpha api enabled with emulated version {self.emulated} instead of the binary's version {self.binary}, "
            f"this is unsupported, proceed at your own risk: api={self.group_version}"
        )

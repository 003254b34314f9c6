"""What a binary says about its flags, as typed values: one frozen problem per kind.

A problem holds the values the binary's check found (the gate, the flag value, the range) and
renders the binary's own line from them (:attr:`Problem.message`), byte for byte as the binary
prints it (``tests/oracle`` compares them with the real binaries' lines). Nothing parses a
message again: callers branch on the problem's type, and the remedy beside it
(:class:`Remedy`, computed by :mod:`kcompat.core.remedies`) holds the problem itself, so
rewording a message can never lose its remedy.

Each kind has a :class:`Verdict`, what the binary does about it: it refuses to start
(:attr:`Verdict.REFUSES`, the errors), or starts and logs it (:attr:`Verdict.WARNS`, the
warnings), or starts but never becomes ready (:attr:`Verdict.NOT_READY`: :class:`GatesNotReady`,
:class:`ApiOffNotReady`, from the recorded starts of the real binary). The evaluations (``VersionSelection``,
``GateEvaluation``, ``ApiAvailability``, ``StorageVersions``) keep their problems in order in
``problems``; their ``errors`` and ``warnings`` are the messages of each verdict.

Adding a kind (a kube-apiserver option check, say ``--runtime-config=api/all=false conflicts
with --enable-priority-and-fairness=true``):

1. Define it in its family's module (:mod:`.versions`, :mod:`.gates`, :mod:`.runtime_config`,
   :mod:`.options`, :mod:`.readiness`; what every kind shares is in :mod:`.base`, the remedies'
   values in :mod:`.remedies`): a ``@dataclass(frozen=True, slots=True)`` subclass of
   :class:`Problem` whose fields are the values the check found (never a message), with
   ``verdict`` set when it is not a refusal, ``gate`` when it names a gate, and a ``message``
   property that renders the binary's line from the fields (``cut``/``quote_cut`` every echo of
   user input). Cite the Go function that prints it.
2. Emit it where the rule lives in the core (the evaluation appends the value to its problems).
3. Give it a remedy: a function ``(problem, context) -> Remedy | None`` in the family's module of
   :mod:`kcompat.core.remedies`, registered in that module's table under the new type.
4. Record the binary's line (``oracle/``) so ``tests/oracle`` holds the message to the binary's,
   and add the remedy's kind to the table in ``docs/cli.md`` when it is a new one.

A kind with the verdict ``NOT_READY`` is added the same way; the front ends then report it
apart from the errors (``kcompat`` exits with ``ExitStatus.NOT_READY``, see docs/cli.md).

The kinds are plain values (they pickle, compare and hash by their fields). The evaluations
import a kind where they find one: defining them all costs more than a whole ``kcompat gates``
answer on input the binary accepts, which therefore never imports this module (tested).
"""

from __future__ import annotations

from .base import (
    Note as Note,
)
from .base import (
    PatchNotRecorded as PatchNotRecorded,
)
from .base import (
    Problem as Problem,
)
from .base import (
    Verdict as Verdict,
)
from .base import (
    messages as messages,
)
from .base import (
    unique as unique,
)
from .gates import (
    AlphaGatesWhileEmulating as AlphaGatesWhileEmulating,
)
from .gates import (
    DependencyDisabled as DependencyDisabled,
)
from .gates import (
    LockedGate as LockedGate,
)
from .gates import (
    PreAlphaGate as PreAlphaGate,
)
from .gates import (
    RetiringGateSet as RetiringGateSet,
)
from .gates import (
    UnknownGate as UnknownGate,
)
from .options import (
    OPTION_KINDS as OPTION_KINDS,
)
from .options import (
    ApiGroupVersionMustBeEnabled as ApiGroupVersionMustBeEnabled,
)
from .options import (
    CloudProviderNeedsFeature as CloudProviderNeedsFeature,
)
from .options import (
    CoreSecretsOffPanic as CoreSecretsOffPanic,
)
from .options import (
    FeatureRequiresFeature as FeatureRequiresFeature,
)
from .options import (
    FlagRequiresFeature as FlagRequiresFeature,
)
from .options import (
    PriorityAndFairnessConflict as PriorityAndFairnessConflict,
)
from .options import (
    ServiceClusterIPRangeTooLarge as ServiceClusterIPRangeTooLarge,
)
from .options import (
    SigningEndpointInvalid as SigningEndpointInvalid,
)
from .options import (
    SigningEndpointWithKeyFiles as SigningEndpointWithKeyFiles,
)
from .options import (
    SigningKeyAndEndpoint as SigningKeyAndEndpoint,
)
from .options import (
    UidHeadersProblem as UidHeadersProblem,
)
from .readiness import (
    NOT_READY_KINDS as NOT_READY_KINDS,
)
from .readiness import (
    ApiOffNotReady as ApiOffNotReady,
)
from .readiness import (
    GatesNotReady as GatesNotReady,
)
from .readiness import (
    ReadinessNotSearched as ReadinessNotSearched,
)
from .remedies import (
    MAX_REMEDIES as MAX_REMEDIES,
)
from .remedies import (
    Remedy as Remedy,
)
from .remedies import (
    RemedyKind as RemedyKind,
)
from .runtime_config import (
    AlphaApiWhileEmulating as AlphaApiWhileEmulating,
)
from .runtime_config import (
    ApiResourceIntroducedLater as ApiResourceIntroducedLater,
)
from .runtime_config import (
    ApiVersionIntroducedLater as ApiVersionIntroducedLater,
)
from .runtime_config import (
    ForwardCompatSameVersion as ForwardCompatSameVersion,
)
from .runtime_config import (
    GroupVersionNotRegistered as GroupVersionNotRegistered,
)
from .runtime_config import (
    OnlyApiAllFalse as OnlyApiAllFalse,
)
from .runtime_config import (
    RuntimeConfigInvalidBool as RuntimeConfigInvalidBool,
)
from .runtime_config import (
    RuntimeConfigInvalidKey as RuntimeConfigInvalidKey,
)
from .runtime_config import (
    RuntimeConfigInvalidLevel as RuntimeConfigInvalidLevel,
)
from .runtime_config import (
    RuntimeConfigResourceNotLowercase as RuntimeConfigResourceNotLowercase,
)
from .runtime_config import (
    UnknownApiGroups as UnknownApiGroups,
)
from .versions import (
    VERSION_RANGE_KINDS as VERSION_RANGE_KINDS,
)
from .versions import (
    EmulationMustEqualBinary as EmulationMustEqualBinary,
)
from .versions import (
    EmulationOutOfRange as EmulationOutOfRange,
)
from .versions import (
    FlagSyntaxRefused as FlagSyntaxRefused,
)
from .versions import (
    FlagValueRejected as FlagValueRejected,
)
from .versions import (
    MinCompatOutOfRange as MinCompatOutOfRange,
)
from .versions import (
    OtherComponentRefuses as OtherComponentRefuses,
)
from .versions import (
    UnknownFlag as UnknownFlag,
)

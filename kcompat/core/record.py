"""Plain immutable records: the value classes of the core and the data layer.

A record is a class with ``__slots__`` naming its fields and an ``__init__`` written out, that
derives from :class:`Record`. The base gives what ``@dataclass(frozen=True)`` gives (no assignment
after ``__init__``, equality and hash over the fields, a repr, pickling, :meth:`Record.replace`)
without generating code per class: the classes on the CLI's start path are built on every call,
and a generated dataclass costs about a millisecond each to build, where a plain class costs
microseconds (docs/benchmarks.md, "CLI start").

A subclass names fields left out of equality and repr in ``_uncompared``, and fields that
``__init__`` computes (so :meth:`Record.replace` must not pass them) in ``_derived``. ``__init__``
takes the other fields in their declaration order and sets each with :func:`set_field`
(``object.__setattr__``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Self

#: how a record's ``__init__`` sets a field (assignment is refused after it)
set_field = object.__setattr__


class Record:
    """Base of the immutable records: subclasses declare ``__slots__`` and write ``__init__``."""

    __slots__ = ()
    #: every field, in declaration order (the slots of the class and its bases)
    _fields: ClassVar[tuple[str, ...]] = ()
    #: the fields equality, hash and repr use
    _compared: ClassVar[tuple[str, ...]] = ()
    _uncompared: ClassVar[tuple[str, ...]] = ()
    _derived: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        fields: list[str] = []
        for klass in reversed(cls.__mro__):  # (declaration order: the annotations of each class's own slots)
            slots = klass.__dict__.get("__slots__", ())
            for name in klass.__dict__.get("__annotations__", {}):  # noqa: RUF063 - inspect is not imported on the start path
                if name in slots and name not in fields:
                    fields.append(name)
        cls._fields = tuple(fields)
        cls._compared = tuple(f for f in fields if f not in cls._uncompared)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an immutable {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an immutable {type(self).__name__}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._compared)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._compared)
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        # rebuilt through ``__init__`` (whose parameters are the fields not derived, in order), so
        # it pickles, copies, and hashes in Streamlit's cache keys like any plain value
        return type(self), tuple(getattr(self, name) for name in self._fields if name not in self._derived)

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values, in declaration order (the computed ones included)."""
        return {name: getattr(self, name) for name in self._fields}

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``, built through ``__init__`` (so computed fields follow)."""
        values: dict[str, Any] = {name: getattr(self, name) for name in self._fields if name not in self._derived}
        for name in changes:
            if name not in values:
                raise TypeError(f"{type(self).__name__} has no field {name!r} to replace")
        values.update(changes)
        return type(self)(**values)

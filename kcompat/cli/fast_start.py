"""The methods ``@dataclass`` writes, compiled once and kept beside the bytecode.

Every frozen dataclass of the library has its ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` written as source text and compiled when its module is
imported (``dataclasses._create_fn``): 0.5-0.8 ms a class, 13.5 ms for the 21 classes a
``kcompat gates`` call imports, half of the time its imports take and more than its answer.
Python keeps the bytecode of modules (``__pycache__``), not of these generated functions.

:func:`install` gives the ``dataclasses`` module an ``exec`` of its own (the name its function
builder calls; the built-in one elsewhere) that compiles each distinct source text once and keeps
the code objects in one file beside the package's bytecode, as Python writes its own:
``__pycache__/dataclass-methods.<cache tag>.v<FORMAT>.marshal`` (under ``sys.pycache_prefix`` when set; not
written when ``sys.dont_write_bytecode`` is set or the folder is not writable). The code compiled
from the same text is the same code, run in the same namespaces: the classes are exactly those
``dataclasses`` builds. A file that cannot be read as such is ignored and written anew.

``dataclasses`` imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``: 4-5 ms) for one use,
the text signature it gives a class without a docstring (every class of the CLI's path has one).
:func:`install` makes that import lazy: the module is imported when one of its attributes is first
read, by whatever reads it.
"""

from __future__ import annotations

import contextlib
import importlib
import marshal
import os
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not imported on the CLI's start-up path)
    from types import CodeType
    from typing import Any

#: A larger file is not read (the CLI's classes need about 150 kB).
MAX_BYTES = 4 * 1024 * 1024
#: Changes whenever what is kept changes: a file of another format is not read.
FORMAT = 2
#: Sources kept at most (old ones go first when a run adds new ones).
MAX_ENTRIES = 2000

_code: dict[str, CodeType] = {}
_added = False
_path: str | None = None


def cache_path() -> str | None:
    """Where the compiled methods are kept, or None when Python keeps no bytecode of this package."""
    try:
        from importlib.util import cache_from_source

        pyc = cache_from_source(__file__)
    except (NotImplementedError, ValueError):
        return None
    tag = sys.implementation.cache_tag
    return os.path.join(os.path.dirname(pyc), f"dataclass-methods.{tag}.v{FORMAT}.marshal") if tag else None


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: Any = None) -> None:  # noqa: A002 - exec's own names
    global _added  # noqa: PLW0603
    if isinstance(source, str):
        code = _code.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)  # (not this module's __future__ flags)
            _code[source] = code
            _added = True
        source = code
    exec(source, globals, locals)


def install() -> None:
    """Read the kept code and let ``dataclasses`` use it (once per process)."""
    global _path  # noqa: PLW0603
    if "dataclasses" not in sys.modules:
        _lazy("inspect")
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        return
    _path = cache_path()
    if _path is not None:
        try:
            if os.stat(_path).st_size <= MAX_BYTES:
                with open(_path, "rb") as f:
                    kept = marshal.loads(f.read())  # (marshal.load reads a file in small pieces: 5x slower)
                if isinstance(kept, dict):
                    _code.update((k, v) for k, v in kept.items() if isinstance(k, str) and type(v).__name__ == "code")
        except (OSError, EOFError, ValueError, TypeError):
            pass
    dataclasses.exec = _exec  # type: ignore[attr-defined]


class _Deferred(types.ModuleType):
    """Stands for a module not imported yet: the first attribute read imports it (then every read
    is the module's own)."""

    def __getattr__(self, attr: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        return getattr(importlib.import_module(name), attr)


def _lazy(name: str) -> None:
    """Import module ``name`` when one of its attributes is first read (importlib's LazyLoader
    is loaded by the ``import`` statement itself on Python 3.11, which reads ``__spec__``)."""
    if name not in sys.modules:
        sys.modules[name] = _Deferred(name)


def save() -> None:
    """Write the kept code when this run compiled something new (as Python writes bytecode)."""
    global _added  # noqa: PLW0603
    if not _added or _path is None or sys.dont_write_bytecode:
        return
    _added = False
    entries = list(_code.items())[-MAX_ENTRIES:]
    tmp = f"{_path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(_path), exist_ok=True)
        with open(tmp, "wb") as f:
            marshal.dump(dict(entries), f)
        os.replace(tmp, _path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)

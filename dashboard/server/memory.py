"""The server process's memory and scheduling settings (see :mod:`dashboard.server`)."""

from __future__ import annotations

import gc

#: Seconds a thread may hold the interpreter lock while another waits for it (Python's default is
#: 0.005): "The event loop gets the lock sooner" in :mod:`dashboard.server`.
SWITCH_INTERVAL = 0.001

#: glibc malloc settings the server is started with (Dockerfile ``ENV``, ``scripts/serve.sh``):
#: buffers of 128 kB and more (a paste, an uploaded /metrics, their pickles for the upload worker)
#: are mmapped and returned to the system when freed, instead of glibc raising its threshold after
#: the first large free and carving later ones from heaps that stay fragmented; two arenas, not
#: eight per core. 20 sessions checking maximum-size cluster inputs: peak RSS 537 MB and 185 MB
#: after they closed, against 628 and 256 MB without (bench/bench_soak.py --cluster-checks 5).
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_ARENA_MAX": "2"}

_frozen = False


def freeze_long_lived() -> bool:
    """Collect once, then exclude every object alive now from later collections (``gc.freeze``).
    Called when the bundled catalog has been loaded; later calls do nothing. Returns whether this
    call froze."""
    global _frozen  # noqa: PLW0603
    if _frozen:
        return False
    _frozen = True
    gc.collect()
    gc.freeze()
    return True


def trim_heap() -> None:
    """Give freed heap pages back to the system (glibc ``malloc_trim``): without it the memory of
    closed sessions stays in the process's malloc arenas and the RSS never comes down."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass

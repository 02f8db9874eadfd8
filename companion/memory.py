"""How the process keeps the memory it frees, for the passes of a big table.

At 7-8 players a typed line runs a few passes over arrays of 10-100 MB (the exact counting
in numpy), freed at the end of the line and allocated again at the next. By default glibc
hands such blocks back to the system at once (they are mapped apart, or trimmed off the top
of the heap), and every page of the next ones is faulted in and zeroed again by the kernel:
a quarter of a 7-player line (crowd-7p-s1: worst line 315-365 ms, 218-244 ms with the freed
memory kept) and a third of the process's time at 8 players went there.
:func:`keep_freed_memory` asks malloc to keep it for the next allocations instead. The
process then holds its peak memory until it exits, which for a table is what the next line
needs anyway.

It also turns off numpy's request for transparent huge pages on big arrays: where the system
compacts memory to find a huge page at the first touch (``defrag`` set to ``madvise``, the
usual default), a fault can stall, as interactive programs are warned; on this project's
machine, fresh arrays cost 4 ms a MB that way against 0.5 ms in small pages, and the system
time of an 8-player record fell from 5.0 s to 0.9 s (crowd-7p-s1: 0.45-0.57 s to 0.14-0.19 s).

>>> dict(SETTINGS)[M_MMAP_MAX]  # no block mapped apart: each comes from the heap, kept when freed
0
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1
M_TOP_PAD = -2
M_MMAP_MAX = -4
SETTINGS = (
    (M_MMAP_MAX, 0),  # every block from the heap, none mapped apart (and unmapped when freed)
    (M_TRIM_THRESHOLD, 2**31 - 1),  # the heap's free top kept, up to 2 GiB
    (M_TOP_PAD, 64 << 20),  # the heap grown 64 MiB at a time (pages are only faulted when used)
)
"""glibc's ``mallopt`` parameters (malloc.h) and the values set."""


def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep the memory the process frees, and numpy not to ask for huge
    pages (see the module; ``NUMPY_MADVISE_HUGEPAGE``, when set, is left as it is); True if
    malloc took every setting, False elsewhere (another C library, another system), where
    nothing changes."""
    if not sys.platform.startswith("linux"):
        return False
    _no_huge_pages()
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library by that name, or no mallopt in it
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return all(mallopt(param, value) == 1 for param, value in SETTINGS)


def _no_huge_pages() -> None:
    if "numpy" not in sys.modules:  # numpy reads it when imported (not before it is needed)
        os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
        return
    if os.environ.get("NUMPY_MADVISE_HUGEPAGE") is None:
        from numpy._core import multiarray  # the switch numpy documents for this

        getattr(multiarray, "_set_madvise_hugepage", lambda enabled: enabled)(False)

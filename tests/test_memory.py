"""The process keeps the memory it frees (companion.memory), so a big table's next line does
not fault its arrays' pages in again."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

FAULTS = """
import resource, sys
import numpy as np
from companion.memory import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
np.ones(8 << 20).sum()  # 64 MiB allocated, touched, freed
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
np.ones(8 << 20).sum()  # the same again
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", FAULTS, mode], capture_output=True, text=True, check=True)
    return int(done.stdout)


glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only"
)


@glibc
def test_a_block_freed_and_allocated_again_is_not_faulted_in_again() -> None:
    handed_back = faults("default")  # 64 MiB faulted in anew: 16,384 pages, or 32+ huge pages
    assert handed_back >= 32
    assert faults("keep") * 10 < handed_back  # kept: the same pages reused


HUGE = """
import sys
if sys.argv[1] == "numpy first":
    import numpy
from companion.memory import keep_freed_memory
keep_freed_memory()
from numpy._core.multiarray import _set_madvise_hugepage
print(_set_madvise_hugepage(True))  # the setting it replaces
"""


@glibc
@pytest.mark.parametrize("order", ["numpy first", "numpy after"])
def test_numpy_asks_for_no_huge_pages_unless_the_user_said_otherwise(order: str) -> None:
    def asks(env: dict[str, str]) -> str:
        environ = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"} | env
        done = subprocess.run(
            [sys.executable, "-c", HUGE, order], capture_output=True, text=True, check=True, env=environ
        )
        return done.stdout.strip()

    assert asks({}) == "False"
    assert asks({"NUMPY_MADVISE_HUGEPAGE": "1"}) == "True"

"""The one runner of heavy jobs (table builds, batches of solves, tournaments, archives): each
job is a set of Dask tasks on ``dask.distributed``; ``--workers N`` starts a local cluster of N
processes (default: the machine's cores), ``--scheduler ADDRESS`` (or ``DASK_SCHEDULER_ADDRESS``)
uses an existing cluster, and ``--workers 1`` runs the tasks here, in order, without Dask.

Tasks are pure functions of their arguments, so a job's result does not depend on where or how
often a task ran: a worker that dies is replaced (its nanny restarts it) and the scheduler runs
its tasks again elsewhere. A task that raises :class:`~solver.errors.GameError` stops the job with
that error; Ctrl-C stops the cluster the runner started. Dask is imported only when a job runs
on a cluster.

>>> with Runner(workers=1, quiet=True) as run:
...     run.map(abs, [-1, 2, -3])
[1, 2, 3]
>>> with Runner(workers=1, quiet=True) as run:
...     run.graph({"a": Task(len, ("xy",)), "b": Task(max, (1,), needs=("a",))})
{'a': 2, 'b': 2}
"""

from __future__ import annotations

import argparse
import atexit
import heapq
import logging
import os
import sys
import uuid
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Generic, TypeVar

from solver.errors import GameError

from .files import read_text
from .progress import progress

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
ENVIRONMENT = "DASK_SCHEDULER_ADDRESS"
"""The environment variable naming an existing scheduler (as Dask itself reads it)."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--scheduler ADDRESS`` on a job's sub-command."""
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N", help="processes of a local cluster (default: the cores)"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help=f"an existing Dask cluster, e.g. tcp://host:8786 (or ${ENVIRONMENT})"
    )


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def local_cluster(workers: int) -> Any:
    """A ``LocalCluster`` of ``workers`` processes of one thread each, quiet, its web server on
    a free port (the runner's and the tests' one way to start one)."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    quiet = logging.CRITICAL
    distributed = _distributed()  # first: its settings' defaults, which the next lines change for a while
    config = import_module("dask").config
    environ = {k: v for k, v in config.get(SPAWN_ENVIRON).items() if k != "MALLOC_TRIM_THRESHOLD_"}
    settings = {**QUIET_WORKERS, SPAWN_ENVIRON: environ, START: "fork" if FORKED else "spawn"}
    with _main_hidden(), config.set(settings):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=quiet,
            preload=[__name__],  # dask_teardown below
        )


QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "1s",
}
"""The local cluster's settings: no statistical profiler (a sample of every task's stack each 10
ms), the system and memory monitors at a slower pace, and the event loops' watchdog (which only
measures how late a loop is, to warn past 3 s) woken each second, not each 20 ms: with it, an
idle-waiting cluster of 2 used 52 ms of CPU a second in the client (scheduler and nannies) and
19 in each worker, whose ticks also took the GIL from its task 50 times a second; 13 and 4
without (measured). The CPU goes to the tasks."""

START = "distributed.worker.multiprocessing-method"
FORKED = sys.platform.startswith("linux")
"""How the nannies start the local workers: forked from this process on Linux, so that a worker
starts with Dask and the job's modules already imported (the client imports both before the
cluster starts): two workers were ready and had imported a game's bots 1.1-1.3 s after the
command started, against 2.4-3.1 s spawned, each spawned worker starting Python and importing
Dask and the game again (measured on the busy 2-core machine). Spawned elsewhere (macOS's
system libraries do not survive a fork), and when a nanny restarts a worker that died (the
setting holds while the cluster starts). Fork is one of Dask's own start methods; the workers'
tasks are pure functions of their arguments, so what they inherit (modules, caches) changes no
result."""

SPAWN_ENVIRON = "distributed.nanny.pre-spawn-environ"
"""The environment Dask's nannies give their workers. Its ``MALLOC_TRIM_THRESHOLD_=65536``
(memory handed back to the system after every free of 64 KiB) doubled the table generator's
time in a worker (15.6-17.8 s against 8.5 s in process for the same families, measured): the
local workers keep the C library's own threshold."""


def dask_teardown(worker: Any) -> None:
    """Called by Dask in each local worker as it closes (this module is the workers' preload):
    the worker's process then ends without Python's own clean-up, whose collections of every
    object left (a table build's caches of the engine's turns) took seconds."""
    atexit.register(os._exit, 0)


@contextmanager
def _main_hidden() -> Iterator[None]:
    """The program's main module hidden from the worker processes spawned meanwhile: they would
    import it again (a command's whole start-up, seconds on a busy machine) and need nothing
    from it (tasks name their functions by module; Dask sends those of ``__main__`` whole)."""
    main = sys.modules["__main__"]
    saved: dict[str, Any] = {n: main.__dict__.pop(n) for n in ("__file__", "__spec__") if n in main.__dict__}
    main.__spec__ = None
    try:
        yield
    finally:
        del main.__spec__
        main.__dict__.update(saved)


@dataclass(frozen=True)
class Task(Generic[T]):
    """One task of a graph: ``fn(*args, *results of needs)``. ``cost`` guesses its time (any
    unit, the same for a job's tasks): on a cluster, the tasks that head the costliest chains
    start first (a build whose largest families wait on small ones would leave workers idle).
    Tasks of one ``group`` share what a worker keeps between tasks (the generator's cache of
    a graph's turns): when a job has at least as many groups as the cluster has workers, each
    group runs on one worker while it lives (a group per worker, the costliest groups spread
    first), any worker otherwise."""

    fn: Callable[..., T]
    args: tuple[Any, ...] = ()
    needs: tuple[Any, ...] = ()
    cost: float = 1.0
    group: Hashable | None = None


@dataclass(frozen=True)
class FileResult:
    """What a job made of one file: its ``value`` (JSON-ready), or why it was refused
    (``FILE:LINE: reason`` or ``FILE: reason``)."""

    path: str
    value: Any = None
    error: str | None = None


@dataclass
class Runner:
    """Where a job's tasks run: here (``workers == 1``), on a local cluster started for the job
    (``workers`` processes, default the cores), or on the cluster at ``scheduler``. Use it as a
    context manager: leaving it stops the cluster it started, whatever happened. ``quiet``
    hides the progress bars; ``watch(done)`` is called after each finished task (tests use it
    to kill a worker mid-job)."""

    workers: int | None = None
    scheduler: str | None = None
    quiet: bool = False
    watch: Callable[[int], None] | None = None
    connect_timeout: float = 10.0
    _stack: ExitStack = field(default_factory=ExitStack, repr=False)
    _client: Any = field(default=None, repr=False)
    cluster: Any = field(default=None, repr=False)  # the local cluster it started, if any

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise GameError(f"--workers {self.workers}: at least 1", input=str(self.workers))
        if self.scheduler and self.workers is not None:
            raise GameError("--workers starts a local cluster, --scheduler uses another: choose one")
        if self.workers is None and not self.scheduler:
            self.scheduler = os.environ.get(ENVIRONMENT) or None

    @classmethod
    def from_args(cls, args: argparse.Namespace, quiet: bool = False) -> Runner:
        """The runner of a command line with :func:`add_options` (and ``--json``: quiet)."""
        return cls(args.workers, args.scheduler, quiet or bool(getattr(args, "json", False)))

    @property
    def in_process(self) -> bool:
        """True if the tasks run here, in order, without Dask."""
        return not self.scheduler and (self.workers or cores()) == 1

    def __repr__(self) -> str:
        where = "in process" if self.in_process else self.scheduler or f"a local cluster of {self.workers or cores()}"
        return f"<Runner {where}>"

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect, and stop the cluster this runner started."""
        self._client = None
        self._stack.close()

    @property
    def client(self) -> Any:
        """The Dask client (connecting, or starting the local cluster, on first use). Raises
        GameError if the scheduler cannot be reached."""
        if self._client is None:
            Client = _distributed().Client
            if self.scheduler:
                try:
                    client = Client(self.scheduler, timeout=f"{self.connect_timeout}s")
                except (OSError, TimeoutError, ValueError) as error:  # ValueError: not an address
                    raise GameError(f"no Dask scheduler at {self.scheduler}: {error}", input=self.scheduler) from None
                self._stack.callback(client.close)
            else:
                self.cluster = cluster = local_cluster(self.workers or cores())
                self._stack.callback(cluster.close)
                client = Client(cluster)
                self._stack.callback(client.close)
            self._client = client
        return self._client

    # -- jobs ---------------------------------------------------------------------------------

    def map(self, fn: Callable[[Any], T], items: Sequence[Any], label: str = "tasks", batch: int = 1) -> list[T]:
        """``[fn(item) for item in items]``, in order, ``batch`` items to a task."""
        chunks = [list(items[i : i + batch]) for i in range(0, len(items), max(1, batch))]
        tasks = {i: Task(_each, (fn, chunk)) for i, chunk in enumerate(chunks)}
        sizes = {i: len(chunk) for i, chunk in enumerate(chunks)}
        done = self.graph(tasks, label, sizes=sizes, total=len(items))
        return [value for i in range(len(chunks)) for value in done[i]]

    def graph(
        self,
        tasks: Mapping[K, Task[Any]],
        label: str = "tasks",
        arrived: Callable[[K, Any], None] | None = None,
        sizes: Mapping[K, int] | None = None,
        total: int | None = None,
    ) -> dict[K, Any]:
        """Run ``tasks`` (each after the tasks it needs) and return every result by key;
        ``arrived(key, result)`` is called here, on the client, as each result arrives (after
        those of the tasks it needs). The progress bar counts ``sizes[key]`` (default 1) a task."""
        order = _order(tasks)
        weight = sizes or {}
        with progress(label, total=total if total is not None else len(tasks), quiet=self.quiet) as tick:

            def finished(key: K, value: Any, count: int) -> None:
                if arrived is not None:
                    arrived(key, value)
                for _ in range(weight.get(key, 1)):
                    tick()
                if self.watch is not None:
                    self.watch(count)

            if self.in_process:
                return self._serial(tasks, order, finished)
            return self._distributed(tasks, order, finished)

    def files(
        self, fn: Callable[..., Any], paths: Sequence[Path], *args: Any, label: str = "files"
    ) -> list[FileResult]:
        """The generic job over files: ``fn(path, text, *args)`` for each file (read here, so that
        workers need not share its disk), one task each. A file that cannot be read, or whose
        ``fn`` raises GameError, gives a :class:`FileResult` with the reason; the rest goes on."""
        results: dict[int, FileResult] = {}
        tasks: dict[int, Task[FileResult]] = {}
        for i, path in enumerate(paths):
            try:
                text = read_text(path)
            except GameError as error:
                results[i] = FileResult(str(path), error=str(error))
                continue
            tasks[i] = Task(_guarded, (fn, str(path), text, *args))
        results.update(self.graph(tasks, label))
        return [results[i] for i in range(len(paths))]

    # -- the two ways of running ------------------------------------------------------------

    def _serial(
        self, tasks: Mapping[K, Task[Any]], order: list[K], finished: Callable[[K, Any, int], None]
    ) -> dict[K, Any]:
        done: dict[K, Any] = {}
        for count, key in enumerate(order, start=1):
            task = tasks[key]
            done[key] = task.fn(*task.args, *(done[need] for need in task.needs))
            finished(key, done[key], count)
        return done

    def _distributed(
        self, tasks: Mapping[K, Task[Any]], order: list[K], finished: Callable[[K, Any, int], None]
    ) -> dict[K, Any]:
        as_completed = _distributed().as_completed
        client = self.client
        futures: dict[K, Any] = {}
        keys: dict[str, K] = {}
        job = uuid.uuid4().hex  # a cluster may serve other clients: keys of their own
        chain = _chains(tasks, order)
        homes = _homes(tasks, sorted(client.scheduler_info()["workers"]))
        # the scheduler places each task as it is submitted: the costliest chains first
        for number, key in enumerate(_order(tasks, lambda key: -chain[key])):
            task = tasks[key]
            name = f"{getattr(task.fn, '__name__', 'task')}-{number}-{job}"
            needs = (futures[n] for n in task.needs)
            home = homes.get(task.group)
            where = {"workers": [home], "allow_other_workers": True} if home else {}
            futures[key] = client.submit(
                task.fn, *task.args, *needs, key=name, pure=False, priority=chain[key], **where
            )
            keys[name] = key
        done: dict[K, Any] = {}
        try:
            for count, future in enumerate(as_completed(futures.values()), start=1):
                key = keys[future.key]
                done[key] = future.result()
                finished(key, done[key], count)
        finally:
            for future in futures.values():
                future.release()
        return done


def _distributed() -> Any:
    """``dask.distributed``, imported when a job first runs on a cluster (it takes a while)."""
    return import_module("dask.distributed")


def _order(tasks: Mapping[K, Task[Any]], rank: Callable[[K], float] | None = None) -> list[K]:
    """The keys, each after those it needs; among those ready, the lowest ``rank`` first, then
    the given order. Raises GameError on a missing or circular need.

    >>> tasks = {"a": Task(len), "b": Task(len), "c": Task(len, needs=("b",))}
    >>> _order(tasks), _order(tasks, rank={"a": 0, "b": -1, "c": 0}.__getitem__)
    (['a', 'b', 'c'], ['b', 'a', 'c'])
    """
    keys = list(tasks)
    for key in keys:
        for need in tasks[key].needs:
            if need not in tasks:
                raise GameError(f"task {key!r} needs {need!r}, which is not in the job")
    after = _dependents(tasks, keys)
    waiting = {key: len(set(tasks[key].needs)) for key in keys}
    ranked = (lambda key: 0.0) if rank is None else rank
    position = {key: i for i, key in enumerate(keys)}
    ready = [(ranked(key), position[key]) for key in keys if not waiting[key]]
    heapq.heapify(ready)
    out: list[K] = []
    while ready:
        key = keys[heapq.heappop(ready)[1]]
        out.append(key)
        for later in after[key]:
            waiting[later] -= 1
            if not waiting[later]:
                heapq.heappush(ready, (ranked(later), position[later]))
    if len(out) < len(keys):
        circle = ", ".join(str(key) for key in keys if waiting[key])
        raise GameError(f"the job's tasks need each other in a circle: {circle}")
    return out


def _dependents(tasks: Mapping[K, Task[Any]], order: list[K]) -> dict[K, list[K]]:
    """The tasks that need each task."""
    after: dict[K, list[K]] = {key: [] for key in order}
    for key in order:
        for need in set(tasks[key].needs):
            after[need].append(key)
    return after


def _chains(tasks: Mapping[K, Task[Any]], order: list[K]) -> dict[K, float]:
    """Each task's costliest chain: its cost and the costliest chain of a task that needs it
    (``order`` puts every task after those it needs).

    >>> _chains({"a": Task(len, cost=2), "b": Task(len, needs=("a",), cost=3), "c": Task(len)}, ["a", "b", "c"])
    {'c': 1.0, 'b': 3, 'a': 5}
    """
    after = _dependents(tasks, order)
    chain: dict[K, float] = {}
    for key in reversed(order):
        chain[key] = tasks[key].cost + max((chain[k] for k in after[key]), default=0)
    return chain


def _homes(tasks: Mapping[K, Task[Any]], workers: Sequence[str]) -> dict[Hashable, str]:
    """The worker of each group of tasks (none if there are fewer groups than workers): the
    costliest group first, each to the worker with the least cost so far.

    >>> _homes({1: Task(len, cost=3, group="a"), 2: Task(len, group="b"), 3: Task(len, group="b")}, ["w1", "w2"])
    {'a': 'w1', 'b': 'w2'}
    """
    cost: dict[Hashable, float] = {}
    for task in tasks.values():
        if task.group is not None:
            cost[task.group] = cost.get(task.group, 0) + task.cost
    if not workers or len(cost) < len(workers):
        return {}
    load = dict.fromkeys(workers, 0.0)
    homes: dict[Hashable, str] = {}
    for group in sorted(cost, key=lambda g: (-cost[g], str(g))):
        homes[group] = home = min(workers, key=lambda w: (load[w], w))
        load[home] += cost[group]
    return homes


def _each(fn: Callable[[Any], T], chunk: list[Any]) -> list[T]:
    return [fn(item) for item in chunk]


def _guarded(fn: Callable[..., Any], path: str, text: str, *args: Any) -> FileResult:
    try:
        return FileResult(path, value=fn(path, text, *args))
    except GameError as error:
        message = str(error)
        return FileResult(path, error=message if message.startswith(path) else f"{path}: {message}")


def json_lines(results: Sequence[FileResult]) -> Iterator[dict[str, Any]]:
    """One JSON object per file: ``{"file": ..., **value}`` or ``{"file": ..., "error": ...}``."""
    for result in results:
        if result.error is not None:
            yield {"file": result.path, "error": result.error}
        else:
            value = result.value if isinstance(result.value, dict) else {"value": result.value}
            yield {"file": result.path, **value}

"""The job runner on a real Dask cluster (a LocalCluster of 2 worker processes, one for the
module): every job gives exactly what it gives in process; a worker killed mid-job changes
nothing; a bad record is reported and the rest goes on; Ctrl-C installs no partial table and
stops the cluster the runner started."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from companion.archive import SUFFIX, Summary, analyze_record
from companion.coup.table_build import _expansion, build_job, graph_of
from companion.runner import FileResult, Runner, Task, json_lines, local_cluster
from companion.tournament import game_seed, tournament
from solver.coup import Variant
from solver.coup.tablebase import Family
from solver.coup.tablebase.library import canonical
from solver.coup.tablebase.store import decode
from solver.errors import GameError

SIX = [Family(v, (2, 1, 1, 1, 1), court=3) for v in Variant]
"""Two 6-card families (a draft's 2-against-1), each leading to 5 smaller ones: 12 tasks."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The scheduler address of a local cluster of 2 worker processes (the project's own
    fixture: Dask's test fixtures are not public)."""
    started = local_cluster(2)
    try:
        yield started.scheduler_address
    finally:
        started.close()


def on(address: str, **kwargs: Any) -> Runner:
    return Runner(scheduler=address, quiet=True, **kwargs)


def killing(run: Runner, after: int) -> list[str]:
    """Make ``run`` kill a busy worker once ``after`` tasks are done (the nanny restarts it);
    the list gets the killed worker's address."""
    killed: list[str] = []

    def watch(done: int) -> None:
        if done == after and not killed:
            client = run.client
            busy = [address for address, keys in client.processing().items() if keys]
            assert busy, "no task left running to kill"
            killed.append(busy[0])
            with suppress(Exception):  # the worker dies before it answers
                client.run(os._exit, 1, workers=busy[:1])

    run.watch = watch
    return killed


def square(x: int) -> int:
    return x * x


def slow_square(x: int) -> int:
    import time

    time.sleep(0.02)
    return x * x


def total(*xs: int) -> int:
    return sum(xs)


# -- the runner --------------------------------------------------------------------------------


def test_a_map_on_the_cluster_returns_what_it_returns_in_process(cluster: str) -> None:
    items = list(range(-20, 20))
    with on(cluster) as run:
        assert run.map(square, items, batch=3) == [square(x) for x in items]


def test_a_graph_runs_each_task_after_those_it_needs_and_calls_back_in_that_order(cluster: str) -> None:
    tasks = {
        "d": Task(total, (1,), needs=("b", "c")),
        "b": Task(total, (2,), needs=("a",)),
        "c": Task(total, (3,), needs=("a",)),
        "a": Task(total, (4,)),
    }
    for run in (Runner(workers=1, quiet=True), on(cluster)):
        seen: list[str] = []
        with run:
            done = run.graph(tasks, arrived=lambda key, value, seen=seen: seen.append(key))
        assert done == {"a": 4, "b": 6, "c": 7, "d": 14}
        assert seen.index("a") < seen.index("b") < seen.index("d") and seen.index("c") < seen.index("d")


def where(_: int, after: float = 0.0) -> int:
    import time

    time.sleep(after)
    return os.getpid()


def test_a_group_of_tasks_runs_on_one_worker_when_there_are_groups_for_every_worker(cluster: str) -> None:
    tasks = {(g, i): Task(where, (i,), cost=1 + i, group=g) for g in "ab" for i in range(6)}
    with on(cluster) as run:
        done = run.graph(tasks)
    pids = {g: {done[g, i] for i in range(6)} for g in "ab"}
    assert len(pids["a"]) == len(pids["b"]) == 1 and pids["a"] != pids["b"]


def test_local_workers_keep_the_c_librarys_own_memory_trimming(cluster: str) -> None:
    # Dask's nannies set MALLOC_TRIM_THRESHOLD_=65536, which doubled the table generator's time
    with on(cluster) as run:
        seen = run.client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_")
    assert len(seen) == 2 and set(seen.values()) == {None}


def test_local_workers_and_the_scheduler_wake_their_watchdog_each_second_not_each_20_ms(cluster: str) -> None:
    # the 20 ms ticks cost an idle cluster of 2 about 90 ms of CPU a second, taken from the tasks
    with on(cluster) as run:
        seen = run.client.run(lambda dask_worker: dask_worker._tick_interval)
        scheduler = run.client.run_on_scheduler(lambda dask_scheduler: dask_scheduler._tick_interval)
    assert list(seen.values()) == [1.0, 1.0] and scheduler == 1.0


STARTED_BY: dict[str, int] = {}
"""Set here before a cluster starts: a worker forked from this process finds it set."""


def started_by() -> int | None:
    return STARTED_BY.get("client")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="local workers are forked on Linux only")
def test_local_workers_are_forked_from_the_client_with_what_it_had_made() -> None:
    # forked: no worker starts Python and imports Dask and the job's modules again (1-2 s)
    STARTED_BY["client"] = os.getpid()
    started = local_cluster(1)
    try:
        with on(started.scheduler_address) as run:
            assert list(run.client.run(started_by).values()) == [os.getpid()]
    finally:
        started.close()
        STARTED_BY.clear()


def test_a_closed_local_worker_ends_without_pythons_clean_up(cluster: str) -> None:
    # Python's clean-up at exit collected a table build's caches for seconds in each worker
    with on(cluster) as run:
        preloads = run.client.run(lambda dask_worker: [p.name for p in dask_worker.preloads])
    assert list(preloads.values()) == [["companion.runner"]] * 2
    script = (
        "import atexit; from companion.runner import dask_teardown\n"
        "atexit.register(print, 'cleaned up'); dask_teardown(None); print('closed')"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "closed\n")


def test_the_task_heading_the_costliest_chain_starts_first_on_a_busy_cluster(cluster: str) -> None:
    # one worker busy, the other free: of two ready tasks, the one a long chain waits on goes first
    tasks = {
        "busy": Task(where, (0, 0.5), cost=100),
        "short": Task(where, (0, 0.3)),
        "head": Task(where, (0, 0.3)),
        "tail": Task(where, needs=("head",), cost=50),
    }
    with on(cluster) as run:
        seen: list[str] = []
        run.graph(tasks, arrived=lambda key, value: seen.append(key))
    assert seen.index("head") < seen.index("short")


def test_a_job_whose_tasks_need_each_other_in_a_circle_or_a_missing_task_is_refused() -> None:
    with Runner(workers=1, quiet=True) as run:
        with pytest.raises(GameError, match="circle"):
            run.graph({"a": Task(total, needs=("b",)), "b": Task(total, needs=("a",))})
        with pytest.raises(GameError, match="not in the job"):
            run.graph({"a": Task(total, needs=("z",))})


def test_workers_and_a_scheduler_together_are_refused_and_the_environment_names_a_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(GameError, match="choose one"):
        Runner(workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(GameError, match="at least 1"):
        Runner(workers=0)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:8786")
    assert Runner().scheduler == "tcp://127.0.0.1:8786" and not Runner().in_process
    assert Runner(workers=1).in_process and Runner(workers=1).scheduler is None


def test_a_scheduler_that_cannot_be_reached_is_one_clear_error() -> None:
    run = Runner(scheduler="tcp://127.0.0.1:9", quiet=True, connect_timeout=1)
    with run, pytest.raises(GameError, match="no Dask scheduler"):
        run.map(square, [1])


def test_a_worker_killed_mid_map_is_replaced_and_its_tasks_run_again(cluster: str) -> None:
    items = list(range(200))
    with on(cluster) as run:
        killed = killing(run, after=10)
        assert run.map(slow_square, items) == [x * x for x in items]
        assert killed
        run.client.wait_for_workers(2, timeout=60)


def interrupt(done: int) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_disconnects_from_a_cluster_the_runner_did_not_start_and_leaves_it_up(cluster: str) -> None:
    run = on(cluster, watch=interrupt)
    with pytest.raises(KeyboardInterrupt), run:
        client = run.client
        run.map(slow_square, list(range(20)))
    assert client.status == "closed" and run.cluster is None
    with on(cluster) as again:
        assert again.map(square, [3]) == [9]


@pytest.mark.slow
def test_ctrl_c_stops_the_local_cluster_the_runner_started() -> None:

    run = Runner(workers=2, quiet=True, watch=interrupt)
    with pytest.raises(KeyboardInterrupt), run:
        run.map(slow_square, list(range(20)))
    assert run.cluster is not None and run.cluster.status.name == "closed"


def test_the_files_job_reports_unreadable_files_and_goes_on(cluster: str, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"\xff\xfe binary")
    (tmp_path / "c.txt").write_text("", encoding="utf-8")
    paths = [tmp_path / n for n in ("a.txt", "b.txt", "c.txt", "missing.txt")]
    with on(cluster) as run:
        results = run.files(count_lines, paths, "x")
    with Runner(workers=1, quiet=True) as run:
        assert run.files(count_lines, paths, "x") == results
    lines = list(json_lines(results))
    assert lines[0] == {"file": str(paths[0]), "lines": 2, "tag": "x"}
    assert lines[1]["error"].startswith(f"{paths[1]}:1: not UTF-8 text")
    assert lines[2]["error"] == f"{paths[2]}: empty"
    assert lines[3]["error"].startswith(f"{paths[3]}: cannot read: no such file")


def count_lines(path: str, text: str, tag: str) -> dict[str, Any]:
    if not text:
        raise GameError("empty")
    return {"lines": len(text.splitlines()), "tag": tag}


# -- table builds --------------------------------------------------------------------------------


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.fixture(scope="module")
def serial_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    directory = tmp_path_factory.mktemp("serial")
    with Runner(workers=1, quiet=True) as run:
        built = build_job(SIX, run, directory, installed=False)
    assert len(built) == 12
    return files(directory)


def test_a_table_build_on_the_cluster_writes_the_same_files_as_in_process(
    cluster: str, serial_tables: dict[str, bytes], tmp_path: Path
) -> None:
    with on(cluster) as run:
        built = build_job(SIX, run, tmp_path, installed=False)
    assert files(tmp_path) == serial_tables and len(built) == 12
    assert [b.family for b in built][:2] == SIX  # largest first
    with on(cluster) as run:  # a second build finds everything there
        assert build_job(SIX, run, tmp_path, installed=False) == []


def test_a_worker_killed_during_a_table_build_changes_no_file(
    cluster: str, serial_tables: dict[str, bytes], tmp_path: Path
) -> None:
    with on(cluster) as run:
        killed = killing(run, after=2)
        build_job(SIX, run, tmp_path, installed=False)
        assert killed
        run.client.wait_for_workers(2, timeout=60)
    assert files(tmp_path) == serial_tables


def test_an_interrupted_build_installs_only_whole_checked_files(
    cluster: str, serial_tables: dict[str, bytes], tmp_path: Path
) -> None:
    def interrupt(done: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), on(cluster, watch=interrupt) as run:
        build_job(SIX, run, tmp_path, installed=False)
    left = files(tmp_path)
    assert 1 <= len(left) < len(serial_tables)
    assert all(serial_tables[name] == data for name, data in left.items())  # no staging folder, no part


def test_a_builds_tasks_are_grouped_by_graph_each_with_its_own_cache_of_turns() -> None:
    plain, draft = Family(Variant.AMBASSADOR, (3, 3, 3, 3, 2), court=11), SIX[0]
    assert graph_of(plain) == (Variant.AMBASSADOR, 11) != graph_of(draft) == (Variant.AMBASSADOR, 3)
    assert graph_of(SIX[1]) == (Variant.INQUISITOR, 3)
    assert _expansion(plain) is _expansion(Family(Variant.AMBASSADOR, (3, 3, 2, 3, 2), court=11))
    assert _expansion(plain) is not _expansion(draft) and _expansion(draft) is not _expansion(SIX[1])


def test_a_table_file_lists_its_values_in_increasing_order_whoever_made_it(serial_tables: dict[str, bytes]) -> None:
    for name, data in serial_tables.items():
        table = decode(data, name)
        assert list(table.rationals) == sorted(table.rationals)
        assert canonical(table) == table


def test_tables_built_by_the_runner_are_the_bytes_of_the_library_build(
    serial_tables: dict[str, bytes], tmp_path: Path
) -> None:
    from solver.coup.tablebase import build

    build(SIX, tmp_path, installed=False)
    assert files(tmp_path) == serial_tables


# -- tournaments -------------------------------------------------------------------------------


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "timing"}


@pytest.mark.parametrize("game", ["coup", "spicy", "tresor"])
def test_a_tournament_on_the_cluster_equals_the_serial_run(cluster: str, game: str) -> None:
    bots = {"coup": ["honest", "counter", "random"], "spicy": ["honest", "challenger"], "tresor": ["greedy", "random"]}
    with Runner(workers=1, quiet=True) as run:
        serial = tournament(game, bots[game], 8, 5, run)
    with on(cluster) as run:
        assert without_timing(tournament(game, bots[game], 8, 5, run)) == without_timing(serial)
    results = serial["results"]
    assert sum(r["wins"] for r in results.values()) + serial["draws"] >= 8


def test_a_worker_killed_during_a_tournament_changes_no_result(cluster: str) -> None:
    bots = ["honest", "bluffer", "challenger", "random"]
    with Runner(workers=1, quiet=True) as run:
        serial = tournament("spicy", bots, 40, 9, run)
    with on(cluster) as run:
        killed = killing(run, after=2)
        report = tournament("spicy", bots, 40, 9, run)
        assert killed
        run.client.wait_for_workers(2, timeout=60)
    assert without_timing(report) == without_timing(serial)


def test_a_tournament_reads_the_installed_games_once_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import games
    from companion import tournament as module

    real, calls = games.entry_points, []

    def counted(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(games, "entry_points", counted)
    games.declared.cache_clear()
    with Runner(workers=1, quiet=True) as run:
        assert tournament("coup", ["honest", "random"], 6, 1, run)["games"] == 6
    assert calls == [{"group": "companion.games"}]
    with pytest.raises(GameError, match="no game 'chess'"):
        module.bots_module("chess")


def test_a_games_seed_comes_from_the_tournaments_seed_and_its_number_only() -> None:
    assert game_seed(1, 2) == game_seed(1, 2)
    assert len({game_seed(s, i) for s in range(5) for i in range(50)}) == 250


def test_the_tournament_command_prints_json_the_same_whatever_the_workers(cluster: str, capsys: Any) -> None:
    from companion.coup.cli import main

    common = ["tournament", "--game", "spicy", "--games", "15", "--seed", "4", "--json"]
    assert main([*common, "--workers", "1"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main([*common, "--scheduler", cluster]) == 0
    assert without_timing(json.loads(capsys.readouterr().out)) == without_timing(serial)
    assert main(["tournament", "--bots", "honest,nobody", "--workers", "1"]) == 2
    assert "no coup bot 'nobody'" in capsys.readouterr().err


# -- archives ------------------------------------------------------------------------------------

RECORDS = Path(__file__).parent.parent / "benchmarks" / "records"


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    for name in ("3p-ambassador.coup", "6p-inquisitor.coup"):
        (tmp_path / name).write_text((RECORDS / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "season").mkdir()
    (tmp_path / "season" / "bad.coup").write_text("players Alice Bob Carol\nme Alice\nAlice fly\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    return tmp_path


def test_an_archive_on_the_cluster_equals_the_serial_run_and_reports_the_bad_record(
    cluster: str, archive: Path, capsys: Any
) -> None:
    from companion.coup.cli import main

    common = ["analyze", str(archive), "--json", "--no-endgame"]
    assert main([*common, "--workers", "1"]) == 1
    serial = capsys.readouterr()
    assert main([*common, "--scheduler", cluster]) == 1
    spread = capsys.readouterr()
    assert spread.out == serial.out and spread.err == serial.err
    assert serial.err.startswith(f"{archive / 'season' / 'bad.coup'}:3: ") and serial.err.count("\n") == 1
    report = json.loads(serial.out)
    assert [Path(p).name for p in report["records"]] == ["3p-ambassador.coup", "6p-inquisitor.coup"]
    assert report["refused"][0]["file"].endswith("bad.coup")
    alice = report["players"]["Alice"]
    assert alice["records"] == 2 and alice["claims"] >= alice["bluffs_caught"] >= 0


def test_the_archive_summary_adds_each_records_counts(archive: Path) -> None:
    settings = {"no_endgame": True, "budget": 0}
    counts = [
        analyze_record(str(p), p.read_text(encoding="utf-8"), "coup", "companion.coup.analysis", settings)["counts"]
        for p in sorted(archive.glob("*.coup"))
    ]
    summary = Summary.of(counts)
    for key in summary.columns[1:]:
        assert summary.players["Alice"][key] == sum(c["Alice"][key] for c in counts)
    assert summary.csv().splitlines()[0] == "player," + ",".join(summary.columns)


def test_write_puts_each_analysis_beside_its_record(archive: Path, capsys: Any) -> None:
    from companion.coup.analysis import analysis_json, analyze
    from companion.coup.cli import main

    assert main(["analyze", str(archive), "--csv", "--write", "--no-endgame", "--workers", "1"]) == 1
    record = archive / "3p-ambassador.coup"
    written = json.loads(Path(str(record) + SUFFIX).read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(analysis_json(analyze(record.read_text(encoding="utf-8"), endgame=False))))
    assert not (archive / "season" / ("bad.coup" + SUFFIX)).exists()
    assert capsys.readouterr().out.startswith("player,records,claims,bluffs_caught")


def test_spicy_analyze_takes_a_folder(archive: Path, capsys: Any) -> None:
    from companion.spicy.bots import bot_game
    from companion.spicy.cli import main

    for seed in (1, 2):
        _, lines = bot_game(["honest", "bluffer", "challenger"], seed, record_seat=0)
        (archive / f"game{seed}.spicy").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["analyze", str(archive), "--json", "--workers", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["records"]) == 2 and set(report["players"]) == {"Ana", "Ben", "Cleo"}
    assert "endgame_blunders" not in report["players"]["Ana"]


def test_a_file_result_keeps_its_value_or_its_reason() -> None:
    assert FileResult("a", value=1) != FileResult("a", error="a: no")
    assert list(json_lines([FileResult("a", value=1)])) == [{"file": "a", "value": 1}]


# -- the draft ---------------------------------------------------------------------------------


class Recording(Runner):
    """A runner that runs here and keeps what each map was given."""

    def __init__(self) -> None:
        super().__init__(workers=1, quiet=True)
        self.maps: list[list[Any]] = []

    def map(self, fn: Any, items: Any, label: str = "tasks", batch: int = 1) -> list[Any]:
        self.maps.append(list(items))
        return [({(("deal", i), ("picks", i)): i}, i + 1) for i, _ in enumerate(items)]


def test_the_draft_recompute_is_a_task_per_pair_of_picks_on_the_runner() -> None:
    from companion.coup.draft_advice import recompute
    from solver.coup.draft import pick_pairs

    run = Recording()
    table, states = recompute(Variant.AMBASSADOR, run=run)
    assert run.maps == [[(Variant.AMBASSADOR, pair) for pair in pick_pairs(Variant.AMBASSADOR)]]
    assert len(table) == 15 and states == sum(range(1, 16))


@pytest.mark.slow
def test_the_draft_recompute_on_the_cluster_equals_the_serial_solve(cluster: str) -> None:
    from companion.coup.draft_advice import recompute
    from solver.coup import Character
    from solver.coup.draft import solve_pair

    pairs = [(Character.CONTESSA, Character.CONTESSA), (Character.DUKE, Character.CONTESSA)]
    with on(cluster) as run:
        table, states = recompute(Variant.AMBASSADOR, pairs, run=run)
    serial = [solve_pair(Variant.AMBASSADOR, pair) for pair in pairs]
    assert table == {k: v for part, _ in serial for k, v in part.items()}
    assert states == sum(size for _, size in serial)

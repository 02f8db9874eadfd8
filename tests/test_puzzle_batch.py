"""``coup solve DIR [--hidden K]``: every puzzle of a folder, one task each on the job runner,
gives what ``coup solve FILE`` gives for each, whatever runs the tasks; a bad puzzle is
reported and the rest goes on."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.coup.cli import main
from companion.runner import local_cluster

PUZZLES = Path(__file__).resolve().parent.parent / "examples" / "puzzles"
TIMING = ("seconds",)


def untimed(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer without its timing fields (the only ones that may differ between runs)."""
    out = {k: v for k, v in answer.items() if k not in TIMING}
    if isinstance(out.get("hidden"), dict):
        out["hidden"] = untimed(out["hidden"])
    return out


def run(capsys: Any, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The scheduler address of a local cluster of 2 worker processes."""
    started = local_cluster(2)
    try:
        yield started.scheduler_address
    finally:
        started.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Four bundled puzzles, one in a subfolder, and a puzzle that is not TOML."""
    chosen = sorted(PUZZLES.glob("*.toml"))[:4]
    for path in chosen[:3]:
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "more").mkdir()
    shutil.copy(chosen[3], tmp_path / "more" / chosen[3].name)
    (tmp_path / "broken.toml").write_text("to_move = [\n", encoding="utf-8")
    return tmp_path


def test_each_puzzle_of_a_folder_gets_the_answer_solve_gives_it_alone(folder: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "solve", str(folder), "--json", "--workers", "1")
    assert code == 1
    [reason] = err
    assert reason.startswith(f"{folder / 'broken.toml'}: not a puzzle file: ")
    lines = [json.loads(line) for line in out]
    assert [Path(x["file"]).name for x in lines] == [
        "01-race-to-seven.toml",
        "02-empty-purse.toml",
        "03-last-contessa.toml",
        "broken.toml",
        "04-duke-against-the-clock.toml",
    ]
    for line in lines:
        if "error" in line:
            continue
        code, single, _ = run(capsys, "solve", line["file"], "--json")
        assert code == 0
        assert untimed(json.loads(single[0])) == untimed({k: v for k, v in line.items() if k != "file"})


def test_hidden_values_of_a_folder_on_the_cluster_equal_the_serial_run(folder: Path, cluster: str, capsys: Any) -> None:
    serial = run(capsys, "solve", str(folder), "--hidden", "1", "--json", "--workers", "1")
    spread = run(capsys, "solve", str(folder), "--hidden", "1", "--json", "--scheduler", cluster)
    assert serial[0] == spread[0] == 1 and serial[2] == spread[2]
    assert [untimed(json.loads(x)) for x in serial[1]] == [untimed(json.loads(x)) for x in spread[1]]
    race = json.loads(serial[1][0])
    assert race["hidden"]["value"] == "1" and race["hidden"]["strategy"] == {"Alice coup Bob": "1"}


def test_the_folder_table_has_a_row_per_puzzle_solved(folder: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "solve", str(folder), "--workers", "1")
    assert code == 1 and len(err) == 1
    assert out[0] == f"{folder}: 4 of 5 puzzles solved"
    assert out[2].split() == ["puzzle", "to", "move", "value", "hidden", "hypotheses"]
    assert out[3].split() == [str(folder / "01-race-to-seven.toml"), "Alice", "+1", "1"]
    assert len(out) == 3 + 4


def test_a_folder_without_puzzles_or_with_graph_is_refused_in_one_line(tmp_path: Path, capsys: Any) -> None:
    assert run(capsys, "solve", str(tmp_path)) == (2, [], [f"coup solve: no *.toml puzzle in {tmp_path}"])
    code, out, err = run(capsys, "solve", str(PUZZLES), "--graph", str(tmp_path / "g.graphml"))
    assert code == 1 and out == [] and len(err) == 1 and "give a puzzle file, not a folder" in err[0]
    assert not (tmp_path / "g.graphml").exists()

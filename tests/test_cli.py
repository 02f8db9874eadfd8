"""The `coup` command line: replay, exit codes, the bundled examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.coup.cli import main

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.coup"))


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_every_bundled_example_replays(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["me"] is not None and table["players"]


def test_the_examples_cover_three_players_five_with_the_inquisitor_and_the_draft() -> None:
    heads = {p.name: p.read_text() for p in EXAMPLES}
    assert any("players Alice Bob Carol\nvariant ambassador" in t for t in heads.values())
    assert any(t.count("players Alice Bob Carol Dave Erin") and "variant inquisitor" in t for t in heads.values())
    assert any("draft dealt-first" in t for t in heads.values())


def test_replay_prints_file_and_line_of_the_first_bad_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bad.coup"
    record.write_text("players Alice Bob Carol\n# a comment\nAlice tax\nBob assassinate Carol\n")
    assert main(["replay", str(record), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == f"{record}:4: Bob has 2 coins; assassinate costs 3"


def test_a_record_ending_while_the_table_waits_is_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "open.coup"
    record.write_text("players Alice Bob Carol\nAlice tax\nBob challenge\n")
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["waiting"] is not None and table["turn"] == "Alice" and table["open"] is None


def test_replay_canonical_prints_the_canonical_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "fr.coup"
    record.write_text("joueurs Alice Bob Carol\nmoi Carol\nmain capitaine duc\nAl duchesse   # bluff?\npasse\n")
    assert main(["replay", str(record), "--canonical"]) == 0
    # table-language.md: the canonical form always writes the variant (and, for 2 players, the draft)
    canonical = "players Alice Bob Carol\nvariant ambassador\nme Carol\nhand duke captain\nAlice tax\npass\n"
    assert capsys.readouterr().out == canonical


def test_a_wrong_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay"])
    assert exit_info.value.code == 2
    assert main(["replay", "/no/such/file.coup"]) == 2

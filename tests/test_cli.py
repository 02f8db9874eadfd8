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


def test_a_wrong_command_line_exits_2_and_a_missing_file_1(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay"])
    assert exit_info.value.code == 2
    capsys.readouterr()
    assert main(["replay", "/no/such/file.coup"]) == 1  # a refused input, not a wrong command line
    assert capsys.readouterr().err == "/no/such/file.coup: cannot read: no such file\n"


ROOT = Path(__file__).parent.parent
RECORDS = sorted(
    {
        *ROOT.glob("examples/*.coup"),
        *ROOT.glob("tests/golden/records/*.coup"),
        *ROOT.glob("benchmarks/records/**/*.coup"),
    }
)


@pytest.mark.parametrize("draft", ["pick-first", "dealt-first"])
def test_a_draft_record_in_canonical_order_dealt_then_pick_replays_whatever_the_draft_order(
    draft: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """table-language.md writes `dealt` before `pick` in the canonical form, for both orders."""
    record = tmp_path / "draft.coup"
    record.write_text(
        f"players Alice Bob\nvariant ambassador\ndraft {draft}\nme Bob\ndealt duke\npick captain\nAlice income\n"
    )
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][1]["cards"] == ["duke", "captain"]


def test_a_pick_typed_before_the_deal_is_written_after_it_in_the_canonical_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "draft.coup"
    record.write_text("players Alice Bob\ndraft dealt-first\nme Bob\npick captain\ndealt duke\n")
    assert main(["replay", str(record), "--canonical"]) == 0
    canonical = capsys.readouterr().out
    assert canonical == "players Alice Bob\nvariant ambassador\ndraft dealt-first\nme Bob\ndealt duke\npick captain\n"


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_canonical_form_of_every_record_replays_to_itself(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--canonical"]) == 0
    canonical = capsys.readouterr().out
    again = tmp_path / "canonical.coup"
    again.write_text(canonical)
    assert main(["replay", str(again), "--canonical"]) == 0
    assert capsys.readouterr().out == canonical


def test_replay_refuses_another_game_s_record_naming_its_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion import games

    monkeypatch.setitem(games._REGISTRY, "toy", games.Game("toy", lambda a: None, lambda j, a: None, dict, str))
    record = tmp_path / "game.toy"
    record.write_text("game toy\nplayers Ana Ben Cleo\n")
    assert main(["replay", str(record)]) == 1
    assert capsys.readouterr().err.strip() == f"{record}:1: this is a toy record, not a coup one (try: toy replay FILE)"


def test_odds_why_gives_the_closed_form_in_binomials_checked_against_the_exact_count() -> None:
    from companion.coup.commands import session

    s = session()
    for line in ("players Alice Bob Carol", "me Carol", "hand duke captain"):
        s.handle(line)
    text = "\n".join(t for _, t in s.handle("odds Bob --why"))
    assert "duke        1 - C(U - k, h)/C(U, h) with U = 13, k = 2, h = 2: 1 - C(11, 2)/C(13, 2) = 23/78" in text
    assert "duke        23/78 (29%)" in text
    s.handle("Alice tax")
    s.handle("Bob challenge")
    s.handle("Alice lose duke")  # what was seen now singles Alice's other card out
    assert "no closed form" in "\n".join(t for _, t in s.handle("odds Alice --why"))


def test_a_new_tables_journal_is_canonical_from_the_start_so_line_numbers_agree(tmp_path: Path) -> None:
    """The journal of a new table writes ``variant ambassador`` as the canonical form does: the
    table's 'last flag: line N' is the line of the flag in the journal and in its canonical form."""
    import subprocess
    import sys

    path = tmp_path / "game.coup"
    typed = "players Alice Bob Carol\nme Carol\nhand duke duke\ncoins Bob 7\nAlice income\nBob coup Alice\n"
    typed += "Alice lose duke\nCarol income\nAlice tax\ntable\nquit\n"
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "companion.coup.cli", "table", str(path)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    journal = path.read_text()
    assert journal.splitlines()[:2] == ["players Alice Bob Carol", "variant ambassador"]
    canonical = subprocess.run(
        [sys.executable, "-m", "companion.coup.cli", "replay", str(path), "--canonical"],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert canonical == journal
    number = journal.splitlines().index("Alice tax") + 1
    assert number == 10 and f"last flag: line {number}, Alice claimed a duke" in done.stdout

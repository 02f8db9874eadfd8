"""The ``spicy`` command line: replay (text, JSON, canonical), analyze (text, JSON, plot), play,
exit codes, and the bundled examples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import registered
from companion.spicy.cli import main
from companion.spicy.report import table_json
from companion.spicy.tracker import replay

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.spicy"))
SPICY = Path(sys.executable).parent / "spicy"


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_every_bundled_example_replays_to_its_end(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["me"] is not None and (table["winner"] is not None) == (record.name != "in-progress.spicy")
    assert table == json.loads(json.dumps(table_json(replay(record.read_text()))))


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_the_canonical_form_of_every_example_replays_to_itself_byte_for_byte(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--canonical"]) == 0
    first = capsys.readouterr().out
    copy = tmp_path / "canonical.spicy"
    copy.write_text(first, encoding="utf-8")
    assert main(["replay", str(copy), "--canonical"]) == 0
    assert capsys.readouterr().out == first and first.startswith("game spicy\nplayers ")


def test_the_examples_cover_three_and_five_players_a_trophy_worlds_end_and_french() -> None:
    texts = {p.name: p.read_text() for p in EXAMPLES}
    tables = {name: replay(text) for name, text in texts.items() if name != "in-progress.spicy"}
    assert sorted(len(t.names) for t in tables.values()) == [3, 5]
    assert all(t.state is not None and sum(t.state.trophies) >= 1 for t in tables.values())
    assert all(t.state is not None and str(t.state.turn.end) == "worlds-end" for t in tables.values())
    assert any("jeu spicy" in text and "fin-du-monde" in text for text in texts.values())


def test_replay_prints_file_and_line_of_the_first_bad_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bad.spicy"
    record.write_text(
        "game spicy\nplayers Ana Ben Cleo\n# a comment\nAna play chili 3\nBen play chili 7\nCleo play chili 5\n"
    )
    assert main(["replay", str(record), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == f"{record}:6: Cleo cannot claim chili 5: a pile of chili at 7 needs chili 8 to 10"


def test_a_record_of_another_game_or_without_header_is_refused_on_line_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coup = tmp_path / "other.spicy"
    coup.write_text("game coup\nplayers Alice Bob\n")
    assert main(["replay", str(coup)]) == 1
    assert (
        capsys.readouterr().err.strip() == f"{coup}:1: this is a coup record, not a spicy one (try: coup replay FILE)"
    )
    bare = tmp_path / "bare.spicy"
    bare.write_text("players Ana Ben\n")
    assert main(["replay", str(bare)]) == 1
    assert "first line must be 'game spicy'" in capsys.readouterr().err


def test_a_record_ending_while_the_table_waits_is_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "open.spicy"
    record.write_text("game spicy\nplayers Ana Ben\nAna play chili 2\nBen challenge number\n")
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["waiting"] == "the card Ana played, challenged by Ben (reveal CARD)" and table["winner"] is None


def test_replay_canonical_prints_the_canonical_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "fr.spicy"
    record.write_text("jeu spicy\njoueurs Ana Ben\nana joue piment 2  # hop\n\nBen conteste épice\nrévèle poivre-2\n")
    assert main(["replay", str(record), "--canonical"]) == 0
    assert capsys.readouterr().out == (
        "game spicy\nplayers Ana Ben\nAna play chili 2\nBen challenge spice\nreveal pepper-2\n"
    )


def test_the_threshold_of_unlikely_is_a_command_line_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "g.spicy"
    record.write_text("game spicy\nplayers Ana Ben\nAna play chili 2\n")
    assert main(["replay", str(record), "--json", "--threshold", "99/100"]) == 0
    assert json.loads(capsys.readouterr().out)["flags"][0]["level"] == "unlikely"
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flags"] == []


def test_a_wrong_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["replay"])
    assert exited.value.code == 2
    assert main(["replay", "no-such.spicy"]) == 1 and "no such file" in capsys.readouterr().err  # a refused input


def test_analyze_prints_claims_challenges_players_and_draws_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = next(p for p in EXAMPLES if p.name == "three-players.spicy")
    plot = tmp_path / "scores.png"
    assert main(["analyze", str(record), "--json", "--plot", str(plot)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == ["game", "me", "winner", "claims", "challenges", "players", "scores"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["analyze", str(record)]) == 0
    assert capsys.readouterr().out.startswith("claims (true on both")


def test_spicy_is_a_registered_game_found_through_its_entry_point() -> None:
    game = registered()["spicy"]
    assert (game.name, game.headerless) == ("spicy", False)


def test_play_against_bots_saves_the_game_as_a_record(tmp_path: Path) -> None:
    record = tmp_path / "played.spicy"
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    moves = "\n".join(["pass", "let it stand"] * 60) + "\nquit\n"
    done = subprocess.run(
        [str(SPICY), "play", "--players", "3", "--seed", "4", "--bots", "honest,challenger", "--record", str(record)],
        input=moves,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"the game is saved in {record}" in done.stdout
    table = replay(record.read_text())
    assert table.names == ("You", "Ben", "Cleo") and table.me == 0


def test_the_game_in_progress_opens_at_the_prompt_where_its_record_ends(tmp_path: Path) -> None:
    from companion.records import Journal
    from companion.spicy.commands import session

    copy = tmp_path / "game.spicy"
    copy.write_text((Path(__file__).parent.parent / "examples" / "in-progress.spicy").read_text())
    table = session(Journal(copy))
    assert table.intro()[-1] == ("info", "27 lines so far")  # the record's lines; its 2 comments aside
    (odds,) = table.handle("odds")
    assert odds[1].startswith("Dan's wasabi 3 (line 29), from a hand of ")
    assert table.handle("Ana pass") == [("info", "waiting for your draw of 1 card (draw CARD)")]

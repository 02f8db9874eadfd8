"""The ``tresor`` command line: replay (text, JSON, canonical, plot), exit codes, the bundled
examples, the demo, and tresor's entry in the registry of games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games import registered
from companion.treasure.cli import main
from companion.treasure.tracker import replay

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.tresor"))


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_every_bundled_example_replays_to_its_final_score(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["game"] == "tresor" and table["me"] is not None and table["final"] is not None
    assert table["winner"] is not None and table["waiting"] is None
    assert all(set(part) == {"play", "sets", "hand", "bids", "total"} for part in table["final"].values())
    assert all(p["play"] + p["sets"] + p["hand"] + p["bids"] == p["total"] for p in table["final"].values())


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_every_bundled_example_round_trips_through_its_canonical_form(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--canonical"]) == 0
    first = capsys.readouterr().out
    again = tmp_path / "canonical.tresor"
    again.write_text(first)
    assert main(["replay", str(again), "--canonical"]) == 0
    assert capsys.readouterr().out == first
    assert first == "".join(line + "\n" for line in record.read_text().splitlines() if not line.startswith("#"))


def test_the_examples_cover_two_and_five_players_with_every_bid_scored() -> None:
    tables = {p.name: replay(p.read_text()) for p in EXAMPLES}
    assert {len(t.names) for t in tables.values()} >= {2, 5}
    for t in tables.values():
        assert t.state is not None and t.state.bids and all(b.marker.name != "UNKNOWN" for b in t.state.bids)
        assert t.ending.removed is not None and t.final() is not None


def test_replay_prints_the_table_for_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES[0])]) == 0
    out = capsys.readouterr().out
    assert "owners: A Ana" in out and "final score (play + sets + hand + bids = total):" in out
    assert "\x1b[" not in out  # no colours when the output is not a terminal


def test_replay_prints_file_and_line_of_the_first_bad_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bad.tresor"
    record.write_text("game tresor\nplayers Ana Ben\n# a comment\nme Ana\nAna pass\n")
    assert main(["replay", str(record), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == f"{record}:5: the table waits for the set-up: hand CARDS, start CARD"


def test_a_record_ending_while_the_table_waits_is_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = EXAMPLES[0].read_text().splitlines()
    neuro = next(i for i, line in enumerate(lines) if line.endswith(" neuro"))
    record = tmp_path / "open.tresor"
    record.write_text("\n".join(lines[: neuro + 1]) + "\n")
    assert main(["replay", str(record), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["waiting"] is not None and table["final"] is None and table["bids"]


def test_replay_canonical_writes_english_in_the_canonical_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "fr.tresor"
    hand = "2en 2cv 2cn 1ev 1en 1cv 1cn 1cn 1cv 1en 1ev 2cn 2cv 2en 1cb 1cb 1eb 1eb 1rn 1rn 1rv 1rv 1rb 1rb 2cb 2cb"
    record.write_text(f"jeu tresor\njoueurs Ana Ben\ndépart 3rb  # the start\nmoi Ana\nmain {hand}\nAna passe\n")
    assert main(["replay", str(record), "--canonical"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "game tresor",
        "players Ana Ben",
        "me Ana",
        "hand 1cn 1cn 1cv 1cv 1cb 1cb 1en 1en 1ev 1ev 1eb 1eb 1rn 1rn 1rv 1rv 1rb 1rb 2cn 2cn 2cv 2cv 2cb 2cb 2en 2en",
        "start 3rb",
        "Ana pass",
    ]
    record.write_text(record.read_text().replace("Ana passe", "Ben passe"))
    assert main(["replay", str(record), "--json"]) == 1  # Ana plays first
    assert "Ben cannot pass now: the table waits for Ana to place a card or pass" in capsys.readouterr().err


def test_a_record_of_another_game_is_refused_with_the_command_to_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coup = tmp_path / "game.tresor"
    coup.write_text("game coup\nplayers Alice Bob\n")
    assert main(["replay", str(coup)]) == 1
    assert "this is a coup record, not a tresor one (try: coup replay FILE)" in capsys.readouterr().err
    bare = tmp_path / "bare.tresor"
    bare.write_text("players Ana Ben\n")
    assert main(["replay", str(bare)]) == 1
    assert "its first line must be 'game tresor'" in capsys.readouterr().err


def test_a_wrong_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay"])
    assert exit_info.value.code == 2
    assert main(["replay", "/no/such/file.tresor"]) == 1  # a refused input, not a wrong command line
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--players", "9"])
    assert exit_info.value.code == 2


def test_replay_plot_draws_the_domain_to_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "domain.png"
    assert main(["replay", str(EXAMPLES[0]), "--plot", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG" and out.stat().st_size > 20_000
    assert main(["replay", str(EXAMPLES[0]), "--plot", str(tmp_path / "no" / "such" / "dir.png")]) == 1


def test_demo_prints_a_record_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "3", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    table = replay(text)
    assert table.final() is not None and text.splitlines()[-1].startswith("# ")


def test_tresor_is_registered_as_a_game_of_the_house() -> None:
    game = registered()["tresor"]
    assert (game.name, game.headerless) == ("tresor", False)


def _spectators(lines: list[str]) -> list[str]:
    """A seat's record as a spectator writes it: no ``me`` nor ``hand``, no marker on the seat's
    bids, and the seat's markers revealed at the end like everybody's."""
    out, markers = [], []
    for line in lines:
        if line.startswith(("me ", "hand ", "#")):
            continue
        if " with " in line:
            line, marker = line.split(" with ")
            markers.append(marker)
        out.append(line)
        if line.startswith("removed "):
            out.append(f"Ana reveal {' '.join(markers)}")
    return out


def test_a_spectators_record_replays_with_public_events_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """treasure.md: a record without ``me`` and ``hand`` is a spectator's; it was refused ("the
    table waits for the set-up: me NAME, hand CARDS")."""
    from collections import Counter
    from fractions import Fraction

    seat = (Path(__file__).parent.parent / "examples" / "two-players.tresor").read_text().splitlines()
    lines = _spectators(seat)
    record = tmp_path / "spectator.tresor"
    record.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(record), "--json"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert main(["replay", str(Path(__file__).parent.parent / "examples" / "two-players.tresor"), "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert mine["me"] is None and "bids" not in mine and "placements" not in mine
    assert all("cards" not in p for p in mine["players"])
    assert [(p["hand"], p["vp"], p["bids"]) for p in mine["players"]] == [
        (p["hand"], p["vp"], p["bids"]) for p in theirs["players"]
    ]
    assert mine["final"] == theirs["final"] and mine["winner"] == theirs["winner"] and mine["waiting"] is None
    # mid-game: the odds from the start card and the placed cards alone, by treasure.md's weights
    cut = next(i for i, line in enumerate(lines) if line.endswith(" neuro"))
    record.write_text("\n".join(lines[:cut]) + "\n")
    assert main(["replay", str(record), "--json"]) == 0
    middle = json.loads(capsys.readouterr().out)
    seen = Counter(d["card"] for d in middle["domain"])
    kinds = [f"{f}{n}{b}" for f in "123" for n in "cer" for b in "nvb"]
    weights = {k: 2 - seen[k] for k in kinds if seen[k] < 2}
    total = sum(weights.values())
    assert middle["treasure"] == {k: str(Fraction(w, total)) for k, w in weights.items()}
    assert main(["replay", str(record)]) == 0
    text = capsys.readouterr().out
    assert "treasure: " in text and "your cards" not in text and "best bids" not in text

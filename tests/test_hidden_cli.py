"""`coup solve FILE --hidden K` and `solve --hidden [K]` at the table (outputs.md, "Hidden-card
values"): the figures in JSON and in words, the doubt threshold in a challenge window, and the
refusals (a wrong K, the limit, Ctrl-C)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from companion.coup import hidden_advice
from companion.coup.cli import main
from companion.coup.commands import session as Session
from companion.session import CANCELLED, guarded
from solver.coup.puzzle import Puzzle
from solver.errors import TooLarge

PUZZLES = Path(__file__).parent.parent / "companion" / "coup" / "data" / "puzzles"
LAST_CONTESSA = PUZZLES / "03-last-contessa.toml"

WINDOW = """players Alice Bob
draft none
me Bob
hand duke captain
coins Alice 7
coins Bob 7
Alice coup Bob
Bob lose captain
Bob coup Alice
Alice lose contessa
Alice tax
"""


def test_solve_hidden_json_gives_v_k_beside_v_0_and_the_hand_s_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(LAST_CONTESSA), "--hidden", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    hidden = out["hidden"]
    assert out["value"] == "-1/3"  # today's open-hand answer is still there
    assert (hidden["turns"], hidden["value"], hidden["open_value"]) == (1, "29/45", "91/135")
    assert hidden["hand_value"] == "-1/9" and hidden["hand_open_value"] == "-5/27"
    options = {m: Fraction(v) for m, v in hidden["options"].items()}
    strategy = {m: Fraction(p) for m, p in hidden["strategy"].items()}
    assert sum(strategy.values()) == 1
    assert all(options[m] == Fraction(hidden["hand_value"]) for m in strategy)  # only best moves are played
    assert max(options.values()) == Fraction(hidden["hand_value"])
    assert sum(Fraction(p) for p in hidden["opponent"].values()) >= 1


def test_solve_hidden_in_words_says_values_signed_and_percentages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(LAST_CONTESSA), "--hidden", "1"]) == 0
    text = capsys.readouterr().out
    assert "Hidden cards over 1 turn: Alice's value +0.64 (open hands: +0.67)" in text
    assert "with contessa: value -0.11 (open hands: -0.19)" in text
    assert "play 100%" in text and "Bob holds (at least one): duke 22%" in text
    assert "/" not in text.split("Hidden cards")[1]  # no fraction in the human text


def test_solve_hidden_refuses_a_negative_number_of_turns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(LAST_CONTESSA), "--hidden", "-1"]) == 1
    err = capsys.readouterr().err
    assert "0 or more" in err and len(err.strip().splitlines()) == 1


def test_solve_hidden_refuses_beyond_the_limit_naming_it() -> None:
    import tomllib

    puzzle = Puzzle.from_mapping(tomllib.loads(LAST_CONTESSA.read_text()))
    with pytest.raises(TooLarge, match="more than 1,000 histories, the limit"):
        hidden_advice.for_puzzle(puzzle, 3, limit=1000)


def test_ctrl_c_cancels_solve_hidden(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(hidden_advice, "for_puzzle", interrupted)
    assert main(["solve", str(LAST_CONTESSA), "--hidden", "1"]) == 130
    assert "cancelled" in capsys.readouterr().err


def test_solve_hidden_at_the_table_reads_a_challenge_window_as_a_threshold() -> None:
    s = Session()
    for line in WINDOW.splitlines():
        s.handle(line)
    text = "\n".join(t for _, t in s.handle("solve --hidden 2"))
    assert "Hidden cards over 2 turns: Bob's value" in text
    assert "challenge if you think Alice bluffs more than 64% of the time; the equilibrium doubts 100%" in text
    one = "\n".join(t for _, t in s.handle("solve --hidden"))
    assert "Hidden cards over 1 turn" in one and "challenge whatever you think of Alice's duke" in one


def test_solve_hidden_at_the_table_refuses_a_wrong_number_of_turns() -> None:
    s = Session()
    for line in WINDOW.splitlines():
        s.handle(line)
    before = s.table
    [(kind, text)] = s.handle("solve --hidden two")
    assert kind == "error" and "one number of turns" in text and s.table is before


def test_the_spectator_view_drops_the_seat_s_private_lines() -> None:
    s = Session()
    for line in WINDOW.splitlines():
        s.handle(line)
    spectator = hidden_advice.spectator(s.table)
    seat = s.table.view
    assert spectator.me is None and spectator.view is not None and seat is not None
    assert spectator.view.turn == seat.turn and spectator.view.coins == seat.coins


ENDGAME = WINDOW + "pass\nBob income\nAlice steal Bob\nBob challenge\n"


def test_analyze_hidden_marks_the_seat_s_pass_against_an_unlikely_duke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "endgame.coup"
    record.write_text(ENDGAME)
    assert main(["analyze", str(record), "--hidden", "1", "--json"]) == 0
    hidden = json.loads(capsys.readouterr().out)["hidden"]
    assert hidden["turns"] == 1
    decisions = {d["line"]: d for d in hidden["decisions"]}
    assert {d["player"] for d in decisions.values()} == {"Bob"}  # the record's seat only
    passed = decisions[12]
    assert passed["move"] == "pass" and passed["mark"] == "??" and passed["better"] == "Bob challenge"
    assert Fraction(passed["value_before"]) > 0 > Fraction(passed["value_after"])
    assert decisions[15]["mark"] is None  # the challenge of the steal was the equilibrium's move


def test_analyze_hidden_of_a_spectator_s_record_values_both_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "spectator.coup"
    record.write_text("\n".join(x for x in ENDGAME.splitlines() if not x.startswith(("me ", "hand "))) + "\n")
    assert main(["analyze", str(record), "--hidden", "1"]) == 0
    text = capsys.readouterr().out
    assert "hidden cards (1 turn unseen; values from the mover's side, before -> after):" in text
    assert "Alice steal Bob??" in text and "pass??" in text


def test_ctrl_c_cancels_solve_hidden_at_the_table_not_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    s = Session()
    for line in WINDOW.splitlines():
        s.handle(line)
    before = s.table
    monkeypatch.setattr(hidden_advice, "for_table", interrupted)
    assert guarded(s.handle, "solve --hidden") == [CANCELLED]
    assert s.table is before and s.handle("Bob challenge") != []


def test_with_k_0_the_hand_value_is_its_open_hand_value_and_there_is_no_decision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", str(PUZZLES / "12-two-against-two.toml"), "--hidden", "0", "--json"]) == 0
    hidden = json.loads(capsys.readouterr().out)["hidden"]
    assert hidden["value"] == hidden["open_value"]
    assert hidden["hand_value"] == hidden["hand_open_value"] == "68/135"
    assert hidden["options"] == {} and hidden["strategy"] == {}

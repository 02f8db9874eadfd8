"""`coup analyze`: records whose right annotation is known."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from companion.coup.analysis import Analysis, analysis_json, analyze, plot
from companion.coup.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"

IMPOSSIBLE = (
    "players Alice Bob Carol\nme Carol\nhand duke duke\ncoins Bob 7\nAlice income\n"
    "Bob coup Alice\nAlice lose duke\nCarol income\nAlice tax\nBob challenge\nAlice lose captain\n"
)
LUCKY = (  # Carol saw Alice's duke; Alice claims it, Bob challenges, and Alice declines to prove
    "players Alice Bob Carol\nvariant inquisitor\nme Carol\nhand inquisitor captain\n"
    "Alice income\nBob income\nCarol examine Alice\npass\nsaw duke\nCarol return\n"
    "Alice tax\nBob challenge\nAlice lose contessa\n"
)
BLUNDER = (  # both down to one card and 7 coins, Alice to move: she takes income instead of the coup
    "players Alice Bob\ndraft none\nme Alice\nhand duke captain\ncoins Alice 14\ncoins Bob 14\n"
    "Alice coup Bob\nBob lose contessa\nBob coup Alice\nAlice lose captain\n"
    "Alice income\nBob coup Alice\nAlice lose duke\n"
)


@cache
def blunder() -> Analysis:
    return analyze(BLUNDER, budget=300_000)


def test_an_impossible_claim_is_flagged_and_counted_as_a_known_bluff() -> None:
    out = analysis_json(analyze(IMPOSSIBLE, endgame=False))
    [claim] = out["claims"]
    assert claim == {"line": 9, "player": "Alice", "claim": "duke", "probability": "0", "level": "impossible"}
    [challenge] = out["challenges"]
    assert challenge["success_probability"] == "1" and challenge["succeeded"] is True and not challenge["lucky"]
    assert out["players"]["Alice"] == {
        "claims": 1,
        "proved": 0,
        "caught": 1,
        "unchallenged": 0,
        "open": 0,
        "bluffs_known": 1,
    }


def test_a_challenge_that_could_not_succeed_but_did_is_lucky() -> None:
    out = analysis_json(analyze(LUCKY, endgame=False))
    claim = next(c for c in out["claims"] if c["player"] == "Alice")
    assert claim["probability"] == "1" and claim["level"] is None  # Carol saw the duke
    [challenge] = out["challenges"]
    assert challenge["success_probability"] == "0" and challenge["succeeded"] is True and challenge["lucky"]
    assert out["players"]["Alice"]["caught"] == 1


def test_an_endgame_blunder_throws_away_a_won_position() -> None:
    a = blunder()
    by_line = {e.line: e for e in a.endgame}
    income = by_line[11]
    assert (income.value_before, income.value_after) == (1, -1)
    assert income.mark == "??" and income.best == "Alice coup Bob"
    coup = by_line[12]  # Bob's coup wins: no mark
    assert (coup.value_before, coup.value_after, coup.mark) == (1, 1, None)
    out = analysis_json(a)
    marked = [e for e in out["endgame"] if e["mark"]]
    assert marked == [
        {
            "line": 11,
            "move": "Alice income",
            "value_before": "1",
            "value_after": "-1",
            "mark": "??",
            "better": "Alice coup Bob",
        }
    ]
    assert all(n in {1, 7, 8, 9, 10} for n, _ in a.skipped)  # two cards a side: beyond the small budget


def test_a_target_challenging_an_assassin_with_two_cards_risks_both() -> None:
    record = (
        "players Alice Bob Carol\nme Alice\nhand duke captain\ncoins Bob 3\nAlice income\n"
        "Bob assassinate Carol\nCarol challenge\nBob show assassin\n"
    )
    out = analysis_json(analyze(record, endgame=False))
    [challenge] = out["challenges"]
    assert Fraction(challenge["risk_of_losing_both"]) == 1 - Fraction(challenge["success_probability"])
    assert challenge["succeeded"] is False


@pytest.mark.parametrize(
    "name", ["three-players.coup", "five-players-inquisitor.coup", "two-players-draft.coup", "in-progress.coup"]
)
def test_every_claim_is_proved_caught_unchallenged_or_open(name: str) -> None:
    a = analyze((EXAMPLES / name).read_text(), endgame=False)
    for row in a.players().values():
        assert row["claims"] == row["proved"] + row["caught"] + row["unchallenged"] + row["open"]
    assert sum(r["claims"] for r in a.players().values()) == len(a.claims) > 0
    # the timeline starts at the first turn with every player's coins and two cards
    first = a.timeline[0]
    assert first.turn == 0 and all(i == 2 for i in first.influence)


def test_the_plot_is_drawn_with_coins_influence_and_the_endgame(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "game.png"
    plot(blunder(), str(out))
    with Image.open(out) as image:
        assert image.size[0] >= 600 and image.size[1] >= 500
        colours = image.convert("L").getextrema()
        assert colours[0] < 100 < colours[1]  # ink on paper, not a blank page


def test_coup_analyze_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "lucky.coup"
    record.write_text(LUCKY)
    assert main(["analyze", str(record), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"claims", "challenges", "players", "endgame"}
    assert main(["analyze", str(record)]) == 0
    text = capsys.readouterr().out
    assert "(lucky)" in text and "Bob on Alice's duke" in text
    record.write_text("players Alice Bob Carol\nAlice assassinate Bob\n")
    assert main(["analyze", str(record)]) == 1
    assert capsys.readouterr().err.strip() == f"{record}:2: Alice has 2 coins; assassinate costs 3"


def test_coup_analyze_json_counts_a_claim_left_open_at_the_end_of_the_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """in-progress.coup ends with a claim's window open: outputs.md counts it as ``open``."""
    assert main(["analyze", str(EXAMPLES / "in-progress.coup"), "--json", "--no-endgame"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert sum(row["open"] for row in players.values()) == 1
    for row in players.values():
        assert row["claims"] == row["proved"] + row["caught"] + row["unchallenged"] + row["open"]

"""``spicy analyze``: every claim with its exact odds and flag as the seat saw them when typed,
every challenge with its chance and outcome, per player what became of their claims, and the
score after every line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from companion.spicy.analysis import analysis_json, analysis_text, analyze, plot
from companion.spicy.tracker import replay
from solver.spicy.odds import top_odds
from tests.test_spicy_prompt import RECORD

TEXT = "".join(line + "\n" for line in RECORD)


def test_every_claim_has_its_outcome_and_the_seats_own_claims_their_truth() -> None:
    a = analyze(TEXT)
    outcomes = [(c.player, str(c.claim), a.outcome(c)) for c in a.claims]
    assert outcomes[:3] == [
        ("Ana", "chili 1", "unchallenged"),
        ("Ben", "chili 7", "unchallenged"),
        ("Ben", "chili 8", "proved"),
    ]
    claims = analysis_json(a)["claims"]
    bluff = next(c for c in claims if c["line"] == RECORD.index("Ana play chili-3 as chili 8") + 1)
    assert bluff == {
        "line": 19, "player": "Ana", "claim": "chili 8", "last": False, "card": "chili-3", "honest": None,
        "random": None, "probability": "0", "level": None, "outcome": "unchallenged",
    }  # fmt: skip
    last = claims[-1]
    assert last["player"] == "Ben" and last["last"] is True and last["honest"] is not None


def test_a_claims_odds_are_those_the_table_gave_when_it_was_typed() -> None:
    a = analyze(TEXT)
    for claim in a.claims:
        if claim.odds is None:
            continue
        after = replay("".join(line + "\n" for line in RECORD[: claim.line]))
        assert after.state is not None and top_odds(after.state).honest == claim.odds.honest  # nothing seen since


def test_every_challenge_has_its_chance_just_before_and_its_outcome() -> None:
    a = analyze(TEXT)
    (challenge,) = analysis_json(a)["challenges"]
    before = replay("".join(line + "\n" for line in RECORD[: challenge["line"] - 1]))
    assert before.state is not None
    assert Fraction(challenge["false_probability"]) == 1 - top_odds(before.state).honest.number
    assert challenge["card"] == "chili-8" and challenge["succeeded"] is False and challenge["pile"] == 3


def test_per_player_claims_bluffs_caught_and_challenges_won() -> None:
    players = analyze(TEXT).players()
    assert players["Ben"]["claims"] == 6 and players["Ben"]["proved"] == 1 and players["Ben"]["caught"] == 0
    assert players["Ana"]["challenges"] == 1 and players["Ana"]["challenges_won"] == 0
    assert players["Ben"]["trophies"] == 1 and players["Ben"]["score"] == 3 + 10 - 6


def test_the_score_after_every_line_ends_with_the_final_score() -> None:
    a = analyze(TEXT)
    assert a.scores[0] == (2, (-6, -6))  # the deal
    assert a.scores[-1] == (len(RECORD), (-4, 7))
    assert [line for line, _ in a.scores] == list(range(2, len(RECORD) + 1))


def test_a_caught_bluff_and_a_pending_reveal_are_told_apart() -> None:
    text = "game spicy\nplayers Ana Ben\nAna play chili 2\nBen challenge number\nreveal wild-spice\nAna play chili 1\n"
    a = analyze(text + "Ben challenge spice\n")
    assert [a.outcome(c) for c in a.claims] == ["caught", "pending"]
    assert a.players()["Ana"]["caught"] == 1 and a.players()["Ana"]["pending"] == 1


def test_the_text_and_the_plot(tmp_path: Path) -> None:
    a = analyze(TEXT)
    text = analysis_text(a)
    assert "your chili-3: a bluff" in text and "Ana      on Ben's chili 8 (number, 3 cards)" in text
    plot(a, str(tmp_path / "scores.png"))
    assert (tmp_path / "scores.png").stat().st_size > 1000

"""`solve` at the table: the seat's knowledge as hypotheses for the exact solver."""

from __future__ import annotations

import importlib
from fractions import Fraction
from pathlib import Path

import pytest

from companion.coup.commands import session as Session
from companion.coup.endgame import hypotheses, solve_table
from companion.coup.tracker import replay
from solver.coup import Character, GameError
from solver.coup.tablebase import Library
from solver.errors import Unsupported

SETUP = "players Alice Bob\ndraft none\nme Alice\nhand duke captain\ncoins Alice 17\ncoins Bob 7\n"
BOTH_COUPED = SETUP + "Alice coup Bob\nBob lose contessa\nBob coup Alice\nAlice lose captain\n"


def test_hypotheses_follow_the_count_of_unseen_cards() -> None:
    """Bob's last card is any of the 11 cards Alice has not seen: 3 assassins, 2 dukes..."""
    found = hypotheses(replay(BOTH_COUPED))
    weights = {h.state.hidden[1]: h.probability for h in found}
    assert weights == {
        (Character.DUKE,): Fraction(2, 11),
        (Character.ASSASSIN,): Fraction(3, 11),
        (Character.CONTESSA,): Fraction(1, 11),
        (Character.CAPTAIN,): Fraction(2, 11),
        (Character.AMBASSADOR,): Fraction(3, 11),
    }
    for h in found:  # the court holds the rest, Alice's own cards are hers
        assert h.state.hidden[0] == (Character.DUKE,)
        assert len(h.state.court) == 11 and h.state.coins == (10, 0)


def test_solve_at_the_table_gives_the_win_and_the_move() -> None:
    result = solve_table(replay(BOTH_COUPED))
    assert (result.value, result.win, result.hypotheses) == (1, 1, 5)
    assert result.best.text(("Alice", "Bob")) == "Alice coup Bob"


def test_solve_command_answers_at_the_prompt() -> None:
    session = Session()
    for line in BOTH_COUPED.splitlines():
        session.handle(line)
    [(style, text)] = session.handle("solve")
    assert style == "" and "Alice to move: value 1" in text and "best move: Alice coup Bob" in text


def test_solve_refuses_three_players_naming_the_limit() -> None:
    table = replay("players Alice Bob Carol\nme Alice\nhand duke captain\nAlice income\n")
    with pytest.raises(Unsupported, match="two living players; 3 are left"):
        hypotheses(table)


FIVE_DOWN_TO_TWO = """players Alice Bob Carol Dave Erin
me Alice
hand duke captain
coins Alice 7
Alice coup Carol
Carol lose duke
coins Bob 7
Bob coup Carol
Carol lose assassin
coins Dave 7
Dave coup Erin
Erin lose contessa
coins Erin 7
Erin coup Dave
Dave lose captain
coins Alice 7
Alice coup Dave
Dave lose ambassador
coins Bob 7
Bob coup Erin
Erin lose ambassador
"""


def test_solve_refuses_a_table_to_generate_beyond_the_budget_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table not there (here: nothing installed, as for a 7-8 player game) is generated on
    first use, within the budget."""
    probe_module = importlib.import_module("solver.coup.tablebase.probe")
    monkeypatch.setattr(probe_module, "_DEFAULT", [Library(directories=[], cache=tmp_path)])
    session = Session(budget=1_000)
    for line in FIVE_DOWN_TO_TWO.splitlines():
        session.handle(line)
    before = session.table
    [(style, text)] = session.handle("solve")
    assert style == "error" and "more than the budget of 1,000" in text
    assert session.table is before


def test_solve_mid_turn_is_refused() -> None:
    table = replay(BOTH_COUPED + "Alice coup Bob\n")
    with pytest.raises(GameError):
        hypotheses(table)


def test_solve_a_three_player_game_down_to_two_on_their_seats() -> None:
    """Carol is out: the position is solved on Alice's and Bob's seats alone."""
    session = Session()
    lines = (
        "players Alice Bob Carol\nme Alice\nhand duke captain\ncoins Alice 24\ncoins Bob 7\n"
        "Alice coup Carol\nCarol lose contessa\nBob coup Carol\nCarol lose assassin\n"
        "Alice coup Bob\nBob lose duke\nBob income\n"
    )
    for line in lines.splitlines():
        assert not any(style == "error" for style, _ in session.handle(line)), line
    [(style, text)] = session.handle("solve")
    assert style == "" and "Alice to move: value 1" in text and "best move: Alice coup Bob" in text


def test_solve_in_a_challenge_window_weighs_each_option_of_the_player_deciding() -> None:
    """Alice taxed instead of couping (7 coins each, one card each): Bob, to decide, should
    let it pass (he then coups her); challenging her true duke loses his last card."""
    session = Session()
    lines = BOTH_COUPED.replace("coins Alice 17\ncoins Bob 7", "coins Alice 14\ncoins Bob 14") + "Alice tax\n"
    for line in lines.splitlines():
        session.handle(line)
    [(style, text)] = session.handle("solve")
    assert style == "" and text.splitlines()[:2] == [
        "Bob to decide: value 1; best: Bob pass (value 1)",
        "  Bob challenge: -1",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "ambassador Alice:14:DK:- Bob:13:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice",
        "ambassador Alice:3:D:K Bob:15:A:C court=DDAACCKBBB aside=K phase=action actor=Alice",
        "inquisitor Alice:20:I:D Bob:11:K:A court=DDAACCCKKII aside=- phase=action actor=Bob",
    ],
)
def test_coins_beyond_the_tables_are_valued_by_expanding_turns_down_to_them(text: str) -> None:
    """Play never brings more than 12 coins; a position typed with more is still answered
    exactly (whoever has 10 or more must coup, so the expansion reaches the tables)."""
    from solver.coup import State
    from solver.coup.hidden import graph_open_values, open_values

    state = State.from_text(text)
    assert open_values([state], seat=0) == graph_open_values([state], seat=0)

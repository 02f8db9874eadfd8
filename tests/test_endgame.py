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
from tests.test_readable import unreadable

EXAMPLES = Path(__file__).parent.parent / "examples"

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
    assert style == "" and text.splitlines()[:3] == [
        "your move (Alice): you win 100% with best play on both sides (value +1)",
        "  (the average over the 5 ways the cards you cannot see may lie, each played with every card known)",
        "your best single move against all 5 at once: Alice coup Bob, value +1 for you",
    ]


def test_solve_speaks_to_the_seat_when_the_other_player_moves() -> None:
    session = Session()
    for line in BOTH_COUPED.replace("me Alice\nhand duke captain", "me Bob\nhand contessa assassin").splitlines():
        session.handle(line)
    [(_, text)] = session.handle("solve")
    assert text.splitlines()[0] == "Alice to move: you (Bob) lose 100% with best play on both sides (value -1)"
    assert "Alice's best single move against all 5 at once: Alice coup Bob, value -1 for you" in text


def test_a_spectators_solve_names_the_player_to_move() -> None:
    session = Session()
    for line in BOTH_COUPED.replace("me Alice\nhand duke captain\n", "").splitlines():
        session.handle(line)
    [(_, text)] = session.handle("solve")
    assert text.startswith("Alice to move: Alice wins 100% with best play on both sides (value +1)\n")
    assert "the unseen cards" in text and " you" not in text


def test_the_two_figures_of_solve_are_told_apart_in_words() -> None:
    """Seated as Alice, dealt an ambassador and picking another: the open-hand average (each
    hypothesis played with every card known) and the best move's value (one move for all)."""
    session = Session()
    for line in (EXAMPLES / "two-players-draft.coup").read_text().splitlines()[:9]:
        session.handle(line)
    [(_, text)] = session.handle("solve")
    rows = text.splitlines()
    assert rows[0] == "Bob to move: you (Alice) win 35%, lose 65% with best play on both sides (value -0.29)"
    assert rows[1] == (
        "  (the average over the 20 ways the cards you cannot see may lie, each played with every card known)"
    )
    assert rows[2] == "Bob's best single move against all 20 at once: Bob aid, value -0.09 for you"
    assert "chosen without knowing which is true" in rows[3]
    assert not unreadable(text)


def test_solve_right_after_the_draft_says_how_its_figure_differs_from_the_drafts() -> None:
    # The value with a dealt card depends on which equilibrium is reported (outputs.md): the
    # figure is read from the draft's advice, and the table must say the same figure everywhere.
    from companion.coup.draft_advice import advice_for
    from companion.figures import value
    from solver.coup import Draft, Variant

    advice = advice_for(Variant.AMBASSADOR, Draft.DEALT_FIRST).advice(0, Character.DUKE)
    worth = value(Fraction(advice["value"]))
    assert Fraction(advice["picks"]["ambassador"]) == Fraction(advice["value"])
    session = Session()
    for line in ("players Alice Bob", "draft dealt-first", "me Alice"):
        session.handle(line)
    [(_, said)] = session.handle("dealt duke")
    assert said.startswith(f"draft: pick ambassador: with a dealt duke, the draft is worth {worth} to you (P(win)")
    session.handle("pick ambassador")
    [(_, text)] = session.handle("solve")
    assert text.startswith("your move (Alice): you win 82%, lose 18% with best play on both sides (value +0.65)")
    assert f"the draft's value of your pick, {worth}, weighs Bob's pick by the draft's equilibrium" in text
    fair = Session(draft_model="equilibrium")
    for line in ("players Alice Bob", "draft dealt-first", "me Alice", "dealt duke", "pick ambassador"):
        fair.handle(line)
    [(_, text)] = fair.handle("solve")
    assert f"(value {worth})" in text and f"as the draft's value of your pick, {worth}" in text


def test_solve_in_a_window_of_the_seat_says_what_it_decides_and_values_each_option_for_it() -> None:
    session = Session()
    for line in (EXAMPLES / "two-players-draft.coup").read_text().splitlines()[:13]:
        session.handle(line)  # Bob steals from Alice
    [(_, text)] = session.handle("solve")
    assert text.splitlines()[:3] == [
        "your move (Alice): challenge Bob's steal or pass; values for you (P(win) - P(loss) with best play after "
        "the choice):",
        "  Alice pass       +0.59  (your best)",
        "  Alice challenge  +0.22",
    ]


def test_solve_shows_exact_fractions_when_asked() -> None:
    session = Session()
    for line in (EXAMPLES / "two-players-draft.coup").read_text().splitlines()[:9]:
        session.handle(line)
    [(_, text)] = session.handle("solve --exact")
    assert "win 857/2430 (35%)" in text and "(value -358/1215)" in text and "value -131/1458 for you" in text


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
    assert style == "" and text.startswith("your move (Alice): you win 100%")
    assert "best single move against all 5 at once: Alice coup Bob" in text


def test_solve_in_a_challenge_window_weighs_each_option_of_the_player_deciding() -> None:
    """Alice taxed instead of couping (7 coins each, one card each): Bob, to decide, should
    let it pass (he then coups her); challenging her true duke loses his last card."""
    session = Session()
    lines = BOTH_COUPED.replace("coins Alice 17\ncoins Bob 7", "coins Alice 14\ncoins Bob 14") + "Alice tax\n"
    for line in lines.splitlines():
        session.handle(line)
    [(style, text)] = session.handle("solve")
    assert style == "" and text.splitlines() == [
        "Bob to challenge Alice's tax or pass; values for you (Alice) "
        "(P(win) - P(loss) with best play after the choice):",
        "  Bob pass       -1  (Bob's best)",
        "  Bob challenge  +1",
        text.splitlines()[-1],
    ]
    assert text.splitlines()[-1].startswith("averaged over the 5 ways the cards you cannot see may lie; solved exactly")


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

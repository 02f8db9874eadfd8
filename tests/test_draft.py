"""The 2-player draft: the open-hand values of its 500 games (from the endgame tables), the exact equilibrium, `coup
draft`, and the advice at the table."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.coup.cli import main
from companion.coup.commands import session as Session
from companion.coup.draft_advice import Advice, advice_for, from_tables
from companion.coup.tracker import replay
from companion.figures import value
from solver.coup import Character, Draft, Variant
from solver.coup.draft import deals, games, opening, pick_pairs, solve_pair
from solver.equilibrium import bayesian_game

VARIANTS = list(Variant)
ORDERS = [Draft.DEALT_FIRST, Draft.PICK_FIRST]
CHEAPEST = {
    Variant.AMBASSADOR: (Character.CONTESSA, Character.CONTESSA),
    Variant.INQUISITOR: (Character.CONTESSA, Character.CONTESSA),
}
"""A pair of picks with one of the smaller graphs (both keep the contessa)."""


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_the_tables_value_every_game_of_the_draft(variant: Variant) -> None:
    table = from_tables(variant)
    assert set(table) == set(games(variant)) and len(table) == 500
    assert all(-1 <= v <= 1 for v in table.values())


@pytest.mark.parametrize(
    "variant", [Variant.AMBASSADOR, pytest.param(Variant.INQUISITOR, marks=pytest.mark.slow)], ids=str
)
def test_the_tables_values_equal_a_recomputation_on_game_graphs(variant: Variant) -> None:
    """One graph (a pair of picks: its 20 deals, some 40 s) solved again from scratch; the
    inquisitor's (a second minute) with ``-m slow`` (`coup draft --recompute` redoes all 500)."""
    fresh, states = solve_pair(variant, CHEAPEST[variant])
    table = from_tables(variant)
    assert len(fresh) == 20 and states > 1000
    assert all(table[game] == value for game, value in fresh.items())


def test_a_game_of_the_table_is_the_value_of_its_opening() -> None:
    """The table's key order: (dealt first, dealt second), (pick first, pick second)."""
    d, k, c = Character.DUKE, Character.CAPTAIN, Character.CONTESSA
    state = opening(Variant.AMBASSADOR, (d, k), (c, c))
    assert state.hidden == ((d, c), (c, k)) and state.coins == (1, 2) and state.turn.actor == 0
    assert len(state.court) == 3 and len(state.aside) == 8


def independent_best_responses(variant: Variant, order: Draft, advice: Advice) -> None:
    """Recompute from the table alone what each pick is worth against the other seat's reported
    strategy, and check that no pick improves either side, exactly."""
    table, chars = from_tables(variant), variant.characters
    e = advice.equilibrium
    for seat, mine, theirs in ((0, e.row, e.column), (1, e.column, e.row)):
        sign = 1 if seat == 0 else -1
        for t in range(len(mine)):
            worth = []
            for a in range(5):
                total, weight = Fraction(0), Fraction(0)
                for deal in deals(variant):
                    if order is Draft.DEALT_FIRST and deal[seat] != chars[t]:
                        continue
                    other = chars.index(deal[1 - seat]) if order is Draft.DEALT_FIRST else 0
                    for b in range(5):
                        picks = (chars[a], chars[b]) if seat == 0 else (chars[b], chars[a])
                        total += theirs[other][b] * table[(deal, picks)]
                    weight += 1
                worth.append(sign * total / weight)
            best = max(worth)
            assert all(worth[a] == best for a in range(5) if mine[t][a]), (seat, t, worth, mine[t])
            dealt = chars[t] if order is Draft.DEALT_FIRST else None
            shown = advice.advice(seat, dealt)
            assert {c.name_en: Fraction(v) for c, v in zip(chars, worth, strict=True)} == {
                k: Fraction(v) for k, v in shown["picks"].items()
            }


@pytest.mark.parametrize("order", ORDERS, ids=str)
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_no_pick_improves_either_side(variant: Variant, order: Draft) -> None:
    advice = advice_for(variant, order)
    independent_best_responses(variant, order, advice)
    assert advice.game_value(0) == -advice.game_value(1)
    # the game value is what the first player expects from the recommended picks
    values = [Fraction(advice.advice(0, d)["value"]) for d in advice.dealt_cards()]
    assert advice.game_value(0) == sum(values, Fraction(0)) / len(values)


def test_a_tiny_draft_worked_by_hand() -> None:
    """Two cards x and y: one is dealt to each player (so each knows the other's), each then
    picks x or y. Say the first player wins (+1) when the picks match and loses (-1) when they
    differ, whatever the deal, except that with x dealt to the first player a matching pick of
    x is only worth 0. Dealt x: the first player is in matching pennies with payoffs (0, -1 /
    -1, 1): p on x makes the second indifferent at 0p - (1 - p) = -p + (1 - p), p = 2/3; the
    second's q on x solves 0q - (1 - q) = -q + (1 - q), q = 2/3; value -1/3. Dealt y: plain
    matching pennies, value 0, both 1/2. The draft is worth (-1/3 + 0) / 2 = -1/6."""

    def payoff(t1: int, t2: int, a1: int, a2: int) -> Fraction:
        if a1 != a2:
            return Fraction(-1)
        return Fraction(0) if (t1, a1) == (0, 0) else Fraction(1)

    prior = [[Fraction(0), Fraction(1, 2)], [Fraction(1, 2), Fraction(0)]]
    e = bayesian_game(prior, 2, 2, payoff)
    assert e.value == Fraction(-1, 6)
    assert e.row == [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 2), Fraction(1, 2)]]
    # the second player's type 1 faces the first player's type 0 (dealt x)
    assert e.column == [[Fraction(1, 2), Fraction(1, 2)], [Fraction(2, 3), Fraction(1, 3)]]


def test_pick_pairs_are_the_fifteen_multisets_of_cards_in_play() -> None:
    pairs = pick_pairs(Variant.INQUISITOR)
    assert len(pairs) == 15 and len(set(pairs)) == 15
    assert all(a <= b for a, b in pairs)


def test_coup_draft_json_for_one_dealt_card_is_one_object_for_the_first_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """outputs.md: one seat (default first), one object with --dealt."""
    assert main(["draft", "--json", "--dealt", "duke"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["seat"] == "first"
    assert set(first) == {"variant", "order", "seat", "dealt", "picks", "recommended", "value", "game_value"}
    assert first["dealt"] == "duke" and first["order"] == "dealt-first" and first["variant"] == "ambassador"
    assert sum(Fraction(p) for p in first["recommended"].values()) == 1
    assert first["value"] == max(first["picks"].values(), key=Fraction)
    assert main(["draft", "--json", "--dealt", "duke", "--seat", "second"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["seat"] == "second" and Fraction(first["game_value"]) == -Fraction(second["game_value"])


def test_coup_draft_json_lists_five_dealt_cards_for_one_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--json", "--seat", "second", "--variant", "inquisitor"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["dealt"] for o in out] == ["duke", "assassin", "contessa", "captain", "inquisitor"]
    assert {o["seat"] for o in out} == {"second"}


def test_coup_draft_json_without_seat_or_dealt_is_a_list_of_five_objects_for_the_first_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["draft", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["dealt"] for o in out] == ["duke", "assassin", "contessa", "captain", "ambassador"]
    assert {o["seat"] for o in out} == {"first"}


def test_pick_first_refuses_a_dealt_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--order", "pick-first", "--dealt", "duke"]) == 2
    assert "pick-first" in capsys.readouterr().err
    assert main(["draft", "--order", "pick-first", "--json", "--seat", "first"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dealt"] is None and out["order"] == "pick-first"


def test_coup_draft_prints_the_first_seats_table_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft"]) == 0
    text = capsys.readouterr().out
    assert "first player (the whole draft is worth -0.08)" in text and "second player" not in text
    assert text.count("\n  duke") == 1
    [row] = [line.split() for line in text.splitlines() if line.startswith("  duke ")]  # dealt a duke
    values = [float(v) for v in row[1:6]]  # the picks' values against the reported equilibrium (not unique)
    assert row[6:] == ["ambassador"] and values[4] == max(values)  # the recommended pick is a best pick
    assert main(["draft", "--exact"]) == 0
    assert "first player (the whole draft is worth -41/540)" in capsys.readouterr().out
    assert main(["draft", "--seat", "second"]) == 0
    text = capsys.readouterr().out
    assert "second player (the whole draft is worth +0.08)" in text and "first player" not in text


def test_coup_draft_help_says_the_default_seat(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["draft", "--help"])
    assert "(default: first)" in capsys.readouterr().out


def test_the_table_suggests_the_pick_after_the_dealt_card() -> None:
    session = Session()
    for line in ("players Alice Bob", "draft dealt-first", "me Bob"):
        assert not any("draft: pick" in text for _, text in session.handle(line))
    said = [text for _, text in session.handle("dealt captain")]
    expected = advice_for(Variant.AMBASSADOR, Draft.DEALT_FIRST).advice(1, Character.CAPTAIN)
    worth = f"worth {value(Fraction(expected['value']))}"
    assert any(text.startswith("draft: pick") and worth in text for text in said)
    assert not any("draft: pick" in text for _, text in session.handle("pick duke"))


def test_the_equilibrium_model_weighs_the_opponents_pick() -> None:
    """With the equilibrium model, a card the opponent never picks with any dealt card is only
    in their hand if it was dealt to them; uniform weighs every pick 1/5."""
    lines = "players Alice Bob\ndraft dealt-first\nme Alice\ndealt duke\npick captain\nAlice income\n"
    uniform = replay(lines)
    equilibrium = Session(draft_model="equilibrium")
    for line in lines.splitlines():
        equilibrium.handle(line)
    advice = advice_for(Variant.AMBASSADOR, Draft.DEALT_FIRST)
    chars = Variant.AMBASSADOR.characters
    # P(Bob holds c) = sum over Bob's dealt card t (not Alice's duke, 1/4 each) of
    # [t = c] + [t != c] * P(pick c | t), under the model
    for table, model in ((uniform, None), (equilibrium.table, advice.equilibrium.column)):
        assert table.beliefs is not None
        holds = table.beliefs.holds(1)
        for i, c in enumerate(chars):
            expected = Fraction(0)
            for t in chars:
                if t is Character.DUKE:
                    continue
                pick = Fraction(1, 5) if model is None else model[chars.index(t)][i]
                expected += Fraction(1, 4) * (1 if t is c else pick)
            assert holds[c] == expected, (c, model is None)

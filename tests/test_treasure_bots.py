"""Bots at the treasure table: each decides from its own seat's table alone (never a card or a
marker it has not seen), the greedy one places its best card and bids from its exact odds, and a
person plays against them at ``tresor play``."""

from __future__ import annotations

import random
import re

import pytest

from companion.treasure.bots import Bot, BotTable, bot_game, played_by
from companion.treasure.simulate import NAMES, play_game
from companion.treasure.tracker import replay
from solver.treasure import Kind, Move, State
from solver.treasure.cards import Card


def test_a_bots_table_is_its_seats_record_and_says_only_what_the_seat_saw() -> None:
    names = NAMES[:4]
    bots = [Bot("greedy", seat, names, 1) for seat in range(4)]
    end = play_game(names, 1, played_by(bots), [b.observe for b in bots])
    for bot in bots:
        assert (
            bot.table.record_lines() == bot.lines and replay("".join(f"{x}\n" for x in bot.lines)).final() is not None
        )
        mine = set(re.findall(r"\b[123][cer][nvb]\b", bot.lines[3]))  # its dealt hand
        laid = {t.card for t in end.domain.tiles}
        for line in bot.lines[5:]:
            for word in re.findall(r"\b[123][cer][nvb]\b", line):
                assert word in mine or Card.parse(word) in laid or line.startswith("removed ")
        others = [line for line in bot.lines if " bid " in line and not line.startswith(names[bot.seat])]
        assert all(" with " not in line for line in others)  # the others' markers stay face down


def test_a_bot_decides_from_its_seats_lines_alone() -> None:
    names = NAMES[:3]
    bots = [Bot("greedy", seat, names, 4) for seat in range(3)]
    checked = 0

    def choose(s: State, rng: random.Random) -> Move:
        nonlocal checked
        bot = bots[s.current_player()]
        move = bot.decide(s.legal_moves())
        if len(bot.lines) % 3:
            return move
        twin = Bot("greedy", bot.seat, names, 4)  # told only the seat's lines, from scratch
        twin.lines, twin.table = list(bot.lines), replay("".join(f"{x}\n" for x in bot.lines))
        assert twin.decide(s.legal_moves()) == move
        checked += 1
        return move

    play_game(names, 4, choose, [b.observe for b in bots])
    assert checked > 10


def test_the_greedy_bot_places_its_best_card_and_bids_its_best_bid() -> None:
    names = NAMES[:3]
    bots = [Bot("greedy", seat, names, 9) for seat in range(3)]
    seen = {"place": 0, "bid": 0}

    def choose(s: State, rng: random.Random) -> Move:
        bot = bots[s.current_player()]
        move = bot.decide(s.legal_moves())
        if move.kind is Kind.PLACE:
            best = bot.table.placement_values()[0]
            assert (move.card, move.row, move.col) == (best.card, best.row, best.col)
            seen["place"] += 1
        if move.kind is Kind.BID:
            best_bid = bot.table.bid_values()[0]
            assert (move.marker, move.row, move.col, move.base) == best_bid[:4]
            seen["bid"] += 1
        return move

    play_game(names, 9, choose, [b.observe for b in bots])
    assert seen["place"] > 20


@pytest.mark.parametrize("players", [2, 5, 8])
def test_games_between_bots_end_with_every_score_by_part(players: int) -> None:
    scores = bot_game((["greedy", "random"] * 4)[:players], seed=players)
    assert len(scores) == players
    assert all(s.play + s.sets + s.hand + s.bids == s.total for s in scores)


def test_the_greedy_bot_beats_random_play() -> None:
    margins = [s[0].total - s[1].total for s in (bot_game(["greedy", "random"], seed) for seed in range(4))]
    assert sum(margins) > 0 and sum(1 for m in margins if m > 0) >= 3


@pytest.mark.slow
def test_the_greedy_bot_beats_random_play_in_many_games() -> None:
    wins = sum(
        1
        for seed in range(40)
        if (s := bot_game(["greedy", "random", "random"], seed))[0].total == max(x.total for x in s)
    )
    assert wins >= 25


def test_an_unknown_personality_is_refused() -> None:
    with pytest.raises(Exception, match="unknown personality 'lucky'"):
        Bot("lucky", 0, ("Ana", "Ben"))


def test_playing_against_bots_refuses_what_is_not_the_persons_move_and_changes_nothing() -> None:
    game = BotTable(players=3, seed=3)
    game.intro()
    record = list(game.record)
    for text, reason in [
        ("no", "'no' lets a neuro window or a bid go by"),
        ("Ben pass", "type your own move"),
        ("place 1cn at 9 9", "touches no domain card"),
        ("bid 1 on 0 0 with 1", "You cannot bid now: the table waits for You to place a card or pass"),
        ("bid 1 on 0 0", "say your marker"),
    ]:
        answer = game.handle(text)
        assert answer[0][0] == "error" and reason in answer[0][1]
    assert game.record == record
    assert game.handle("quit") == [] and game.finished


def test_the_person_is_offered_their_moves_and_their_record_is_their_seats() -> None:
    game = BotTable(players=2, seed=1)
    intro = game.intro()
    assert intro[0][1].startswith("You play against Ben (greedy)")
    assert intro[-1][1].startswith("Your turn: ") and "Best: " in intro[-1][1]
    assert game.record[:3] == ["game tresor", "players You Ben", "me You"]
    assert game.moves() and all(m.startswith(("place ", "pass")) for m in game.moves())
    assert game.handle("odds")[0][1].startswith("treasure: ")


def test_every_move_offered_against_bots_is_read_by_the_seats_table_as_that_move() -> None:
    """The person's text becomes a move in one place, their seat's table (parse, then
    move_of): at every decision of a few games, each move offered is read back as that move."""
    for seed in range(3):
        game = BotTable(players=3, seed=seed)
        game.intro()
        rng = random.Random(seed)
        while not game.finished:
            you = f"{game.names[0]} "
            offered = {m.text(game.names).removeprefix(you): m for m in game.state.legal_moves()}
            offered = {text: m for text, m in offered.items() if m.kind not in (Kind.NO_NEURO, Kind.NO_BID)}
            assert set(offered) == set(game.moves()) - {"no"}
            for text, move in offered.items():
                assert game.seat_move(text) == move, text
            answer = game.handle(rng.choice(game.moves()))
            assert all(style != "error" for style, _ in answer), answer

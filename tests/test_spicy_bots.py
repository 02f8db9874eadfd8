"""Bots that play Spicy from their own seat: they decide from their own table alone (fed only
the lines their seat would type), each personality keeps its rules, games end, and the
challenger from the exact odds beats the others."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.records import replay
from companion.spicy.bots import PERSONALITIES, Bot, BotTable, bot_game
from companion.spicy.language import parse_line
from companion.spicy.simulate import NAMES, play_move
from companion.spicy.tracker import Table
from solver.errors import ParseError
from solver.spicy import DECK, Kind, Move, State, new_game, true_on_both
from solver.spicy.odds import top_advice, top_counts, true_plays

ROOT = Path(__file__).resolve().parent.parent


def decisions(personalities: list[str], seed: int) -> Iterator[tuple[Bot, State, Move, tuple[Move, ...]]]:
    """Every decision of a bot game: the bot, its own table's state just before, its move, and
    the legal moves it chose among."""
    names = NAMES[: len(personalities)]
    rng = random.Random(seed)
    state = new_game(names, DECK)
    bots = [Bot(p, i, names, DECK, seed) for i, p in enumerate(personalities)]
    while not state.is_terminal():
        if state.is_chance_node():
            move = state.sample_chance(rng)
        else:
            bot = bots[state.current_player()]
            legal = state.legal_moves()
            move = bot.decide(legal)
            assert bot.view.table.state is not None
            yield bot, bot.view.table.state, move, legal
        state = play_move(state, move, [b.view for b in bots])


def test_a_bots_table_is_the_replay_of_the_lines_its_seat_typed_and_nothing_else() -> None:
    for bot, _, _, _ in decisions(["honest", "bluffer", "challenger"], seed=5):
        mine = replay(bot.view.lines, Table.new())
        assert mine.state == bot.view.table.state and mine.record_lines() == bot.view.lines
        others = [line for line in bot.view.lines if " play " in line and not line.startswith(bot.names[bot.seat])]
        assert all(" as " not in line for line in others)  # no card of another player is ever named


def test_a_bot_told_the_same_lines_decides_the_same_whatever_the_cards_it_has_not_seen() -> None:
    seen = 0
    for bot, _, move, legal in decisions(["challenger", "bluffer", "honest", "random"], seed=11):
        twin = Bot(bot.personality, bot.seat, bot.names, DECK, bot.seed)
        for text in bot.view.lines[len(twin.view.lines) :]:
            line = parse_line(text, bot.names)
            assert line is not None
            twin.view.tell(line)
        assert twin.view.seed() == bot.view.seed() and twin.view.table.state == bot.view.table.state
        assert twin.decide(legal) == move
        seen += 1
    assert seen > 50


@pytest.mark.parametrize("seed", range(4))
def test_the_honest_bot_plays_only_true_claims_when_it_can_and_challenges_only_impossible_claims(seed: int) -> None:
    for bot, state, move, _ in decisions(["honest", "bluffer", "challenger", "random"], seed):
        if bot.personality != "honest":
            continue
        if move.kind is Kind.PLAY:
            assert move.card is not None and move.claim is not None and true_on_both(move.card, move.claim)
        elif move.kind is Kind.PASS:
            assert true_plays(state.hands[bot.seat], state.top_claim()) == ()
        elif move.kind is Kind.CHALLENGE:
            counts = top_counts(state)
            assert counts.spice_true == 0 or counts.number_true == 0


def test_the_bluffer_never_passes_and_the_challenger_challenges_when_the_odds_beat_the_stake() -> None:
    kinds: Counter[tuple[str, Kind]] = Counter()
    games = (decisions(["bluffer", "challenger", "honest", "random"], seed) for seed in range(4))
    for bot, state, move, _ in (decision for game in games for decision in game):
        kinds[bot.personality, move.kind] += 1
        if bot.personality == "bluffer":
            assert move.kind is not Kind.PASS
        if bot.personality == "challenger" and move.kind in (Kind.DECLINE, Kind.CHALLENGE):
            advice = top_advice(state)
            counts = top_counts(state)
            sure = counts.spice_true == 0 or counts.number_true == 0
            if move.kind is Kind.CHALLENGE and not sure:
                assert move.trait is advice.trait
                assert advice.last or advice.chance * (advice.pile + advice.draws) > advice.draws
    assert kinds["challenger", Kind.CHALLENGE] > 0 and kinds["bluffer", Kind.PLAY] > 0


def test_a_bot_game_is_the_same_game_every_time_and_ends() -> None:
    first = bot_game(["honest", "bluffer", "challenger", "random"], seed=2)
    assert first == bot_game(["honest", "bluffer", "challenger", "random"], seed=2)
    winners, record = first
    assert winners and replay(record, Table.new()).over


def test_an_unknown_personality_is_refused() -> None:
    with pytest.raises(ParseError, match="unknown personality 'cheater'"):
        Bot("cheater", 0, ("Ana", "Ben"))


def test_in_a_small_tournament_the_challenger_wins_most() -> None:
    wins: Counter[str] = Counter()
    for seed in range(40):
        seats = list(PERSONALITIES)
        random.Random(seed).shuffle(seats)
        winners, _ = bot_game(seats, seed)
        wins.update(seats[i] for i in winners)
    assert wins.most_common(1)[0][0] == "challenger", wins


@pytest.mark.slow
def test_over_1000_games_the_challenger_beats_every_other_with_separate_95_percent_intervals() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "spicy.py"), "--games", "1000", "--json", "--no-lines"],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["challenger_beats_all"], report


def test_a_game_against_bots_at_the_prompt_takes_typed_moves_and_keeps_the_seats_record() -> None:
    game = BotTable(players=3, seed=7, personalities=("honest", "challenger"))
    intro = [text for _, text in game.intro()]
    assert intro[0] == "You play against Ben (honest), Cleo (challenger). Type your moves ('help')."
    assert game.handle("play chili-99 as chili 1")[0][0] == "error"
    turns = 0
    while not game.finished and turns < 400:
        options = game.moves()
        answer = game.handle("let it stand" if "let it stand" in options else options[-1])  # decline, or pass
        assert all(style != "error" for style, _ in answer), answer
        turns += 1
    assert game.finished and game.handle("pass") == [("error", "the game is over ('quit' to leave)")]
    record = game.view.table.record()
    assert replay(record.splitlines(), Table.new()).record() == record and "me You" in record


def test_every_move_offered_against_bots_is_read_by_the_seats_table_as_that_move() -> None:
    """The person's text becomes a move in one place, their seat's table (parse, then resolve):
    at every decision of a few games, each move offered is read back as that very legal move."""
    from companion.spicy.bots import _said

    for seed in range(3):
        game = BotTable(players=3, seed=seed)
        game.intro()
        rng = random.Random(seed)
        while not game.finished:
            legal = [m for m in game.state.legal_moves() if m.player == 0 and m.kind is not Kind.TAKE_BACK]
            for move in legal:
                assert game.seat_move(_said(move)) == move, _said(move)
            game.handle(_said(rng.choice(legal)))

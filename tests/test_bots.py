"""Bots: they decide from their own seat's table only, and `coup play` runs to the end."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.coup.analysis import analyze
from companion.coup.bots import PERSONALITIES, Bot, BotTable, bot_game, start
from companion.coup.simulate import NAMES
from companion.tournament import game_seed
from solver.coup import NOBODY, Kind, Move, State, Variant
from solver.coup.rules import STEAL_AMOUNT

BOT = 1  # the bot under test sits second


def deal_with(state: State, rng: random.Random) -> tuple[Move, Move]:
    """Two deals that give the bot the same hand and the others different ones."""
    deal = list(state.sample_chance(rng).cards)
    size = 2
    mine = deal[BOT * size : BOT * size + size]
    others = deal[: BOT * size] + deal[BOT * size + size :]
    shuffled = others[:]
    while shuffled == others:
        rng.shuffle(shuffled)
    twin = shuffled[: BOT * size] + mine + shuffled[BOT * size :]
    return Move(Kind.DEAL, NOBODY, cards=tuple(deal)), Move(Kind.DEAL, NOBODY, cards=tuple(twin))


@pytest.mark.parametrize("personality", PERSONALITIES)
@pytest.mark.parametrize("seed", range(6))
def test_a_bots_decisions_do_not_depend_on_cards_it_cannot_see(personality: str, seed: int) -> None:
    """Two worlds that differ only in the other players' cards (and the court: the deck is
    dealt out of the same cards) give the bot the same table, hence the same decisions, over a
    stretch of play where the others' moves are the same in both."""
    rng = random.Random(seed)
    names = NAMES[:4]
    variant = Variant(seed % 2)
    root = start(names, variant)
    deal_a, deal_b = deal_with(root, rng)
    worlds = [root.apply(deal_a), root.apply(deal_b)]
    bots = [Bot(personality, BOT, names, seed) for _ in worlds]
    for bot, deal in zip(bots, (deal_a, deal_b), strict=True):
        bot.setup(str(variant))
        bot.observe(root, deal)
    decisions = 0
    for _ in range(40):
        a, b = worlds
        if a.is_terminal() or b.is_terminal() or a.is_chance_node() or b.is_chance_node():
            break
        if a.current_player() == BOT:
            moves_a, moves_b = list(a.legal_moves()), list(b.legal_moves())
            assert moves_a == moves_b
            choice = bots[0].decide(moves_a)
            assert bots[1].decide(moves_b) == choice
            decisions += 1
        else:  # the others play a move legal in both worlds (claims are legal with any cards)
            options = [m for m in a.legal_moves() if m in b.legal_moves()]
            if not options:
                break
            choice = options[rng.randrange(len(options))]
        for i, world in enumerate(worlds):
            bots[i].observe(world, choice)
            worlds[i] = world.apply(choice)
    assert decisions >= 1


def test_bot_games_end_and_conserve_cards_and_coins_with_every_personality() -> None:
    moves: list[Move] = []

    def check(before: State, move: Move, after: State) -> None:
        after.check()  # the cards add up to the deck, and no coins below 0
        assert all(coins == 0 for seat, coins in enumerate(after.coins) if not after.alive(seat))
        staying = [seat for seat in range(after.players) if after.alive(seat)]
        delta = [after.coins[seat] - before.coins[seat] for seat in staying]
        assert sum(d > 0 for d in delta) <= 1 and max(delta, default=0) <= 3  # one gain at a time, a tax's at most
        if any(d > 0 for d in delta) and any(d < 0 for d in delta):  # coins change hands: a steal, of 2 at most
            assert before.turn.action is Kind.STEAL and sum(delta) == 0 and max(delta) <= STEAL_AMOUNT
        moves.append(move)

    winners = [bot_game(list(PERSONALITIES), Variant(seed % 2), seed, observers=[check]) for seed in range(8)]
    assert all(w is None or 0 <= w < 4 for w in winners)
    assert sum(w is not None for w in winners) >= 6 and len(moves) > 8 * 20


def test_bots_going_round_a_loop_draw_at_the_third_repetition_not_at_the_move_limit() -> None:
    # a tournament's game: the counter assassinates, the honest bot blocks with its contessa, again
    # and again (it ran to the 5,000-move limit, 7 s, a tournament's critical path)
    seed = game_seed(0, 181)  # game 181 of a tournament seeded 0
    moves: list[Move] = []
    winner = bot_game(
        ["random", "bluffer", "counter", "honest"],
        Variant.AMBASSADOR,
        seed,
        observers=[lambda before, move, after: moves.append(move)],
    )
    assert winner is None and len(moves) < 200


def play_through(game: BotTable) -> list[str]:
    """Play the player's seat by always choosing the first legal move; return what was typed."""
    typed = []
    game.intro()
    while not game.finished:
        options = game.moves()
        text = options[0]
        if text == "You pass" or text.startswith("You keep "):
            text = text.removeprefix("You ")
        said = game.handle(text)
        assert not any(style == "error" for style, _ in said), (text, said)
        typed.append(text)
    return typed


def test_a_game_against_bots_is_kept_as_a_record_the_analysis_reads() -> None:
    game = BotTable(3, Variant.INQUISITOR, seed=5)
    play_through(game)
    assert game.state.is_terminal()
    record = "".join(line + "\n" for line in game.record)
    assert record.startswith("players You Bob Carol\nvariant inquisitor\nme You\nhand ")
    analysis = analyze(record, endgame=False)
    assert analysis.table.over


def test_coup_play_through_the_prompt_to_the_end(tmp_path: Path) -> None:
    typed = play_through(BotTable(3, Variant.AMBASSADOR, seed=11, personalities=("honest", "counter")))
    path = tmp_path / "game.coup"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion.coup.cli",
            "play",
            "--players",
            "3",
            "--seed",
            "11",
            "--bots",
            "honest,counter",
            "--record",
            str(path),
        ],
        input="table\n" + "".join(t + "\n" for t in typed),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "You play ambassador against Bob (honest), Carol (counter)" in done.stdout
    assert "You win." in done.stdout or " wins." in done.stdout
    assert f"the game is saved in {path}" in done.stdout
    assert analyze(path.read_text(), endgame=False).table.over


def test_in_a_one_card_endgame_a_bot_plays_the_solvers_move() -> None:
    """Bob (7 coins) against Alice (8 coins), one card each, Bob to move: only the coup wins
    (Alice would coup him next); the bot finds it through the exact solver on its knowledge."""
    bot = Bot("counter", 1, ("Alice", "Bob"), solver=True)
    for text in (
        "players Alice Bob\nvariant ambassador\ndraft none\nme Bob\nhand duke captain\ncoins Alice 14\n"
        "coins Bob 14\nAlice coup Bob\nBob lose captain\nBob coup Alice\nAlice lose contessa\nAlice income"
    ).splitlines():
        bot._tell(text)
    view = bot.table.view
    assert view is not None and view.turn.actor == 1 and view.coins == (8, 7)
    moves = list(view.legal_moves())
    solved = bot._solved(view, moves)
    assert solved is not None and solved.kind is Kind.COUP
    assert bot.decide(moves) == solved

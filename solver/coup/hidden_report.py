"""What the hidden-card answer says to the player deciding now, for the hand they hold
(outputs.md, "Hidden-card values"): the hand's value under the reported equilibrium, each
option's value against the opponent's reported strategy, the mixed strategy, the opponent's
holding probabilities, and in a challenge window the doubt threshold.

All figures come from the verified solution, exactly, from the deciding player's side.

>>> from solver.coup.puzzle import Puzzle
>>> from solver.coup.hidden_game import HiddenGame, prior
>>> p = Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 3, "hand": ["contessa"], "face_up": ["contessa"]},
...     "Bob": {"coins": 1, "hand": ["ambassador"], "face_up": ["duke"]}},
...     "court": {"cards": ["assassin", "captain", "ambassador"]}})
>>> game = HiddenGame(prior(p), turns=1)
>>> r = report(game, game.solve(tagged=True), p.hidden[0])
>>> sum(r.strategy.values()) == 1 and max(r.options.values()) == r.value
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq

from ..errors import GameError
from ..sequence import Tree
from .cards import Character
from .hidden_game import Answer, HiddenGame
from .messages import claimed
from .moves import Move
from .rules import Kind
from .state import Phase


@dataclass(frozen=True)
class Doubt:
    """A challenge window, read as a threshold: challenging beats passing when the claim is a
    bluff with probability above ``threshold`` (None: one of them is best either way, named by
    ``always``); ``bluff`` is that probability under the prior, ``doubt`` the equilibrium's
    chance of challenging."""

    claimant: int
    claim: Character
    threshold: Fraction | None
    always: Kind | None
    bluff: Fraction
    doubt: Fraction


@dataclass(frozen=True)
class Report:
    """For ``seat`` holding ``hand``: the hand's probability under the prior, its value, each
    option's value (the engine's order; none with K = 0), the equilibrium's strategy, the opponent's holding
    probabilities, and the doubt threshold in a challenge window."""

    seat: int
    hand: tuple[Character, ...]
    probability: Fraction
    value: Fraction
    options: dict[Move, Fraction]
    strategy: dict[Move, Fraction]
    opponent: dict[Character, Fraction]
    doubt: Doubt | None


def report(game: HiddenGame, answer: Answer, hand: tuple[Character, ...]) -> Report:
    """The report for the player deciding first (``answer.seat``) holding ``hand``; the answer
    must be solved with ``tagged=True``. Raises GameError if the prior never deals ``hand``."""
    tree, solution, seat = answer.tree, answer.solution, answer.seat
    if tree.tagged is None:
        raise ValueError("report() needs the payoffs per hypothesis: solve(tagged=True)")
    hand = tuple(sorted(hand))
    mine = [i for i, h in enumerate(game.hypotheses) if h.state.hidden[seat] == hand]
    weight = sum((game.hypotheses[i].probability for i in mine), Fraction(0))
    if not mine:
        raise GameError(f"the prior never deals {' '.join(c.name_en for c in hand)} to the player deciding")
    sign = 1 if seat == 0 else -1
    plans = solution.plans
    value = sign * _mass(tree, mine, plans[0], plans[1]) / weight
    root = game.hypotheses[mine[0]].state
    h = _root_infoset(tree, seat, hand)
    options: dict[Move, Fraction] = {}
    strategy: dict[Move, Fraction] = {}
    if h is None and answer.turns:  # a forced move: no decision
        move = root.legal_moves()[0]
        options, strategy = {move: value}, {move: Fraction(1)}
    elif h is not None:  # (K = 0 has no decision: no options)
        moves = tree.moves[seat][h]
        options = {
            m: sign * _f(solution.best[seat][s]) / weight for m, s in zip(moves, tree.actions(seat, h), strict=True)
        }
        strategy = dict(zip(moves, solution.behaviour(seat, h), strict=True))
    other = 1 - seat
    opponent = {
        c: sum(
            (game.hypotheses[i].probability for i in mine if c in game.hypotheses[i].state.hidden[other]), Fraction(0)
        )
        / weight
        for c in root.variant.characters
    }
    doubt = None
    if h is not None and root.turn.phase in (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE):
        doubt = _doubt(game, answer, mine, h, strategy)
    return Report(seat, hand, weight, value, options, strategy, opponent, doubt)


def _root_infoset(tree: Tree, seat: int, hand: tuple[Character, ...]) -> int | None:
    for h, parent in enumerate(tree.parent[seat]):
        if parent == 0 and tree.observed(seat, h) == (hand,):
            return h
    return None


def _mass(tree: Tree, tags: list[int], x: list[fmpq], y: list[fmpq]) -> Fraction:
    """The payoff to player 0 of the hypotheses ``tags`` under the plans (not normalised)."""
    assert tree.tagged is not None
    total = fmpq(0)
    for i in tags:
        for (s0, s1), v in tree.tagged[i].items():
            w = x[s0] * y[s1]
            if w:
                total += v * w
    return _f(total)


def _doubt(game: HiddenGame, answer: Answer, mine: list[int], h: int, strategy: dict[Move, Fraction]) -> Doubt:
    """Pass and challenge, each followed by the seat's best play against the opponent's
    reported strategy, valued apart when the claimant bluffs and when it holds the claim."""
    tree, solution, seat = answer.tree, answer.solution, answer.seat
    root = game.hypotheses[mine[0]].state
    claimant = 1 - seat
    claim = claimed(root)
    bluffs = [i for i in mine if claim not in game.hypotheses[i].state.hidden[claimant]]
    holds = [i for i in mine if i not in bluffs]
    sign = 1 if seat == 0 else -1
    worth: dict[Kind, tuple[Fraction, Fraction]] = {}
    for move, s in zip(tree.moves[seat][h], tree.actions(seat, h), strict=True):
        plan = _continuation(answer, s)
        pair = []
        for group in (bluffs, holds):
            p = sum((game.hypotheses[i].probability for i in group), Fraction(0))
            plans = (plan, solution.plans[1]) if seat == 0 else (solution.plans[0], plan)
            pair.append(sign * _mass(tree, group, *plans) / p if p else Fraction(0))
        worth[move.kind] = (pair[0], pair[1])
    gain_bluff = worth[Kind.CHALLENGE][0] - worth[Kind.PASS][0]
    gain_hold = worth[Kind.CHALLENGE][1] - worth[Kind.PASS][1]
    weight = sum((game.hypotheses[i].probability for i in mine), Fraction(0))
    bluff = sum((game.hypotheses[i].probability for i in bluffs), Fraction(0)) / weight
    doubt = sum((p for m, p in strategy.items() if m.kind is Kind.CHALLENGE), Fraction(0))
    threshold: Fraction | None = None
    always: Kind | None = None
    if gain_bluff >= 0 and gain_hold >= 0:
        always = Kind.CHALLENGE
    elif gain_bluff <= 0 and gain_hold <= 0:
        always = Kind.PASS
    else:  # p * gain_bluff + (1 - p) * gain_hold = 0
        threshold = -gain_hold / (gain_bluff - gain_hold)
    return Doubt(claimant, claim, threshold, always, bluff, doubt)


def _continuation(answer: Answer, sequence: int) -> list[fmpq]:
    """The deciding player's plan that takes ``sequence`` (a first decision) for sure, then
    follows the reported strategy where it goes on, else its best response."""
    tree, solution, seat = answer.tree, answer.solution, answer.seat
    x, best = solution.plans[seat], solution.best[seat]
    plan = [fmpq(0)] * tree.sequences[seat]
    plan[0] = plan[sequence] = fmpq(1)
    own = tree.owner[seat][sequence]
    pick = max if seat == 0 else min
    for h, parent in enumerate(tree.parent[seat]):
        if h == own or not plan[parent]:
            continue
        actions = tree.actions(seat, h)
        if x[parent]:
            for s in actions:
                plan[s] = plan[parent] * x[s] / x[parent]
        else:
            chosen = pick(actions, key=lambda s: best[s])
            plan[chosen] = plan[parent]
    return plan


def _f(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))

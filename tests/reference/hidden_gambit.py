"""A :class:`~tests.reference.hidden_tree.Tree` as a Gambit extensive game, solved by Gambit's
sequence-form LP in rationals (``pygambit.nash.lp_solve``), tests only.

The tree is written in Gambit's ``.efg`` text format (rational, player 1 = the maximiser) and
read back with ``pygambit.read_efg``. Gambit's profile is read per information set through the
histories Gambit reports (each walked down our tree by its action labels) and **normalised**:
``lp_solve`` on extensive games may return probabilities that do not sum to 1 at an information
set, so the raw profile's payoff is never used. The value is the expected payoff of the
normalised profile, and it is returned only if each normalised strategy is an exact best response
to the other (checked with our own exact best responses: the two bounds must meet).
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .hidden_tree import CHANCE, LEAF, NotCertified, Tree, guarantee, plan_from_behaviour, sequence_form

PLAYERS = ("Max", "Min")


def to_efg(tree: Tree) -> str:
    """The tree in Gambit's ``.efg`` format (nodes in pre-order, one outcome per leaf)."""
    number: dict[int, int] = {}
    per_player = [0, 0]
    lines = ['EFG 2 R "hidden-card reference" { "Max" "Min" }', '""', ""]
    events = outcomes = 0
    stack = [tree.root]
    while stack:
        node = stack.pop()
        kind = tree.kind[node]
        if kind == LEAF:
            outcomes += 1
            v = tree.payoff[node]
            lines.append(f't "" {outcomes} "" {{ {v}, {-v} }}')
            continue
        labels = tree.labels[node]
        if kind == CHANCE:
            events += 1
            body = " ".join(f'"{a}" {p}' for a, p in zip(labels, tree.probs[node], strict=True))
            lines.append(f'c "" {events} "" {{ {body} }} 0')
        else:
            i = tree.info[node]
            if i not in number:
                per_player[kind] += 1
                number[i] = per_player[kind]
            body = " ".join(f'"{a}"' for a in labels)
            lines.append(f'p "" {kind + 1} {number[i]} "" {{ {body} }} 0')
        stack.extend(reversed(tree.children[node]))
    return "\n".join(lines) + "\n"


def to_gambit(tree: Tree) -> Any:
    """The pygambit game of ``tree``."""
    import pygambit as gbt

    return gbt.read_efg(io.StringIO(to_efg(tree)))


@dataclass
class GambitSolution:
    """Gambit's value (certified), its normalised behaviour strategies (information set index ->
    probabilities), how many of its information sets did not sum to 1, and its solve time."""

    value: float | Fraction
    behaviour: tuple[dict[int, list[Fraction]], dict[int, list[Fraction]]]
    unnormalised: int
    seconds: float


def gambit_solve(tree: Tree, game: Any | None = None) -> GambitSolution:
    """Solve ``tree`` with ``pygambit.nash.lp_solve(rational=True)``; raises :class:`NotCertified`
    if Gambit's normalised profile is not an equilibrium."""
    import pygambit as gbt

    game = game if game is not None else to_gambit(tree)
    start = time.perf_counter()
    result = gbt.nash.lp_solve(game, rational=True)
    seconds = time.perf_counter() - start
    profile = result.equilibrium
    behaviour: tuple[dict[int, list[Fraction]], dict[int, list[Fraction]]] = ({}, {})
    unnormalised = 0
    for player, label in enumerate(PLAYERS):
        for history, probs in profile[label]:
            node = _walk(tree, history)
            i = tree.info[node]
            raw = [Fraction(str(probs[a])) for a in tree.labels[node]]
            total = sum(raw, Fraction(0))
            if total != 1:
                unnormalised += 1
            width = len(raw)
            behaviour[player][i] = [p / total for p in raw] if total else [Fraction(1, width)] * width
    sf = sequence_form(tree)
    plans = [plan_from_behaviour(sf, p, behaviour[p]) for p in (0, 1)]
    lo, hi = guarantee(sf, 0, plans[0]), guarantee(sf, 1, plans[1])
    if lo != hi:
        raise NotCertified(f"Gambit's normalised profile is not an equilibrium: {lo} against {hi}")
    return GambitSolution(lo, behaviour, unnormalised, seconds)


def _walk(tree: Tree, history: Any) -> int:
    """Our node at the end of a Gambit history (a path of action labels from the root)."""
    node = tree.root
    for step in history:
        node = tree.children[node][tree.labels[node].index(step.action)]
    return node

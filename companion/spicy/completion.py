"""What can be typed now, for completion: every line the table would accept, in English and
French, from the engine's legal claims and the table's phase; card lists (``hand``, ``draw``)
word by word from the cards still unseen.

>>> from companion.spicy.tracker import replay
>>> t = replay("game spicy\\nplayers Ana Ben Cleo\\nme Ana\\n"
...            "hand chili-1 chili-9 wasabi-3 wasabi-9 pepper-5 wild-spice\\nAna play wild-spice as chili 3\\n")
>>> [line for line in legal_lines(t) if line.startswith("Ben")][:3]
['Ben play chili 4', 'Ben play chili 5', 'Ben play chili 6']
>>> completions(t, "Cleo conteste ")
['épice', 'puissance']
>>> completions(t, "Ben joue piment 1")
['10']
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.spicy import Phase, legal_claims

from ..language import next_words
from .language import MARKERS, SPICES, TRAITS, VERBS, Verb, french, resolve_name, tokenize
from .tracker import Table

CARD_LISTS = frozenset({Verb.HAND, Verb.DRAW})


def legal_lines(table: Table) -> list[str]:
    """Every canonical line the table would accept now; a card list is its verb alone
    (``hand``, ``draw``: its cards are completed word by word)."""
    if not table.names:
        return ["players"] if table.header else ["game spicy", "players"]
    if table.over:
        return []
    lines: list[str] = []
    if not table.started:
        if table.me is None:
            lines += [f"me {name}" for name in table.names]
        elif not table.hand_given:
            return ["hand"]
    s = table.state
    assert s is not None
    names, t, top = table.names, s.turn, s.top
    others = [n for i, n in enumerate(names) if top is not None and i != top.player]
    challenges = [f"{n} challenge {trait}" for n in others for trait in ("spice", "number")]
    ends = ["worlds-end"] if table.started else []
    if table.drawn is not None:
        ends += [f"worlds-end after {k}" for k in range(table.drawn.cards + 1)]
    if t.phase is Phase.LAST_CARD and top is not None:
        return [*lines, "pass", *challenges, f"{names[top.player]} take-back"]
    if t.phase is Phase.REVEAL:
        return [f"reveal {card}" for card, left in table.unseen().items() if left]
    if t.phase is Phase.DRAW:
        return [*(["draw"] if s.draw and t.decider == table.me else []), *ends]
    actor = names[t.actor]
    claims = [claim.text() for claim in legal_claims(table.deck, s.top_claim())]
    if t.actor == table.me:
        lines += [f"{actor} play {card} as {claim}" for card in dict.fromkeys(table.my_cards()) for claim in claims]
    else:
        lines += [f"{actor} play {claim}" for claim in claims]
    lines.append(f"{actor} pass")
    if t.phase is Phase.WINDOW:
        lines += challenges
    return lines + ends


def completions(table: Table, before_cursor: str, commands: Iterable[str] = ()) -> list[str]:
    """The words that may come next after ``before_cursor`` (its last word may be partial):
    command names first on an empty line, then the next word of every legal line, in the
    language being typed."""

    def cards(typed: list[str], languages: set[str]) -> list[str]:
        if typed and typed[0] in VERBS and VERBS.meaning(typed[0]) in CARD_LISTS:
            return _card_words(table, len(typed) - 1, "fr" in languages and "en" not in languages)
        return []

    vocabularies = (VERBS, TRAITS, MARKERS, SPICES)
    split = lambda text: tokenize(text)  # noqa: E731  (the game's phrases joined)
    return next_words(
        legal_lines(table), before_cursor, table.names, vocabularies, french, resolve_name, commands, split, cards
    )


def _card_words(table: Table, given: int, in_french: bool) -> list[str]:
    """The cards a ``hand`` or ``draw`` line may name next (none once it has enough)."""
    s = table.state
    if s is None:
        return []
    wanted = table.deck.hand if not table.hand_given else min(s.turn.owed, len(s.draw))
    if given >= wanted:
        return []
    return [card.name_fr if in_french else card.text() for card, left in table.unseen().items() if left]

"""The table as JSON (spicy.md, "Outputs": ``spicy replay --json``) and as text for a person.

>>> from companion.spicy.tracker import replay
>>> t = replay("game spicy\\nplayers Ana Ben\\nAna play chili 2\\n")
>>> top = table_json(t)["pile"]["top"]
>>> top["claim"], top["honest"]["both"], top["challenge"]
('chili 2', '12164547/14191100', 'number')
"""

from __future__ import annotations

from typing import Any

from solver.errors import GameError
from solver.spicy import WILD_NUMBER, WILD_SPICE, Card, Phase
from solver.spicy.odds import Chances, ClaimOdds, top_advice, top_odds, true_plays

from ..figures import probability
from .ledger import ClaimNote
from .tracker import Table


def chances_json(chances: Chances) -> dict[str, str]:
    """A model's chances as reduced fractions (strings)."""
    return {"spice": str(chances.spice), "number": str(chances.number), "both": str(chances.both)}


def _priced_top(table: Table) -> tuple[ClaimNote, ClaimOdds] | None:
    """The top card's claim and its odds from what the seat knows now; None when the pile is
    empty or the top card is the seat's own."""
    s = table.state
    if s is None or s.top is None or s.top.card.is_known:
        return None
    return table.ledger.top(), top_odds(s)


def _top_json(table: Table) -> dict[str, Any] | None:
    priced = _priced_top(table)
    if priced is None:
        return None
    note, odds = priced
    assert table.state is not None
    advice = top_advice(table.state, odds)
    return {
        "line": note.line,
        "player": note.player,
        "claim": note.claim.text(),
        "last": note.last,
        "honest": chances_json(odds.honest),
        "random": chances_json(odds.random),
        "challenge": str(advice.trait),
        "challenge_wins": str(advice.chance),
    }


def unseen_json(table: Table) -> dict[str, Any]:
    """Per spice the unseen copies of numbers 1 to 10 (index k for number k+1), then the wilds."""
    unseen = table.unseen()
    out: dict[str, Any] = {
        str(spice): [unseen[Card.of(spice, n)] for n in range(1, table.deck.numbers + 1)]
        for spice in table.deck.spice_list
    }
    out["wild-number"] = unseen.get(WILD_NUMBER, 0)
    out["wild-spice"] = unseen.get(WILD_SPICE, 0)
    return out


def flag_json(note: ClaimNote) -> dict[str, Any]:
    assert note.flag is not None
    return {
        "line": note.line,
        "player": note.player,
        "claim": note.claim.text(),
        "level": str(note.flag.level),
        "probability": str(note.flag.probability),
        "reason": note.flag.reason,
    }


def table_json(table: Table) -> dict[str, Any]:
    """The table after the last line, in the shape of spicy.md."""
    s = table.state
    winners = table.winners()
    players = []
    for seat, name in enumerate(table.names):
        assert s is not None
        entry: dict[str, Any] = {
            "name": name,
            "hand": len(s.hands[seat]),
            "won": len(s.won[seat]),
            "trophies": s.trophies[seat],
            "score": s.scores()[seat],
        }
        if seat == table.me:
            entry["cards"] = [c.text() for c in table.my_cards()]
        players.append(entry)
    return {
        "game": "spicy",
        "me": table.names[table.me] if table.me is not None else None,
        "turn": table.turn,
        "waiting": table.waiting,
        "winner": (winners[0] if len(winners) == 1 else list(winners)) if winners else None,
        "pile": {
            "size": s.pile_size if s is not None else 0,
            "spice": str(s.top.claim.spice) if s is not None and s.top is not None else None,
            "top": _top_json(table),
        },
        "unseen": unseen_json(table),
        "players": players,
        "flags": [flag_json(note) for note in table.ledger.flags()],
    }


def table_text(table: Table) -> str:
    """The table for a person: whose turn, the pile and its top card's odds, every player's
    hand, won cards, trophies and score, the seat's cards, the unseen counts, the last flag."""
    data = table_json(table)
    rows = []
    if data["winner"] is not None:
        won = data["winner"] if isinstance(data["winner"], str) else " and ".join(data["winner"])
        rows.append(f"game over: {won} won")
    elif data["turn"] is not None:
        rows.append(f"turn: {data['turn']}" + (f"   waiting for: {data['waiting']}" if data["waiting"] else ""))
    rows.append(_pile_text(table))
    for player in data["players"]:
        rows.append(
            f"{player['name']:<10} {player['hand']:>2} in hand  {player['won']:>3} won  "
            f"{player['trophies']} troph{'y' if player['trophies'] == 1 else 'ies'}  score {player['score']}"
        )
        if "cards" in player:
            rows.append(f"{'':<10} your cards: {' '.join(player['cards']) or '-'}")
    unseen = data["unseen"]
    spices = "; ".join(f"{k} {' '.join(map(str, v))}" for k, v in unseen.items() if isinstance(v, list))
    rows.append(f"unseen (1 to {table.deck.numbers}): {spices}; wild-number {unseen['wild-number']}, "
                f"wild-spice {unseen['wild-spice']}")  # fmt: skip
    flags = table.ledger.flags()
    if flags:
        last = flags[-1]
        assert last.flag is not None
        rows.append(f"last flag: line {last.line}, {last.player}'s {last.claim} ({last.flag.level})")
    return "\n".join(rows)


def _pile_text(table: Table) -> str:
    s = table.state
    if s is None or s.top is None:
        return "pile: empty"
    top = s.top
    head = f"pile: {s.pile_size} card{'s' * (s.pile_size > 1)} of {top.claim.spice}, top {top.claim} by "
    head += table.names[top.player] + ("" if top.open else " (let stand)")
    priced = _priced_top(table)
    if priced is None:
        return head + (f" (your {top.card})" if top.card.is_known else "")
    odds = priced[1]
    honest, random = probability(odds.honest.both), probability(odds.random.both)
    return f"{head}: true with {honest} if honest when able, {random} any card"


def odds_text(table: Table) -> str:
    """The top card's exact odds in detail (the counts of spicy.md, the model's terms, both
    models, the advice) and the seat's true plays. Raises GameError before the players."""
    s = table.state
    if s is None:
        raise GameError("no players yet (start with: players Ana Ben Cleo)")
    rows = []
    priced = _priced_top(table)
    if priced is not None:
        note, odds = priced
        c = odds.counts
        rows.append(f"{note.player}'s {note.claim} (line {note.line}), from a hand of {c.hand}:")
        rows.append(
            f"  unseen U={c.unseen}, legal true T={c.legal_true}, copies T_sn={c.copies}, "
            f"spice only A={c.spice_only}, number only B={c.number_only}, legal claims |L|={c.claims}"
        )
        rows.append(
            f"  P0={probability(odds.none_true)} (no legal true card), H={probability(odds.honest_play)}, "
            f"Q={probability(odds.bluff_play)}"
        )
        for model, chances in (("honest when able", odds.honest), ("any card", odds.random)):
            rows.append(
                f"  {model:<17} spice {probability(chances.spice)}, number {probability(chances.number)}, "
                f"both {probability(chances.both)}"
            )
        if s.turn.phase in (Phase.WINDOW, Phase.LAST_CARD):  # a challenge the seat may type now
            rows.append(f"  advice: {top_advice(s, odds).text(note.player, probability)}")
    elif s.top is not None:
        rows.append(f"the top card is yours: {s.top.card} as {s.top.claim}")
    else:
        rows.append("the pile is empty: no claim to price")
    if table.me is not None:
        plays = true_plays(table.my_cards(), s.top_claim(), table.deck)
        if table.waiting is None and table.turn == table.names[table.me]:  # moves the seat may type now
            shown = ", ".join(f"play {card} as {claim}" for card, claim in plays) or "none (bluff or pass)"
            rows.append(f"your true plays now: {shown}")
        else:
            shown = ", ".join(f"{card} as {claim}" for card, claim in plays) or "none"
            rows.append(f"your cards true on this pile (not your turn): {shown}")
    return "\n".join(rows)

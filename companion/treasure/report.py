"""The table as JSON (treasure.md, ``tresor replay --json``) and as text for a person: the domain,
every player's hand size and public VP, the exact treasure odds, the seat's bids and placements
best first, and once known the final score by part.

>>> from solver.treasure import Deck
>>> from companion.treasure.tracker import replay
>>> t = replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1ev 1ev\\nstart 1cv\\n", Deck(1, 2, 2))
>>> data = table_json(t)
>>> data["treasure"], data["players"][1]
({'1cn': '1/4', '1cv': '1/4', '1en': '1/2'}, {'name': 'Ben', 'hand': 3, 'vp': 5, 'bids': 0})
>>> data["bids"][0], data["placements"][0]
({'marker': 'force', 'row': 0, 'col': 0, 'base': 5, 'value': '5'}, {'card': '1cn', 'row': -1, 'col': 0, 'vp': 0})
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.treasure import BidValue

from ..figures import probability
from .advice import Final, bid_text, placement_text
from .language import MARKERS
from .tracker import Table


def fraction(p: Fraction) -> str:
    """An exact number as the outputs write it: a reduced fraction string (``'3/11'``, ``'-1'``)."""
    return str(p)


def domain_json(table: Table) -> list[dict[str, Any]]:
    """The domain's cards in the order they were laid (the start card first), with their owners."""
    if table.state is None:
        return []
    names, domain = table.names, table.state.domain
    out = []
    for row, col in table.order:
        tile = domain.at(row, col)
        assert tile is not None
        owner = names[tile.owner] if 0 <= tile.owner < len(names) else None
        out.append({"row": row, "col": col, "card": str(tile.card), "owner": owner})
    return out


def players_json(table: Table) -> list[dict[str, Any]]:
    """Every player's hand size, public VP and number of bids (and the seat's own cards)."""
    sizes, vp = table.hand_sizes(), table.vp()
    bids = table.state.bids if table.state is not None else ()
    out = []
    for seat, name in enumerate(table.names):
        entry: dict[str, Any] = {"name": name, "hand": sizes[seat], "vp": vp[seat]}
        entry["bids"] = sum(1 for b in bids if b.player == seat)
        if seat == table.me and (table.state is not None or table.setup.hand is not None):
            entry["cards"] = [str(c) for c in table.my_cards()]
        out.append(entry)
    return out


def final_json(table: Table) -> tuple[Any, Any]:
    """``(winner, final)``: the winner (a name, or a list of names when tied) and each player's
    score by part, once known; ``(None, None)`` before."""
    scores = table.final()
    if scores is None:
        return None, None
    final = {name: s._asdict() for name, s in zip(table.names, scores, strict=True)}
    winners = list(table.winners())
    return (winners[0] if len(winners) == 1 else winners), final


def _bid_json(b: BidValue) -> dict[str, Any]:
    return {"marker": MARKERS.english(b.marker), "row": b.row, "col": b.col, "base": b.base, "value": fraction(b.value)}


def table_json(table: Table) -> dict[str, Any]:
    """The table after the last line, in the shape of treasure.md's "Outputs". A spectator's
    (no ``me``) has no ``bids`` nor ``placements`` (nobody's to value) and no player's ``cards``."""
    winner, final = final_json(table)
    seat: dict[str, Any] = {}
    if table.me is not None:
        seat["bids"] = [_bid_json(b) for b in table.bid_values()]
        seat["placements"] = [
            {"card": str(p.card), "row": p.row, "col": p.col, "vp": p.vp} for p in table.placement_values()
        ]
    return {
        "game": "tresor",
        "me": table.names[table.me] if table.me is not None else None,
        "turn": table.turn,
        "waiting": table.waiting,
        "deux_cartes": table.deux_cartes,
        "domain": domain_json(table),
        "players": players_json(table),
        "treasure": {str(card): fraction(p) for card, p in table.treasure_odds().items()},
        **seat,
        "winner": winner,
        "final": final,
    }


def players_text(table: Table) -> list[str]:
    rows = []
    for player in players_json(table):
        cards = f"  your cards: {' '.join(player['cards']) or '-'}" if "cards" in player else ""
        bids = f"  {player['bids']} bid{'s' * (player['bids'] != 1)}" if player["bids"] else ""
        hand = f"{player['hand']:>2} {'card' if player['hand'] == 1 else 'cards':<5}"
        rows.append(f"{player['name']:<10} {hand}  {player['vp']:>3} VP{bids}{cards}")
    return rows


def odds_text(table: Table, limit: int = 10) -> list[str]:
    """The treasure's likeliest kinds and the domain cards that may be it."""
    odds = sorted(table.treasure_odds().items(), key=lambda kv: -kv[1])
    if not odds:
        return []
    rows = ["treasure: " + "  ".join(f"{card} {probability(p)}" for card, p in odds[:limit])]
    if len(odds) > limit:
        rows[0] += f"  … {len(odds) - limit} more"
    cells = table.treasure_cells()
    if cells:
        shown = "  ".join(f"{t.card}@{t.row},{t.col} {probability(p)}" for t, p in cells[:limit])
        rows.append(f"domain cards that may be it: {shown}")
    return rows


def bids_text(table: Table, limit: int | None = None) -> list[str]:
    values = table.bid_values()[:limit]
    return [f"  {bid_text(b)}" for b in values] or ["  no bid is open to you"]


def placements_text(table: Table, limit: int | None = None) -> list[str]:
    values = table.placement_values()[:limit]
    return [f"  {placement_text(p)}" for p in values] or ["  no legal placement"]


def final_text(table: Table) -> list[str]:
    """The final score by part and the winner, once known."""
    scores = table.final()
    if scores is None:
        return []
    return Final(table.names, scores, table.winners()).message()[1].splitlines()


def table_text(table: Table, colour: bool = False) -> str:
    """The table for a person: the domain's picture, whose turn it is, every player, the
    treasure odds, the seat's three best bids and placements, the final score."""
    from .picture import grid_text

    lines = []
    if table.state is not None:
        lines.append(grid_text(table, colour))
    if table.turn is not None:
        lines.append(f"turn: {table.turn}" + ("   deux cartes" if table.deux_cartes else ""))
    if table.waiting is not None:
        lines.append(f"waiting for {table.waiting}")
    lines += players_text(table)
    lines += odds_text(table)
    if table.bid_values():
        lines += ["best bids:", *bids_text(table, 3)]
    if table.placement_values():
        lines += ["best placements:", *placements_text(table, 3)]
    lines += final_text(table)
    return "\n".join(lines)

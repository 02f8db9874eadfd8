"""The table as JSON (outputs.md, ``coup replay --json``) and as text for a person.

>>> from companion.coup.tracker import replay
>>> t = replay("players Alice Bob Carol\\nme Carol\\nhand duke captain\\nAlice tax\\n")
>>> table_json(t)["players"][0]["holds"]["duke"]   # 1 - C(11,2)/C(13,2)
'23/78'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.counting import at_least_one_why
from solver.coup import Character, GameError

from ..figures import counted, is_exact, percent, probability
from .tracker import Table


def fraction(p: Fraction) -> str:
    """A probability as outputs.md writes it: a reduced fraction string."""
    return str(p)


def _ready(table: Table) -> Table | None:
    """The table with its beliefs built (set-up complete), or None if something is owed."""
    if table.started:
        return table
    try:
        return table.start()
    except GameError:
        return None


def table_json(table: Table) -> dict[str, Any]:
    """The table after the last line, exactly in the shape of outputs.md."""
    ready = _ready(table)
    state = ready.view if ready is not None else None
    out: dict[str, Any] = {
        "variant": str(table.variant),
        "me": table.names[table.me] if table.me is not None else None,
        "turn": table.turn,
        "waiting": table.waiting,
        "open": table.open_window,
        "unseen": {c.name_en: n for c, n in table.unseen().items()},
        "players": [],
        "flags": [
            {
                "line": claim.line,
                "player": claim.player,
                "claim": claim.character.name_en,
                "probability": fraction(claim.probability),
                "level": claim.level,
                "because": claim.because,
            }
            for claim in table.claims
            if claim.flagged and claim.level is not None
        ],
    }
    for seat, name in enumerate(table.names):
        alive = state.alive(seat) if state is not None else True
        entry: dict[str, Any] = {
            "name": name,
            "coins": state.coins[seat] if state is not None else table.setup.coins[seat],
            "alive": alive,
            "hidden": len(state.hidden[seat]) if state is not None else 2,
            "face_up": [c.name_en for c in (table.face_up[seat] if table.face_up else ())],
        }
        if seat == table.me:
            entry["cards"] = [c.name_en for c in table.my_cards()]
        elif alive and ready is not None and ready.beliefs is not None:
            entry["holds"] = {c.name_en: fraction(p) for c, p in ready.holds(seat).items()}
        out["players"].append(entry)
    if state is not None and state.is_terminal():
        winner = state.winner()
        out["winner"] = table.names[winner] if winner is not None else None
    return out


def table_text(table: Table) -> str:
    """The table for a person: coins, cards, and the odds of each other player's cards."""
    data = table_json(table)
    lines = []
    if data["turn"] is not None:
        lines.append(f"turn: {data['turn']}" + (f"   waiting for: {data['waiting']}" if data["waiting"] else ""))
    elif "winner" in data:
        lines.append(f"game over: {data['winner']} wins")
    unseen = ", ".join(f"{n} {c}" for c, n in data["unseen"].items())
    lines.append(f"unseen: {unseen}")
    characters = list(data["unseen"])
    shown = probability if is_exact() else percent  # a compact row: the fractions only when asked
    for player in data["players"]:
        status = "" if player["alive"] else "  (out)"
        up = f"  face up: {' '.join(player['face_up'])}" if player["face_up"] else ""
        coins = f"{player['coins']:>2} {'coin' if player['coins'] == 1 else 'coins':<5}"
        head = f"{player['name']:<10} {coins}  {player['hidden']} hidden{up}{status}"
        lines.append(head)
        history = table.ledger.history(player["name"])
        if history:
            lines.append(f"{'':<10} claims: {history}")
        if "cards" in player:
            lines.append(f"{'':<10} your cards: {' '.join(player['cards']) or '-'}")
        elif "holds" in player:
            odds = "  ".join(f"{c} {shown(Fraction(player['holds'][c]))}" for c in characters if c in player["holds"])
            lines.append(f"{'':<10} holds: {odds}")
    if table.notes:
        lines.append("you know: " + "; ".join(table.notes[-4:]))
    claims = table.ledger.flags()
    if claims:
        last = claims[-1]
        lines.append(f"last flag: line {last.line}, {last.player} claimed {last.character.article} ({last.level})")
    return "\n".join(lines)


def odds_text(table: Table, seat: int, why: bool = False) -> str:
    """The exact odds that ``seat`` holds each character, as fractions and percentages; with
    ``why``, each one's closed form in binomials when the seat's cards are still exchangeable
    with every unseen card (nothing seen singles them out), checked against the exact count.
    Raises GameError while the set-up owes something."""
    ready = _ready(table)
    if ready is None or ready.beliefs is None:
        raise GameError(f"no odds yet: the table waits for {table.waiting}")
    holds = ready.holds(seat)
    rows = [f"{table.names[seat]} holds at least one:"]
    rows.extend(f"  {c.name_en:<11} {probability(p)}" for c, p in holds.items())
    if why:
        rows.extend(_why(ready, seat, holds))
    return "\n".join(rows)


def _why(table: Table, seat: int, holds: dict[Character, Fraction]) -> list[str]:
    beliefs = table.beliefs
    assert beliefs is not None
    if not beliefs.exchangeable():
        return [
            f"  (no closed form: what was seen singles cards out; counted exactly over "
            f"{counted(len(beliefs), beliefs.representation.removesuffix('s'))})"
        ]
    total, hand = sum(beliefs.unseen), beliefs.size(seat)
    rows = []
    for c, p in holds.items():
        text, value = at_least_one_why(total, beliefs.unseen[beliefs.characters.index(c)], hand)
        if value != p:  # never shown unless it is the exact count's figure
            return [f"  (no closed form: the count is {probability(p)}, not a binomial ratio)"]
        rows.append(f"  {c.name_en:<11} {text}")
    return rows

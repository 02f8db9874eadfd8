"""The compact text form of a :class:`~solver.treasure.state.State`, in the manner of a chess FEN.

One line of space-separated fields: ``tresor``; ``deck=FxNxB`` unless the deck is the published
one; one ``name:vp:hand:markers`` field per seat (cards end to end, markers as letters
``0 1 N B F``, ``?`` for unknown, ``-`` for none; ``:suspects:breaches`` follow when not zero);
``removed=`` (``-`` before the set-up, ``?`` unseen); ``stock=`` while cards are undealt;
``domain=`` as ``row,col:card[:owner]`` joined by ``;``; ``cartons=`` unless all 14 are left;
``bids=`` as ``name:base@row,col:marker`` joined by ``;``; ``passes=`` when not 0; then the turn
(``phase``, ``mover``, ``decider`` when it is not the mover, ``caller``).

>>> from solver.treasure.state import State
>>> text = ("tresor deck=1x2x2 Ana:5:1cn1ev:0111NF Ben:5:???:?????? removed=? domain=0,0:1cv;0,1:1en:Ben "
...         "cartons=111111112345 bids=Ben:1@0,1:?;Ana:1@0,0:B phase=turn mover=Ana")
>>> State.from_text(text).text() == text
True
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import GameError, ImpossibleTable, ParseError
from ..game import NOBODY
from .bids import Bid, marker_letters, parse_marker_letters
from .cards import STANDARD, Card, Deck, cards_text, parse_cards
from .domain import Domain, Tile
from .rules import BASE_CARTONS, MAX_PLAYERS, MIN_PLAYERS
from .state import NAME, Phase, State, Turn

HEADER = "tresor"
_PHASES = {str(p): p for p in Phase}


def check_names(names: tuple[str, ...]) -> None:
    """Raise :class:`ImpossibleTable` unless ``names`` are MIN_PLAYERS to MAX_PLAYERS distinct one-word names."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ImpossibleTable(
            f"Conquêtes et chasse au trésor is played by {MIN_PLAYERS} to {MAX_PLAYERS}, not {len(names)}"
        )
    for name in names:
        if not NAME.fullmatch(name):
            raise ImpossibleTable(f"{name!r} cannot be a player's name: one word, without : ; , = @ / ?", input=name)
    if len({name.casefold() for name in names}) != len(names):
        raise ImpossibleTable(f"two players have the same name: {' '.join(names)}")


def state_text(s: State) -> str:
    """Return the text form of ``s`` (see the module docstring)."""
    names = s.names
    fields = [HEADER]
    if s.deck != STANDARD:
        fields.append(f"deck={s.deck.text()}")
    for seat, name in enumerate(names):
        field = f"{name}:{s.vp[seat]}:{cards_text(s.hands[seat])}:{marker_letters(s.markers[seat])}"
        if s.suspects[seat] or s.breaches[seat]:
            field += f":{s.suspects[seat]}:{s.breaches[seat]}"
        fields.append(field)
    fields.append(f"removed={'-' if s.removed is None else s.removed}")
    if s.stock:
        fields.append(f"stock={cards_text(s.stock)}")
    tiles = (f"{t.row},{t.col}:{t.card}" + ("" if t.owner == NOBODY else f":{names[t.owner]}") for t in s.domain.tiles)
    fields.append(f"domain={';'.join(tiles) or '-'}")
    if s.cartons != BASE_CARTONS:
        fields.append(f"cartons={''.join(map(str, s.cartons)) or '-'}")
    if s.bids:
        bids = (f"{names[b.player]}:{b.base}@{b.row},{b.col}:{b.marker.letter}" for b in s.bids)
        fields.append(f"bids={';'.join(bids)}")
    if s.passes:
        fields.append(f"passes={s.passes}")
    t = s.turn
    fields.append(f"phase={t.phase}")
    if t.mover != NOBODY:
        fields.append(f"mover={names[t.mover]}")
    if t.decider != t.mover:
        fields.append(f"decider={names[t.decider]}")
    if t.caller != NOBODY:
        fields.append(f"caller={names[t.caller]}")
    return " ".join(fields)


def parse_state(text: str) -> State:
    """Parse the text form. Raises :class:`ParseError` for a text it cannot read and
    :class:`ImpossibleTable` for a position no game reaches."""
    words = text.split()
    if not words or words[0] != HEADER:
        raise ParseError(f"a position's text starts with {HEADER!r}", input=text)
    seats: list[list[str]] = []
    keys: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if eq and key.isalpha() and key.islower():
            if key in keys:
                raise ParseError(f"{key}= is written twice", input=word)
            keys[key] = value
        else:
            seats.append(word.split(":"))
    try:
        state = _build(seats, keys)
    except GameError as error:
        if error.input is None:
            error.input = text
        raise
    except (ValueError, IndexError, KeyError) as error:
        raise ParseError(f"cannot read this position ({error})", input=text) from None
    try:
        state.check()
    except ImpossibleTable as error:
        error.input = error.input or text
        raise
    return state


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ParseError(f"{what} must be a number, not {word!r}", input=word) from None


def _build(seats: list[list[str]], keys: dict[str, str]) -> State:
    unknown = set(keys) - {"deck", "removed", "stock", "domain", "cartons", "bids", "passes", "phase"}
    unknown -= {"mover", "decider", "caller"}
    if unknown:
        raise ParseError(f"unknown field {sorted(unknown)[0]}=", input=sorted(unknown)[0])
    for seat in seats:
        if len(seat) not in (4, 6):
            raise ParseError("a seat is written name:vp:hand:markers", input=":".join(seat))
    names = tuple(seat[0] for seat in seats)
    check_names(names)
    index = {name: i for i, name in enumerate(names)}

    def seat_of(name: str) -> int:
        if name not in index:
            raise ParseError(f"{name!r} is not at the table ({' '.join(names)})", input=name)
        return index[name]

    deck = Deck.parse(keys["deck"]) if "deck" in keys else STANDARD
    removed_word = keys.get("removed", "-")
    removed = None if removed_word == "-" else Card.parse(removed_word)
    cartons = BASE_CARTONS if "cartons" not in keys else tuple(sorted(_cartons(keys["cartons"])))
    bids = tuple(_bid(word, seat_of) for word in _entries(keys.get("bids", "-")))
    tiles = tuple(_tile(word, seat_of) for word in _entries(keys.get("domain", "-")))
    phase_word = keys.get("phase", "")
    if phase_word not in _PHASES:
        raise ParseError(f"phase= is one of {', '.join(_PHASES)}", input=phase_word)
    mover = seat_of(keys["mover"]) if "mover" in keys else NOBODY
    decider = seat_of(keys["decider"]) if "decider" in keys else mover
    caller = seat_of(keys["caller"]) if "caller" in keys else NOBODY
    return State(
        names,
        deck,
        tuple(_int(seat[1], "VP") for seat in seats),
        tuple(parse_cards(seat[2]) for seat in seats),
        tuple(tuple(sorted(parse_marker_letters(seat[3]))) for seat in seats),
        removed,
        parse_cards(keys.get("stock", "-")),
        Domain(tuple(sorted(tiles))),
        cartons,
        bids,
        _int(keys.get("passes", "0"), "passes"),
        tuple(_int(seat[4], "suspect passes") if len(seat) == 6 else 0 for seat in seats),
        tuple(_int(seat[5], "breaches") if len(seat) == 6 else 0 for seat in seats),
        Turn(_PHASES[phase_word], mover, decider, caller),
    )


def _entries(text: str) -> list[str]:
    return [] if text == "-" else text.split(";")


def _cartons(text: str) -> list[int]:
    if text == "-":
        return []
    if not text.isdigit():
        raise ParseError(f"cartons= lists the base cartons left as digits, not {text!r}", input=text)
    return [int(ch) for ch in text]


def _cell(text: str) -> tuple[int, int]:
    row, comma, col = text.partition(",")
    if not comma:
        raise ParseError(f"a cell is written row,col, not {text!r}", input=text)
    return _int(row, "a row"), _int(col, "a column")


def _tile(word: str, seat_of: Callable[[str], int]) -> Tile:
    parts = word.split(":")
    if len(parts) not in (2, 3):
        raise ParseError(f"a domain card is written row,col:card[:owner], not {word!r}", input=word)
    row, col = _cell(parts[0])
    owner = seat_of(parts[2]) if len(parts) == 3 else NOBODY
    return Tile(row, col, Card.parse(parts[1]), owner)


def _bid(word: str, seat_of: Callable[[str], int]) -> Bid:
    parts = word.split(":")
    if len(parts) != 3 or "@" not in parts[1]:
        raise ParseError(f"a bid is written name:base@row,col:marker, not {word!r}", input=word)
    base, _, cell = parts[1].partition("@")
    row, col = _cell(cell)
    markers = parse_marker_letters(parts[2])
    if len(markers) != 1:
        raise ParseError(f"a bid has one marker, not {parts[2]!r}", input=word)
    return Bid(seat_of(parts[0]), _int(base, "a base carton"), row, col, markers[0])

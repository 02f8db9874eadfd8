"""The compact one-line text form of a :class:`~solver.spicy.state.State`, in the manner of a
chess FEN.

Space-separated fields: ``spicy``; ``deck=`` with the fields that differ from the published
deck (only when one does); one ``name:hand:won:trophies`` field per seat (cards as tokens:
``C7`` chili-7, ``W10``, ``P1``, ``N`` wild-number, ``S`` wild-spice, ``?`` unknown, ``*k`` for
k equal cards, ``-`` for none); then ``key=value`` pairs:

- ``pile=``: the cards under the top card;
- ``top=player:card:claim:hand:follows:open|closed``: the top card, its claim, the hand size
  before the play, the claim it was played on (``-``: none) and whether it may be challenged;
- ``draw=``: the draw pile, ``rest`` when every card is known (the deck minus the cards listed);
- ``worlds-end=``: the cards under World's End, ``?`` when hidden (by default the deck's depth
  when every card is known, else ``?``);
- the turn, writing only what is set: ``phase``, ``actor``, ``decider``, ``owed``,
  ``then=seat:cards,...``, ``challenger``, ``trait``, ``covered=`` (a top field), ``end``.

>>> from solver.spicy.state import State
>>> text = ("spicy Ana:C3W7:-:0 Ben:?*2:?*3:1 pile=?*2 top=Ben:?:C5:3:C2:open draw=?*90 worlds-end=? "
...         "phase=window actor=Ana decider=Ana")
>>> State.from_text(text).text() == text
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

from ..errors import GameError, ParseError
from .cards import DECK, Card, Deck, from_tokens, tokens
from .moves import NOBODY
from .rules import Claim, Trait
from .state import HIDDEN, End, Phase, State, Top, Turn

_PHASES = {str(p): p for p in Phase}
_ENDS = {str(e): e for e in End}
_TRAITS = {str(t): t for t in Trait}


def state_text(s: State) -> str:
    """Return the text form of ``s`` (see the module docstring)."""
    names = s.names

    def seat(i: int) -> str:
        return names[i] if i != NOBODY else "-"

    out = ["spicy"]
    if s.deck != DECK:
        out.append(f"deck={_deck_text(s.deck)}")
    for i, name in enumerate(names):
        out.append(f"{name}:{tokens(s.hands[i])}:{tokens(s.won[i])}:{s.trophies[i]}")
    if s.pile:
        out.append(f"pile={tokens(s.pile)}")
    if s.top is not None:
        out.append(f"top={_top_text(s.top, names)}")
    everything_known = all(c.is_known for c in s.cards())
    out.append(f"draw={'rest' if everything_known else tokens(s.draw)}")
    out.append(f"worlds-end={'?' if s.worlds_end == HIDDEN else s.worlds_end}")
    t = s.turn
    out.append(f"phase={t.phase}")
    out.append(f"actor={seat(t.actor)}")
    if t.decider != NOBODY:
        out.append(f"decider={seat(t.decider)}")
    if t.owed:
        out.append(f"owed={t.owed}")
    if t.then:
        out.append("then=" + ",".join(f"{seat(i)}:{k}" for i, k in t.then))
    if t.challenger != NOBODY:
        out.append(f"challenger={seat(t.challenger)}")
    if t.trait is not None:
        out.append(f"trait={t.trait}")
    if t.covered is not None:
        out.append(f"covered={_top_text(t.covered, names)}")
    if t.end is not None:
        out.append(f"end={t.end}")
    return " ".join(out)


def _top_text(top: Top, names: tuple[str, ...]) -> str:
    follows = top.follows.token if top.follows is not None else "-"
    state = "open" if top.open else "closed"
    return f"{names[top.player]}:{top.card.token}:{top.claim.token}:{top.hand}:{follows}:{state}"


def _deck_text(deck: Deck) -> str:
    parts = []
    for f in fields(deck):
        value = getattr(deck, f.name)
        if value != f.default:
            shown = "/".join(map(str, value)) if isinstance(value, tuple) else str(value)
            parts.append(f"{f.name}:{shown}")
    return ",".join(parts)


def parse_state(text: str) -> State:
    """Parse :func:`state_text`'s form. Raises :class:`ParseError` naming the text."""
    try:
        return _parse(text)
    except ParseError:
        raise
    except GameError as error:
        raise ParseError(f"impossible state: {error} in {text!r}", input=text) from error
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ParseError(f"unreadable state: {text!r} ({error})", input=text) from error


def _parse_deck(value: str) -> Deck:
    changes: dict[str, int | tuple[int, ...]] = {}
    known = {f.name for f in fields(Deck)}
    for part in value.split(","):
        key, _, number = part.partition(":")
        if key not in known:
            raise ParseError(f"unknown deck field {key!r} (fields: {', '.join(sorted(known))})", input=value)
        changes[key] = tuple(int(x) for x in number.split("/")) if key == "worlds_end" else int(number)
    return Deck(**changes)  # type: ignore[arg-type]


def _parse(text: str) -> State:
    words = text.split()
    if not words or words[0] != "spicy":
        raise ParseError(f"a Spicy state starts with 'spicy': {text!r}", input=text)
    seats: list[tuple[str, tuple[Card, ...], tuple[Card, ...], int]] = []
    pairs: dict[str, str] = {}
    for word in words[1:]:
        if "=" in word:
            key, _, value = word.partition("=")
            if key in pairs:
                raise ParseError(f"field {key!r} given twice in {text!r}", input=text)
            pairs[key] = value
            continue
        parts = word.split(":")
        if len(parts) != 4 or set(pairs) - {"deck"}:
            raise ParseError(f"bad seat field {word!r} in {text!r} (expected name:hand:won:trophies)", input=text)
        seats.append((parts[0], from_tokens(parts[1]), from_tokens(parts[2]), int(parts[3])))
    names = tuple(name for name, *_ in seats)
    deck = _parse_deck(pairs.pop("deck")) if "deck" in pairs else DECK

    def seat(key: str, default: int = NOBODY) -> int:
        value = pairs.pop(key, None)
        if value is None or value == "-":
            return default
        if value not in names:
            raise ParseError(f"{key}={value}: no such player in {text!r}", input=text)
        return names.index(value)

    def top(key: str) -> Top | None:
        value = pairs.pop(key, None)
        if value is None:
            return None
        player, card, claim, hand, follows, state = value.split(":")
        if player not in names or state not in ("open", "closed"):
            raise ParseError(f"bad {key} field {value!r} (expected player:card:claim:hand:follows:open)", input=text)
        after = None if follows == "-" else Claim.parse(follows)
        return Top(names.index(player), Card.from_token(card), Claim.parse(claim), int(hand), after, state == "open")

    hands = tuple(h for _, h, _, _ in seats)
    won = tuple(w for _, _, w, _ in seats)
    pile = from_tokens(pairs.pop("pile", "-"))
    top_card = top("top")
    draw_text = pairs.pop("draw", "rest")
    if draw_text == "rest":
        listed = Counter(c for group in (*hands, *won, pile, (top_card.card,) if top_card else ()) for c in group)
        if not all(c.is_known for c in listed):
            raise ParseError(f"draw=rest needs every other card known: {text!r}", input=text)
        draw = tuple(sorted((Counter(deck.cards) - listed).elements()))
    else:
        draw = from_tokens(draw_text)
    depth_text = pairs.pop("worlds-end", None)
    if depth_text is None:  # by default: at the deck's depth when every card is known
        known = all(c.is_known for group in (*hands, *won, pile, draw) for c in group)
        known = known and (top_card is None or top_card.card.is_known)
        depth = deck.worlds_end_depth(len(names)) if known else HIDDEN
    else:
        depth = HIDDEN if depth_text == "?" else int(depth_text)
    phase = _PHASES[pairs.pop("phase")]
    actor = seat("actor", 0)
    decider = seat("decider")
    owed = int(pairs.pop("owed", "0"))
    then_text = pairs.pop("then", "")
    then = tuple((names.index(p), int(k)) for p, _, k in (x.partition(":") for x in then_text.split(",") if x))
    challenger = seat("challenger")
    trait = _TRAITS[pairs.pop("trait")] if "trait" in pairs else None
    covered = top("covered")
    end = _ENDS[pairs.pop("end")] if "end" in pairs else None
    if pairs:
        raise ParseError(f"unknown field(s) {', '.join(sorted(pairs))} in {text!r}", input=text)
    turn = Turn(phase, actor, decider, owed, then, challenger, trait, covered, end)
    state = State(names, deck, hands, draw, pile, top_card, won, tuple(t for *_, t in seats), depth, turn)
    state.check()
    return state

"""The compact text form of a :class:`~solver.coup.state.State`, in the manner of a chess FEN.

One line of space-separated fields: the variant; one ``name:coins:face-down:face-up`` field
per seat (cards as letters, ``-`` for none); ``court=`` and ``aside=``; then the turn as
``key=value`` pairs, writing only what differs from the defaults (``decider`` defaults to
the actor).

>>> from solver.coup.state import State
>>> text = ("inquisitor Alice:3:DI:- Bob:0:K:A court=DACCKKI aside=DACI "
...         "phase=block actor=Alice decider=Bob action=steal target=Bob")
>>> State.from_text(text).text() == text
True
"""

from __future__ import annotations

from ..errors import GameError, ParseError
from .cards import Character, Variant, from_letters, letters
from .moves import NOBODY
from .rules import Kind
from .state import After, Phase, State, Turn

_PHASES = {str(p): p for p in Phase}
_AFTERS = {str(a): a for a in After}
_KINDS = {str(k): k for k in Kind if k.is_action}


def state_text(s: State) -> str:
    """Return the text form of ``s`` (see the module docstring)."""
    names = s.names

    def seat(i: int) -> str:
        return names[i] if i != NOBODY else "-"

    fields = [str(s.variant)]
    for i, name in enumerate(names):
        fields.append(f"{name}:{s.coins[i]}:{letters(s.hidden[i])}:{letters(s.face_up[i])}")
    fields.append(f"court={letters(s.court)}")
    fields.append(f"aside={letters(s.aside)}")
    t = s.turn
    fields.append(f"phase={t.phase}")
    fields.append(f"actor={seat(t.actor)}")
    if t.decider != t.actor:
        fields.append(f"decider={seat(t.decider)}")
    if t.action is not None:
        fields.append(f"action={t.action}")
    if t.target != NOBODY:
        fields.append(f"target={seat(t.target)}")
    if t.blocker != NOBODY:
        fields.append(f"blocker={seat(t.blocker)}")
    if t.block is not None:
        fields.append(f"block={t.block.name_en}")
    if t.challenger != NOBODY:
        fields.append(f"challenger={seat(t.challenger)}")
    if t.after is not None:
        fields.append(f"after={t.after}")
    if t.cards:
        fields.append(f"cards={letters(t.cards)}")
    return " ".join(fields)


def parse_state(text: str) -> State:
    """Parse :func:`state_text`'s form. Raises :class:`ParseError` with the offending field."""
    try:
        return _parse(text)
    except ParseError:
        raise
    except GameError as error:
        raise ParseError(f"impossible state: {error} in {text!r}", input=text) from error
    except (ValueError, KeyError, IndexError) as error:
        raise ParseError(f"unreadable state: {text!r} ({error})", input=text) from error


def _parse(text: str) -> State:
    words = text.split()
    if not words:
        raise ParseError("empty state text")
    variant = Variant.parse(words[0])
    seats: list[tuple[str, int, tuple[Character, ...], tuple[Character, ...]]] = []
    pairs: dict[str, str] = {}
    for word in words[1:]:
        if "=" in word:
            key, _, value = word.partition("=")
            if key in pairs:
                raise ParseError(f"field {key!r} given twice in {text!r}")
            pairs[key] = value
            continue
        parts = word.split(":")
        if len(parts) != 4 or pairs:
            raise ParseError(f"bad seat field {word!r} in {text!r} (expected name:coins:face-down:face-up)")
        seats.append((parts[0], int(parts[1]), from_letters(parts[2]), from_letters(parts[3])))
    names = tuple(name for name, *_ in seats)

    def seat(key: str, default: int = NOBODY) -> int:
        value = pairs.pop(key, None)
        if value is None:
            return default
        if value == "-":
            return NOBODY
        if value not in names:
            raise ParseError(f"{key}={value}: no such player in {text!r}")
        return names.index(value)

    court = from_letters(pairs.pop("court", "-"))
    aside = from_letters(pairs.pop("aside", "-"))
    phase = _PHASES[pairs.pop("phase")]
    actor = seat("actor")
    decider = seat("decider", actor)
    action = _KINDS[pairs.pop("action")] if "action" in pairs else None
    target = seat("target")
    blocker = seat("blocker")
    block = Character.parse(pairs.pop("block")) if "block" in pairs else None
    challenger = seat("challenger")
    after = _AFTERS[pairs.pop("after")] if "after" in pairs else None
    cards = from_letters(pairs.pop("cards", "-"))
    if pairs:
        raise ParseError(f"unknown field(s) {', '.join(sorted(pairs))} in {text!r}")
    turn = Turn(phase, actor, decider, action, target, blocker, block, challenger, after, cards)
    state = State(
        names,
        variant,
        tuple(c for _, c, _, _ in seats),
        tuple(h for _, _, h, _ in seats),
        tuple(f for _, _, _, f in seats),
        court,
        aside,
        turn,
    )
    state.check()
    return state

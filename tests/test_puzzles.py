"""Every puzzle of examples/puzzles has its answer pinned."""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from solver.coup import Character, Kind, State
from solver.coup.hidden import answer
from solver.coup.puzzle import Puzzle

PUZZLES = Path(__file__).parent.parent / "examples" / "puzzles"

ANSWERS = {  # value, best move (ties: the action table's order)
    "01-race-to-seven": ("1", "Alice coup Bob"),
    "02-empty-purse": ("7/9", "Alice exchange"),
    "03-last-contessa": ("-1/3", "Alice aid"),
    "04-duke-against-the-clock": ("-1/3", "Alice tax"),
    "05-exchange-luck": ("1/3", "Alice exchange"),
    "06-inquisitor-examine": ("1/3", "Alice examine Bob"),
    "07-two-inquisitors": ("1", "Alice exchange"),
    "08-assassin-against-contessa": ("1", "Alice aid"),
    "09-steal-war": ("1", "Alice income"),
    "10-bluffless-contessa": ("-5/9", "Alice aid"),
    "11-two-against-one": ("1", "Alice aid"),
    "12-two-against-two": ("1", "Alice income"),
}
SLOW = {"12-two-against-two"}  # about 7 million positions, a minute or more: run with -m slow


def test_there_are_twelve_puzzles_each_with_a_story_and_a_difficulty() -> None:
    names = sorted(p.stem for p in PUZZLES.glob("*.toml"))
    assert names == sorted(ANSWERS)
    for path in PUZZLES.glob("*.toml"):
        text = path.read_text()
        assert text.startswith("# ") and len(text.splitlines()[0]) > 20
        assert 1 <= tomllib.loads(text)["difficulty"] <= 5


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(ANSWERS)])
def test_puzzle_answers_are_pinned(name: str) -> None:
    value, best = ANSWERS[name]
    puzzle = Puzzle.from_mapping(tomllib.loads((PUZZLES / f"{name}.toml").read_text()))
    result = answer(puzzle.hypotheses())
    assert result.value == Fraction(value)
    assert result.best.text(puzzle.names) == best
    assert result.win - result.loss == result.value
    assert_line_is_playable(max(puzzle.hypotheses(), key=lambda h: h.probability).state, result.line)


def assert_line_is_playable(root: State, line: list[str]) -> None:
    """The principal line, passes left out, is a sequence of the engine's own moves and chance
    outcomes from the root: no forced move (a loss, a keep) is missing from it."""
    state = root
    for text in line:
        while True:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_moves()
            named = [m for m in options if m.text(state.names) == text]
            if named:
                state = state.apply(named[0])
                break
            passes = [m for m in options if m.kind is Kind.PASS]
            assert passes, f"{text!r} cannot be played at {state.text()}"
            state = state.apply(passes[0])


# -- the stories say what the positions hold -------------------------------------------------

BUNDLED = Path(__file__).parent.parent / "companion" / "coup" / "data" / "puzzles"
NUMBERS = {"no": 0, "zero": 0, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
NUMBERS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
CARDS = {c.name_en: c for c in Character if c is not Character.UNKNOWN}


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word)


def _card_word(word: str) -> Character | None:
    """The character a story's word names: ``duke``, ``dukes``, ``inquisitor's``."""
    word = word.removesuffix("'s")
    return CARDS.get(word) or (CARDS.get(word[:-1]) if word.endswith("s") else None)


def _subject(words: list[str], puzzle: Puzzle, previous: str | None) -> str | None:
    """Whom a clause is about: every card ``in play``, the ``court``, the opponent named, the
    player (``you``), or (naming none) the previous clause's subject."""
    other = puzzle.names[1 - puzzle.to_move].lower()
    if "play" in words and "in" in words:
        return "play"
    if "court" in words:
        return "court"
    if other in words or f"{other}'s" in words:
        return "other"
    if {"you", "your"} & set(words):
        return "me"
    return previous


def _cards(puzzle: Puzzle, subject: str, face_up: bool) -> list[Character]:
    if subject == "court":
        return list(puzzle.court or ())
    if subject == "play":
        return [*(puzzle.court or ()), *(c for cards in (*puzzle.hidden, *puzzle.face_up) for c in cards)]
    seat = puzzle.to_move if subject == "me" else 1 - puzzle.to_move
    return list(puzzle.face_up[seat] if face_up else puzzle.hidden[seat])


def _coins(puzzle: Puzzle, subject: str, words: list[str]) -> list[int]:
    """The coins a number of coins in the clause must equal (each of them)."""
    if "between" in words:
        return [sum(puzzle.coins)]
    if "each" in words or "either" in words:
        return list(puzzle.coins)
    if subject in ("me", "other"):
        return [puzzle.coins[puzzle.to_move if subject == "me" else 1 - puzzle.to_move]]
    return []


def _clause_facts(clause: str, words: list[str], puzzle: Puzzle, subject: str) -> list[str]:
    wrong = []
    said = [0] if "empty" in words and "purse" in words else []
    for i, word in enumerate(words):
        before = _count(words[i - 1]) if i else None
        card = _card_word(word)
        if word in ("coin", "coins") and before is not None:
            said.append(before)
        elif word == "cards" and before is not None and subject in ("me", "other"):
            held = len(_cards(puzzle, subject, False))
            if held != before:
                wrong.append(f"{clause!r}: {held} face-down cards, not {before}")
        elif card is not None:
            up = "face" in words and "up" in words
            held = _cards(puzzle, subject, up).count(card)
            if before == 0 and held:
                wrong.append(f"{clause!r}: there is {held} {card.name_en} ({subject})")
            elif before is not None and before > 0 and held != before and subject != "play":
                wrong.append(f"{clause!r}: {held} {card.name_en} ({subject}), not {before}")
            elif before is None and not held:
                wrong.append(f"{clause!r}: no {card.name_en} ({subject}{', face up' if up else ''})")
    for n in said:
        actual = _coins(puzzle, subject, words)
        if any(a != n for a in actual):
            wrong.append(f"{clause!r}: {subject} has {actual} coins, not {n}")
    return wrong


def story_facts(story: str, puzzle: Puzzle) -> list[str]:
    """What the story says that the position contradicts, clause by clause. A clause is about
    the solver's opponent when it names them (``Bob's``, ``Bob has``), about the player when it
    says ``you``/``your``, about the court when it names the court, about every card in play
    with ``in play``; a clause naming none goes on with the previous one's subject. In it,
    ``N coin(s)`` (``no coins``, ``an empty purse``) are that side's coins (both sides' with
    ``each``, their sum with ``between you``), ``N cards`` its face-down cards, a card name one
    of its face-down cards (face up with ``face up``), ``N CARDs`` that many of them, ``no CARD``
    none of them. A card or coins before any subject is reported: the story must say whose."""
    wrong: list[str] = []
    subject: str | None = None
    for clause in re.split(r"[,:;.?!()]| against ", story.lower()):
        words = re.findall(r"[a-z0-9']+", clause)
        subject = _subject(words, puzzle, subject)
        if subject is not None:
            wrong += _clause_facts(clause, words, puzzle, subject)
        elif any(_card_word(w) is not None or w in ("coin", "coins") for w in words):
            wrong.append(f"{clause!r}: whose? (say 'your' or name {puzzle.names[1 - puzzle.to_move]})")
    return wrong


def test_every_puzzle_story_agrees_with_its_position() -> None:
    """The shipped puzzles (examples/puzzles links to them)."""
    wrong = {}
    for path in sorted(BUNDLED.glob("*.toml")):
        text = path.read_text()
        story = text.splitlines()[0].lstrip("# ")
        found = story_facts(story, Puzzle.from_mapping(tomllib.loads(text)))
        if found:
            wrong[path.name] = found
    assert wrong == {}


def test_the_story_check_catches_the_stories_that_contradicted_their_positions() -> None:
    race = Puzzle.from_mapping(tomllib.loads((PUZZLES / "01-race-to-seven.toml").read_text()))
    clock = Puzzle.from_mapping(tomllib.loads((PUZZLES / "04-duke-against-the-clock.toml").read_text()))
    assert story_facts("your ambassador with six coins", race)
    assert story_facts("A true duke with one coin against a captain with five", clock)  # whose?
    assert story_facts("Your duke against Bob's captain", clock)  # his captain is face up
    assert not story_facts("Your duke against Bob's ambassador (his captain is face up)", clock)

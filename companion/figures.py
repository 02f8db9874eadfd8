"""Figures as a player reads them at a glance, the same in every game.

A probability is a percentage, with its fraction beside it only when short (numerator and
denominator under :data:`SHORT`); a value (P(win) - P(loss), or an expected number of points)
is a signed number. Rounding never contradicts a mark the text relies on: 0 and 1 always (a
nonzero chance never shows as 0%), and the thresholds a caller names (a flag's 1/4): one more
decimal whenever the rounded figure would land on or cross one. The exact fractions are for
``--json`` and, in human text, inside :func:`exact` (the ``--exact`` option). Counts agree with
their nouns (:func:`counted`) and rows of text line up whatever their lengths (:func:`columns`).

>>> probability(Fraction(23, 78))
'23/78 (29%)'
>>> probability(Fraction(2506939, 16286328))
'15%'
>>> probability(Fraction(16, 65), marks=[Fraction(1, 4)])
'16/65 (24.6%)'
>>> probability(Fraction(1, 10**6)), percent(Fraction(1))
('<0.001%', '100%')
>>> value(Fraction(629, 1197)), value(Fraction(-1, 300)), value(Fraction(1)), percent(Fraction(1, 8))
('+0.53', '-0.003', '+1', '13%')
>>> with exact():
...     value(Fraction(629, 1197)), probability(Fraction(2506939, 16286328))
('+629/1197', '2506939/16286328 (15%)')
>>> counted(1, "trophy", "trophies"), counted(2, "card")
('1 trophy', '2 cards')
>>> columns([["help", "this list"], ["odds [player]", "exact odds"]])
['help           this list', 'odds [player]  exact odds']
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction

SHORT = 1000
"""A fraction is shown beside its percentage when numerator and denominator are both below this."""
PERCENT_DIGITS = 3
"""At most this many decimals for a percentage near 0% or 100% (then ``<0.001%``, ``>99.999%``)."""
VALUE_DIGITS = 2
"""The decimals of a value (``+0.52``)."""

_EXACT: ContextVar[bool] = ContextVar("exact", default=False)


@contextmanager
def exact(on: bool = True) -> Iterator[None]:
    """Inside this block (when ``on``), probabilities and values are shown as exact fractions
    (what ``--exact`` asks for)."""
    token = _EXACT.set(on)
    try:
        yield
    finally:
        _EXACT.reset(token)


def is_exact() -> bool:
    """Whether exact fractions are being shown (inside :func:`exact`)."""
    return _EXACT.get()


def short(x: Fraction) -> bool:
    """True if ``x``'s numerator and denominator are both below :data:`SHORT` (``23/78``)."""
    return abs(x.numerator) < SHORT and x.denominator < SHORT


def percent(p: Fraction | int, marks: Iterable[Fraction] = ()) -> str:
    """``p`` as a percentage, whole unless rounding would land on or cross 0, 1 or one of
    ``marks``: then with as many decimals as it takes (``'24.6%'`` for 16/65 against 1/4).

    >>> percent(Fraction(1, 4)), percent(Fraction(1, 3), [Fraction(1, 3)]), percent(Fraction(999, 1000))
    ('25%', '33%', '99.9%')
    """
    x = 100 * Fraction(p)
    edges = [Fraction(0), Fraction(100)]
    digits = _digits(x, edges, PERCENT_DIGITS)
    if digits is None:
        return "<0.001%" if x < 50 else ">99.999%"
    more = _digits(x, [100 * Fraction(m) for m in marks], None, digits)
    assert more is not None
    return _decimal(x, more) + "%"


def probability(p: Fraction | int, marks: Iterable[Fraction] = ()) -> str:
    """A probability for a person: ``'23/78 (29%)'`` when the fraction is short, else the
    percentage alone; the exact fraction always inside :func:`exact`. ``marks``: see
    :func:`percent`."""
    p = Fraction(p)
    shown = percent(p, marks)
    if p.denominator == 1 or not (is_exact() or short(p)):
        return shown
    return f"{p} ({shown})"


def value(v: Fraction | int, marks: Iterable[Fraction] = ()) -> str:
    """A value (P(win) - P(loss), or points) as a signed number: ``'+0.53'``, ``'-1'``,
    ``'0'``; more decimals when rounding would land on or cross -1, 0, 1 or one of ``marks``;
    the exact fraction, signed, inside :func:`exact`."""
    v = Fraction(v)
    sign = "+" if v > 0 else ""
    if is_exact() or v.denominator == 1:
        return f"{sign}{v}"
    digits = _digits(v, [Fraction(-1), Fraction(0), Fraction(1), *map(Fraction, marks)], None, VALUE_DIGITS)
    assert digits is not None
    return sign + _decimal(v, digits)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1: ``'1 card'``, ``'3 cards'``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def columns(rows: Sequence[Sequence[str]], align: str = "", gap: int = 2, indent: str = "") -> list[str]:
    """``rows`` of cells as lines of text whose columns line up, each as wide as its widest
    cell; ``align`` gives each column's ``<`` (left, the default) or ``>`` (right); the last
    cell of a row is not padded. Rows may have fewer cells than others."""
    width = [0] * max((len(r) for r in rows), default=0)
    for row in rows:
        for i, cell in enumerate(row):
            width[i] = max(width[i], len(cell))
    out = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            right = i < len(align) and align[i] == ">"
            last = i == len(row) - 1
            cells.append(cell.rjust(width[i]) if right else cell if last else cell.ljust(width[i]))
        out.append(indent + (" " * gap).join(cells))
    return out


def _digits(x: Fraction, marks: Sequence[Fraction], most: int | None, least: int = 0) -> int | None:
    """The fewest decimals (at least ``least``, at most ``most``) at which ``x`` rounded
    compares with every mark rounded alike as ``x`` does with the mark; None past ``most``."""
    digits = least
    while most is None or digits <= most:
        if all(_compare(_round(x, digits), _round(m, digits)) == _compare(x, m) for m in marks):
            return digits
        digits += 1
    return None


def _round(x: Fraction, digits: int) -> Fraction:
    return Fraction(_half_up(x * 10**digits), 10**digits)


def _half_up(x: Fraction) -> int:
    """``x`` rounded to an integer, halves away from zero (as a person rounds: 12.5 to 13)."""
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


def _compare(a: Fraction, b: Fraction) -> int:
    return (a > b) - (a < b)


def _decimal(x: Fraction, digits: int) -> str:
    """``x`` rounded to ``digits`` decimals, written out (``-0.003``, ``24.6``)."""
    n = _half_up(x * 10**digits)
    sign = "-" if n < 0 else ""
    whole, rest = divmod(abs(n), 10**digits)
    return f"{sign}{whole}" + (f".{rest:0{digits}d}" if digits else "")

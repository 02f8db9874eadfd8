"""The house's figures (companion/figures.py): percentages whose rounding never contradicts a
mark, short fractions only, signed values, exact fractions on demand, counts, aligned columns."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from companion.figures import columns, counted, exact, percent, probability, value

probabilities = st.fractions(min_value=0, max_value=1, max_denominator=10**7)
values = st.fractions(min_value=-1, max_value=1, max_denominator=10**7)


def shown(text: str) -> Fraction:
    """The number a figure shows (``'24.6%'`` -> 24.6)."""
    match = re.search(r"[-+]?\d+(\.\d+)?", text)
    assert match is not None, text
    return Fraction(Decimal(match.group(0)))


def decimals(text: str) -> int:
    number = re.search(r"[-+]?\d+(\.(\d+))?", text)
    assert number is not None
    return len(number.group(2) or "")


def compare(a: Fraction, b: Fraction) -> int:
    return (a > b) - (a < b)


def rounded(x: Fraction, digits: int) -> Fraction:
    """``x`` to ``digits`` decimals, halves up, by the decimal module (independently of figures)."""
    with localcontext() as context:
        context.prec = 80
        exact_enough = Decimal(x.numerator) / Decimal(x.denominator)
        return Fraction(exact_enough.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


@given(probabilities, probabilities)
def test_a_shown_percentage_compares_with_a_mark_as_the_probability_does(p: Fraction, mark: Fraction) -> None:
    text = percent(p, marks=[mark])
    if text.startswith(("<", ">")):  # within 0.001% of 0 or 100%: said as a bound
        assert (0 < p < Fraction(1, 10**5)) if text.startswith("<") else (1 - Fraction(1, 10**5) < p < 1)
        return
    digits = decimals(text)
    assert shown(text) == rounded(100 * p, digits)
    assert compare(shown(text), rounded(100 * mark, digits)) == compare(p, mark)


@given(probabilities)
def test_a_percentage_is_never_0_or_100_unless_the_probability_is(p: Fraction) -> None:
    text = percent(p)
    assert (text == "0%") == (p == 0) and (text == "100%") == (p == 1)
    assert abs(shown(text) - 100 * p) <= Fraction(1, 2) or text.startswith(("<", ">"))


@given(values)
def test_a_value_shows_its_sign_and_never_rounds_onto_0_or_1(v: Fraction) -> None:
    text = value(v)
    assert text.startswith("+") == (v > 0) and text.startswith("-") == (v < 0)
    assert (shown(text) == 0) == (v == 0) and (abs(shown(text)) == 1) == (abs(v) == 1)
    with exact():
        assert Fraction(value(v)) == v


def test_the_issues_figures() -> None:
    assert probability(Fraction(23, 78)) == "23/78 (29%)"
    assert probability(Fraction(16, 65), marks=[Fraction(1, 4)]) == "16/65 (24.6%)"
    assert probability(Fraction(2506939, 16286328)) == "15%"
    assert value(Fraction(118913104031717022170855947093, 123500993462745993134255840625)) == "+0.96"
    assert value(Fraction(-235, 3591)) == "-0.07" and value(Fraction(629, 1197)) == "+0.53"
    with exact():
        assert probability(Fraction(2506939, 16286328)) == "2506939/16286328 (15%)"
        assert probability(Fraction(1)) == "100%" and value(Fraction(-1)) == "-1"


def test_short_fractions_only_beside_a_percentage() -> None:
    assert probability(Fraction(998, 999)) == "998/999 (99.9%)"
    assert probability(Fraction(999, 1000)) == "99.9%"
    assert probability(Fraction(0)) == "0%" and probability(Fraction(1, 10**6)) == "<0.001%"


def test_halves_round_away_from_zero() -> None:
    assert percent(Fraction(1, 8)) == "13%" and value(Fraction(5, 8)) == "+0.63" and value(Fraction(-5, 8)) == "-0.63"


def test_counts_agree_with_their_nouns() -> None:
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert counted(1, "trophy", "trophies") == "1 trophy" and counted(3, "trophy", "trophies") == "3 trophies"


def test_columns_line_up_whatever_the_lengths() -> None:
    rows = columns([["name", "n", "what"], ["a-much-longer-name", "12", "x"], ["b", "3"]], "<>", indent="  ")
    assert rows == ["  name                 n  what", "  a-much-longer-name  12  x", "  b                    3"]

"""The independent brute-force reference (tests/reference/brute.py) against the golden records.

The golden outputs were produced by yet another independent implementation; this checks that the
reference reading of docs/spec/outputs.md agrees with them exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from tests.reference.brute import brute_replay

GOLDEN = Path(__file__).parent / "golden" / "records"
RECORDS = sorted(GOLDEN.glob("*.coup"))


def _same_prob(got: str, want: str) -> bool:
    return Fraction(got) == Fraction(want)


def assert_table_matches(got: dict, want: dict) -> None:
    """Compare as the brief says: keys of the golden file only; probabilities as fractions;
    face_up and cards as multisets; waiting as null / not null."""
    for key, value in want.items():
        assert key in got, f"missing key {key!r}"
        if key == "waiting":
            assert (got[key] is None) == (value is None), f"waiting: {got[key]!r} vs {value!r}"
        elif key == "players":
            assert [p["name"] for p in got[key]] == [p["name"] for p in value]
            for gp, wp in zip(got[key], value, strict=True):
                for pk, pv in wp.items():
                    assert pk in gp, f"{wp['name']}: missing {pk!r}"
                    if pk in ("face_up", "cards"):
                        assert Counter(gp[pk]) == Counter(pv), f"{wp['name']} {pk}"
                    elif pk == "holds":
                        assert set(gp[pk]) == set(pv), f"{wp['name']} holds keys"
                        for card, prob in pv.items():
                            assert _same_prob(gp[pk][card], prob), (
                                f"{wp['name']} holds {card}: {gp[pk][card]} != {prob}"
                            )
                    else:
                        assert gp[pk] == pv, f"{wp['name']} {pk}: {gp[pk]!r} != {pv!r}"
                extra = set(gp) - set(wp) - {"holds", "cards"}
                assert not extra or extra <= {"because"}, extra
        elif key == "flags":
            assert len(got[key]) == len(value), f"flags: {got[key]} vs {value}"
            for gf, wf in zip(got[key], value, strict=True):
                for fk, fv in wf.items():
                    if fk == "probability":
                        assert _same_prob(gf[fk], fv), f"flag line {wf['line']}: {gf[fk]} != {fv}"
                    else:
                        assert gf[fk] == fv, f"flag {wf}: {fk} {gf[fk]!r} != {fv!r}"
        else:
            assert got[key] == value, f"{key}: {got[key]!r} != {value!r}"


@pytest.mark.parametrize("record", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(record: Path) -> None:
    want = json.loads(record.with_suffix(".expected.json").read_text(encoding="utf-8"))
    got = brute_replay(record.read_text(encoding="utf-8"))
    assert_table_matches(got, want)


def test_golden_records_present() -> None:
    assert len(RECORDS) >= 6


SPEC_EXAMPLE = """\
players Alice Bob Carol
variant ambassador
me Carol
hand duke captain
Alice tax
Bob income
Carol steal Alice
Alice block ambassador
Carol challenge
Alice lose duke          # bluff caught: the block fails, the steal goes on, Carol takes 2
"""

SPEC_EXPECTED = json.loads("""
{"variant": "ambassador", "me": "Carol", "turn": "Alice", "waiting": null, "open": null,
 "unseen": {"duke": 1, "assassin": 3, "contessa": 3, "captain": 2, "ambassador": 3},
 "players": [
  {"name": "Alice", "coins": 3, "alive": true, "hidden": 1, "face_up": ["duke"],
   "holds": {"duke": "1/17", "assassin": "6/17", "contessa": "6/17", "captain": "4/17", "ambassador": "0"}},
  {"name": "Bob", "coins": 3, "alive": true, "hidden": 2, "face_up": [],
   "holds": {"duke": "32/187", "assassin": "411/935", "contessa": "411/935", "captain": "287/935",
             "ambassador": "27/55"}},
  {"name": "Carol", "coins": 4, "alive": true, "hidden": 2, "face_up": [], "cards": ["duke", "captain"]}],
 "flags": []}
""")


def test_outputs_md_example() -> None:
    """The worked example of outputs.md (lines 1-10 of the table-language.md example)."""
    assert_table_matches(brute_replay(SPEC_EXAMPLE), SPEC_EXPECTED)


@pytest.mark.parametrize("record", RECORDS, ids=[p.stem for p in RECORDS])
def test_lazy_deal_equals_eager_deal(record: Path) -> None:
    """The reference's lazy dealing of untouched hands is exact: dealing every hand at the start
    gives the very same table."""
    text = record.read_text(encoding="utf-8")
    assert brute_replay(text) == brute_replay(text, lazy=False)

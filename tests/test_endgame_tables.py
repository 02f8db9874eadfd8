"""The endgame tables a table's `solve` needs: those of 2-6 player games are shipped (no
generation, nothing written to the cache), those of 7-8 player games (20 cards) are generated
once into the cache, announced by a progress bar on a terminal."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from companion.coup.commands import CoupSession, session
from companion.coup.endgame import hypotheses
from companion.coup.simulate import Style, random_record
from solver.coup import Variant
from solver.coup.tablebase import Family, families_for, family_of, installed_dir
from solver.coup.tablebase.probe import default_library


def at_heads_up(players: int, seed: int, variant: Variant) -> CoupSession:
    """A table fed a random record up to the first turn start with the seat and one other left."""
    s = session()
    for line in random_record(players, seed, variant=variant, style=Style(calm=0.5)).splitlines():
        s.handle(line)
        if s.table.at_heads_up_turn_start:
            return s
    raise AssertionError("the record never reached a heads-up turn start")


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(importlib.import_module("solver.coup.tablebase.probe"), "_DEFAULT", [])  # on this cache
    return tmp_path / "coup" / "tablebase"


def test_a_seven_player_heads_up_generates_its_tables_once_then_solves(empty_cache: Path) -> None:
    s = at_heads_up(7, 17, Variant.AMBASSADOR)
    first = s.handle("solve")
    assert "exact, from the endgame tables" in first[-1][1], first
    made = sorted(p.name for p in empty_cache.glob("*.ctb"))
    assert made and all(Family.from_name(n.removesuffix(".ctb")).cards > 0 for n in made)
    assert s.handle("solve")[-1][1].splitlines()[:2] == first[-1][1].splitlines()[:2]
    assert sorted(p.name for p in empty_cache.glob("*.ctb")) == made  # nothing generated again


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_heads_up_family_of_3_to_6_players_is_shipped(players: int) -> None:
    shipped = {p.name.removesuffix(".ctb") for p in installed_dir().glob("*.ctb")}
    for variant in Variant:
        assert {f.name for f in families_for(variant, players)} <= shipped


def test_a_heads_up_of_a_shipped_set_up_generates_nothing(empty_cache: Path) -> None:
    s = at_heads_up(4, 0, Variant.INQUISITOR)
    needed = {family_of(h.state.heads_up()) for h in hypotheses(s.table)}
    assert needed and default_library().missing(needed) == []
    assert "exact, from the endgame tables" in s.handle("solve")[-1][1]
    assert not empty_cache.exists() or not list(empty_cache.glob("*.ctb"))

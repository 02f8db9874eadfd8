"""The pictures of the three games (``--plot``): one extra to install them, the timeline from the
set-up, whole-number ticks where the figures are whole, one x axis, and no title cut or run
together at any size."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from companion.coup import analysis as coup_analysis
from companion.plots import PLOT_EXTRA
from companion.spicy import analysis as spicy_analysis
from companion.treasure import picture
from companion.treasure.tracker import replay as treasure_replay
from solver.errors import GameError
from tests.helpers import cut_or_overlapping_texts

pytest.importorskip("matplotlib")

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
RICH = (  # a corrected set-up (14 coins each) the timeline must start from
    "players Alice Bob\ndraft none\nme Alice\nhand duke captain\ncoins Alice 14\ncoins Bob 14\n"
    "Alice coup Bob\nBob lose contessa\nBob coup Alice\nAlice lose captain\n"
    "Alice income\nBob coup Alice\nAlice lose duke\n"
)


@pytest.fixture(autouse=True)
def _close_figures() -> object:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _whole(values: list[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def test_the_extra_has_one_name_that_pyproject_declares_and_the_readme_and_the_refusal_use() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"{project['name']}[plot]" == PLOT_EXTRA and "plot" in project["optional-dependencies"]
    readme = (ROOT / "README.md").read_text()
    assert f"pip install '{PLOT_EXTRA}'" in readme and "'.[plot]'" not in readme


def test_without_matplotlib_every_plot_is_refused_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    coup = coup_analysis.analyze(RICH, endgame=False)
    spicy = spicy_analysis.analyze((EXAMPLES / "three-players.spicy").read_text())
    treasure = treasure_replay((EXAMPLES / "two-players.tresor").read_text())
    for draw, result in ((coup_analysis.plot, coup), (spicy_analysis.plot, spicy), (picture.plot, treasure)):
        with pytest.raises(GameError, match=rf"pip install '{PLOT_EXTRA.replace('[', '.').replace(']', '.')}'"):
            draw(result, str(tmp_path / "x.png"))  # type: ignore[operator]
    assert not list(tmp_path.iterdir())


def test_the_coup_timeline_starts_at_the_set_up_with_its_corrected_coins() -> None:
    a = coup_analysis.analyze(RICH, endgame=False)
    first = a.timeline[0]
    assert (first.line, first.turn, first.coins, first.influence) == (7, 0, (14, 14), (2, 2))
    assert a.timeline[1].coins == (7, 14)  # after Alice's coup


def test_the_coup_plot_shares_one_axis_of_record_lines_with_whole_ticks_and_nothing_cut() -> None:
    a = coup_analysis.analyze(RICH, budget=300_000)
    figure = coup_analysis.figure(a)
    coins, influence, endgame = figure.axes[:3]
    assert all(ax.get_shared_x_axes().joined(coins, ax) for ax in (influence, endgame))
    assert endgame.get_xlabel() == "record line" and not coins.get_xlabel() and not influence.get_xlabel()
    assert coins.get_lines()[0].get_xdata()[0] == 7  # from the set-up, at the first action's line
    assert max(coins.get_lines()[0].get_ydata()) == 14
    for ax in (coins, influence):
        assert _whole(list(ax.get_xticks())) and _whole(list(ax.get_yticks()))
    assert cut_or_overlapping_texts(figure) == []


@pytest.mark.parametrize("name", ["five-players-inquisitor.coup", "three-players.coup"])
def test_coup_plots_of_the_examples_cut_nothing(name: str) -> None:
    figure = coup_analysis.figure(coup_analysis.analyze((EXAMPLES / name).read_text(), endgame=False))
    assert cut_or_overlapping_texts(figure) == []
    assert all(_whole(list(ax.get_xticks())) for ax in figure.axes)


def test_the_spicy_plot_has_whole_ticks_and_cuts_nothing() -> None:
    figure = spicy_analysis.figure(spicy_analysis.analyze((EXAMPLES / "three-players.spicy").read_text()))
    [axes] = figure.axes
    assert _whole(list(axes.get_xticks())) and _whole(list(axes.get_yticks()))
    assert cut_or_overlapping_texts(figure) == []


SMALL_TREASURE = (
    "game tresor\nplayers Ana Ben\nme Ana\n"
    "hand 1cn 1en 1ev 1ev 1rv 1rb 1rb 2cn 2cv 2cv 2cb 2en 2ev 2eb 2rb 2rb 3cn 3cn 3cv 3cv 3en 3en 3ev 3rn 3rb 3rb\n"
    "start 2eb\n"
)


@pytest.mark.parametrize("record", ["small", "two-players.tresor", "five-players.tresor"])
def test_treasure_plots_cut_no_title_at_any_size(record: str) -> None:
    text = SMALL_TREASURE if record == "small" else (EXAMPLES / record).read_text()
    figure = picture.figure(treasure_replay(text))
    assert cut_or_overlapping_texts(figure) == []


def test_coup_analyze_plot_through_the_command_writes_a_png(tmp_path: Path) -> None:
    from companion.coup.cli import main

    record, out = tmp_path / "rich.coup", tmp_path / "rich.png"
    record.write_text(RICH)
    assert main(["analyze", str(record), "--plot", str(out), "--budget", "300000"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"

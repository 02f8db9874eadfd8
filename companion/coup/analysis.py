"""`coup analyze FILE`: a record replayed and annotated move by move (outputs.md, "Post-game
analysis"), as a chess engine annotates a game: every claim with the exact chance, from the
record's seat (or a spectator), that it was true; every challenge with its chance of success;
per player what became of their claims; and once two players are left, the open-hand value
before and after each move, marking the moves that lost value and naming the better one.

>>> a = analyze("players Alice Bob Carol\\nme Carol\\nhand duke duke\\ncoins Bob 7\\nAlice income\\n"
...             "Bob coup Alice\\nAlice lose duke\\nCarol income\\nAlice tax\\n", endgame=False)
>>> [(c.player, c.character.name_en, str(c.probability), c.level) for c in a.claims]
[('Alice', 'duke', '0', 'impossible')]
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.coup import Character, GameError, Kind, Move, State
from solver.coup.limits import TABLE_BUDGET
from solver.coup.puzzle import Hypothesis
from solver.coup.state import WINDOWS
from solver.errors import TooLarge

from ..figures import probability, value
from ..plots import integer_ticks, pyplot, save
from ..records import replay
from .advice import THRESHOLD
from .endgame import common_moves, open_hypotheses, weigh
from .language import ACTION_KINDS, Line, Verb, move_of, parse_line
from .ledger import ChallengeNote, Claim
from .tracker import Table

DOUBTFUL, BLUNDER = Fraction(0), Fraction(1, 2)
"""A move is marked ``?`` if it lost value, ``??`` if it lost 1/2 or more."""


@dataclass(frozen=True)
class Snapshot:
    """The table at a turn's start (and at the end): coins and face-down cards per player."""

    line: int
    turn: int
    coins: tuple[int, ...]
    influence: tuple[int, ...]


@dataclass(frozen=True)
class EndgameNote:
    """One move of the 2-player endgame: open-hand values from the mover's side."""

    line: int
    player: str
    move: str
    value_before: Fraction
    value_after: Fraction
    best: str

    @property
    def mark(self) -> str | None:
        drop = self.value_before - self.value_after
        return "??" if drop >= BLUNDER else "?" if drop > DOUBTFUL else None


@dataclass(frozen=True)
class Analysis:
    """Everything `coup analyze` prints."""

    table: Table
    claims: tuple[Claim, ...]
    challenges: tuple[ChallengeNote, ...]
    double_risk: dict[int, Fraction]  # challenge line -> chance the challenger loses both cards
    timeline: list[Snapshot]
    endgame: list[EndgameNote]
    skipped: list[tuple[int, str]] = field(default_factory=list)  # endgame lines not solved, why
    hidden: list[EndgameNote] = field(default_factory=list)  # hidden-card values (--hidden K)
    turns: int | None = None  # K of the hidden-card values

    def players(self) -> dict[str, dict[str, int]]:
        """Per player: claims = proved + caught + unchallenged + open (a claim whose window is
        still open at the end of the record), and bluffs known (claims caught or impossible when
        made)."""
        out = {
            name: {"claims": 0, "proved": 0, "caught": 0, "unchallenged": 0, "open": 0, "bluffs_known": 0}
            for name in self.table.names
        }
        for c in self.claims:
            row = out[c.player]
            row["claims"] += 1
            row[c.outcome or "open"] += 1
            if c.outcome == "caught" or c.probability == 0:
                row["bluffs_known"] += 1
        return out


def analyze(
    record: str,
    endgame: bool = True,
    budget: int = TABLE_BUDGET,
    tick: Callable[[], None] = lambda: None,
    path: str = "<record>",
    hidden: int | None = None,
) -> Analysis:
    """Replay ``record`` (its text) and annotate it. Raises RecordError (``FILE:LINE: reason``)
    on a bad line; ``endgame=False`` leaves the solver out; ``hidden=K`` adds the hidden-card
    values of K turns; ``tick()`` after each line."""
    timeline: list[Snapshot] = []
    notes: list[EndgameNote] = []
    skipped: list[tuple[int, str]] = []
    hidden_notes: list[EndgameNote] = []

    def each(before: Table, table: Table, number: int, text: str) -> None:
        line = parse_line(text, before.names)
        tick()
        if line is None:
            return
        if endgame and line.verb in _ENDGAME_VERBS:
            try:
                started = before if before.state is not None else before.start()  # the first move
                if _two_left(started):
                    notes.append(_endgame_note(started, line, number, budget))
            except GameError as error:
                skipped.append((number, str(error)))
        if hidden is not None and line.verb in _HIDDEN_VERBS:
            try:
                started = before if before.state is not None else before.start()
                if _two_left(started):
                    note = _hidden_note(started, line, number, hidden)
                    if note is not None:
                        hidden_notes.append(note)
            except GameError as error:
                skipped.append((number, f"hidden cards: {error}"))
        if line.verb in ACTION_KINDS:  # the first one: the set-up as typed (coins corrected)
            start = _turn_start(before if before.state is not None else before.start(), number) or table.state
            if start is not None:
                timeline.append(_state_snapshot(start, number, len(timeline)))

    table = replay(record.splitlines(), Table.new(), path, each=each)
    if table.state is not None:
        timeline.append(_state_snapshot(table.state, len(record.splitlines()), len(timeline)))
    return Analysis(
        table, table.claims, table.challenges, _double_risks(table), timeline, notes, skipped, hidden_notes, hidden
    )


_ENDGAME_VERBS = {*ACTION_KINDS, Verb.BLOCK, Verb.CHALLENGE, Verb.LOSE}
_HIDDEN_VERBS = {*_ENDGAME_VERBS, Verb.PASS}


def _hidden_note(before: Table, line: Line, number: int, turns: int) -> EndgameNote | None:
    from .hidden_analysis import hidden_values

    found = hidden_values(before, line, turns)
    if found is None:
        return None
    player, value_before, value_after, best = found
    return EndgameNote(number, player, line.canonical(), value_before, value_after, best)


def _two_left(table: Table) -> bool:
    state = table.state
    return state is not None and not state.is_terminal() and len(state.living()) == 2


def _turn_start(before: Table, number: int) -> State | None:
    """The state at the start of the turn that line ``number`` (an action) begins: the open
    windows of the previous turn closed, as the line closes them."""
    table = before
    if table.state is not None and table.state.turn.phase in WINDOWS:
        with contextlib.suppress(GameError):
            table = table.close_window(number)
    return table.state


def _state_snapshot(s: State, number: int, turn: int) -> Snapshot:
    return Snapshot(number, turn, s.coins, tuple(len(h) for h in s.hidden))


def _double_risks(table: Table) -> dict[int, Fraction]:
    """For each challenge of an assassination by its target while holding two cards: the
    chance the assassin was real, so that the failed challenge costs one card and the
    assassination (unless blocked) the other."""
    out: dict[int, Fraction] = {}
    for number, line in table.lines:
        if line.verb is not Verb.CHALLENGE:
            continue
        note = next((c for c in table.challenges if c.line == number), None)
        if note is None or note.character is not Character.ASSASSIN:
            continue
        target = _assassination_target(table, number)
        if target is not None and target == note.challenger and _cards_before(table, number, target) == 2:
            out[number] = 1 - note.success_probability
    return out


def _assassination_target(table: Table, number: int) -> str | None:
    """The target of the last assassination announced before line ``number``."""
    found = None
    for n, line in table.lines:
        if n >= number:
            break
        if line.verb is Verb.ASSASSINATE:
            found = line.target
    return found


def _cards_before(table: Table, number: int, name: str) -> int:
    """Face-down cards ``name`` had before line ``number`` (2 less the cards lost before)."""
    return 2 - sum(1 for n, line in table.lines if n < number and line.verb is Verb.LOSE and line.player == name)


def lucky(note: ChallengeNote) -> bool:
    """A challenge that succeeded though it was unlikely to (below the flag threshold)."""
    return bool(note.succeeded) and note.success_probability < THRESHOLD


# -- the endgame ---------------------------------------------------------------------------


def _before_move(state: State, move: Move) -> State:
    """``state`` with the open windows passed until the mover may make a move of ``move``'s
    kind (the line's implicit passes; the cards are checked on each hypothesis). Raises
    GameError if that never happens."""
    for _ in range(8):
        if any(m.kind is move.kind and m.player == move.player for m in state.legal_moves()):
            return state
        if state.turn.phase not in WINDOWS:
            break
        state = state.apply(Move(Kind.PASS, state.turn.decider))
    raise GameError("the move could not be placed in the open-hand game")


def _endgame_note(before: Table, line: Line, number: int, budget: int) -> EndgameNote:
    """Open-hand values around the line's move, weighted over the seat's hypotheses."""
    assert before.state is not None and before.view is not None
    if before.waiting is not None and line.verb is not Verb.LOSE:
        raise GameError(f"the table waits for {before.waiting}")
    move = move_of(line, before.names)
    view = _before_move(before.view, move)
    found = [h for h in open_hypotheses(before, view) if move in h.state.legal_moves()]
    if not found:
        raise GameError("the move is not possible in any hypothesis")
    total = sum((h.probability for h in found), Fraction(0))  # the move shows a card: condition on it
    found = [Hypothesis(h.state, h.probability / total) for h in found]
    options = common_moves(found)
    try:
        before_move, *after = weigh(found, [None, *options], move.player, budget)
    except TooLarge as error:
        raise TooLarge(f"beyond the solver's budget: {error}") from error
    by_move = dict(zip(options, after, strict=True))
    best = max(options, key=lambda m: by_move[m])  # ties: the engine's order
    return EndgameNote(
        line=number,
        player=before.names[move.player],
        move=line.canonical(),
        value_before=before_move,
        value_after=by_move[move],
        best=best.text(before.names),
    )


# -- output ----------------------------------------------------------------------------------


def analysis_json(a: Analysis) -> dict[str, Any]:
    """outputs.md's object, plus ``bluffs_known`` per player, the double-loss risks, and the
    timeline of coins and influence."""
    players = a.players()
    return {
        "claims": [
            {
                "line": c.line,
                "player": c.player,
                "claim": c.character.name_en,
                "probability": str(c.probability),
                "level": c.level if c.flagged else None,
            }
            for c in a.claims
        ],
        "challenges": [
            {
                "line": n.line,
                "challenger": n.challenger,
                "claimant": n.claimant,
                "success_probability": str(n.success_probability),
                "succeeded": n.succeeded,
                "lucky": lucky(n),
                **({"risk_of_losing_both": str(a.double_risk[n.line])} if n.line in a.double_risk else {}),
            }
            for n in a.challenges
        ],
        "players": players,
        "endgame": [_note_json(e) for e in a.endgame],
        **({"hidden": _hidden_json(a)} if a.turns is not None else {}),
        "timeline": [
            {"line": s.line, "turn": s.turn, "coins": list(s.coins), "influence": list(s.influence)} for s in a.timeline
        ],
    }


def _hidden_json(a: Analysis) -> dict[str, Any]:
    return {
        "turns": a.turns,
        "decisions": [_note_json(e, player=True) for e in a.hidden],
    }


def _note_json(e: EndgameNote, *, player: bool = False) -> dict[str, Any]:
    """A note's JSON object: the values as exact fractions, the better move only where the
    note is marked; ``player`` names the mover too (the hidden-card decisions)."""
    return {
        "line": e.line,
        **({"player": e.player} if player else {}),
        "move": e.move,
        "value_before": str(e.value_before),
        "value_after": str(e.value_after),
        "mark": e.mark,
        "better": e.best if e.mark else None,
    }


def analysis_text(a: Analysis) -> str:
    """The annotated game for a person."""
    rows = ["claims (chance the claimant held the character, from the record's seat):"]
    for c in a.claims:
        flag = f"  {c.level.upper()}" if c.flagged and c.level else ""
        chance = probability(c.probability, marks=[a.table.threshold])
        rows.append(f"  line {c.line:>3}  {c.player} {c.character.name_en}: {chance}{flag}")
    rows.append("challenges (chance of success just before):")
    for n in a.challenges:
        result = "succeeded" if n.succeeded else "failed" if n.succeeded is False else "open"
        luck = "  (lucky)" if lucky(n) else ""
        risk = f"; risked both cards with {probability(a.double_risk[n.line])}" if n.line in a.double_risk else ""
        chance = probability(n.success_probability, marks=[THRESHOLD] if n.succeeded else [])
        what = f"{n.challenger} on {n.claimant}'s {n.character.name_en}"
        rows.append(f"  line {n.line:>3}  {what}: {chance}, {result}{luck}{risk}")
    rows.append("players: claims = proved + caught + unchallenged + open; bluffs known")
    for name, row in a.players().items():
        rows.append(
            f"  {name:<10} {row['claims']:>3} = {row['proved']} + {row['caught']} + {row['unchallenged']} "
            f"+ {row['open']}; {row['bluffs_known']} known"
        )
    if a.endgame:
        rows.append("endgame: the mover's P(win) - P(loss) before -> after each move, with best play and every")
        rows.append("card known, averaged over what the record's seat cannot see:")
        for e in a.endgame:
            values = f"{value(e.value_before)} -> {value(e.value_after)}"
            rows.append(f"  line {e.line:>3}  {e.move}{e.mark or ''}  {values}")
            if e.mark and e.best == e.move:
                rows[-1] += "  (the best move: the drop is what not seeing the cards costs)"
            elif e.mark:
                rows[-1] += f"  better: {e.best}"
    if a.hidden:
        turns = f"{a.turns} turn{'s' if a.turns != 1 else ''}"
        rows.append(f"hidden cards ({turns} unseen; values from the mover's side, before -> after):")
        for e in a.hidden:
            mark = e.mark or ""
            better = f"  better: {e.best}" if e.mark else ""
            rows.append(
                f"  line {e.line:>3}  {e.move}{mark}  {value(e.value_before)} -> {value(e.value_after)}{better}"
            )
    for number, why in a.skipped:
        rows.append(f"  line {number:>3}  not solved: {why}")
    return "\n".join(rows)


def plot(a: Analysis, path: str) -> None:
    """Coins and influence per player from the set-up to the end, and the endgame value, on
    one axis of record lines (PNG at ``path``). Needs matplotlib (the ``plot`` extra)."""
    save(figure(a), path)


def figure(a: Analysis) -> Any:
    """The picture of :func:`plot` (a matplotlib figure). Raises GameError without matplotlib."""
    plt = pyplot()
    names = a.table.names
    lines = [s.line for s in a.timeline]
    panels = 3 if a.endgame else 2
    fig, axes = plt.subplots(panels, 1, figsize=(9, 2.6 * panels), sharex=True, layout="constrained")
    for seat, name in enumerate(names):
        axes[0].step(lines, [s.coins[seat] for s in a.timeline], where="post", label=name)
        axes[1].step(lines, [s.influence[seat] for s in a.timeline], where="post", label=name)
    axes[0].set_title("coins at the start of each turn (from the set-up)")
    axes[1].set_title("influence: face-down cards at the start of each turn")
    axes[1].set_ylim(-0.1, 2.1)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside right upper", fontsize="small")
    if a.endgame:
        first = names.index(a.endgame[0].player)
        values = [float(e.value_after if names.index(e.player) == first else -e.value_after) for e in a.endgame]
        axes[2].plot([e.line for e in a.endgame], values, marker="o")
        for e, v in zip(a.endgame, values, strict=True):
            if e.mark:
                axes[2].annotate(e.mark, (e.line, v), textcoords="offset points", xytext=(0, 6), ha="center")
        axes[2].set_ylim(-1.2, 1.2)
        axes[2].set_title(f"endgame: open-hand value for {names[first]} after each move (1 a sure win)")
    integer_ticks(axes[:2])
    integer_ticks(axes[2:], y=False)
    axes[-1].set_xlabel("record line")
    for ax in axes:
        ax.grid(alpha=0.3)
    return fig


def archive_counts(a: Analysis) -> dict[str, dict[str, int]]:
    """Per player, for a summary across an archive (``coup analyze DIR``): claims, bluffs
    caught, challenges made and won, lucky challenges, endgame blunders (``??``)."""
    out = {
        name: {
            "claims": row["claims"],
            "bluffs_caught": row["caught"],
            "challenges": 0,
            "challenges_won": 0,
            "lucky_challenges": 0,
            "endgame_blunders": 0,
        }
        for name, row in a.players().items()
    }
    for n in a.challenges:
        row = out[n.challenger]
        row["challenges"] += 1
        row["challenges_won"] += bool(n.succeeded)
        row["lucky_challenges"] += lucky(n)
    for e in a.endgame:
        out[e.player]["endgame_blunders"] += e.mark == "??"
    return out


def from_args(text: str, args: argparse.Namespace, tick: Callable[[], None], path: str) -> Analysis:
    """:func:`analyze` with the settings of the command line (``coup analyze``)."""
    hidden = getattr(args, "hidden", None)
    if hidden is not None and hidden < 0:
        raise GameError(f"--hidden {hidden}: the number of turns is 0 or more", input=str(hidden))
    return analyze(text, endgame=not args.no_endgame, budget=args.budget, tick=tick, path=path, hidden=hidden)

"""The Coup table at the prompt: its commands (``table``, ``odds``, ``solve``), its completion
and toolbar, and the session that puts them together with the game-free ones (history, undo,
redo, save, help, quit).

>>> s = session()
>>> for line in ("players Alice Bob Carol", "me Carol", "hand duke captain", "Alice tax"):
...     _ = s.handle(line)
>>> [text for _, text in s.handle("Bob assassinate Carol")]
['Bob has 2 coins; assassinate costs 3']
>>> [text for _, text in s.handle("undo")]
['undone: Alice tax']
>>> s.handle("rules")[5][1]
'assassinate     3  assassin    the target, claiming contessa            target loses an influence'
"""

from __future__ import annotations

from fractions import Fraction

from solver.coup import RULES, Blockers, Phase
from solver.coup.limits import TABLE_BUDGET
from solver.errors import GameError

from ..prompt import Front, table_front
from ..records import Journal
from ..session import Command, Message, TableSession
from .advice import THRESHOLD
from .completion import completions
from .language import resolve_name
from .report import odds_text, table_text
from .tracker import Table

HELLO = "Type what happens at the table, e.g. 'Alice tax', 'Bob challenge', 'Alice show duke'."
INTRO = "Coup table. Type what happens ('Alice tax', 'Bob challenge'); 'help' lists the commands."
CoupSession = TableSession[Table]


def _table(session: CoupSession, args: list[str]) -> list[Message]:
    return [("", table_text(session.table))]


def _odds(session: CoupSession, args: list[str]) -> list[Message]:
    table = session.table
    if not table.names:
        raise GameError("no players yet")
    seats = (
        [table.seat(resolve_name(args[0], table.names))]
        if args
        else [i for i in range(len(table.names)) if i != table.me]
    )
    why = "--why" in args[1:]
    state = table.view
    out: list[Message] = []
    for seat in seats:
        if seat == table.me:
            out.append(("", f"{table.names[seat]}: your cards: {' '.join(c.name_en for c in table.my_cards())}"))
        elif state is not None and not state.alive(seat):
            out.append(("", f"{table.names[seat]} is out of the game"))
        else:
            out.append(("", odds_text(table, seat, why)))
    return out


def _solve(session: CoupSession, args: list[str]) -> list[Message]:
    from ..progress import progress
    from .endgame import hypotheses, solve_decision, solve_table, solve_text

    table, budget = session.table, int(session.settings.get("budget", TABLE_BUDGET))
    if args and args[0] == "--hidden":
        return _solve_hidden(table, args[1:])
    if args:
        raise GameError("solve takes no words but --hidden [K]", input=" ".join(args))
    state = table.view
    if state is not None and state.turn.phase is not Phase.ACTION and not state.is_terminal():
        return [("", solve_decision(table, budget).text())]
    found = hypotheses(table)
    with progress("solving", total=len(found)) as tick:
        return [("", solve_text(solve_table(table, budget, tick, found)))]


def _solve_hidden(table: Table, args: list[str]) -> list[Message]:
    """`solve --hidden [K]`: the hidden-card value from the table's current point (default K = 1)."""
    from ..progress import progress
    from .hidden_advice import check_turns, for_table, hidden_text

    if len(args) > 1 or (args and not args[0].isdigit()):
        raise GameError("solve --hidden takes one number of turns, e.g. 'solve --hidden 2'", input=" ".join(args))
    turns = check_turns(int(args[0]) if args else 1)
    try:
        with progress("solving the hidden-card game") as tick:
            return [("", hidden_text(for_table(table, turns, tick=tick)))]
    except KeyboardInterrupt:  # Ctrl-C cancels the command, never the table
        return [("", "cancelled")]


def _rules(session: CoupSession, args: list[str]) -> list[Message]:
    """The action table of the variant in play, from the engine's rules."""
    variant = session.table.variant
    rows: list[Message] = [("", f"{'action':<12} {'cost':>4}  {'claims':<11} {'who may block':<40} effect")]
    for rule in RULES[variant].values():
        claim = rule.claim.name_en if rule.claim is not None else "-"
        with_ = " or ".join(c.name_en for c in rule.block_with)
        blockers = {Blockers.NOBODY: "-", Blockers.ANYONE: f"anyone, claiming {with_}"}.get(
            rule.blockers, f"the target, claiming {with_}"
        )
        rows.append(("", f"{rule.action!s:<12} {rule.cost:>4}  {claim:<11} {blockers:<40} {rule.effect}"))
    return rows


COMMANDS: tuple[Command[Table], ...] = (
    Command("table", "table", "coins, cards and odds of every player", _table),
    Command("odds", "odds [player] [--why]", "exact odds of each other player's cards", _odds, arguments=True),
    Command(
        "solve",
        "solve [--hidden [K]]",
        "exact best play once two players are left (--hidden: over K turns of unseen cards)",
        _solve,
        arguments=True,
    ),
    Command("rules", "rules", "the action table: costs, claims, blocks, effects", _rules),
)


def session(
    journal: Journal | None = None,
    threshold: Fraction = THRESHOLD,
    budget: int = TABLE_BUDGET,
    draft_model: str = "uniform",
) -> CoupSession:
    """A Coup table session (replaying the journal, if it has lines). Raises GameError."""
    return TableSession(Table.new(threshold, draft_model), COMMANDS, journal, budget=budget, hello=HELLO, intro=INTRO)


def toolbar(session: CoupSession) -> str:
    """Whose turn it is, everybody's coins, and what the table waits for."""
    table = session.table
    if not table.names:
        return " start with: players Alice Bob Carol   (help for commands)"
    state, parts = table.view, []
    if table.turn is not None:
        parts.append(f" turn: {table.turn}")
    if state is not None:
        parts.append(
            "  ".join(
                f"{name} {coins}" + ("" if state.alive(i) else " (out)")
                for i, (name, coins) in enumerate(zip(table.names, state.coins, strict=True))
            )
        )
    if table.waiting is not None:
        parts.append(f"waiting for {table.waiting}")
    elif table.open_window is not None:
        parts.append(f"{table.open_window} window open")
    return " | ".join(parts)


def front(session: CoupSession, history: bool = True) -> Front:
    """How the coup table looks at the prompt."""
    return table_front(session, "coup", completions, toolbar, history)

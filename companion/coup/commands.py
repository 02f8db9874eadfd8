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
'assassinate     3  assassin    the target, claiming contessa               target loses an influence'
"""

from __future__ import annotations

from fractions import Fraction

from solver.coup import RULES, Blockers, Draft, Phase, State
from solver.coup.limits import TABLE_BUDGET
from solver.errors import GameError

from ..figures import columns, value
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
        if state is not None and not state.alive(seat):
            out.append(("", f"{table.names[seat]} is out of the game"))
        elif seat == table.me:
            out.append(("", f"{table.names[seat]}: your cards: {' '.join(c.name_en for c in table.my_cards())}"))
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
    mid_turn = state is not None and state.turn.phase is not Phase.ACTION and not state.is_terminal()
    _generate_tables(table, mid_turn, budget)
    if state is not None and mid_turn:
        return [("", solve_decision(table, budget).text(_seat(table, state)))]
    found = hypotheses(table)
    seat = _seat(table, found[0].state)
    with progress("solving", total=len(found)) as tick:
        return [("", solve_text(solve_table(table, budget, tick, found), seat=seat, note=_after_draft(table)))]


def _seat(table: Table, state: State) -> str | None:
    """The seat's name if it is one of the players left, else None (a spectator's table)."""
    return table.names[table.me] if table.me is not None and state.alive(table.me) else None


def _after_draft(table: Table) -> str:
    """Before the first action of a drafted game: how this figure and the draft's value of the
    seat's pick (said at the pick) differ."""
    setup = table.setup
    if not setup.draft_game or table.started or setup.me is None or setup.pick is None:
        return ""
    from .draft_advice import advice_for

    dealt = setup.dealt if setup.draft is Draft.DEALT_FIRST else None
    try:
        picks = advice_for(setup.variant, setup.draft).advice(setup.me, dealt)["picks"]
    except GameError:
        return ""
    worth, other = value(Fraction(picks[setup.pick.name_en])), setup.names[1 - setup.me]
    if table.draft_model == "equilibrium":
        return f"  (as the draft's value of your pick, {worth}: {other}'s pick weighed by the draft's equilibrium)"
    return (
        f"  (the draft's value of your pick, {worth}, weighs {other}'s pick by the draft's equilibrium; this figure\n"
        f"  weighs every pick alike: coup table --draft-model equilibrium weighs it as the draft does)"
    )


def _generate_tables(table: Table, mid_turn: bool, budget: int) -> None:
    """Generate the endgame tables the position needs that are not there yet (those of 7-8
    player games are not shipped), with a progress bar; `solve` then finds them."""
    from solver.coup.tablebase import family_of
    from solver.coup.tablebase.probe import library_for

    from ..progress import progress
    from .endgame import hypotheses

    try:
        library = library_for(budget)
        missing = library.missing({family_of(h.state.heads_up()) for h in hypotheses(table, mid_turn)})
    except GameError:
        return  # `solve` says why
    if missing:
        with progress("generating endgame tables", total=len(missing)) as tick:
            library.fill(missing, tick)


def _solve_hidden(table: Table, args: list[str]) -> list[Message]:
    """`solve --hidden [K]`: the hidden-card value from the table's current point (default K = 1)."""
    from ..progress import progress
    from .hidden_advice import check_turns, for_table, hidden_text

    if len(args) > 1 or (args and not args[0].isdigit()):
        raise GameError("solve --hidden takes one number of turns, e.g. 'solve --hidden 2'", input=" ".join(args))
    turns = check_turns(int(args[0]) if args else 1)
    with progress("solving the hidden-card game") as tick:  # Ctrl-C: the prompt's guard cancels it
        return [("", hidden_text(for_table(table, turns, tick=tick)))]


def _rules(session: CoupSession, args: list[str]) -> list[Message]:
    """The action table of the variant in play, from the engine's rules."""
    variant = session.table.variant
    rows = [["action", "cost", "claims", "who may block", "effect"]]
    for rule in RULES[variant].values():
        claim = rule.claim.name_en if rule.claim is not None else "-"
        with_ = " or ".join(c.name_en for c in rule.block_with)
        blockers = {Blockers.NOBODY: "-", Blockers.ANYONE: f"anyone, claiming {with_}"}.get(
            rule.blockers, f"the target, claiming {with_}"
        )
        rows.append([str(rule.action), str(rule.cost), claim, blockers, rule.effect])
    return [("", row) for row in columns(rows, "<>")]


COMMANDS: tuple[Command[CoupSession], ...] = (
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

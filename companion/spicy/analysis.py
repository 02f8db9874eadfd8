"""``spicy analyze FILE``: a record replayed and annotated, as a chess engine annotates a game:
every claim with its exact odds (both models) and flag as the record's seat saw them when it was
typed, every challenge with its chance and outcome, per player what became of their claims and
challenges, and the score after every line (``--plot``).

>>> a = analyze("game spicy\\nplayers Ana Ben\\nme Ana\\nhand chili-1 chili-2 chili-3 wasabi-1 wasabi-2 wasabi-3\\n"
...             "Ana play chili-1 as chili 1\\nBen play chili 2\\nAna challenge number\\nreveal wild-spice\\n")
>>> [(c.player, str(c.claim), a.outcome(c)) for c in a.claims]
[('Ana', 'chili 1', 'unchallenged'), ('Ben', 'chili 2', 'caught')]
>>> a.players()["Ana"]["challenges_won"], a.scores[-1]
(1, (8, (-3, -7)))
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.spicy import DECK, Deck, true_on_both
from solver.spicy.odds import UNLIKELY_BELOW

from ..figures import counted, probability
from ..plots import integer_ticks, pyplot, save
from ..records import replay
from .ledger import ChallengeNote, ClaimNote
from .report import chances_json
from .tracker import Table


@dataclass(frozen=True)
class Analysis:
    """Everything ``spicy analyze`` prints: the final table, its claims and challenges, and the
    scores after each line (record line, one score per seat)."""

    table: Table
    scores: tuple[tuple[int, tuple[int, ...]], ...]

    @property
    def claims(self) -> tuple[ClaimNote, ...]:
        return self.table.ledger.claims

    @property
    def challenges(self) -> tuple[ChallengeNote, ...]:
        return self.table.ledger.challenges

    def challenge_of(self, claim: ClaimNote) -> ChallengeNote | None:
        """The challenge of ``claim``, if it was challenged."""
        return next((c for c in self.challenges if c.claim_line == claim.line), None)

    def outcome(self, claim: ClaimNote) -> str:
        """``caught`` (challenged, the trait false), ``proved``, ``pending`` (its reveal not typed
        yet), ``taken-back`` or ``unchallenged``."""
        if claim.taken_back:
            return "taken-back"
        challenge = self.challenge_of(claim)
        if challenge is None:
            return "unchallenged"
        if challenge.succeeded is None:
            return "pending"
        return "caught" if challenge.succeeded else "proved"

    def players(self) -> dict[str, dict[str, int]]:
        """Per player: claims, how they ended (caught bluffs, proved, unchallenged, taken back),
        those flagged, challenges made and won, trophies and the final score."""
        keys = ("claims", "caught", "proved", "unchallenged", "taken-back", "pending", "flagged")
        out = {name: dict.fromkeys((*keys, "challenges", "challenges_won"), 0) for name in self.table.names}
        for claim in self.claims:
            row = out[claim.player]
            row["claims"] += 1
            row[self.outcome(claim)] += 1
            row["flagged"] += claim.flag is not None
        for challenge in self.challenges:
            row = out[challenge.challenger]
            row["challenges"] += 1
            row["challenges_won"] += bool(challenge.succeeded)
        s = self.table.state
        if s is not None:
            for seat, name in enumerate(self.table.names):
                out[name]["trophies"] = s.trophies[seat]
                out[name]["score"] = s.scores()[seat]
        return out


def analyze(
    record: str,
    deck: Deck = DECK,
    threshold: Fraction = UNLIKELY_BELOW,
    tick: Callable[[], None] = lambda: None,
    path: str = "<record>",
) -> Analysis:
    """Replay ``record`` (its text) and annotate it; ``tick()`` after each line. Raises
    RecordError (``FILE:LINE: reason``) on a bad line."""
    scores: list[tuple[int, tuple[int, ...]]] = []

    def each(before: Table, after: Table, number: int, text: str) -> None:
        tick()
        if after is not before and after.state is not None:
            scores.append((number, after.state.scores()))

    table = replay(record.splitlines(), Table.new(deck, threshold), path, each=each)
    return Analysis(table, tuple(scores))


def _claim_json(analysis: Analysis, claim: ClaimNote) -> dict[str, Any]:
    odds, flag = claim.odds, claim.flag
    if claim.card is not None:  # the seat's own: its truth is known
        probability = Fraction(true_on_both(claim.card, claim.claim))
    else:
        probability = flag.probability if flag is not None else odds.honest.both if odds is not None else Fraction(0)
    return {
        "line": claim.line,
        "player": claim.player,
        "claim": claim.claim.text(),
        "last": claim.last,
        "card": claim.card.text() if claim.card is not None else None,
        "honest": chances_json(odds.honest) if odds is not None else None,
        "random": chances_json(odds.random) if odds is not None else None,
        "probability": str(probability),
        "level": str(flag.level) if flag is not None else None,
        "outcome": analysis.outcome(claim),
    }


def _challenge_json(challenge: ChallengeNote) -> dict[str, Any]:
    return {
        "line": challenge.line,
        "challenger": challenge.challenger,
        "claimant": challenge.claimant,
        "claim": challenge.claim.text(),
        "claim_line": challenge.claim_line,
        "trait": str(challenge.trait),
        "false_probability": str(challenge.chance),
        "pile": challenge.pile,
        "last": challenge.last,
        "card": challenge.card.text() if challenge.card is not None else None,
        "succeeded": challenge.succeeded,
    }


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON: ``claims``, ``challenges``, ``players``, ``scores``, ``winner``."""
    table = analysis.table
    winners = table.winners()
    return {
        "game": "spicy",
        "me": table.names[table.me] if table.me is not None else None,
        "winner": (winners[0] if len(winners) == 1 else list(winners)) if winners else None,
        "claims": [_claim_json(analysis, c) for c in analysis.claims],
        "challenges": [_challenge_json(c) for c in analysis.challenges],
        "players": analysis.players(),
        "scores": [{"line": line, "scores": dict(zip(table.names, s, strict=True))} for line, s in analysis.scores],
    }


def analysis_text(analysis: Analysis) -> str:
    """The analysis for a person: one line per claim and per challenge, then per player."""
    rows = ["claims (true on both: if honest when able | any card):"]
    for claim in analysis.claims:
        data = _claim_json(analysis, claim)
        if claim.card is not None:
            odds = f"your {claim.card}: {'true' if data['probability'] == '1' else 'a bluff'}"
        elif claim.odds is not None:
            honest = probability(claim.odds.honest.both, marks=[analysis.table.threshold])
            odds = f"{honest} | {probability(claim.odds.random.both)}"
        else:
            odds = "not priced"
        flag = f"  [{claim.flag.level}]" if claim.flag is not None else ""
        rows.append(f"  {claim.line:>4} {claim.player:<8} {claim.claim.text():<10} {odds}{flag}  {data['outcome']}")
    if analysis.challenges:
        rows.append("challenges (chance the trait was false, as seen just before):")
    for c in analysis.challenges:
        chance = probability(c.chance) if c.chance is not None else "?"
        result = "pending" if c.succeeded is None else f"{c.card}: {'right' if c.succeeded else 'wrong'}"
        what = f"on {c.claimant}'s {c.claim} ({c.trait}, {counted(c.pile, 'card')})"
        rows.append(f"  {c.line:>4} {c.challenger:<8} {what}: {chance}; {result}")
    rows.append("players:")
    for name, row in analysis.players().items():
        rows.append(
            f"  {name:<8} {counted(row['claims'], 'claim')}: {row['caught']} caught, {row['proved']} proved, "
            f"{row['unchallenged']} unchallenged, {row['flagged']} flagged; {counted(row['challenges'], 'challenge')}, "
            f"{row['challenges_won']} won; {counted(row.get('trophies', 0), 'trophy', 'trophies')}, "
            f"score {row.get('score', 0)}"
        )
    winners = analysis.table.winners()
    if winners:
        rows.append(f"winner: {' and '.join(winners)}")
    return "\n".join(rows)


def plot(analysis: Analysis, path: str) -> None:
    """Draw every player's score after each line, the challenges marked, into ``path`` (PNG)."""
    save(figure(analysis), path)


def figure(analysis: Analysis) -> Any:
    """The picture of :func:`plot` (a matplotlib figure). Raises GameError without matplotlib."""
    plt = pyplot()
    fig, axes = plt.subplots(figsize=(9, 4.5), layout="constrained")
    lines = [line for line, _ in analysis.scores]
    for seat, name in enumerate(analysis.table.names):
        axes.step(lines, [s[seat] for _, s in analysis.scores], where="post", label=name)
    for challenge in analysis.challenges:
        axes.axvline(challenge.line, color="0.85", linewidth=0.8, zorder=0)
    axes.set_title("score after each line: won cards + 10 per trophy - cards in hand")
    axes.set_xlabel("record line (grey: a challenge)")
    axes.set_ylabel("score")
    fig.legend(loc="outside right upper", fontsize="small")
    axes.grid(alpha=0.3)
    integer_ticks([axes])
    return fig


def archive_counts(analysis: Analysis) -> dict[str, dict[str, int]]:
    """Per player, for a summary across an archive (``spicy analyze DIR``): claims, bluffs
    caught, challenges made and won, and lucky challenges (won though the trait was unlikely
    to be false: below the flag threshold)."""
    out = {
        name: {
            "claims": row["claims"],
            "bluffs_caught": row["caught"],
            "challenges": row["challenges"],
            "challenges_won": row["challenges_won"],
            "lucky_challenges": 0,
        }
        for name, row in analysis.players().items()
    }
    for c in analysis.challenges:
        if c.succeeded and c.chance is not None and c.chance < analysis.table.threshold:
            out[c.challenger]["lucky_challenges"] += 1
    return out


def from_args(text: str, args: argparse.Namespace, tick: Callable[[], None], path: str) -> Analysis:
    """:func:`analyze` with the settings of the command line (``spicy analyze``)."""
    return analyze(text, threshold=args.threshold, tick=tick, path=path)

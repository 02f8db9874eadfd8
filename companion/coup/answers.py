"""The solver's answers for people and for scripts (outputs.md, "Puzzles")."""

from __future__ import annotations

from typing import Any

from solver.coup.hidden import Answer

from .advice import percent


def solve_json(result: Answer, explain: bool = False) -> dict[str, Any]:
    """The answer exactly in the shape of outputs.md (plus ``best_value`` and, with
    ``explain``, the hypotheses)."""
    root = result.solved[0].hypothesis.state
    other = root.names[1 - root.names.index(result.to_move)]
    out: dict[str, Any] = {
        "to_move": result.to_move,
        "value": str(result.value),
        "win": {result.to_move: str(result.win), other: str(result.loss)},
        "draw": str(result.draw),
        "best": result.best.text(root.names),
        "best_value": str(result.best_value),
        "line": result.line,
        "hypotheses": result.hypotheses,
        "states": result.states,
        "seconds": round(result.seconds, 3),
    }
    if explain:
        out["explain"] = [
            {
                "probability": str(s.hypothesis.probability),
                "position": s.hypothesis.state.text(),
                "value": str(s.value),
            }
            for s in result.solved
        ]
    return out


def solve_text(result: Answer, explain: bool = False) -> str:
    """The answer for a person."""
    data = solve_json(result, explain)
    rows = [
        f"{result.to_move} to move: value {data['value']} "
        f"(wins {percent(result.win)}, loses {percent(result.loss)}, draws {percent(result.draw)})",
        f"best move: {data['best']}" + (f" (value {data['best_value']})" if result.hypotheses > 1 else ""),
        ("line (the most likely hypothesis): " if result.hypotheses > 1 else "line: ") + ", ".join(data["line"]),
        f"{result.states:,} positions solved exactly in {result.seconds:.2f} s"
        + (f" over {result.hypotheses} hypotheses" if result.hypotheses > 1 else ""),
    ]
    if explain:
        for h in data["explain"]:
            rows.append(f"  p = {h['probability']:<8} value {h['value']:<8} {h['position']}")
    return "\n".join(rows)

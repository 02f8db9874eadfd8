"""How much the exact solver builds before refusing: settings, in a module light enough for
the command line and the table prompt to read without loading the solver.

>>> TABLE_BUDGET < DEFAULT_BUDGET
True
"""

DEFAULT_BUDGET = 8_000_000
"""Positions the solver builds before refusing (`coup solve --budget`)."""

TABLE_BUDGET = 1_000_000
"""Positions per hypothesis (or per graph) that `solve` at the table, `coup analyze` and the
bots build before refusing (`coup table --budget`): a 1-against-1 endgame fits (some 150,000
positions, about a second each)."""

HIDDEN_BUDGET = 5_000_000
"""Histories the hidden-card game of K turns builds before refusing (`coup solve --hidden`,
`solve --hidden` at the table, `coup analyze --hidden`): every 1-against-1 endgame fits up to
K = 3 (some 4.3 million histories with a full court, about a minute and 1.4 GB)."""

HIDDEN_ANALYSIS_BUDGET = 500_000
"""Histories per decision for `coup analyze --hidden` (each decision is a game of its own)."""

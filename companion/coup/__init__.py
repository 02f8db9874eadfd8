"""Coup and Complots at the table: the table language, the tracker and what the seat knows,
advice, the endgame, the analysis of a record, bots, puzzles and draft advice; the ``coup``
command.

>>> from companion.coup.tracker import replay
>>> replay("players Alice Bob Carol\\nme Carol\\nhand duke captain\\nAlice tax\\n").open_window
'challenge'
"""

"""The Spicy table companion: the table language, the tracked table (exact counts and odds of
every claim from one seat's point of view), advice, records, bots and the analysis of a game.

>>> from companion.spicy.tracker import replay
>>> replay("game spicy\\nplayers Ana Ben Cleo\\nAna pass\\n").turn
'Ben'
"""

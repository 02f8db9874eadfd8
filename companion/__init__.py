"""The table companion: everything a person touches. Game-free parts live here (records and
the journal with the one replay loop, the prompt session and its commands, the one prompt
loop, progress bars, the command line, the registry of games); each game is one folder
(:mod:`companion.coup`). It drives :mod:`solver`; :mod:`solver` never imports it.

>>> from companion.records import header
>>> header("game spicy\\nplayers Ana Ben\\n")
'spicy'
"""

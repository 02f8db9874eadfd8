"""The table companion: everything a person at a table touches (the prompt, records, counting,
analysis, the ``coup`` command). It drives :mod:`solver`; :mod:`solver` never imports it."""

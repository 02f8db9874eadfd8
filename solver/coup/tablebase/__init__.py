"""Endgame tablebases for 2-player Coup (see :mod:`.index`, :mod:`.generate`, :mod:`.store`, :mod:`.probe`)."""

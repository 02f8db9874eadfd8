"""Conquêtes et chasse au trésor at the table: the table language in both languages, the tracked
table (every hand size, the domain with its owners, the public VP, the bids), the exact treasure
odds and bid values from the tracked seat, the picture of the domain, the prompt and its
commands, bots that play from their own seat, and the ``tresor`` command.

>>> from companion.treasure.tracker import Table
>>> t = Table.new().apply_text("players Ana Ben").apply_text("me Ana")
>>> t.status()
'2 lines so far; waiting for the set-up: hand CARDS, start CARD'
"""

"""Each game's words that cannot name a player (``PROMPT_WORDS`` of its language, read by
``is_reserved``) are exactly the commands its prompt answers (its registry and the shared
ones): a command added to a registry without its word fails here. The language cannot read
the registry itself: the commands import the language (an import circle)."""

from __future__ import annotations

from types import ModuleType

import pytest

from companion import language
from companion.coup import commands as coup_commands
from companion.coup import language as coup_language
from companion.session import COMMON
from companion.spicy import commands as spicy_commands
from companion.spicy import language as spicy_language
from companion.treasure import commands as treasure_commands
from companion.treasure import language as treasure_language

GAMES = [
    (coup_commands, coup_language),
    (spicy_commands, spicy_language),
    (treasure_commands, treasure_language),
]


@pytest.mark.parametrize(("commands", "words"), GAMES, ids=["coup", "spicy", "treasure"])
def test_the_words_no_player_may_be_named_are_the_prompts_commands(commands: ModuleType, words: ModuleType) -> None:
    assert {c.name for c in (*commands.COMMANDS, *COMMON)} == words.PROMPT_WORDS
    assert all(words.is_reserved(c.name.capitalize()) for c in commands.COMMANDS)


def test_the_shared_words_are_the_shared_commands() -> None:
    assert {c.name for c in COMMON} == language.PROMPT_WORDS

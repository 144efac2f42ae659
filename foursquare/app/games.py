"""How a game is named: a deal number or a deck file, and a rule set (:class:`GameSpec`).

The one value that every program passing "which game" along carries, in place of
the deal, the deck's file, the rule set's name and the rule set read from it
travelling side by side.  The files it names are read when first needed, once, by
:mod:`foursquare.formats` (:func:`~foursquare.formats.schema.load_rules`,
:func:`~foursquare.formats.loading.read_deck_file`); a game file is loaded with it
by :mod:`foursquare.formats.loading`, which checks that the file agrees with it.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from ..engine.arguments import check
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.rules import STANDARD, Rules
from ..errors import ArgumentError, wrong_argument


@dataclass(frozen=True)
class GameSpec:
    """How a game is named: a deal number or a deck file (or neither), and a rule set.

    The one check of their agreement is made when the value is made: a deal and a
    deck together name two card orders, which is refused.  Whether a game file
    agrees with them is checked when one is loaded (:meth:`game_of_file`).

    :ivar deal: the deal number (RULES.md section 2), or ``None``.
    :ivar deck_path: the name of a deck file (``-``: standard input), or ``None``.
    :ivar rules_spec: a preset's name or a rules file's, or ``None``: the standard
        rules, unless a game file names its own (:attr:`rules` is then ``None``).
    :raises ArgumentError: when ``deal`` and ``deck_path`` are both given.

    >>> spec = GameSpec(deal=7, rules_spec="fixed-board")
    >>> spec.rules.name, spec.start().deal
    ('fixed-board', 7)
    >>> GameSpec().start() is None
    True
    """

    deal: int | None = None
    deck_path: str | None = None
    rules_spec: str | None = None

    def __post_init__(self) -> None:
        check("GameSpec", deal=self.deal)
        for name, expected in (("deck_path", "a deck file's name"), ("rules_spec", "a preset's name or a rules file's")):
            if not isinstance(getattr(self, name), (str, type(None))):
                raise wrong_argument("GameSpec", name, f"{expected} (a str) or None", getattr(self, name))
        if self.deal is not None and self.deck_path is not None:
            raise ArgumentError(
                f"GameSpec: a deal ({self.deal}) and a deck ({self.deck_path!r}) name two card orders; give one"
            )

    @classmethod
    def read(cls, deal: int | None = None, deck_path: str | None = None, rules_spec: str | None = None) -> GameSpec:
        """The spec of ``deal``, ``deck_path`` and ``rules_spec``, its rule set read now
        (so that a rules file's problem is told before anything else's), its deck when
        first needed.

        :raises ArgumentError: when ``deal`` and ``deck_path`` are both given.
        :raises FormatError: for a rules file with a problem, or missing."""
        spec = cls(deal, deck_path, rules_spec)
        _ = spec.rules
        return spec

    @functools.cached_property
    def rules(self) -> Rules | None:
        """The rule set :attr:`rules_spec` names, read on first use and kept
        (``None`` when none is named).

        :raises FormatError: for a rules file with a problem, or missing."""
        if self.rules_spec is None:
            return None
        from ..formats.schema import load_rules

        return load_rules(self.rules_spec)

    @functools.cached_property
    def deck(self) -> tuple[Card, ...] | None:
        """The cards of the deck file, top first, read on first use (after :attr:`rules`,
        which says how many cards a deck holds) and kept; ``None`` without a deck file.

        :raises FormatError: naming the file and line of the first bad card."""
        if self.deck_path is None:
            return None
        from ..formats.loading import read_deck_file

        return tuple(read_deck_file(self.deck_path, self.rules))

    def dealt(self, deal: int) -> GameSpec:
        """This spec with ``deal`` for its deal (a deal chosen for the player), its
        rule set kept as read, not read again.

        :raises ArgumentError: when it names a deck."""
        chosen = dataclasses.replace(self, deal=deal)
        if "rules" in self.__dict__:  # the rule set already read (a file is read once)
            chosen.__dict__["rules"] = self.__dict__["rules"]
        return chosen

    def start(self) -> Game | None:
        """A new game of the deal or the deck (under the rule set, the standard rules
        without one); ``None`` when neither is named.

        :raises FormatError: for a rules or deck file with a problem."""
        rules = self.rules or STANDARD
        if self.deal is not None:
            return Game.from_deal(self.deal, rules)
        if self.deck_path is not None:
            return Game(list(self.deck or ()), rules)
        return None

    def game_of_file(self, path: str, *, game_number: int | None = None, empty_ok: bool = True) -> Game:
        """The game a file describes (a move script, a transcript or a state; ``-``:
        standard input), replayed to its end; the spec gives what the file does not
        (:func:`foursquare.formats.loading.load_game_file`).

        :raises AgreementError: when the deal, the deck or the rule set disagrees with
            what the file names itself, or ``game_number`` is given for a file that is
            not a transcript.
        :raises FormatError: as
            :func:`~foursquare.formats.loading.load_game_file`."""
        from ..formats.loading import load_game_file

        # (the rule set read first: a rules file's problem is told before the deck's)
        return load_game_file(path, deal=self.deal, rules=self.rules, deck=self.deck, game_number=game_number, empty_ok=empty_ok)

    def game_of_text(self, text: str, name: str, *, game_number: int | None = None, empty_ok: bool = True) -> Game:
        """:meth:`game_of_file` for a file already read (``name``: its display name;
        :func:`foursquare.formats.loading.load_game_text`).  A text without moves is an
        empty move script: the start of the deal or the deck (an error without them,
        or with ``empty_ok=False``, as when resuming a game)."""
        from ..formats.loading import load_game_text

        return load_game_text(
            text, name, deal=self.deal, rules=self.rules, deck=self.deck, game_number=game_number, empty_ok=empty_ok
        )

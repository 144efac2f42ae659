"""Game files of every kind: telling them apart and loading the game they describe (FORMATS.md).

:func:`input_kind` tells a state, a transcript and a move script apart (the one
place that does); :func:`load_input` returns the game of a file's text;
:func:`load_game_file` / :func:`load_game_text` load a game checking what the
caller gave besides (a deal, a card order, a rule set, which game of several)
against what the file names itself; :func:`read_deck` / :func:`read_deck_file` read a
deck file (a card order, top first: FORMATS.md "Deck files").
"""

from __future__ import annotations

import collections
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.rules import STANDARD, Rules
from ..errors import Advice, AgreementError, FormatError, ParseError, quote
from .commands import TABLE, CommandKind
from .inputs import InputFile, read_source
from .movescript import new_game, play_script, word_kind
from .yaml import clean_text, read_each_document

_YAML_START = re.compile(r"(---|%|\.\.\.|[A-Za-z_][\w-]*\s*:(\s|$)|\{|\[|-(\s|$))")
#: A line that starts with a state's ``grid`` key.
_STATE_LINE = re.compile(r"^grid\s*:", re.MULTILINE)
#: A line that holds an entry (:func:`holds_entries`), and the first one's text (:func:`input_kind`).
_ENTRY = re.compile("^\ufeff*+[^\\S\n]*+[^\\s#]", re.MULTILINE)
_FIRST_ENTRY = re.compile(r"^[^\S\n]*+([^\s#].*)", re.MULTILINE)
#: A line of a move script whose first word is a stop command (``quit`` or an alias, any case), with its line end: the script ends there.
_STOP_LINE = re.compile(
    r"^[^\S\n]*+\ufeff*+(" + "|".join(sorted(n for c in TABLE if c.kind is CommandKind.STOP for n in (c.name, *c.aliases)))
    + r")(?=[^\S\n]|#|$)[^\n]*+\n?",
    re.MULTILINE | re.IGNORECASE,
)


class FileKind(StrEnum):
    """What a game file holds (FORMATS.md): a state, a transcript or a move script."""

    STATE = "state"
    TRANSCRIPT = "transcript"
    MOVES = "moves"


def input_kind(text: str) -> FileKind:
    """What a file holds: a state, a transcript or a move script (:class:`FileKind`).

    A YAML file starts (after comments and blank lines) with a key (``foursquare:``),
    ``---``, a ``%`` directive, or a list (``- item``, ``[``, ``{``); a move script never does.  A YAML mapping with a
    ``grid`` key is a state, any other YAML a transcript.  A text without
    entries (empty, or only comments) is a move script.

    >>> [str(input_kind(text)) for text in ("d4\\n7H e4\\n", "foursquare: 1\\n", "grid:\\n  d4: 7H\\n")]
    ['moves', 'transcript', 'state']
    """
    text = clean_text(text)
    # the first line that holds more than a comment
    if (first := _FIRST_ENTRY.search(text)) is None or not _YAML_START.match(first.group(1).rstrip()):
        return FileKind.MOVES
    return FileKind.STATE if _STATE_LINE.search(text, first.start()) else FileKind.TRANSCRIPT


def holds_entries(text: str) -> bool:
    """Whether a text holds anything but blank lines and ``#`` comments (a move, a key...):
    a line that, without its byte-order marks and white space, starts with neither."""
    return _ENTRY.search(text) is not None


def games_held(text: str) -> int:
    """How many games a file's text holds, counted as the readers count them
    (:func:`foursquare.formats.transcript.iter_transcripts`, so ``replay``, ``state``
    and ``validate`` agree): a transcript's documents that hold a value or an error
    (an empty document, a lone or trailing ``---``, holds no game); 1 for a move
    script or a state; 0 for a text of only blank lines and comments.

    Only the first events of each document are read (its games are counted, not read).

    >>> games_held("foursquare: 1\\ndeal: 1\\nmoves: [d4]\\n---\\n"), games_held("---\\n---\\n"), games_held("d4\\n")
    (1, 0, 1)
    """
    if not holds_entries(text):
        return 0
    if input_kind(text) is not FileKind.TRANSCRIPT:
        return 1
    return sum(
        1
        for doc in read_each_document(text, "<text>", skip=lambda _k: True)
        if doc.node is not None or doc.error is not None or doc.skipped
    )


def read_game_text(path: str) -> tuple[str, str]:
    """The text of a game file (``-``: standard input) and its display name, as every
    command that reads a game file reads it (``replay``, ``state``, ``hint``,
    ``analyze``, ``play --resume``): a move script ends at its ``quit`` (FORMATS.md
    "Move scripts"; the lines after it are not read, as when it is piped into
    ``play``); a transcript or a state is read whole.

    :raises FormatError: as :class:`~foursquare.formats.inputs.InputFile` reads (a missing
        file, not UTF-8, binary, a line or a file too long), found only in what is read.
    """
    with InputFile(path) as source:
        text = _game_text(source, whole=True)
        assert isinstance(text, str)
        return text, source.name


def _game_text(source: Iterable[str], *, whole: bool) -> str | Iterator[str]:
    """A game file's text as every command reads it (:func:`read_game_text`): a move script
    up to its ``quit``; a transcript whole, or (not ``whole``) its blocks as they are read.

    The kind is told by the blocks up to the first that holds an entry (a move, a key...).
    A move script's blocks (each ending at a line end) are read up to its first stop
    command's line (``quit``: :data:`_STOP_LINE`): what follows is not read, so that
    nothing after ``quit`` (bytes that are not UTF-8, binary data, a long line, more than
    the size limit) can fail the script, as at ``play``'s stdin."""
    blocks = iter(source)
    head = ""
    for block in blocks:
        head += block
        if holds_entries(block):
            break
    rest = itertools.chain((head,), blocks)
    kind = input_kind(head) if holds_entries(head) else None
    if kind is not FileKind.MOVES:
        return rest if kind is FileKind.TRANSCRIPT and not whole else "".join(rest)
    parts: list[str] = []
    for block in rest:
        stop = _STOP_LINE.search(block)
        parts.append(block if stop is None else block[: stop.end()])
        if stop is not None:
            break
    return "".join(parts)


def load_input(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
) -> Game:
    """The game a file describes, replayed to its end (a state resumes as saved).

    :param text: a state (FORMATS.md "State"), a transcript ("Transcripts") or a
        move script ("Move scripts"); see :func:`input_kind`.
    :param source: the name used in errors.
    :param deal: the deal number, for a file that does not name its deal.
    :param deck: the card order, top first, likewise.
    :param rules: the rule set, for a file that does not name one (default standard).
    :returns: the game.
    :raises FormatError: ``FILE:LINE: message`` at the first problem (for a move
        script, the line of the illegal move or the wrong card, or of the first move
        without a card when neither ``deal`` nor ``deck`` is given and the script
        needs them); an empty file is an error.  A move script may hold the commands
        of interactive play (:func:`foursquare.formats.movescript.play_script`).
    """
    if not text.strip():
        raise FormatError(source, 1, "the file is empty (expected a move script, a transcript or a state)")
    kind = input_kind(text)
    if kind is FileKind.STATE:
        from .state import read_state

        return read_state(text, source)
    if kind is FileKind.TRANSCRIPT:
        from .transcript import load_game

        return load_game(text, source, deal=deal, deck=deck, rules=rules)
    return play_script(text, source, deal=deal, deck=deck, rules=rules)


def next_card_unknown(game: Game) -> str:
    """Why a game that goes on has no next card: every card its deal, deck or moves
    make known is placed (for a message; without ``FILE:`` before it)."""
    known = len(game.deck)
    return "the next card is unknown: " + {0: "no card is known", 1: "the one card known is placed"}.get(
        known, f"the {known} cards known are all placed"
    )


def load_game_file(
    path: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """The game a file (``-``: standard input) describes, replayed to its end: :func:`load_game_text`
    of the file's text.

    With ``game_number`` K, a file whose first entry is a transcript's is read only as far
    as game K (block by block: the games before it are counted, not read; nothing after
    it is read), so that the memory and time do not grow with the games after it.
    Which kind a file is, is then told by its beginning (a transcript's game K of a file
    whose later documents hold a state's ``grid`` is read as a game).
    """
    with InputFile(path, chunk=None if game_number is None else 64 * 1024) as source:  # game K: read little past it
        return load_game_text(
            _game_text(source, whole=game_number is None), source.name,
            deal=deal, deck=deck, rules=rules, game_number=game_number, empty_ok=empty_ok,
        )


def load_game_text(
    text: str | Iterable[str],
    name: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``deal`` / ``deck`` / ``rules`` give what the file does not, and
    must agree with what it does.

    A text without moves (empty, or only comments and blank lines) is an empty
    move script: the start of ``deal`` or ``deck``.  A file that lists only the
    first cards (a ``deck:`` prefix, or moves that name their cards) is replayed
    on the longer card order of ``deal``/``deck`` when that order goes on with them.

    :param text: the file's text, or a transcript's blocks as they are read (game
        ``game_number`` is then read, and nothing after it); :param name: its display name (in errors).
    :param deal: a deal number (RULES.md §2); :param deck: a card order, top first;
        :param rules: a rule set (a transcript plays the rules it names, the
        standard rules when it names none).
    :param game_number: the game of a multi-game transcript (from 1); without it
        such a file is an error.
    :param empty_ok: whether a text without moves is the start of ``deal``/``deck``
        (otherwise an error, as when resuming a game).
    :returns: the game.
    :raises AgreementError: when ``deal``, ``deck`` or ``rules`` disagrees with
        what the file names itself, or ``game_number`` is given for a file that
        is not a transcript.
    :raises FormatError: for a multi-game transcript without ``game_number``,
        or a ``game_number`` past its last game.
    :raises FormatError: for a text without moves and no ``deal``/``deck``
        (or ``empty_ok=False``).
    :raises FormatError: ``FILE:LINE: message`` at the first problem of the file.
    """
    if not isinstance(text, str) or input_kind(text) is FileKind.TRANSCRIPT:
        game = _transcript_game(text, name, deal, deck, game_number)
    elif game_number is not None:
        raise AgreementError.with_file(name, "game", "is not a transcript", game_number)
    elif not holds_entries(text):
        what = "is empty" if not text.strip() else "holds only comments"
        if not empty_ok:
            raise FormatError(name, 1, f"the file {what}: there is no game in it")
        if deal is None and deck is None:
            raise FormatError(
                name, 1, f"the file {what} (expected a move script, a transcript or a state)", advice=Advice.START_OF_DEAL
            )
        return new_game(deal=deal, deck=deck, rules=rules)
    else:
        game = load_input(text, name, deal=deal, deck=deck, rules=rules)
    # a deal, card order or rule set that the file overrides is refused, rather than
    # ignored silently; one equal to the file's own is accepted
    game = _extended(game, deal, deck)
    own = f"names deal {game.deal}" if game.deal is not None else "has its own card order"
    if deal is not None and game.deal != deal:
        raise AgreementError.with_file(name, "deal", own, deal)
    if deck is not None and list(game.deck[: len(deck)]) != list(deck):
        raise AgreementError.with_file(name, "deck", own)
    if rules is not None and game.rules != rules:
        raise AgreementError.with_file(name, "rules", f"plays the {game.rules.label} rules", rules.label)
    return game


def _extended(game: Game, deal: int | None, deck: Sequence[Card] | None) -> Game:
    """The game replayed on the card order of ``deal``/``deck`` when its file lists
    the first cards of it (a ``deck:`` prefix, or moves that name their cards) or all
    of them (the game then names the deal); otherwise the game as it is."""
    if game.deal is not None or len(game.moves) != game.placed or (deal is None and deck is None):
        return game
    longer = Game.from_deal(deal, game.rules) if deal is not None else Game(list(deck or ()), game.rules)
    known = list(game.deck)
    if list(longer.deck[: len(known)]) != known or len(longer.deck) == len(known) and deal is None:
        return game  # not these cards first (a shorter order is not); or the same deck: nothing to gain
    for placement in game.moves:
        longer.play(placement.cell, placement.card)
    return longer


def _transcript_game(
    text: str | Iterable[str], name: str, deal: int | None, deck: Sequence[Card] | None, game_number: int | None
) -> Game:
    """Game ``game_number`` of a transcript (the only one when ``None``), replayed.

    Only the game wanted is read and checked (and a second one, to refuse a choice not
    made); the others are counted, and nothing after the game wanted is read."""
    from .transcript import check_game, iter_transcripts

    each = iter_transcripts(text, name, read=lambda k: k <= 2 if game_number is None else k == game_number)
    if game_number is None:
        games = list(itertools.islice(each, 2))
        if len(games) > 1:  # an error: the count of the rest is worth counting them
            count = len(games) + sum(1 for _ in each)
            raise FormatError(name, games[1].line, f"the file holds {count} games", advice=Advice.PICK_GAME, games=count, number=None)
        wanted = games[0]
    else:  # game K, or the last when there are fewer (one game held at a time)
        wanted = collections.deque(itertools.islice(each, game_number), maxlen=1)[0]
        if wanted.number != game_number:
            held = "1 game" if wanted.number == 1 else f"{wanted.number} games"
            raise FormatError(name, None, f"game {game_number}: the file holds only {held}", games=wanted.number, number=game_number)
    # a transcript plays the rules it names, the standard rules when it names none
    # (FORMATS.md): a rule set given that differs is then a disagreement, as for validate
    game, errors = check_game(wanted, name, deal=deal, deck=deck)
    if errors:
        raise errors[0]
    assert game is not None
    return game


# ------------------------------------------------------------ deck files (FORMATS.md "Deck files")


def read_deck(text: str, source: str, rules: Rules = STANDARD) -> list[Card]:
    """A deck file: cards top first, separated by white space; ``#`` starts a comment.

    The deck holds the rule set's whole deck (40 cards in the standard game) or a
    prefix of it (then each move past it must name its card).

    :param text: the file's text.
    :param source: the name used in errors.
    :param rules: the rule set whose deck the cards must belong to.
    :returns: the cards, top (first drawn) first.
    :raises FormatError: ``FILE:LINE: message`` for a word that is not a card, a
        card outside the rule set's deck, a card listed twice, too many cards, or
        no card at all.
    """
    first_line: dict[Card, int] = {}  # each card read, in order, and its line
    for number, line in enumerate(clean_text(text).split("\n"), 1):
        for word in line.split("#", 1)[0].split():
            try:
                card = Card.parse(word)
            except ParseError as exc:
                raise FormatError(
                    source, number, _not_a_card(word, text, exc),
                    advice=Advice.READ_AS_STATE if input_kind(text) is FileKind.STATE else None,
                ) from None
            if card.rank > rules.ranks or card.suit >= rules.suits:
                raise FormatError(source, number, f"{card} is not a card of the {rules.label} deck")
            if card in first_line:
                raise FormatError(source, number, f"{card} is listed twice (first on line {first_line[card]})")
            if len(first_line) == rules.deck_size:
                raise FormatError(
                    source, number, f"too many cards: the {rules.label} deck has {rules.deck_size} cards"
                )
            first_line[card] = number
    if not first_line:
        raise FormatError(source, 1, "the deck file lists no cards")
    return list(first_line)


def _not_a_card(word: str, text: str, error: ParseError) -> str:
    """Why ``word`` of a deck file is not a card, saying so when the file is of another
    kind (a transcript, a state, a move script) or the cards are not apart."""
    kind = input_kind(text)
    what = "a deck file lists cards, top first, separated by white space"
    if kind is not FileKind.MOVES:
        also = "" if kind is FileKind.STATE else "; replay it, or resume the game from it"
        return f"not a card: {quote(word)}: the file is a {kind}, not a deck ({what}){also}"
    if word_kind(word) == "cell":
        return f"not a card: {quote(word)} is a cell (is the file a move script?); {what}"
    pieces = word.translate({ord(c): " " for c in ",;:/-"}).split()
    if 1 < len(pieces) and len(word) < 200 and all(word_kind(piece) == "card" for piece in pieces):
        return f"not a card: {quote(word)}: {what}"
    return str(error)


def read_deck_file(path: str, rules: Rules | None = None) -> list[Card]:
    """The cards of a deck file (``-``: standard input), top first.

    :param rules: the rule set whose deck the cards belong to (default standard).
    :raises FormatError: for a file that cannot be read, or naming the file and
        line of the first bad card (:func:`read_deck`).
    """
    return read_deck(*read_source(path), rules or STANDARD)

"""Move scripts: one move a line, as typed at the prompt or piped in (FORMATS.md).

A move is a cell (``d4``), optionally preceded by the card the writer expects
to be drawn (``7H d4``).  ``#`` starts a comment; blank lines and surrounding
white space are ignored; CRLF line ends and a UTF-8 byte-order mark are
accepted; cards and cells are case-insensitive.

The same lines may hold the commands of interactive play (FORMATS.md: one
syntax for the prompt, a pipe and a file); :func:`parse_entry` tells a move
from a command, for every reader.  Replaying a script (:func:`play_script`):
``undo`` and ``redo`` change the game, ``quit`` stops reading, and the display
commands (``moves``, ``show``, ``reveal``, ``hint``, ``help``, ``state``,
``save FILE``) are accepted and ignored.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from ..engine.cards import Card
from ..engine.game import Game, Placement
from ..engine.layout import Cell
from ..engine.rules import STANDARD, Rules
from ..errors import Advice, FormatError, IllegalMoveError, ParseError, PositionError, quote
from .commands import COMMAND_NAMES, STOP_COMMANDS, PromptCommand, spec
from .inputs import CR_ALONE_WORDS


class Move(NamedTuple):
    """One move: the cell, and the card the writer expects to be drawn (or ``None``)."""

    cell: Cell
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.card} {self.cell}" if self.card is not None else str(self.cell)


def strip_line(text: str) -> str:
    """A line without its comment, line end, byte-order mark and surrounding white space."""
    return text.lstrip("\ufeff").split("#", 1)[0].strip()


def file_words(text: str, name: str = "save") -> list[str]:
    """The words of a command that names a file, read as a shell reads them.

    A name with spaces is quoted (``save "my game.yaml"``) or escaped, and the quotes
    go; ``#`` starts a comment only at the start of a word outside quotes
    (``save a#b.yaml`` names ``a#b.yaml``); an unquoted leading ``~`` is the home
    folder.  Nothing else is expanded: an unquoted ``*``, ``?`` or ``[`` (a
    wildcard) and a ``$`` or backquote outside single quotes (a variable, a
    command) are refused rather than read as themselves, so that no name means
    something else than at a shell.  The words are those of :func:`shlex.split`,
    found by one regular expression with possessive repeats: linear in the length of
    the line, where :func:`shlex.split` is quadratic in the length of a word.

    :param text: the whole line, with its comment, line end and byte-order mark.
    :raises ParseError: for a quote left open, a backslash that escapes nothing,
        a wildcard, variable or command, or an empty file name (``save ""``).
    """
    text = text.lstrip("\ufeff").strip()
    words: list[str] = []
    word: list[str] | None = None  # the word being read, if any
    expanded, cut = None, len(text)
    for match in _SHELL_PIECE.finditer(text):
        single, double, escaped, plain, alone = match.groups()
        if match.lastindex is None:  # blanks end a word
            if word is not None:
                words.append("".join(word))
            word = None
            continue
        if plain is not None and word is None and plain.startswith("#"):
            cut = match.start()
            break
        if alone is not None:  # a quote or backslash nothing closes: the rest is in it (what it expands is said first)
            found = _EXPANDED_IN_DOUBLE.search(_PAIR.sub("", text[match.end() :])) if alone == '"' else None
            if expanded is None and found is None:
                why = "a backslash ends the line, escaping nothing," if alone == "\\" else "a quote is not closed"
                raise ParseError(f"{name}: {why} in {quote(text)}")
            expanded = expanded or found and found.group()
            break
        if (found := _EXPANDED.search(plain) if plain else _EXPANDED_IN_DOUBLE.search(_PAIR.sub("", double or ""))) and expanded is None:
            expanded = found.group()
        word = word if word is not None else []
        word.append(_DOUBLE_ESCAPE.sub(r"\1", double) if double is not None else single or escaped or plain or "")
    if word is not None:
        words.append("".join(word))
    text = text[:cut].rstrip()
    if expanded is not None:
        what = "a wildcard" if expanded in "*?[" else "a variable" if expanded == "$" else "a command"
        raise ParseError(
            f"{name}: {expanded!r} in {quote(text)} would be {what} at a shell, and file names here expand only"
            f" a leading ~ (your home folder); put the name in single quotes to mean the character itself:"
            f" {name} 'a{expanded}b.yaml'"
        )
    if any(not word for word in words):
        raise ParseError(f"{name}: the file name is empty; name the file, like: {name} game.yaml")
    if len(words) > 1 and text.split(None, 1)[1].startswith("~"):
        words[1] = os.path.expanduser(words[1])
    return words


#: One piece of a line as a POSIX shell (and :func:`shlex.split`) cuts it into words:
#: blanks; a single-quoted part (kept whole); a double-quoted part (a backslash keeps a
#: following ``"`` or ``\\``, and is kept before anything else); a backslash and the
#: character it keeps; a run of other characters; a quote or backslash nothing closes.
_SHELL_PIECE = re.compile(r"""[ \t\r\n]++|'([^']*+)'|"((?:[^"\\]|\\.)*+)"|\\(.)|([^ \t\r\n'"\\]++)|(.)""", re.S)
#: What a shell would expand outside quotes (wildcards, variables, commands), and inside double quotes.
_EXPANDED, _EXPANDED_IN_DOUBLE = re.compile(r"[*?[$`]"), re.compile(r"[$`]")
#: A backslash and the character after it, and one that a double-quoted part keeps alone.
_PAIR, _DOUBLE_ESCAPE = re.compile(r"\\.", re.S), re.compile(r'\\(["\\])')


#: What a move looks like, for the messages about a line that is not one.
MOVE_SHAPE = "a move is a cell like d4, or a card and a cell like 7H d4"

#: The characters written between a card and a cell instead of a space (``7H,d4``, ``7H-d4``).
_JOINERS = ",;:/-"


def parse_move(text: str) -> Move:
    """Read one move: ``CELL`` or ``CARD CELL`` (comments and white space already removed).

    :raises ParseError: when the text is not a move; the message quotes it and, for a
        line of the wrong shape, says what is wrong (two cells on one line, the cell
        before the card, a card without its cell, more after the move, a card and a
        cell written together).
    """
    words = text.split()
    try:
        if len(words) == 1:
            return Move(Cell.parse(words[0]))
        if len(words) == 2:
            return Move(Cell.parse(words[1]), Card.parse(words[0]))
    except ParseError as exc:
        raise _shape_error(text, words) or exc from None
    raise _shape_error(text, words) or ParseError(f"not a move: {quote(text)} (expected {MOVE_SHAPE.removeprefix('a move is ')})")


def word_kind(word: str) -> str | None:
    """``"cell"``, ``"card"`` or ``None``: what a word of a move line or a deck reads as (never both)."""
    for kind, parse in (("cell", Cell.parse), ("card", Card.parse)):
        try:
            parse(word)
        except ParseError:
            continue
        return kind
    return None


def _is_move(words: Sequence[str]) -> bool:
    return [word_kind(w) for w in words] in (["cell"], ["card", "cell"])


def _shape_error(text: str, words: Sequence[str]) -> ParseError | None:
    """The error for a line of cards and cells of the wrong shape, or ``None`` when its
    words are not cards and cells put wrongly (then the word's own error says more)."""
    head = f"not a move: {quote(text)}"
    if words and len(words[0]) > 1 and words[0].endswith(":") and words[0][:-1].replace("_", "").isalpha():
        return ParseError(
            f"{head}: a YAML key, not a move (is this a transcript or a state? replay it, or resume the game"
            f" from it); {MOVE_SHAPE}, one a line"
        )
    if len(words) > 2 and all(word_kind(w) == "card" for w in words[:8]):
        return ParseError(f"{head}: a line of cards and no cell (is the file a deck?); {MOVE_SHAPE}, one a line")
    if len(words) > 8:  # a line of many words: no shape to tell (and no time spent on each)
        return None
    kinds = [word_kind(w) for w in words]
    cells = kinds.count("cell")  # cards and cells in the wrong number or order, or more after a move
    if cells >= 2:
        many = {2: "two", 3: "three"}.get(cells, str(cells))
        return ParseError(f"{head}: {many} cells on one line, and a line holds one move ({MOVE_SHAPE})")
    if tuple(kinds) in _WRONG_ORDER:
        return ParseError(f"{head}: " + _WRONG_ORDER[tuple(kinds)].format(*words))
    for n in (1, 2):
        if len(words) > n and _is_move(words[:n]):
            return ParseError(f"{head}: {quote(' '.join(words[n:]))} after the move {' '.join(words[:n])} (a line holds one move)")
    return _written_together(head, words, kinds)


#: What is wrong with a line of these kinds of words (the words put in by ``str.format``).
_WRONG_ORDER: dict[tuple[str | None, ...], str] = {
    ("cell", "card"): "the card comes first, then the cell: {1} {0}",
    ("card",): f"a card without a cell ({MOVE_SHAPE})",
    ("card", "card"): f"two cards and no cell ({MOVE_SHAPE})",
}


def _written_together(head: str, words: Sequence[str], kinds: list[str | None]) -> ParseError | None:
    """The error for a card and a cell written as one word, or a card or cell cut in two."""
    if len(words) == 1:
        word = words[0]
        pieces = word.translate({ord(c): " " for c in _JOINERS}).split()
        splits: list[list[str]] = []
        if len(pieces) == 2:  # 7H,d4
            splits = [pieces]
        elif pieces == [word] and len(word) <= 6:  # 7Hd4, 10Hd4: a longer word is no card and cell
            splits = [[word[:i], word[i:]] for i in range(2, len(word) - 1)]
        for parts in splits:
            if _is_move(parts):
                return ParseError(f"{head}: write a space between the card and the cell: {' '.join(parts)}")
            if [word_kind(p) for p in parts] == ["cell", "cell"]:
                return ParseError(f"{head}: two cells on one line, and a line holds one move ({MOVE_SHAPE})")
    elif len(words) > 1:
        joined = "".join(words)
        if word_kind(joined) == "cell":
            return ParseError(f"{head}: a cell is written without a space: {joined}")
        if word_kind("".join(words[:-1])) == "card" and kinds[-1] == "cell":
            return ParseError(f"{head}: a card is written without a space: {''.join(words[:-1])} {words[-1]}")
    return None


def parse_entry(text: str) -> Move | PromptCommand | None:
    """Read one line of a move script or of the prompt: a move, a command, or nothing.

    The one classifier of the move-script syntax (FORMATS.md), shared by every
    reader.  Command names are case-insensitive; see the table of
    :mod:`foursquare.formats.commands`.  ``save`` needs a file name, ``state`` may have one;
    other commands take no argument.

    :param text: the line, with or without its line end, comment and byte-order mark.
    :returns: a :class:`Move`, a :class:`~foursquare.formats.commands.PromptCommand`, or ``None`` for a blank or
        comment-only line.
    :raises ParseError: when the line is neither; for a line with a digit, the
        message says what is wrong with it as a move (``not a cell: 'z9' ...``).
    """
    stripped = strip_line(text)
    if not stripped:
        return None
    if "\r" in stripped:  # every reader (play's stdin splits at LF, a file's reader too): a file whose lines end in CR alone
        raise ParseError(CR_ALONE_WORDS)
    words = stripped.split()
    command = spec(words[0])
    if command is not None:
        name = command.name
        words = words if command.argument is None else file_words(text, name)
        if len(words) > (1 if command.argument is None else 2):
            raise ParseError(f"{name}: too many words in {quote(stripped)}")
        if command.argument and len(words) < 2:
            raise ParseError(f"{name}: name the file, like: {name} game.yaml")
        return PromptCommand(name, words[1] if len(words) == 2 else None)
    if not any(ch.isdigit() for ch in stripped):  # no row number: a mistyped command rather than a move
        raise ParseError(
            f"not a move or a command: {quote(stripped)} ({MOVE_SHAPE};"
            f" the commands are {', '.join(COMMAND_NAMES)})"
        )
    return parse_move(stripped)


def read_entries(lines: Iterable[str], source: str = "<stdin>") -> Iterator[tuple[int, Move | PromptCommand]]:
    """The moves and commands of a move script (:func:`parse_entry`), each with its line number.

    :raises FormatError: ``FILE:LINE: message`` at the first line that is neither.
    """
    for number, line in enumerate(lines, 1):
        try:
            entry = parse_entry(line)
        except ParseError as exc:
            raise FormatError(source, number, str(exc)) from None
        if entry is not None:
            yield number, entry



def new_game(
    *, deal: int | None = None, deck: Sequence[Card] | None = None, rules: Rules | None = None
) -> Game:
    """The game to replay moves on: from a deal number, else a card order (maybe a prefix),
    else an unknown order (then every move must name its card).

    :param deal: a deal number (RULES.md §2); wins over ``deck`` when both are given.
    :param deck: cards top first.
    :param rules: the rule set (default: standard).
    :raises ParseError, PositionError: for a bad deal number or deck (the engine's errors).
    """
    rules = rules or STANDARD
    if deal is not None:
        return Game.from_deal(deal, rules)
    return Game(list(deck or ()), rules)


def play_move(
    game: Game, move: Move, source: str, line: int | None, number: int | None = None, game_number: int | None = None
) -> Placement:
    """Play one move on ``game``, turning the engine's refusal into a located error.

    :param move: the move (its card, when given, must be the card drawn).
    :param source: the file name; :param line: the move's line; :param number: the
        move's number from 1; :param game_number: the game's number in a multi-game file.
    :returns: the placement record.
    :raises FormatError: ``FILE:LINE: [game K, ]move M: why`` for an illegal move,
        a wrong card, or a card that cannot be drawn.
    """
    try:
        return game.play(move.cell, move.card)
    except (IllegalMoveError, ParseError) as exc:
        what = "wrong card" if "drawn" in exc.facts else f"illegal move {move}"
        raise FormatError(source, line, f"{what}: {exc}", game_number, number) from None


def play_script(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
) -> Game:
    """Replay a move script (FORMATS.md "Move scripts") and return the game at its end.

    Moves are played; ``undo`` takes back the last move and ``redo`` plays again
    the last move taken back (a new move forgets it); ``quit`` ends the script;
    the display commands (:class:`~foursquare.formats.commands.CommandKind`) are ignored.

    :param text: the script.
    :param source: the name used in errors.
    :param deal, deck, rules: the game to play on (see :func:`new_game`).
    :raises FormatError: ``FILE:LINE: move M: message`` at the first line that is
        neither a move nor a command, an illegal move, a wrong card, or an
        ``undo``/``redo`` with nothing to take back or replay.  On an unknown card
        order (no deal, no deck), the first move that names no card says
        that the moves need ``--deal`` or ``--deck``.
    """
    order_unknown = deal is None and deck is None
    try:
        game = new_game(deal=deal, deck=deck, rules=rules)
    except (ParseError, PositionError) as exc:
        raise FormatError(source, None, str(exc)) from None
    redo: list[Placement] = []
    # the line ends of a move script are LF or CR LF, as at play's stdin, and nothing else
    # ends a line (not str.splitlines's CR alone, form feed or U+2028: parse_entry refuses them)
    for line, entry in read_entries(text.removeprefix("\ufeff").split("\n"), source):
        number = len(game.moves) + 1
        if isinstance(entry, Move):
            if order_unknown and entry.card is None and game.next_card is None and not game.is_over:
                raise FormatError(source, line, "the moves don't name their cards", advice=Advice.NAME_THE_CARDS)
            play_move(game, entry, source, line, number)
            redo.clear()
            continue
        if entry.name in STOP_COMMANDS:
            break
        if entry.name == "undo":
            try:
                redo.append(game.undo())
            except IllegalMoveError as exc:
                raise FormatError(source, line, f"undo: {exc}") from None
        elif entry.name == "redo":
            if not redo:
                raise FormatError(source, line, "redo: there is no move taken back to play again")
            placement = redo.pop()
            play_move(game, Move(placement.cell, placement.card), source, line, number)
        # the display commands show or write something at the prompt: nothing to replay
    return game

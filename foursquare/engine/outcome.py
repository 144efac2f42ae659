"""The end of a game (RULES.md §5): where a game stands (:class:`Status`), why it
was lost (:class:`Reason`), and the one wording of both for people, wherever a
result is shown (the prompt, replay, the summaries, the engine's "the game is
over" message).  Files and JSON keep the tokens (``too-many-face-down``).

    >>> outcome_words(Status.LOST, Reason.TOO_MANY_FACE_DOWN, face_down=5, limit=4)
    'lost: too many face down (5, limit 4)'
    >>> outcome_words(Status.LOST, Reason.TOO_MANY_FACE_DOWN)  # the counts shown elsewhere
    'lost: too many face down'
    >>> reason_words(Reason.STOCK_EMPTY)
    'the stock is empty'
"""

from __future__ import annotations

from enum import StrEnum

from .rules import Rules


class Status(StrEnum):
    """Where a game stands after a turn (RULES.md §5); the value is the text of files and output."""

    PLAYING = "playing"  #: the game goes on: a card is to be placed
    WON = "won"  #: the grid is full and every top card face up (§5)
    LOST = "lost"  #: the game ended otherwise; :class:`Reason` says why


class Reason(StrEnum):
    """Why a game was lost (RULES.md §5)."""

    TOO_MANY_FACE_DOWN = "too-many-face-down"  #: more face-down top cards than the rules allow (§5)
    STOCK_EMPTY = "stock-empty"  #: the stock ran out before the grid was won (§5)
    NO_PLACEMENT = "no-placement"  #: no legal cell for the next card (variants only, §5 point 4)


def reason_words(reason: Reason | str) -> str:
    """The words of a loss reason: ``the stock is empty`` for :attr:`Reason.STOCK_EMPTY`
    (or its token ``stock-empty``, as batch results keep it for CSV).

    :raises ValueError: for a text that is no reason's token."""
    return {
        Reason.TOO_MANY_FACE_DOWN: "too many face down",
        Reason.STOCK_EMPTY: "the stock is empty",
        Reason.NO_PLACEMENT: "no room for the next card",
    }[Reason(reason)]


def outcome_words(
    status: Status,
    reason: Reason | None,
    *,
    score: int | None = None,
    face_down: int | None = None,
    limit: int = 0,
    rules: Rules | None = None,
) -> str:
    """The result in words: ``won, score 3``, ``lost: too many face down (5, limit 4)``,
    ``lost: the stock is empty``, ``lost: no room for the next card (all 9 piles full,
    3 cards each)`` or ``playing``.

    :param status: where the game stands; :param reason: the loss reason, or ``None``.
    :param score: the score of a win.
    :param face_down: the face-down count and :param limit: the rules' face-down limit,
        said with a loss of too many face down (``face_down=None``: not said, where the
        counts are shown beside it).
    :param rules: the rule set, to say how full the grid is when no cell is left.
    :returns: one line, no full stop.
    """
    if status is Status.WON:
        return f"won, score {score}"
    if status is Status.LOST:
        if reason is None:
            return "lost"
        words = reason_words(reason)
        if reason is Reason.TOO_MANY_FACE_DOWN and face_down is not None:
            words += f" ({face_down}, limit {limit})"
        elif reason is Reason.NO_PLACEMENT and rules is not None:
            cards = "1 card" if rules.pile_cap == 1 else f"{rules.pile_cap} cards"
            words += f" (all {rules.size * rules.size} piles full, {cards} each)"
        return f"lost: {words}"
    return str(status)

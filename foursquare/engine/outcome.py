"""The end of a game in words (RULES.md §5): the one wording of a status and its
loss reason for people, wherever a result is shown (the prompt, replay, the
summaries, the engine's "the game is over" message).  Files and JSON keep the
tokens (``too-many-face-down``).

    >>> outcome_words("lost", "too-many-face-down", face_down=5, limit=4)
    'lost: too many face down (5, limit 4)'
    >>> outcome_words("lost", "too-many-face-down")  # the counts shown elsewhere
    'lost: too many face down'
    >>> reason_words("stock-empty")
    'the stock is empty'
"""

from __future__ import annotations

#: Loss reason token (``Reason`` value, RULES.md §5) -> its words.
REASON_WORDS: dict[str, str] = {
    "too-many-face-down": "too many face down",
    "stock-empty": "the stock is empty",
    "no-placement": "no legal cell left",
}


def reason_words(reason: str) -> str:
    """The words of a loss reason token (a ``Reason``; a token not listed reads with spaces).

    :param reason: a token like ``stock-empty``.
    :returns: its words, like ``the stock is empty``."""
    return REASON_WORDS.get(str(reason), str(reason).replace("-", " "))


def outcome_words(
    status: str, reason: str | None, *, score: int | None = None, face_down: int | None = None, limit: int = 0
) -> str:
    """The result in words: ``won, score 3``, ``lost: too many face down (5, limit
    4)``, ``lost: the stock is empty`` or ``playing``.

    :param status: ``playing``, ``won`` or ``lost`` (a ``Status``).
    :param reason: the loss reason token (a ``Reason``), or ``None``.
    :param score: the score of a win; :param face_down: the face-down count and
        :param limit: the rules' face-down limit (said with a loss of too many face
        down; ``face_down=None``: not said, where the counts are shown beside it).
    :returns: one line, no full stop."""
    if status == "won":
        return f"won, score {score}"
    if status == "lost":
        if reason == "too-many-face-down" and face_down is not None:
            return f"lost: too many face down ({face_down}, limit {limit})"
        return f"lost: {reason_words(reason)}" if reason is not None else "lost"
    return str(status)

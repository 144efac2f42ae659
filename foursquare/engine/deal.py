"""The deck and numbered deals (RULES.md §2)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from ..errors import ParseError, quote
from .cards import CARDS, Card
from .rules import STANDARD, Rules, as_rules

MASK64 = (1 << 64) - 1
MAX_DEAL = MASK64
_DEAL_DIGITS = len(str(MAX_DEAL))
#: Daily deals are numbered below this (:func:`daily_deal`), so that they are easy to type.
DAILY_DEALS = 1_000_000


def ordered_deck(rules: Rules | str = STANDARD) -> list[Card]:
    """The deck in its starting order: ``AC 2C … TC AD … TD AH … TH AS … TS``.

    :param rules: the rule set, or a preset's name; its ``ranks`` and ``suits`` give the deck.
    :returns: a new list of cards, index 0 first.
    :raises RulesError: for ``rules`` that is no rule set nor a preset's name.
    """
    rules = as_rules(rules, "ordered_deck")
    return [CARDS[rank * 4 + suit] for suit in range(rules.suits) for rank in range(1, rules.ranks + 1)]


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 generator of RULES.md §2, seeded with ``seed`` (0 ≤ seed < 2^64)."""
    mask, gamma, m1, m2 = MASK64, 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
    state = seed & mask
    while True:
        state = (state + gamma) & mask
        z = state
        z = ((z ^ (z >> 30)) * m1) & mask
        z = ((z ^ (z >> 27)) * m2) & mask
        yield z ^ (z >> 31)


def check_deal_number(deal: int) -> int:
    """Return ``deal`` when it is a deal number, 0 ≤ N < 2^64.

    :raises ParseError: otherwise (booleans and non-integers included).
    """
    if type(deal) is not int or not 0 <= deal <= MAX_DEAL:
        raise ParseError(f"not a deal number: {quote(deal)} (expected a whole number from 0 to {MAX_DEAL})")
    return deal


def parse_deal_number(text: str) -> int:
    """Read a deal number written in decimal, e.g. ``42``: the one reader of deal
    numbers, for the command line (``--deal``, ``--deals``) and the files (``deal:``).

    A deal number is written one way, as the tool prints it: ASCII digits with no
    leading zero (``05`` is refused, as ``deal: 05`` in YAML, where some readers
    take it for octal); white space around it is ignored.

    :raises ParseError: when the text is not a number from 0 to 2^64 - 1 so written.
    """
    t = text.strip() if isinstance(text, str) else ""
    digits = t.lstrip("0") or "0"
    # ASCII digits only (str.isdigit() takes any Unicode digit), and no more of them
    # than 2^64 - 1 has: int() of over 4300 digits raises, and a longer number is out of range anyway.
    if not t.isascii() or not t.isdigit() or len(digits) > _DEAL_DIGITS:
        raise ParseError(f"not a deal number: {quote(text)} (expected a whole number from 0 to {MAX_DEAL})")
    value = check_deal_number(int(digits))
    if t != digits:
        raise ParseError(f"not a deal number: {quote(text)} (write it without leading zeros: {digits})")
    return value


def deal_deck(deal: int, rules: Rules | str = STANDARD) -> list[Card]:
    """The stock of deal number ``deal``, top card first (RULES.md §2).

    Fisher–Yates over :func:`ordered_deck`, drawing from SplitMix64 seeded
    with the deal number: for i from the last index down to 1, swap i with
    (next output) mod (i + 1).

    :param deal: the deal number, 0 ≤ deal < 2^64.
    :param rules: the rule set giving the deck (standard: 40 cards), or a preset's name.
    :returns: a new list of cards; index 0 is drawn first.
    :raises ParseError: when ``deal`` is not a deal number.
    :raises RulesError: for ``rules`` that is no rule set nor a preset's name.
    """
    check_deal_number(deal)
    deck = ordered_deck(as_rules(rules, "deal_deck"))
    for i, z in zip(range(len(deck) - 1, 0, -1), splitmix64(deal), strict=False):
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def daily_deal(day: datetime.date) -> int:
    """The deal number of a calendar day: the same for everyone on that date.

    The formula, reproducible in any language: write the date as the number
    YYYYMMDD (1 December 2026 is 20261201), seed the SplitMix64 generator of
    RULES.md §2 with it, and take its first output modulo 1,000,000
    (:data:`DAILY_DEALS`)::

        daily_deal(date) = splitmix64(YYYYMMDD).first_output mod 1000000

    The command line passes today's date in UTC, so that the whole world shares a
    deal for a day; the number is an ordinary deal number (``--deal N`` plays it
    again, on any day).

    >>> daily_deal(datetime.date(2026, 12, 1)) == next(splitmix64(20261201)) % DAILY_DEALS
    True

    :param day: the date (a :class:`datetime.date`; of a :class:`datetime.datetime`
        only the date counts, in its own time zone).
    :returns: a deal number from 0 to 999,999.
    :raises TypeError: when ``day`` is not a date.
    """
    if not isinstance(day, datetime.date):
        raise TypeError(f"daily_deal takes a date, not {type(day).__name__}")
    return next(splitmix64(day.year * 10_000 + day.month * 100 + day.day)) % DAILY_DEALS

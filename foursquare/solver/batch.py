"""Many deals at once: :func:`solve_deals`, in this process or in worker processes.

Each deal is solved on its own (:func:`foursquare.solver.search.solve_deal`) with the
same limits, so the results do not depend on the number of processes (except
through a time limit, which depends on the machine's load).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TYPE_CHECKING

from ..engine.arguments import check
from ..engine.deal import check_deal_number
from ..engine.rules import STANDARD, Rules, as_rules
from ..errors import wrong_argument
from .search import DEFAULT_MAX_NODES, Solution, solve_deal

if TYPE_CHECKING:
    from ..parallel import Mapper


def _solve_one(args: tuple[int, Rules, int | None, float | None, int | None]) -> tuple[int, Solution]:
    """One task of :func:`solve_deals`: ``(deal, rules, max_nodes, timeout, memory)`` -> ``(deal, solution)``."""
    deal, rules, max_nodes, timeout, memory = args
    return deal, solve_deal(deal, rules, max_nodes=max_nodes, timeout=timeout, memory=memory)


def _deal_name(args: tuple[int, Rules, int | None, float | None, int | None]) -> str:
    """How an error names a task of :func:`solve_deals`: its deal."""
    return f"deal {args[0]}"


def solve_deals(  # noqa: PLR0913 — the deals, then keyword-only settings, each passed on as it is
    deals: Sequence[int],
    rules: Rules | str = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    jobs: int = 1,
    initializer: Callable[[], None] | None = None,
    mapper: Mapper | None = None,
    memory: int | None = None,
) -> Iterator[tuple[int, Solution]]:
    """Solve deal numbers (RULES.md §2) from the start; yields ``(deal, solution)`` in the order of ``deals``.

    Each result comes as soon as it and the ones before it are done.

    :param deals: the deal numbers.
    :param rules: the rule set of every deal, or a preset's name.
    :param max_nodes: the node limit of each deal (``None``: no limit).
    :param timeout: the most seconds for each deal (``None``: no limit).
    :param memory: the bytes each deal's search may use (``None``: the default), as
        :func:`~foursquare.solver.search.solve`'s; each worker process holds one search.
    :param jobs: worker processes (:func:`foursquare.parallel.ordered_map`, one deal
        per task); 1 or less, or a single deal: solved in this process, lazily.
    :param initializer: run in each worker process as it starts (e.g. to set signal
        handlers); not used in this process.
    :param mapper: where the deals are solved instead (one deal per task, given to
        it lazily): a :class:`~foursquare.parallel.Mapper` such as a Dask cluster's
        (:meth:`foursquare.cluster.Cluster.map`); ``jobs`` is then not used.
    :raises PositionError: as :func:`~foursquare.solver.search.solve`.
    :raises WorkerError: when a worker process ends before its deal is solved.
    :raises WorkerError: from a cluster's mapper (a deal that failed there is named).
    :raises ParseError, RulesError, ArgumentError: at the call, for an argument that is
        not what it should be (a deal that is not a deal number, ``jobs="2"``).
    """
    rules = as_rules(rules, "solve_deals")
    check("solve_deals", max_nodes=max_nodes, timeout=timeout, jobs=jobs, memory=memory)
    if isinstance(deals, (str, bytes)) or not isinstance(deals, Collection):
        raise wrong_argument("solve_deals", "deals", "a sequence of deal numbers (a list or a range)", deals)
    for deal in ((deals[0], deals[-1]) if deals else ()) if isinstance(deals, range) else deals:
        check_deal_number(deal)  # of a range, its ends
    work = ((d, rules, max_nodes, timeout, memory) for d in deals)
    if mapper is not None:
        return mapper(_solve_one, work, _deal_name)
    if jobs <= 1 or len(deals) <= 1:
        return map(_solve_one, work)
    from ..parallel import ordered_map

    return ordered_map(_solve_one, work, min(jobs, len(deals)), initializer=initializer)

def search_budget(
    F: int, n: int, cap: int, limit: int, room: int, floating: int, h: list[int], rk: list[int], piles: int, down: int,
    box: tuple[int, int, int, int], om: int, dm: int, ranks: list[int], t0: int, K: int, patterns: int, kt: int,
    nodes: int, max_nodes: int, deadline: float, tt_max: int, /,
) -> tuple[int, int, list[int]]: ...
def tail_patterns(
    tail: list[int], earlier: list[int], n: int, limit: int, stacks: int, max_nodes: int, deadline: float, every: bool,
    memo_max: int = ..., /,
) -> tuple[int, int, int]: ...
def bots_root(
    fixed: tuple[object, ...], board: tuple[object, ...], width: int, node_limit: float, deadline: float | None, nodes: int,
    used_evaluation: bool, cells: list[int], x: int, depth: int, /,
) -> tuple[bool, int, bool, list[tuple[int, float, float, float]]]: ...

"""The engine: cards, deals, the layout, the rule set, the game and the player's view.

Pure and fast, no I/O. Each module imports only the ones below it in this list:
``cards`` (RULES §1), ``rules`` (§8, the rule set as a value), ``deal`` (§2),
``layout`` (cells and the frame, §3), ``game`` (placing, flipping and the end, §3–5),
``view`` (what a player may know, §6).
"""

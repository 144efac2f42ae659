"""The engine: cards, deals, the layout, the rule set, the game and the player's view.

Pure and fast, no I/O. Each module imports only the ones before it in this list:
``cards`` (RULES §1), ``rules`` (§8, the rule set as a value), ``deal`` (§2),
``layout`` (cells and the frame, §3), ``arguments`` (the checks of the public entry
points' arguments), ``game`` (placing §3, flipping §4 and the
end of the turn §5; also the player's view, §6, since a game and its view are
built from each other), ``view`` (the view's import path, §6).
"""

"""The engine's tests (foursquare/engine/): cards, deals, the game and its rules, no I/O.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

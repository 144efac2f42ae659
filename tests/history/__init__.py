"""The game history's tests (foursquare/history/): its SQLite store, rows and statistics.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

"""The bots' tests (foursquare/bots/): the players, the expert's sampling, batch simulation.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

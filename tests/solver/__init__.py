"""The search's tests (foursquare/solver/): the solver, its compiled core, the last-cards rule, analysis.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

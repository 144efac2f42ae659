"""The application layer's tests (foursquare/app/): the prompt's session, the data folder, the deal choosers, resumable sweeps.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

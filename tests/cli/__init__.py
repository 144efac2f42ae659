"""The command line's tests, in-process through Click's CliRunner (foursquare/cli/).

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

"""The real program in real processes: pipes, signals, a reader that goes away, several writers at once, a Dask cluster.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

"""The foundation's tests (foursquare/errors.py, stats.py, parallel.py); cluster.py runs a real Dask cluster: e2e/test_dask.py.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

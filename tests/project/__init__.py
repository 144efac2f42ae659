"""Checks of the repository as a whole: the layers, the docstrings' examples, examples/, declared versions, the pre-commit hook.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

"""The tests of the file formats (foursquare/formats/): move scripts, transcripts, states, decks, rules files, schemas, pictures, the YAML reader.

A package (this file) so that test modules of the same name in two folders do not clash;
``tests/`` itself is not one (conftest.py puts it on ``sys.path`` for ``helpers``).
"""

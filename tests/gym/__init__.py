"""The Gymnasium environment's tests (foursquare/gym/): the spaces, the player's view only,
masks, rewards, seeding, errors, parity with ``simulate``, transcripts, vector environments.

Skipped, with the reason said, when Gymnasium is not installed (the gym extra:
``pip install -e '.[gym]'``); ``test_optional_extra.py`` runs either way.
"""

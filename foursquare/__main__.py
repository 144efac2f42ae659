"""``python -m foursquare``: the same as the ``foursquare`` command."""

from .cli import main

main(prog_name="foursquare")

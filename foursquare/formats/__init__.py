"""The file formats on the engine: the strict YAML reader, move scripts, transcripts,
states, rules files, and reading a source into a game (FORMATS.md).

Nothing here imports Click or names a command-line flag; errors are the package's own
(:class:`foursquare.errors.FormatError` and its kin).
"""

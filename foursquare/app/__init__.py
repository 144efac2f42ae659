"""The application layer: what a program does with the parts, usable without Click.

The prompt's session, the data folder, the deal choosers (winnable, daily), how a game
is named (:class:`~foursquare.app.games.GameSpec`) and writing files (atomic creation,
the one-writer lock, rewrites), resumable sweeps (resumed CSV rows, where the
tasks run). Nothing here imports Click or names a command-line
flag; what the command line must word is raised as a
:class:`~foursquare.errors.FoursquareError` carrying the facts, or returned.
"""

"""The application layer: what a program does with the parts, usable without Click."""

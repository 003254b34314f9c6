"""Altair chart specs as pure functions, the stage colours they use, and their PNG/SVG export."""

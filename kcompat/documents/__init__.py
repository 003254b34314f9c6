"""The documents kcompat prints and the pages show, built in one place (one module per document).

Both front ends import from here; the CLI only parses arguments and formats, the pages only render.
"""

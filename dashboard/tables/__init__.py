"""The data grids: the gate table, each grid's rows as text, column widths, and the table exports."""

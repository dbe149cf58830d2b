"""`bench report`: reading runs, the figures a paper needs, tables, files and pictures."""

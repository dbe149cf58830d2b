"""The structure of a render: names, the schema a renderer is asked for, the exact check, the assembled text."""

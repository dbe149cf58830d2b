"""The grid file and prompt templates: loading, checking, filling."""

"""The runner: CLI, grid config, async render-solve pipeline, append-only logs, resume and reports."""

"""Run folders on disk: append-only logs and the resume index, log records, whole-file writes."""

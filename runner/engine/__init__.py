"""The async render-solve engine: units and their keys, skeleton preparation, the pipeline, progress."""

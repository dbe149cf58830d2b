"""A grid's units and their keys: the one place the engine that runs them and the report and view that read
them both compute a unit's key (below both, above config/, source/ and store/)."""

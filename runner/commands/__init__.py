"""What each `bench` command does, between the CLI's argument parsing and the engine."""

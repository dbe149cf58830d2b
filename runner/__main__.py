"""`python -m runner` is `bench`."""
from runner.cli import main

main()

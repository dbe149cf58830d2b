"""`bench run --ray`: one grid across a Ray cluster; node agents render and solve, the driver writes the logs.

Nothing here is imported unless `--ray` is given: Ray is an extra (`pip install -e '.[ray]'`).
"""

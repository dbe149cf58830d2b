"""bench view: the runs in the browser (a local server over run folders, or a static bundle)."""

"""The shortcut audit: can shallow statistics of a skeleton, with no reasoning, predict its answer?"""

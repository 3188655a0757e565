"""Player statistics: each game summed up per player once, on write, then added up on read.

``summary`` is pure (engine values in, plain values out); ``cache`` writes the
summaries as ``PlayerGame`` rows; ``queries`` adds them up for the pages.
"""

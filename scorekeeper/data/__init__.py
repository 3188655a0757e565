"""The data layer: the database rows, the engine that holds them, and the migrations.

Only ``data/`` and ``operations/`` (and the read-only ``queries`` of each feature) open a
connection or name a row; everything above them asks ``operations``.
"""

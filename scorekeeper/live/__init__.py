"""Live changes: the broker that tells open pages a game changed, and its stream view."""

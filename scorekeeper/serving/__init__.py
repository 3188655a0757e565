"""Serving the app at a table: the production server, the LAN address to type, QR codes."""

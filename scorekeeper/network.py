"""Which address to type into the phones, when the app is served to the local network."""

from __future__ import annotations

import socket


def local_addresses() -> list[str]:
    """Return this machine's IPv4 addresses other than loopback, from its own host name."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return found
    for *_, sockaddr in infos:
        address = str(sockaddr[0])
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def addresses_to_type(host: str, port: int) -> list[str]:
    """List the URLs people can open: the LAN addresses when serving on every interface."""
    if host in ("0.0.0.0", "::", ""):
        urls = [f"http://{address}:{port}/" for address in local_addresses()]
        return urls or [f"http://127.0.0.1:{port}/"]
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}/"]

"""Which address to type into the phones, when the app is served to the local network."""

from __future__ import annotations

import functools
import os
import socket
from collections.abc import Iterable

#: The names every install answers to: this machine itself.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


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


@functools.cache
def own_names() -> tuple[str, ...]:
    """This machine's names and LAN addresses (worked out once a process)."""
    name = socket.gethostname().lower()
    names = [name, f"{name}.local"] if name else []
    return (*names, *local_addresses())


def served_hosts(configured: Iterable[str] = ()) -> list[str]:
    """The hosts the app answers to: loopback, this machine's names and LAN addresses (the
    ones ``serve`` prints), and the names a club configured (SCOREKEEPER_HOSTS, comma
    separated; a name starting with a dot takes its subdomains too)."""
    extra = [h.strip().lower() for h in os.environ.get("SCOREKEEPER_HOSTS", "").split(",")]
    found: list[str] = []
    for host in (*LOOPBACK_HOSTS, *own_names(), *configured, *extra):
        if host and host not in found:
            found.append(host)
    return found


def host_name(header: str) -> str:
    """The name in a Host header, without its port: ``[::1]:5000`` is ``[::1]``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header.partition("]")[0] + "]"
    return header.partition(":")[0].rstrip(".")


def host_is_served(header: str | None, hosts: Iterable[str]) -> bool:
    """Say whether a Host header names one of ``hosts`` (``.example.org``: and subdomains)."""
    if not header:
        return False
    name = host_name(header)
    for host in hosts:
        if host.startswith("."):
            if name == host[1:] or name.endswith(host):
                return True
        elif name == host:
            return True
    return False

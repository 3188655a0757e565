"""Which address to type into the phones, when the app is served to the local network."""

from __future__ import annotations

import functools
import os
import re
import socket
from collections.abc import Iterable, Sequence

#: The names every install answers to: this machine itself.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


#: Any address outside the LAN (TEST-NET-1, never a real host): a UDP socket "connected" to
#: it names the address this machine's traffic leaves from. Connecting a UDP socket only
#: picks a route; nothing is sent.
ROUTE_PROBE = ("192.0.2.1", 9)

#: The addresses a server listens on when it listens on every interface.
ALL_INTERFACES = ("0.0.0.0", "::", "")


def _address_of_the_default_route() -> str | None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(ROUTE_PROBE)
        return str(probe.getsockname()[0])
    except OSError:  # no route (a table with no network at all)
        return None
    finally:
        probe.close()


def local_addresses() -> list[str]:
    """Return this machine's IPv4 addresses other than loopback: the one its traffic leaves
    from first, then those its own host name resolves to.

    The host name alone is not enough: Debian's /etc/hosts names the machine 127.0.1.1, so
    ``serve --host 0.0.0.0`` printed an address no phone could reach."""
    found: list[str] = []
    routed = _address_of_the_default_route()
    if routed is not None and not routed.startswith("127."):
        found.append(routed)
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
    if host in ALL_INTERFACES:
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


@functools.cache
def lan_addresses() -> tuple[str, ...]:
    """This machine's LAN addresses, as ``serve`` printed them (worked out once a process)."""
    return tuple(local_addresses())


def is_loopback(name: str) -> bool:
    """Say whether a host name (``[::1]`` bracketed) is this machine only: no phone reaches it."""
    return name in LOOPBACK_HOSTS or name.startswith("127.")


#: A Host header: a name or IPv4 address, or a bracketed IPv6 address, then maybe a port.
HOST_HEADER = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)\.?(?::([0-9]{1,5}))?")


def address_for_phones(
    host_header: str | None,
    *,
    scheme: str = "http",
    listening_on: str | None = None,
    served: Iterable[str] | None = None,
    lan: Sequence[str] = (),
) -> str | None:
    """The origin (``http://192.168.1.20:5000``) at which the other phones at the table reach
    the app, seen from a request that named ``host_header``; None if that names no host the
    app is served as (``served``: SERVED_HOSTS; None when a proxy in front checks the Host).

    A request on loopback while the server listens on every interface (``listening_on``
    0.0.0.0, as ``serve --host 0.0.0.0``) gets the first LAN address ``serve`` printed
    (``lan``); a request on a LAN address or a configured name gets that. The port is kept.
    The origin is rebuilt from the parts of the header that were checked, never copied."""
    if not host_header:
        return None
    match = HOST_HEADER.fullmatch(host_header.strip().lower())
    if match is None:
        return None
    name, port = match.group(1), match.group(2)
    if served is not None and not host_is_served(host_header, served):
        return None
    if port is not None and not 0 < int(port) < 65536:
        return None
    if is_loopback(name) and listening_on in ALL_INTERFACES and lan:
        name = lan[0]
    return f"{scheme}://{name}" + (f":{int(port)}" if port is not None else "")

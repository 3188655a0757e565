"""`scorekeeper serve` prints a QR code of the address to open beside the address itself:
the real command, run in a subprocess on a free port, read as a terminal shows it."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import qr_images
from waiting import wait_until

SCRIPT = Path(sys.executable).parent / "scorekeeper"
HALF_BLOCKS = ("\u2580", "\u2584", "\u2588")
BLACK_ON_WHITE = "\x1b[30;107m"
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def _interface_addresses() -> set[str]:
    """This machine's IPv4 addresses, asked of each network interface (not how the app finds
    them: by its host name and its default route)."""
    found = set()
    for _, name in socket.if_nameindex():
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            answer = fcntl.ioctl(
                probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15])
            )
            found.add(socket.inet_ntoa(answer[20:24]))
        except OSError:  # an interface with no IPv4 address
            pass
        finally:
            probe.close()
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def env(tmp_path: Path, migrated_sqlite: Path) -> dict[str, str]:
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "scorekeeper.sqlite3").write_bytes(migrated_sqlite.read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    env.update(SCOREKEEPER_INSTANCE=str(folder), LANG="C.UTF-8")
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    return env


@contextmanager
def _serving(
    host: str, env: dict[str, str], *, terminal: bool, code: bool = False
) -> Iterator[list[str]]:
    """Run ``scorekeeper serve --host host`` with its output on a terminal (a pty) or a pipe;
    yield what it printed once it printed the address (and the ``code``, if one is awaited),
    then stop it."""
    port = _free_port()
    command = [str(SCRIPT), "serve", "--host", host, "--port", str(port), "--threads", "2"]
    if terminal:
        reader, writer = pty.openpty()
    else:
        reader, writer = os.pipe()
    server = subprocess.Popen(
        command, stdout=writer, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env
    )
    os.close(writer)
    printed = b""
    try:
        deadline = time.monotonic() + 60
        while b"Open http" not in printed or (code and b"Scan the code" not in printed):
            assert time.monotonic() < deadline, printed.decode(errors="replace")
            assert server.poll() is None, printed.decode(errors="replace")
            if select.select([reader], [], [], 0.5)[0]:
                printed += os.read(reader, 65536)
        if not code:
            # Everything serve prints at start comes before it listens: once it answers,
            # a code it would print is printed.
            wait_until(lambda: _answers(port, server), 60, awaited="serve to answer")
            while select.select([reader], [], [], 0.05)[0]:
                chunk = os.read(reader, 65536)
                if not chunk:
                    break
                printed += chunk
        yield printed.decode().replace("\r\n", "\n").splitlines(keepends=True)
    finally:
        server.terminate()
        # Keep reading what it prints while it stops: a terminal it cannot write to (its
        # buffer full of a code nobody read) would hold its goodbye, and so its stop.
        deadline = time.monotonic() + 20
        while server.poll() is None and time.monotonic() < deadline:
            if select.select([reader], [], [], 0.2)[0]:
                try:
                    os.read(reader, 65536)
                except OSError:  # the terminal closed with its last process
                    time.sleep(0.05)
        server.wait(timeout=1)
        os.close(reader)


def _answers(port: int, server: subprocess.Popen[bytes]) -> bool:
    """Whether the server on ``port`` answers its health check (it must still be running)."""
    assert server.poll() is None, "serve ended"
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _wait_for(url: str) -> bytes:
    def page() -> bytes | None:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                assert response.status == 200
                return bytes(response.read())
        except OSError:
            return None

    return wait_until(page, 30, every=0.2, awaited=f"{url} to answer")


def test_serve_on_every_interface_prints_a_code_a_phone_decodes_to_the_lan_address(
    env: dict[str, str],
) -> None:
    beyond_loopback = _interface_addresses() - {"127.0.0.1"}
    if not beyond_loopback:
        pytest.skip("this machine is on no network: serve can print only 127.0.0.1, no code")
    with _serving("0.0.0.0", env, terminal=True, code=True) as lines:
        opened = [line.split(" ", 1)[1].strip() for line in lines if line.startswith("Open ")]
        assert opened, lines
        # Every line of the code is painted black on white, its quiet zone too.
        code = [line for line in lines if line.startswith(BLACK_ON_WHITE)]
        assert len(code) > 10 and any(block in code[5] for block in HALF_BLOCKS), lines
        # The code comes after the addresses, in one block.
        first = lines.index(code[0])
        assert lines[first : first + len(code)] == code
        assert all(lines.index(line) < first for line in lines if line.startswith("Open "))
        assert qr_images.decoded(qr_images.terminal_picture(code)) == [opened[0]]
        assert f"Scan the code with a phone's camera to open {opened[0]}." in "".join(lines)
        # The address is one of this machine's own beyond loopback, and the app answers
        # there: what a phone at the table opens.
        host = opened[0].removeprefix("http://").rpartition(":")[0]
        assert host in beyond_loopback, (host, beyond_loopback)
        assert b"Start a new game" in _wait_for(opened[0])


def test_serve_prints_no_code_into_a_log_only_the_address(env: dict[str, str]) -> None:
    with _serving("0.0.0.0", env, terminal=False) as lines:
        assert any(line.startswith("Open http://") for line in lines), lines
        text = "".join(lines)
        assert not any(block in text for block in HALF_BLOCKS), text
        assert "\x1b[" not in text
        assert "Scan the code" not in text


def test_serve_on_loopback_prints_no_code_as_no_phone_could_open_it(env: dict[str, str]) -> None:
    with _serving("127.0.0.1", env, terminal=True) as lines:
        text = "".join(lines)
        assert "Open http://127.0.0.1:" in text
        assert not any(block in text for block in HALF_BLOCKS), text

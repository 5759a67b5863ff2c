"""Where the server can be reached from: the address it listens on and this machine's address on the local network,
for the invitation panel's advice to a player whose opponent is on another machine."""

from __future__ import annotations

import ipaddress
import socket

from ...sdk.view import JSON

#: An address on no network: connecting a UDP socket to it sends nothing, but picks the interface a packet would use.
_PROBE = ("10.254.254.254", 9)


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, or ``None`` when it has none (no network, loopback only)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def local_only(host: str) -> bool:
    """Whether a server listening on ``host`` answers this machine only (a loopback address or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def local_names() -> set[str]:
    """This machine's names (its host name, with ``.local`` for mDNS, and its full name) and its LAN address."""
    name = socket.gethostname().lower()
    names = {name, f"{name}.local", socket.getfqdn().lower()}
    lan = lan_address()
    return names | {lan} if lan else names


def is_address(host: str) -> bool:
    """Whether ``host`` is an IP address rather than a name."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def reach(host: str | None, port: int | None) -> JSON:
    """What the page says about reaching the server: the listening ``host`` and ``port`` (``None`` when not
    known, as under a test client), whether only this machine can connect, and this machine's LAN address."""
    return {
        "host": host,
        "port": port,
        "local_only": host is not None and local_only(host),
        "lan": lan_address(),
    }


__all__ = ["is_address", "lan_address", "local_names", "local_only", "reach"]

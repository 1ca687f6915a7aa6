"""Test hosts: workers in network namespaces with their own hostname and address.

Each host is a network namespace (``ip netns``) joined to a bridge in the campaign's own
private /24 by a veth pair; its processes also get a UTS namespace of their own, so
``hostname`` (and with it the lease owner's host part) is the host's. PostgreSQL is reached
over the bridge at the bridge's address: the campaign's server listens there too (and its
pg_hba trusts that /24 only). A partition takes the host's end of the veth down on the
bridge side: packets are dropped both ways, nothing sends a reset.

Only the campaign's own names (prefix ``chaos``) and addresses (10.231.7.0/24) are touched;
what a crashed earlier run left behind is removed first. Without root or iproute2 there are
no hosts: ``Network.available()`` says why, and the scenarios that need hosts say so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

BRIDGE = "chaosbr0"
NS_PREFIX = "chaosh"
VETH_PREFIX = "chaosv"  # the bridge side; the namespace side is chaosp<N>
SUBNET = "10.231.7"
SERVER_ADDRESS = f"{SUBNET}.1"
HBA_LINE = f"host all all {SUBNET}.0/24 trust  # chaos campaign test hosts"
# Runs as the namespace's first program: sets the host name in a UTS namespace of its own,
# then becomes the command (same pid, so the campaign signals the program itself).
_HOSTNAME_THEN_EXEC = 'hostname "$0" && exec "$@"'


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


@dataclass(frozen=True)
class Host:
    index: int
    name: str  # its hostname
    namespace: str
    veth: str  # the bridge side of its link: down = partitioned
    address: str

    def command(self, program: list[str]) -> list[str]:
        """``program`` run inside this host (its network namespace and hostname)."""
        return [
            *("ip", "netns", "exec", self.namespace),
            *("unshare", "--uts", "sh", "-c", _HOSTNAME_THEN_EXEC, self.name),
            *program,
        ]

    def partition(self) -> None:
        _ip("link", "set", self.veth, "down")

    def heal(self) -> None:
        _ip("link", "set", self.veth, "up")


class Network:
    """The campaign's hosts; ``close()`` removes every namespace, link and the bridge."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.hosts: list[Host] = []
        self.why_not = self.available()

    @staticmethod
    def available() -> str | None:
        """None when namespaces can be made here, else why not."""
        if os.geteuid() != 0:
            return "not root: network namespaces need CAP_NET_ADMIN"
        for tool in ("ip", "unshare", "hostname"):
            if shutil.which(tool) is None:
                return f"{tool} is not installed (iproute2 / util-linux)"
        probe = f"{NS_PREFIX}probe"
        made = _ip("netns", "add", probe, check=False)
        if made.returncode != 0:
            return f"ip netns add failed: {made.stderr.strip()}"
        _ip("netns", "del", probe, check=False)
        return None

    @property
    def kind(self) -> str:
        if self.hosts:
            return (
                f"{len(self.hosts)} hosts in network namespaces (own hostname and address"
                f" {SUBNET}.x, PostgreSQL at {SERVER_ADDRESS} over veth + bridge)"
            )
        return f"one host identity only (no namespaces: {self.why_not})"

    def __enter__(self) -> Network:
        if self.why_not is not None:
            return self
        self.remove_stale()
        try:
            _ip("link", "add", BRIDGE, "type", "bridge")
            _ip("addr", "add", f"{SERVER_ADDRESS}/24", "dev", BRIDGE)
            _ip("link", "set", BRIDGE, "up")
            for i in range(1, self.count + 1):
                self.hosts.append(self._add_host(i))
        except (subprocess.CalledProcessError, OSError) as exc:
            self.close()
            detail = getattr(exc, "stderr", "") or str(exc)
            self.why_not = f"could not build the test network: {detail.strip()}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _add_host(self, i: int) -> Host:
        ns, veth, peer = f"{NS_PREFIX}{i}", f"{VETH_PREFIX}{i}", f"chaosp{i}"
        address = f"{SUBNET}.{10 + i}"
        _ip("netns", "add", ns)
        _ip("link", "add", veth, "type", "veth", "peer", "name", peer)
        _ip("link", "set", peer, "netns", ns)
        _ip("link", "set", veth, "master", BRIDGE)
        _ip("link", "set", veth, "up")
        _ip("-n", ns, "addr", "add", f"{address}/24", "dev", peer)
        _ip("-n", ns, "link", "set", peer, "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        return Host(i, f"host-{i}", ns, veth, address)

    @staticmethod
    def remove_stale() -> None:
        """Namespaces and links of this campaign's names left by a run that crashed."""
        listed = _ip("netns", "list", check=False).stdout.split()
        for name in listed:
            if name.startswith(NS_PREFIX):
                _ip("netns", "del", name, check=False)
        links = _ip("-o", "link", "show", check=False).stdout.splitlines()
        for line in links:
            parts = line.split(":")
            if len(parts) > 1:
                name = parts[1].strip().split("@")[0]
                if name.startswith(VETH_PREFIX) or name == BRIDGE:
                    _ip("link", "del", name, check=False)

    def close(self) -> None:
        if self.why_not is None or self.hosts:
            self.remove_stale()
        self.hosts = []

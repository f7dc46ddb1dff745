"""Who may talk to a node: the Host of a request, the Origin of a handshake, the client's address.

A browser sends every page's requests with the page's ``Origin``: without a
check, any web site a player visits could open sockets to the player's server
and play through their browser. A DNS name pointed at the node after the page
loaded (DNS rebinding) makes a hostile page same-origin, but its requests
still carry the hostile ``Host``: so the Host is checked first, against a list,
and the Origin must then be the node's own page (or a listed one).
Non-browser clients send no Origin and are not concerned.

Pure functions of the request's headers and the settings.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from websockets.datastructures import Headers

ANY = "*"


def host_name(host_header: str) -> str | None:
    """The name in a ``Host`` header, lower case, without port; None if malformed.

    >>> host_name("Example.COM:8765"), host_name("[::1]:80"), host_name("a:b:c")
    ('example.com', '::1', None)
    """
    host = host_header.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0 or (host[end + 1 :] and not host[end + 1 :].startswith(":")):
            return None
        name = host[1:end]
    else:
        name, _, port = host.partition(":")
        if ":" in port:
            return None
    name = name.rstrip(".")
    return name or None


def is_host_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """The request names one of our hosts (HTTP/1.1 requires exactly one Host header)."""
    values = headers.get_all("Host")
    if len(values) != 1:
        return False
    name = host_name(values[0])
    return name is not None and (ANY in allowed or name in {a.lower() for a in allowed})


def is_origin_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser), the page's own origin, or a listed one."""
    values = headers.get_all("Origin")
    if not values:
        return True
    if len(values) != 1:
        return False
    origin = values[0].strip().lower()
    if ANY in allowed or origin in {a.lower().rstrip("/") for a in allowed}:
        return True
    if allowed:
        return False
    parts = urlsplit(origin)
    host = headers.get("Host", "").strip().lower()
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def client_address(peer: str, headers: Headers, trusted_proxies: tuple[str, ...]) -> str:
    """The client's address: the peer's, or, from a trusted proxy, the one it saw.

    nginx's ``$proxy_add_x_forwarded_for`` appends the address it saw to what
    the client sent, so only the last entry is the proxy's word. A trusted
    proxy is an address or a network (``10.0.0.0/8``).
    """
    if not is_trusted(peer, trusted_proxies):
        return peer
    forwarded = [p.strip() for p in ",".join(headers.get_all("X-Forwarded-For")).split(",")]
    return forwarded[-1] if forwarded and forwarded[-1] else peer


def is_trusted(peer: str, trusted_proxies: tuple[str, ...]) -> bool:
    """``peer`` is one of the addresses or inside one of the networks listed."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    for proxy in trusted_proxies:
        try:
            if address in ipaddress.ip_network(proxy, strict=False):
                return True
        except ValueError:
            continue
    return False

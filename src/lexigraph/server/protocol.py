"""The HTTP protocol the server runs under uvicorn: slow clients timed out, malformed requests answered in JSON.

uvicorn reads a connection's request line and headers before the ASGI app
sees anything, so two things only the protocol can do are done here, in a
subclass of uvicorn's own protocol (httptools when installed, else h11):

- **slow headers**: a connection must send a request's complete headers
  within ``header_timeout`` seconds of connecting (or of its first byte
  after a previous answer); one that does not (a client that connects and
  says nothing, or trickles a header a minute) gets a 408 and is closed.
  (uvicorn itself closes only connections idle *between* requests.) The
  body's own time limit is the app's (``Limits.body_timeout``).
- **malformed HTTP**: what uvicorn answers with a plain-text 400 gets the
  server's JSON error, ``{"error": {"type": "BadRequest", "message": ...}}``.
- **arrival**: the time a request's first byte was read (``time.monotonic()``)
  goes into its ASGI scope's ``state`` as ``"arrived"``: the request's
  deadline counts from there, not from when a busy event loop got round to
  routing it (:meth:`lexigraph.server.lanes.Server.run`).

>>> proto = protocol_class(header_timeout=5.0)
>>> proto.header_timeout, issubclass(proto, asyncio.Protocol)
(5.0, True)
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

#: The key of a request's arrival time in its ASGI scope's ``state``.
ARRIVED = "lexigraph.arrived"

log = logging.getLogger("lexigraph.server")


def error_bytes(status: int, reason: str, type_: str, message: str) -> bytes:
    """A whole HTTP/1.1 response carrying the JSON error, written before the connection closes."""
    body = json.dumps({"error": {"type": type_, "message": message}}, separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n").encode()
    return head + body


def protocol_class(header_timeout: float = 10.0) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools, else h11) with the header time limit and JSON errors above."""
    # Deferred: uvicorn is the serve extra, imported only when a server runs.
    try:
        import httptools  # noqa: F401

        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # pragma: no cover - the serve extra installs httptools
        # the other of uvicorn's two protocol classes, with the same interface (mypy knows them as two types)
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class Protocol(Base):
        """uvicorn's protocol, with a deadline on each request's headers and JSON for malformed requests."""

        #: Seconds a request's headers may take to arrive.
        header_timeout: float = 10.0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._headers_timer: asyncio.TimerHandle | None = None
            self._arrived: float | None = None

        def _waiting_for_headers(self) -> bool:
            """No request's headers are complete since the last answer (uvicorn starts a cycle on them)."""
            return self.cycle is None or bool(self.cycle.response_complete)

        def _arm(self) -> None:
            if self._headers_timer is None:
                self._headers_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._headers_timer is not None:
                self._headers_timer.cancel()
                self._headers_timer = None

        # uvicorn's base types the transport as asyncio.Transport, typeshed's BaseProtocol as BaseTransport
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()  # uvicorn waits for a silent new connection forever

        def data_received(self, data: bytes) -> None:
            waiting = self._waiting_for_headers()
            if waiting and self._arrived is None:
                self._arrived = time.monotonic()
            super().data_received(data)
            if waiting and not self._waiting_for_headers():  # the headers are in: uvicorn made the request's cycle
                self.cycle.scope.setdefault("state", {})[ARRIVED] = self._arrived
                self._arrived = None
            if self.transport.is_closing():
                self._disarm()
            elif self._waiting_for_headers():
                self._arm()  # the first bytes of a request: its headers have header_timeout to arrive
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _headers_too_slow(self) -> None:
            self._headers_timer = None
            if self.transport.is_closing() or not self._waiting_for_headers():
                return
            log.info("closed a connection whose request headers took longer than %g s", self.header_timeout)
            self.transport.write(error_bytes(408, "Request Timeout", "Timeout",
                                             f"the request headers did not arrive within {self.header_timeout:g} s"))
            self.transport.close()

        def send_400_response(self, msg: str) -> None:
            self._disarm()
            self.transport.write(error_bytes(400, "Bad Request", "BadRequest", f"malformed HTTP request: {msg}"))
            self.transport.close()

    Protocol.header_timeout = header_timeout
    Protocol.__qualname__ = Protocol.__name__ = f"Lexigraph{Base.__name__}"
    return Protocol

"""Run the app under uvicorn in a background thread, on a free loopback port (tests, benchmarks, notebooks).

>>> import urllib.request, json
>>> from lexigraph.server import create_app
>>> with serve_in_thread(create_app()) as url:
...     with urllib.request.urlopen(url + "/words?sp=?uixot??&max=2") as r:
...         [w["word"] for w in json.load(r)]
['quixotes', 'quixotic']
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .protocol import protocol_class


@contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0, **config: Any) -> Iterator[str]:
    """Serve ``app`` until the ``with`` block ends; yields the base URL (``http://127.0.0.1:PORT``).

    The connections run lexigraph's protocol (:mod:`lexigraph.server.protocol`), with the header time
    limit of the app's :class:`~lexigraph.server.lanes.Limits` when it has them.
    """
    import uvicorn  # deferred: the web stack is the serve extra; importing this module needs none of it

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    port = sock.getsockname()[1]
    limits = getattr(getattr(getattr(app, "state", None), "server", None), "limits", None)
    config.setdefault("http", protocol_class(limits.header_timeout if limits is not None else 10.0))
    cfg = uvicorn.Config(app, log_level=config.pop("log_level", "warning"), lifespan="on", **config)
    server = uvicorn.Server(cfg)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="lexigraph-serve")
    thread.start()
    try:
        stop = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > stop:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()

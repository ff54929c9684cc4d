"""A real server for the tests that need one: waitress, as `referee serve` runs it, on loopback."""

from __future__ import annotations

import contextlib
import threading

from referee.api.server import make_server


@contextlib.contextmanager
def serving(app, threads: int = 4, **options):
    """The app on 127.0.0.1 at a free port (yields the port), stopped on exit."""
    server = make_server(app, host="127.0.0.1", port=0, threads=threads, **options)

    def run():
        with contextlib.suppress(OSError):  # select() on the sockets closed under it as it stops
            server.run()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        server.task_dispatcher.shutdown()
        server.close()
        thread.join(timeout=10)
        assert not thread.is_alive()

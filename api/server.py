"""The waitress server of `referee serve`: its own errors (431, 413, 400 before the app sees
the request) answered in the API's one error shape."""
from __future__ import annotations

import orjson
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask


class JsonErrorTask(ErrorTask):
    def execute(self):
        error = self.request.error
        body = orjson.dumps({"code": error.code, "status": error.reason,
                             "message": str(error.body).strip() or error.reason, "findings": []})
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JsonErrorChannel(HTTPChannel):
    error_task_class = JsonErrorTask


def make_server(app, **options):
    """A waitress server (not yet running) for `app`; `options` are waitress adjustments."""
    server = create_server(app, **options)
    server.channel_class = JsonErrorChannel
    return server

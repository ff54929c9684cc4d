"""The referee's REST API (flask, flask-smorest) over the record store: `create_app` (api/app.py).

Loaded on first use, so that `referee store`, which needs only api/store.py, starts without flask."""

_FROM_APP = ("create_app", "RefereeApi", "DEFAULT_MAX_BODY")


def __getattr__(name: str):
    if name not in _FROM_APP:  # a submodule not imported yet (`from . import schemas`) is found by the import system
        raise AttributeError(name)
    from importlib import import_module

    return getattr(import_module("referee.api.app"), name)

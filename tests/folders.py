"""A folder that cannot be listed, for tests: root, who runs them here, may list every folder."""

from __future__ import annotations

import os


def refuse_listing(monkeypatch, name: str = "locked"):
    """os.scandir and os.listdir answer for a folder called `name` what they answer without read permission."""
    real_scandir = os.scandir

    def refuse(path="."):
        if str(path).endswith(name):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    monkeypatch.setattr(os, "listdir", lambda path=".": [entry.name for entry in refuse(path)])

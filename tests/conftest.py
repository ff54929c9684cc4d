"""Every test speaks English unless it asks for another language: the machine's locale (LANG=zh_CN.UTF-8)
is not the test's, and a command run in Chinese leaves the process's language set."""

import pytest

from referee.messages import use_language


@pytest.fixture(autouse=True)
def english_unless_asked(monkeypatch):
    monkeypatch.setenv("REFEREE_LANG", "en")
    yield
    use_language("en")

"""`fmt -w` and `import -o` replace a file as it was: through a symlink, with its mode, owner and
hard links, and never a file outside the folder `fmt -w` was given."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.builders import guandan, quick_deal

CAPTURE = str(Path(__file__).parent / "data" / "captures" / "match-several-deals.jsonl.gz")
RECORD = guandan([quick_deal([0, 2])])
UNFORMATTED = orjson.dumps(RECORD)  # one line: fmt -w rewrites it in canonical form
OTHER_UID, OTHER_GID = 4242, 4343


def run(*args):
    return CliRunner().invoke(main, list(args))


def fmt_w(path):
    return run("fmt", "-w", str(path))


def import_o(path):
    return run("import", "--from", "competition", CAPTURE, "-o", str(path))


def record_file(path: Path) -> Path:
    path.write_bytes(UNFORMATTED)
    return path


def rewritten(path: Path) -> bool:
    return path.read_bytes() != UNFORMATTED and path.read_bytes().startswith(b"{")


@pytest.fixture(params=["fmt", "import"])
def rewrite(request):
    """Each of the two commands that replace a file, and how to tell that it did."""
    if request.param == "fmt":
        return fmt_w, rewritten
    return import_o, lambda path: b'"game":"guandan"' in path.read_bytes()


def test_a_symlink_stays_and_its_target_is_written_with_its_mode(tmp_path, rewrite):
    command, done = rewrite
    target = record_file(tmp_path / "target.jsonl")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert command(link).exit_code == 0
    assert link.is_symlink() and done(target)
    assert target.stat().st_mode & 0o777 == 0o640


def test_the_owner_is_kept(tmp_path, rewrite):
    command, done = rewrite
    path = record_file(tmp_path / "owned.jsonl")
    os.chown(path, OTHER_UID, OTHER_GID)
    assert command(path).exit_code == 0
    assert done(path) and (path.stat().st_uid, path.stat().st_gid) == (OTHER_UID, OTHER_GID)


def test_hard_links_stay_one_file(tmp_path, rewrite):
    command, done = rewrite
    path = record_file(tmp_path / "linked.jsonl")
    other = tmp_path / "elsewhere.jsonl"
    os.link(path, other)
    assert command(path).exit_code == 0
    assert done(path) and os.path.samefile(path, other) and other.stat().st_nlink == 2


def test_an_owner_that_cannot_be_given_back_is_kept_by_writing_in_place(tmp_path, rewrite, monkeypatch):
    command, done = rewrite
    path = record_file(tmp_path / "theirs.jsonl")
    inode = path.stat().st_ino

    def refused(*args, **kwargs):  # what a user who is not root hears when giving a file away
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refused)
    assert command(path).exit_code == 0
    assert done(path) and path.stat().st_ino == inode
    assert [p.name for p in tmp_path.iterdir()] == ["theirs.jsonl"]


def test_a_new_output_file_gets_the_mode_the_umask_gives(tmp_path):
    mask = os.umask(0o027)
    try:
        assert import_o(tmp_path / "new.jsonl").exit_code == 0
    finally:
        os.umask(mask)
    assert (tmp_path / "new.jsonl").stat().st_mode & 0o777 == 0o640


def test_import_into_a_pipe_writes_to_it_and_never_replaces_it(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()), daemon=True)
    reader.start()
    result = import_o(pipe)
    reader.join(10)
    assert result.exit_code == 0, result.output
    assert pipe.is_fifo() and received and b'"game":"guandan"' in received[0]


def test_fmt_w_on_a_folder_skips_a_symlink_to_a_file_outside_it(tmp_path):
    folder, outside = tmp_path / "archive", tmp_path / "elsewhere"
    folder.mkdir()
    outside.mkdir()
    inside = record_file(folder / "a.json")
    target = record_file(outside / "b.json")
    link = folder / "b.json"
    link.symlink_to(target)
    (folder / "c.json").symlink_to(inside)  # a link that stays in the folder is followed
    result = fmt_w(folder)
    assert result.exit_code == 0, result.output
    assert f"skipped {link}: a symlink to {target}, outside {folder}" in result.stderr
    assert target.read_bytes() == UNFORMATTED and link.is_symlink()
    assert rewritten(inside) and (folder / "c.json").is_symlink()

"""`referee audit` on a Dask LocalCluster gives the reports `validate --json` gives."""

import gzip
import json
import subprocess
import sys

import fsspec
import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.guandan_gen import match_record

pytest.importorskip("distributed", reason="referee audit needs the optional dask extra: pip install '.[dask]'")


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("archive")
    records = [json.dumps(match_record(seed, max_deals=2)) for seed in range(5)]
    broken = json.loads(records[1])
    broken["deals"][0]["actions"][0]["seat"] = 9
    (folder / "a.jsonl").write_text("\n".join([records[0], json.dumps(broken), "", "{not json"]) + "\n")
    (folder / "b.jsonl").write_text("\n".join(records[2:4]) + "\n")
    with gzip.open(folder / "c.jsonl.gz", "wt") as packed:
        packed.write(records[4] + "\n")
    return folder


@pytest.fixture(scope="module")
def audited(archive, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    summary = out / "summary.json"
    result = run("audit", str(archive), "-o", str(out / "reports"), "--workers", "2", "--summary-json", str(summary))
    return result, out / "reports", json.loads(summary.read_text())


def test_reports_are_those_of_validate(archive, audited):
    result, reports, _ = audited
    assert result.exit_code == 2, result.output  # one line is not JSON
    parts = sorted(reports.glob("part-*.jsonl"))
    assert [p.name for p in parts] == ["part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    plain = run("validate", "--json", "-j", "1", str(archive / "a.jsonl"), str(archive / "b.jsonl")).stdout
    assert parts[0].read_text() + parts[1].read_text() == plain
    (packed,) = [json.loads(line) for line in parts[2].read_text().splitlines()]
    assert packed["source"] == f"{archive / 'c.jsonl.gz'}:1" and packed["valid"]


def test_summary_counts_verdicts_and_rules(audited):
    _, _, summary = audited
    assert summary["records"] == 6
    assert (summary["valid"], summary["invalid"], summary["unreadable"]) == (4, 1, 1)
    assert summary["rules"]["notation.json"] == 1 and sum(summary["rules"].values()) >= 2


def test_parquet_rows_hold_the_whole_report(archive, tmp_path, monkeypatch):
    pandas = pytest.importorskip("pandas")
    monkeypatch.chdir(archive)
    result = run("audit", "b.jsonl", "-o", str(tmp_path / "pq"), "--format", "parquet", "--workers", "1")
    assert result.exit_code == 0, result.output
    table = pandas.read_parquet(tmp_path / "pq")
    assert list(table.columns) == ["source", "valid", "game", "errors", "rules", "report"]
    assert len(table) == 2 and table["valid"].all()
    assert list(table["source"]) == ["b.jsonl:1", "b.jsonl:2"]  # named as given, as validate names them
    assert json.loads(table["report"][0])["source"] == "b.jsonl:1"


def test_a_folder_without_archives_or_a_missing_file_is_refused(tmp_path):
    result = run("audit", str(tmp_path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "no JSON Lines file" in result.output
    result = run("audit", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "no such file" in result.output


def test_integrity_on_the_cluster_finds_what_the_command_finds(archive, tmp_path):
    pytest.importorskip("numpy")
    copy = archive.parent / (archive.name + "-copies")
    copy.mkdir(exist_ok=True)
    (copy / "d.jsonl").write_text((archive / "b.jsonl").read_text().splitlines()[0] + "\n")
    result = run(
        "audit", "--integrity", str(archive), str(copy / "d.jsonl"), "-o", str(tmp_path / "out"), "--workers", "2"
    )
    lines = [json.loads(line) for line in (tmp_path / "out" / "integrity.jsonl").read_text().splitlines()]
    plain = [
        json.loads(line)
        for line in run(
            "integrity",
            "--json",
            str(archive / "a.jsonl"),
            str(archive / "b.jsonl"),
            str(archive / "c.jsonl.gz"),
            str(copy / "d.jsonl"),
        ).stdout.splitlines()
    ]
    assert lines == plain and result.exit_code == 2  # a.jsonl has a line that is not JSON
    assert lines[-1]["unreadable"] == 1
    (same,) = [f for f in lines if f["kind"] == "duplicate" and f["relation"] == "same_record"]
    assert same["records"] == [f"{archive / 'b.jsonl'}:1", f"{copy / 'd.jsonl'}:1"]


def test_each_record_is_checked_once_for_its_report_and_the_summary(archive, tmp_path, monkeypatch):
    """Issue 36: the reports written and the summary come from one check of each record, in the task that
    reads the file (Dask's to_textfiles made a partition again for a summary computed beside it)."""
    from referee import audit, batch

    checked = []
    real = batch.check_one
    monkeypatch.setattr(batch, "check_one", lambda text, *rest: checked.append(text) or real(text, *rest))
    ((name, source),) = audit.files_of([str(archive / "b.jsonl")])
    (part,) = fsspec.open_files(str(tmp_path / "part-*.jsonl"), "wb", name_function=audit.part_name, num=1)
    summary = audit.written_part(name, source, part, "en").summary()
    assert len(checked) == summary["records"] == summary["valid"] == 2
    plain = run("validate", "--json", "-j", "1", str(archive / "b.jsonl")).stdout
    assert (tmp_path / "part-00000.jsonl").read_text() == plain


def test_reports_are_in_the_language_of_the_command(archive, tmp_path):
    """The workers render the messages in the command's language, as `validate -j N` has its processes do."""
    out = tmp_path / "zh"
    result = run("audit", "--lang", "zh", str(archive / "a.jsonl"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 2, result.output
    plain = run("validate", "--lang", "zh", "--json", "-j", "1", str(archive / "a.jsonl")).stdout
    assert (out / "part-00000.jsonl").read_text() == plain and not plain.isascii()


def test_a_jsonl_audit_imports_dask_without_numpy_and_leaves_it_importable():
    """Issue 36: numpy (and jinja2) cost a jsonl audit's command a tenth of its CPU and serve it nothing; kept out
    of Dask's import only, they can still be imported after it, and the cycle collector runs again."""
    pytest.importorskip("numpy")
    script = (
        "import gc, sys; from referee.cli import audit; audit._imported_dask(audit.UNUSED_BY_JSONL); "
        "print('numpy' in sys.modules, 'jinja2' in sys.modules, gc.isenabled()); import numpy, jinja2"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["False", "False", "True"]


def test_a_summary_over_an_input_is_refused_before_anything_runs(archive, tmp_path):
    target = archive / "a.jsonl"
    before = target.read_bytes()
    result = run("audit", str(archive), "-o", str(tmp_path / "reports"), "--summary-json", str(target))
    assert result.exit_code == 2 and "which this command reads: write elsewhere" in result.output
    assert target.read_bytes() == before and not (tmp_path / "reports").exists()

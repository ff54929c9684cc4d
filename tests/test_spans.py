"""validate -j N: the lines of a plain JSON Lines file are handed to the pool's processes as Spans
(byte ranges they read themselves), with the same reports, in the same order, as read line by line."""

import gzip
import itertools
import os
from pathlib import Path

import orjson

from referee.batch import BATCH_BYTES, SPAN_BYTES, SPAN_LINES, Span, check_batch, records_of
from tests.guandan_gen import match_record


def _edge_file(path):
    """Records and every kind of line a reader must tell apart: blank, broken JSON, not UTF-8, CRLF,
    one line longer than a span, and no newline at the end."""
    lines = []
    for seed in range(160):
        lines.append(orjson.dumps(match_record(seed, max_deals=1)))
        lines += [b"", b'{"broken": ', b"\xff\xfe not UTF-8", orjson.dumps({"cgr": 1}) + b"\r"][seed % 5 : seed % 5 + 1]
    lines.insert(120, b'{"long": "' + b"a" * (3 * BATCH_BYTES) + b'"}')
    path.write_bytes(b"\n".join(lines))
    return str(path)


def _reports(pairs):
    return [(report.source, orjson.dumps(report.as_dict())) for report in check_batch(list(pairs))]


def test_spans_give_the_reports_of_the_lines_read_one_by_one(tmp_path):
    path = _edge_file(tmp_path / "edge.jsonl")
    spanned = list(records_of(path, spans=True))
    assert sum(isinstance(item, Span) for _, item in spanned) > 3
    assert _reports(spanned) == _reports(records_of(path))


def test_spans_cover_the_file_once_and_count_its_lines(tmp_path):
    path = _edge_file(tmp_path / "edge.jsonl")
    spans = [item for _, item in records_of(path, spans=True) if isinstance(item, Span)]
    assert all(a.end == b.start and a.first + a.lines == b.first for a, b in itertools.pairwise(spans))
    data = Path(path).read_bytes()
    assert spans[-1].end == len(data) and data[: spans[0].start].count(b"\n") + 1 == spans[0].first


def test_only_a_plain_file_is_read_in_spans(tmp_path):
    path = _edge_file(tmp_path / "edge.jsonl")
    zipped = tmp_path / "edge.jsonl.gz"
    zipped.write_bytes(gzip.compress(Path(path).read_bytes()))
    assert not any(isinstance(item, Span) for _, item in records_of(str(zipped), spans=True))
    assert _reports(records_of(str(zipped), spans=True)) == _reports(records_of(str(zipped)))


def test_a_file_gone_before_its_span_is_read_is_reported_not_a_crash(tmp_path):
    path = _edge_file(tmp_path / "edge.jsonl")
    spans = [(source, item) for source, item in records_of(path, spans=True) if isinstance(item, Span)]
    (tmp_path / "edge.jsonl").unlink()
    reports = check_batch(spans[:1])
    assert [(r.source, r.findings[0].rule) for r in reports] == [(f"{path}:{spans[0][1].first}", "notation.file")]


def test_spans_shrink_from_a_megabyte_to_a_batch_towards_the_end(tmp_path):
    """Few round trips to the pool (a span at most SPAN_BYTES), and a short wait for the last one."""
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join(b'{"line": %d, "pad": "%s"}\n' % (n, b"x" * 1000) for n in range(10000)))
    sizes = [item.end - item.start for _, item in records_of(str(path), spans=True) if isinstance(item, Span)]
    assert max(sizes) <= SPAN_BYTES and sizes[0] > SPAN_BYTES - 1100
    assert BATCH_BYTES - 1100 < sizes[-2] <= BATCH_BYTES
    assert all(a >= b - 1100 for a, b in itertools.pairwise(sizes))


def test_a_file_replaced_before_its_span_is_read_is_reported_not_read_as_the_new_one(tmp_path):
    """A process opens the path again: another file there by now (an editor's or fmt -w's rename) would
    have its bytes read as the old file's lines, from the middle of some line."""
    path = _edge_file(tmp_path / "edge.jsonl")
    spans = [(source, item) for source, item in records_of(path, spans=True) if isinstance(item, Span)]
    (tmp_path / "new.jsonl").write_bytes(Path(path).read_bytes()[::-1])
    os.replace(tmp_path / "new.jsonl", path)
    reports = check_batch(spans[1:2])
    assert [(r.source, r.findings[0].rule, r.unreadable) for r in reports] == [
        (f"{path}:{spans[1][1].first}", "notation.file", True)
    ]
    assert "changed while it was being read" in reports[0].findings[0].message


def test_a_file_cut_short_before_its_span_is_read_says_so(tmp_path):
    """The lines a span stands for are gone: said, not silently left out of the summary."""
    path = _edge_file(tmp_path / "edge.jsonl")
    spans = [(source, item) for source, item in records_of(path, spans=True) if isinstance(item, Span)]
    cut = spans[1][1].start + (spans[1][1].end - spans[1][1].start) // 2
    os.truncate(path, cut)
    whole = check_batch(spans[:1])
    assert whole and not any(r.unreadable and r.findings[0].rule == "notation.file" for r in whole)
    shortened, gone = check_batch(spans[1:2]), check_batch(spans[2:3])
    assert shortened[-1].source == f"{path}:{spans[1][1].first}" and shortened[-1].findings[0].rule == "notation.file"
    assert "changed while it was being read" in shortened[-1].findings[0].message
    assert [(r.source, r.findings[0].rule) for r in gone] == [(f"{path}:{spans[2][1].first}", "notation.file")]


def test_a_span_of_tiny_lines_holds_a_bounded_number_of_records(tmp_path):
    """A span's reports come back to the command together: a megabyte of `1` lines (half a million
    records) held some 150 MB of them in each process (-j 2: 170 MB at the peak, -j 1: 28 MB)."""
    path = tmp_path / "tiny.jsonl"
    path.write_bytes(b"1\n" * 5000 + b"\n{}\r\n" * 2000 + b"1")
    spanned = list(records_of(str(path), spans=True))
    spans = [item for _, item in spanned if isinstance(item, Span)]
    assert len(spans) > 5 and max(span.lines for span in spans) <= SPAN_LINES
    assert all(a.end == b.start and a.first + a.lines == b.first for a, b in itertools.pairwise(spans))
    assert spans[-1].end == path.stat().st_size
    assert _reports(spanned) == _reports(records_of(str(path)))

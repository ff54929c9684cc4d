"""`referee store import`: check records and store them with their reports. Its command line is read by click
(cli/store.py) or, for the commonest lines, by cli/start.py, which loads no click: this module does without it too."""

from __future__ import annotations

import atexit
import contextlib
import gc
import sys
from collections import Counter

from referee.batch import decoded, records_of
from referee.findings import Report
from referee.messages import part
from referee.replay import cycle_collection_paused

from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, echo, expand, fail, say, warn
from .progress import counted, progress_bar, total_bytes

msg, msg_n, word, word_of = part("cli")

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import NoReturn

# records a transaction, and their text at most (one record more than that stays a batch of its own): one
# commit for each, memory flat whatever the file's size and its records' (a parsed record takes some 10 times
# its text)
IMPORT_BATCH, IMPORT_BATCH_BYTES = 64, 2 << 20


def import_files(files, db_path: str, submitter: str) -> NoReturn:
    """Check the records of `files` and store them in the store at `db_path`, saying what became of each."""
    from ..api.store import Store, StoreError

    atexit.register(gc.freeze)  # no last collection of the games' caches at exit, as validate (cli/validate.py)
    try:
        records = Store(db_path, wait=30)
    except StoreError as exc:
        fail(exc.text)
    counts = Counter(stored=0, already=0, rejected=0, invalid=0)
    warnings = []
    paths = list(expand(files, lambda message: warnings.append(warn(message))))
    items = (pair for path in paths for pair in records_of(path, raw=True))
    progress = progress_bar()
    with progress or contextlib.nullcontext():
        if progress:
            items = counted(items, progress, total_bytes(paths))
        for batch in _batches(items):
            _import_batch(records, batch, submitter, counts)
    records.close()
    if not (counts["stored"] or counts["already"] or counts["rejected"]):
        warnings.append(warn(msg("no records were selected")))
    say(msg("{stored} new, {already} already in the store, {rejected} rejected; {invalid} invalid", **counts))
    sys.exit(EXIT_UNREADABLE if counts["rejected"] or warnings else EXIT_INVALID if counts["invalid"] else EXIT_VALID)


def _batches(items):
    """Lists of (source, record text or its bytes, or unreadable report), IMPORT_BATCH and IMPORT_BATCH_BYTES at
    most."""
    batch, size = [], 0
    for source, item in items:
        text = 0 if isinstance(item, Report) else len(item)
        if batch and (len(batch) == IMPORT_BATCH or size + text > IMPORT_BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append((source, item))
        size += text
    if batch:
        yield batch


def _prepared(records, batch: list, hashes: list, known: dict) -> list:
    """For each (source, item) of a batch: the findings that keep it out, the summary of the record
    its text is stored as (`known`, by hash), or the entry to store (Entry.kept). A record stored
    already from another text (found by its id) is not checked again."""
    return [
        [item.findings[0]] if isinstance(item, Report) else known.get(h) or _entry(records, item, h)
        for (_, item), h in zip(batch, hashes)
    ]


def _entry(records, text: str, source: str):
    """The entry to store of a record's text whose hash is `source`, or the findings that keep it out."""
    from ..api.store import entry_of, form_of_text

    formed = form_of_text(text)
    if isinstance(formed, list):
        return formed
    return entry_of(*formed, source, records.report(formed[0])).kept()


@cycle_collection_paused()  # as validate checks a batch: what it leaves is collected once, after it is stored
def _import_batch(records, batch: list, submitter: str, counts: Counter):
    """Store a batch of (source, record text or its bytes, or unreadable report) in one transaction, saying what
    became of each record in order. A text stored before (the same bytes) is known by its hash, neither decoded
    nor checked again."""
    from ..api.store import Entry, StoreError, text_hash

    hashes = [None if isinstance(item, Report) else text_hash(item) for _, item in batch]
    known = records.stored_sources([h for h in hashes if h])
    batch = [
        (where, decoded(item, where) if isinstance(item, bytes) and h not in known else item)
        for (where, item), h in zip(batch, hashes)
    ]
    prepared = _prepared(records, batch, hashes, known)
    entries = [p for p in prepared if isinstance(p, Entry)]
    stored, problem = iter(()), None
    try:
        if entries:  # a batch stored already whole takes no turn at the store's write lock
            stored = iter(records.put_all(entries, submitter))
    except StoreError as exc:
        problem = exc.text
    for (where, _), outcome in zip(batch, prepared):
        if isinstance(outcome, list):
            first = outcome[0]
            say(
                msg(
                    "{where}: not stored: {rule} at {at}: {message}",
                    where=where,
                    rule=first.rule,
                    at=first.at or "/",
                    message=first.shown(),
                )
            )
            counts["rejected"] += 1
            continue
        if problem:
            say(msg("{where}: not stored: {reason}", where=where, reason=problem))
            counts["rejected"] += 1
            continue
        summary, created = next(stored) if isinstance(outcome, Entry) else (outcome, False)
        counts["invalid"] += not summary["valid"]
        counts["stored" if created else "already"] += 1
        echo(
            f"{where}: {summary['id']} "
            + (msg("stored") if created else msg("already stored")).render()
            + ("" if summary["valid"] else msg(" (invalid)").render())
        )

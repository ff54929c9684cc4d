"""The CPU time a server already started spends answering the API's batch posting of a file, new and again.

Run: python benchmarks/api_served.py FILE DB WARM POSTED (benchmarks/store_import.py runs it). It starts the API as
`referee serve` does (checks in worker processes, api/workers.py; what is loaded frozen out of the cycle
collector's sight, api/server.py's run; the app's test client in place of waitress), warms it with the
records of WARM (other matches, posted and validated until every worker has answered), then posts FILE
twice in bodies of POSTED records (POST /v1/records, JSON Lines): into the store, then again (every record
stored). It prints, as JSON, the CPU seconds (user + system) each posting cost the server process (its every
thread: getrusage) and its check workers, start-up and shutdown left out. A worker is a child of the fork
server, not of this process, so its time never reaches this process's RUSAGE_CHILDREN while it runs: it is
read from /proc, each worker's threads' time on a CPU (the first field of /proc/PID/task/TID/schedstat, in
nanoseconds, which getrusage's user and system times are scaled to), before and after.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import resource
import sys
import time

SETTLED = 0.2  # seconds without a worker's CPU time growing: its start-up done
HEADERS = {"Authorization": "Bearer t"}


def main(path: str, db: str, warm: str, posted: int) -> None:
    from referee.api import create_app  # here: the workers, which run this file first, load only what serve's do
    from referee.api.store import CHECKPOINT_EVERY
    from referee.game import games

    app = create_app(db, token="t", check_processes=True)
    games()
    gc.collect()
    gc.freeze()
    client = app.test_client()
    _warmed(client, warm)
    workers = [process.pid for process in multiprocessing.active_children()]
    lines = _lines(path)
    spent = {}
    for name in ("post", "post again"):
        before = _cpu(workers)
        _post(client, lines, posted)
        time.sleep(CHECKPOINT_EVERY + 0.5)  # the store's checkpoint of these writes, on its thread, counted
        spent[name] = _cpu(workers) - before
    assert workers == [process.pid for process in multiprocessing.active_children()], "a worker was replaced"
    print(json.dumps(spent))
    app.extensions["referee.pool"].close()


def _lines(path: str) -> list[bytes]:
    with open(path, "rb") as handle:
        return handle.read().splitlines(keepends=True)


def _post(client, lines: list[bytes], posted: int) -> None:
    for i in range(0, len(lines), posted):
        answer = client.post(
            "/v1/records", data=b"".join(lines[i : i + posted]), headers=HEADERS, content_type="application/x-ndjson"
        )
        assert answer.status_code == 200, (answer.status_code, answer.data[:500])


def _warmed(client, warm: str) -> None:
    """Every path of the posting run once (in the server and in each worker), and every worker's start-up done
    (the workers are started by the first check, api/workers.py)."""
    lines = _lines(warm)
    client.post("/v1/validate", data=lines[0], content_type="application/x-ndjson")  # the workers started
    workers = multiprocessing.active_children()
    for line in lines[: len(workers) * 2]:
        client.post("/v1/records", data=line, headers=HEADERS, content_type="application/x-ndjson")
        client.post("/v1/validate", data=line, content_type="application/x-ndjson")
    _post(client, lines[len(workers) * 2 :], len(lines))
    pids = [process.pid for process in workers]
    while True:
        before = [_worker_cpu(pid) for pid in pids]
        time.sleep(SETTLED)
        if before == [_worker_cpu(pid) for pid in pids]:
            return


def _cpu(workers: list[int]) -> float:
    """CPU seconds so far of this process and of the workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + sum(map(_worker_cpu, workers))


def _worker_cpu(pid: int) -> float:
    tasks = f"/proc/{pid}/task"
    total = 0
    for task in os.listdir(tasks):
        with open(f"{tasks}/{task}/schedstat") as handle:
            total += int(handle.read().split()[0])
    return total / 1e9


if __name__ == "__main__":
    main(*sys.argv[1:4], int(sys.argv[4]))

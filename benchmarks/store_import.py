"""`referee store import` beside `referee validate` on the same file, in CPU time of the whole process.

Run: .venv/bin/python benchmarks/store_import.py [--matches N] [--repeat R] [--game G] [--seed S] (part of
`make bench`). It writes N distinct matches of game G (Guandan unless said; from seed S, to measure on
matches of other seeds) of up to 10 deals of real length (benchmarks/throughput.py's
corpus, seeds no other corpus uses) to a JSON Lines file and, R times in turn, runs
`referee validate -j 1 --json FILE`, `referee store import FILE` into a new store, the same import
again (every record already stored), the API's batch posting of the file into a new store (POST
/v1/records, JSON Lines bodies of POSTED records, checks in worker processes as `referee serve` runs them,
their CPU time counted) and the same posting again, each a new process (the `referee` command installed
beside the Python that runs this, as a user starts it: its start-up counts); then the same two postings
to a server already started, as `referee serve` answers batch after batch: only the CPU time the server
process and its check workers spend answering the file's requests, their start-up and shutdown left out
(SERVED). It prints the medians of their CPU time (user + system), the median of each run's ratio to the
validate run beside it, and the peak memory of the largest of these processes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import GAMES, corpus, process_times  # noqa: E402

REFEREE = os.path.join(os.path.dirname(sys.executable), "referee")

SEEDS = 8 * 10**8
POSTED = 50  # records a request body
WARM = 8  # matches (beyond the file's) that warm the started server (benchmarks/api_served.py)
SERVED = [sys.executable, os.path.join(ROOT, "benchmarks", "api_served.py")]
# The API's batch posting as `referee serve` runs it: checks in worker processes (api/workers.py), what is
# loaded frozen out of the cycle collector's sight (api/server.py's run); the app's test client in place of
# waitress. The workers are stopped and their fork server reaped at the end, so that their CPU time is counted
# with this process's (a process's CPU time reaches its parent only when the parent waits for it).
POST = [
    sys.executable,
    "-c",
    "import gc, multiprocessing.forkserver, sys\n"
    "from referee.api import create_app\n"
    "from referee.game import games\n"
    "app = create_app(sys.argv[2], token='t', check_processes=True)\n"
    "games()\n"
    "gc.collect()\n"
    "gc.freeze()\n"
    "client = app.test_client()\n"
    "lines = open(sys.argv[1], 'rb').read().splitlines(keepends=True)\n"
    f"for i in range(0, len(lines), {POSTED}):\n"
    f"    body = b''.join(lines[i:i + {POSTED}])\n"
    "    headers = {'Authorization': 'Bearer t'}\n"
    "    answer = client.post('/v1/records', data=body, headers=headers, content_type='application/x-ndjson')\n"
    "    assert answer.status_code == 200, answer.status_code\n"
    "app.extensions['referee.pool'].close()\n"
    "multiprocessing.forkserver._forkserver._stop()\n",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", choices=sorted(GAMES), default="guandan")
    parser.add_argument("--seed", type=int, default=SEEDS)
    args = parser.parse_args()
    lines, deals = corpus(GAMES[args.game], (args.matches + WARM) * 10, 10, args.seed)
    lines, warm = lines[: args.matches], lines[args.matches : args.matches + WARM]
    deals, size = sum(line.count('"hands"') for line in lines), sum(map(len, lines)) / 1e6
    env = dict(os.environ, PYTHONPATH=ROOT)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    times: dict[str, list[float]] = {"validate": [], "import": [], "again": [], "post": [], "post again": []}
    served: dict[str, list[float]] = {"post": [], "post again": []}  # to a server already started
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "matches.jsonl")
        with open(path, "w") as handle:
            handle.writelines(line + "\n" for line in lines)
        warm_path = os.path.join(folder, "warm.jsonl")
        with open(warm_path, "w") as handle:
            handle.writelines(line + "\n" for line in warm)
        for run in range(args.repeat):
            db = os.path.join(folder, f"store{run}.db")
            times["validate"].append(process_times([REFEREE, "validate", "-j", "1", "--json", path], **quiet)[1])
            times["import"].append(process_times([REFEREE, "store", "import", "--db", db, path], **quiet)[1])
            times["again"].append(process_times([REFEREE, "store", "import", "--db", db, path], **quiet)[1])
            posted = os.path.join(folder, f"posted{run}.db")
            times["post"].append(process_times(POST + [path, posted], check=True, **quiet)[1])
            times["post again"].append(process_times(POST + [path, posted], check=True, **quiet)[1])
            argv = SERVED + [path, os.path.join(folder, f"served{run}.db"), warm_path, str(POSTED)]
            spent = json.loads(subprocess.run(argv, env=env, check=True, capture_output=True).stdout)
            for key in served:
                served[key].append(spent[key])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    validate, imported, again, post, post_again = (statistics.median(times[key]) for key in times)
    ratio = {
        key: statistics.median(t / v for t, v in zip(times[key], times["validate"]))
        for key in ("import", "again", "post", "post again")
    }
    print(f"command: python benchmarks/store_import.py {' '.join(sys.argv[1:])}")
    print(
        f"{len(lines)} distinct {args.game} matches, {deals} deals, {size:.1f} MB; "
        f"CPU seconds of the whole process, medians of {args.repeat} runs in turn (load average "
        f"{os.getloadavg()[0]:.1f}):"
    )
    print(f"  validate -j 1 --json: {validate:.2f} s")
    print(f"  store import, a new store: {imported:.2f} s ({ratio['import']:.2f}x validate)")
    print(f"  store import again, every record stored: {again:.2f} s ({ratio['again']:.2f}x validate)")
    print(f"  POST /v1/records, bodies of {POSTED}, a new store: {post:.2f} s ({ratio['post']:.2f}x validate)")
    print(f"  POST /v1/records again, every record stored: {post_again:.2f} s ({ratio['post again']:.2f}x validate)")
    for key, said in (("post", "a new store"), ("post again", "again, every record stored")):
        ratio = statistics.median(t / v for t, v in zip(served[key], times["validate"]))
        print(
            f"  POST /v1/records to a server already started, {said}: {statistics.median(served[key]):.2f} s "
            f"({ratio:.2f}x validate; its process and check workers answering the file's requests only, "
            "start-up and shutdown left out)"
        )
    print(f"  the largest of these processes peaked at {peak:.0f} MB")


if __name__ == "__main__":
    main()

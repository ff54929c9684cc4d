"""REST API latency: POST /v1/validate with a Guandan match, and POST /v1/records of new matches, on
loopback only.

Run: .venv/bin/python benchmarks/api_throughput.py [--requests N] [--writes N] [--rounds R] [--clients 1,4]
It starts its own `referee serve --no-auth` on 127.0.0.1 at a free port with a store in a
temporary folder, then runs R rounds; in each round every client count in turn sends N requests
from that many keep-alive clients to /v1/validate (the same match), then as many writers store
--writes distinct matches (each a record the store has never seen, so each is checked and written).
It prints, per endpoint and client count, the medians over the rounds of requests per second,
median latency and 99th-percentile latency (with the rounds' range of the p99), the server's CPU
time, and stops the server. As a same-run yardstick of the machine's speed, each round also times
the check of the validate body in this process (wall time, the median of 10): each p99 is also given
as the median of the rounds' ratios to it (4 clients on one core cannot do better than about 4).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import orjson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import GAMES, corpus  # noqa: E402
from referee.batch import check_one  # noqa: E402
from tests.guandan_gen import match_record  # noqa: E402

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(port: int, folder: str) -> subprocess.Popen:
    referee = os.path.join(os.path.dirname(sys.executable), "referee")
    with open(os.path.join(folder, "server.log"), "wb") as log:
        server = subprocess.Popen(
            [
                referee,
                "serve",
                "--no-auth",
                "--host",
                HOST,
                "--port",
                str(port),
                "--db",
                os.path.join(folder, "bench.db"),
            ],
            stdout=log,
            stderr=log,
        )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start within 20 s")


def client(port: int, path: str, bodies, budget: dict, latencies: list, failures: list):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    while True:
        with budget["lock"]:
            if budget["left"] <= 0:
                break
            budget["left"] -= 1
            body = next(bodies)
        start = time.perf_counter()
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - start)
        if response.status not in (200, 201):
            failures.append(response.status)
    connection.close()


def run(port: int, path: str, bodies, requests: int, clients: int) -> dict:
    """One round: `requests` requests from `clients` clients at once, their bodies taken in turn from `bodies`."""
    budget = {"left": requests, "lock": threading.Lock()}
    latencies, failures = [], []
    threads = [
        threading.Thread(target=client, args=(port, path, bodies, budget, latencies, failures)) for _ in range(clients)
    ]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise SystemExit(f"{len(failures)} requests failed: statuses {sorted(set(failures))}")
    return {
        "rate": len(latencies) / elapsed,
        "median": statistics.median(latencies) * 1000,
        "p99": statistics.quantiles(latencies, n=100)[98] * 1000,
    }


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a running process and those it started (the server's check workers,
    children of its fork server) have spent, from /proc."""
    stats: dict[int, list[str]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:  # OSError: it ended meanwhile
            stats[int(entry)] = stat.read().rsplit(")", 1)[1].split()  # state, parent, ...
    total, pids = 0.0, [pid]
    while pids:
        current = pids.pop()
        if current in stats:
            total += (int(stats[current][11]) + int(stats[current][12])) / os.sysconf("SC_CLK_TCK")
        pids.extend(child for child, fields in stats.items() if int(fields[1]) == current)
    return total


def one_check(text: str) -> float:
    """Milliseconds (wall) this process takes to check the record `text`: the median of 10."""
    times = []
    for _ in range(10):
        start = time.perf_counter()
        check_one(text, "<bench>").as_dict()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def report(name: str, counts: list[int], rounds: dict, yardstick: list[float]):
    print(name)
    for count in counts:
        figures = {key: statistics.median(r[key] for r in rounds[count]) for key in ("rate", "median", "p99")}
        p99s = [r["p99"] for r in rounds[count]]
        ratio = statistics.median(r["p99"] / check for r, check in zip(rounds[count], yardstick))
        print(
            f"  {count} client{'s' * (count != 1)}: {figures['rate']:.1f} requests/s, latency median "
            f"{figures['median']:.1f} ms, p99 {figures['p99']:.1f} ms (rounds {min(p99s):.1f}-{max(p99s):.1f}), "
            f"{ratio:.1f}x the check in the same round"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per round and client count")
    parser.add_argument("--writes", type=int, default=100, help="records stored per round and writer count")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", default="1,4", help="client counts, comma-separated")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated Guandan match")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    record = match_record(args.seed)
    body = orjson.dumps(record)
    new_records, _ = corpus(GAMES["guandan"], args.writes * args.rounds * len(counts) * 12, 12, 9 * 10**8)
    new_bodies = (line.encode() for line in new_records)
    checked = {count: [] for count in counts}
    yardstick = []
    stored = {count: [] for count in counts}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, folder)
        try:
            run(port, "/v1/validate", itertools.repeat(body), 50, 1)  # warm-up
            started = cpu_seconds(server.pid)
            for _ in range(args.rounds):
                yardstick.append(one_check(body.decode()))
                for count in counts:  # in turn, so a change in the machine's load falls on every count
                    checked[count].append(run(port, "/v1/validate", itertools.repeat(body), args.requests, count))
                    stored[count].append(run(port, "/v1/records", new_bodies, args.writes, count))
            server_cpu = cpu_seconds(server.pid) - started
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(
        f"command: {' '.join([os.path.relpath(sys.executable, ROOT), 'benchmarks/api_throughput.py'] + sys.argv[1:])}"
    )
    print(
        f"keep-alive clients on {HOST}, waitress with 16 threads; medians of {args.rounds} rounds; load average "
        f"{load:.1f} before, {os.getloadavg()[0]:.1f} after; the server spent {server_cpu:.1f} CPU-s (with its check workers)"
    )
    print(
        f"the check of the validate body in this process: {statistics.median(yardstick):.1f} ms (median of the rounds)"
    )
    report(
        f"POST /v1/validate, one Guandan match of {len(record['deals'])} deals ({len(body)} bytes), "
        f"{args.requests} requests a round:",
        counts,
        checked,
        yardstick,
    )
    report(
        f"POST /v1/records, distinct Guandan matches of up to 12 deals ({sum(map(len, new_records)) / len(new_records):,.0f} "
        f"bytes on average), {args.writes} a round:",
        counts,
        stored,
        yardstick,
    )


if __name__ == "__main__":
    main()

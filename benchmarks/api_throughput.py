"""REST API latency: POST /v1/validate with a Guandan match, on loopback only.

Run: .venv/bin/python benchmarks/api_throughput.py [--requests N] [--rounds R] [--clients 1,4]
It starts its own `referee serve --no-auth` on 127.0.0.1 at a free port with a store in a
temporary folder, then runs R rounds; in each round every client count in turn sends N requests
from that many keep-alive clients. It prints, per client count, the medians over the rounds of
requests per second, median latency and 99th-percentile latency (with the rounds' range of the
p99), and stops the server.
"""
from __future__ import annotations

import argparse
import http.client
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

from tests.guandan_gen import match_record  # noqa: E402

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(port: int, folder: str) -> subprocess.Popen:
    referee = os.path.join(os.path.dirname(sys.executable), "referee")
    with open(os.path.join(folder, "server.log"), "wb") as log:
        server = subprocess.Popen([referee, "serve", "--no-auth", "--host", HOST, "--port", str(port),
                                   "--db", os.path.join(folder, "bench.db")], stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start within 20 s")


def client(port: int, body: bytes, budget: dict, latencies: list, failures: list):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    while True:
        with budget["lock"]:
            if budget["left"] <= 0:
                break
            budget["left"] -= 1
        start = time.perf_counter()
        connection.request("POST", "/v1/validate", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - start)
        if response.status != 200:
            failures.append(response.status)
    connection.close()


def run(port: int, body: bytes, requests: int, clients: int) -> dict:
    """One round: `requests` requests from `clients` clients at once."""
    budget = {"left": requests, "lock": threading.Lock()}
    latencies, failures = [], []
    threads = [threading.Thread(target=client, args=(port, body, budget, latencies, failures)) for _ in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise SystemExit(f"{len(failures)} requests failed: statuses {sorted(set(failures))}")
    return {"rate": len(latencies) / elapsed, "median": statistics.median(latencies) * 1000,
            "p99": statistics.quantiles(latencies, n=100)[98] * 1000}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per round and client count")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", default="1,4", help="client counts, comma-separated")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated Guandan match")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    record = match_record(args.seed)
    body = orjson.dumps(record)
    rounds = {count: [] for count in counts}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, folder)
        try:
            run(port, body, 50, 1)     # warm-up
            for _ in range(args.rounds):
                for count in counts:      # in turn, so a change in the machine's load falls on every count
                    rounds[count].append(run(port, body, args.requests, count))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"command: {' '.join([os.path.relpath(sys.executable, ROOT), 'benchmarks/api_throughput.py'] + sys.argv[1:])}")
    print(f"POST /v1/validate, one Guandan match of {len(record['deals'])} deals ({len(body)} bytes), keep-alive "
          f"clients on {HOST}, waitress with 16 threads; {args.requests} requests a round, medians of {args.rounds} rounds")
    for count in counts:
        figures = {name: statistics.median(r[name] for r in rounds[count]) for name in ("rate", "median", "p99")}
        p99s = [r["p99"] for r in rounds[count]]
        print(f"{count} client{'s' * (count != 1)}: {figures['rate']:.1f} requests/s, latency median "
              f"{figures['median']:.1f} ms, p99 {figures['p99']:.1f} ms (rounds {min(p99s):.1f}-{max(p99s):.1f})")


if __name__ == "__main__":
    main()

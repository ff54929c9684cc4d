"""REST API throughput: POST /v1/validate with a Guandan match, on loopback only.

Run: .venv/bin/python benchmarks/api_throughput.py [--requests N] [--clients C] [--seconds S]
It starts its own `referee serve --no-auth` on 127.0.0.1 at a free port with a store in a
temporary folder, sends N requests (or as many as fit in S seconds) from C keep-alive
clients, prints requests per second and the median and 99th-percentile latency, and
stops the server.
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
            if budget["left"] <= 0 or time.monotonic() > budget["until"]:
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


def run(port: int, body: bytes, requests: int, clients: int, seconds: float):
    budget = {"left": requests, "until": time.monotonic() + seconds, "lock": threading.Lock()}
    latencies, failures = [], []
    threads = [threading.Thread(target=client, args=(port, body, budget, latencies, failures)) for _ in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, latencies, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30, help="stop sending after this long")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated Guandan match")
    args = parser.parse_args()
    record = match_record(args.seed)
    body = orjson.dumps(record)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, folder)
        try:
            run(port, body, 20, 1, 10)     # warm-up
            elapsed, latencies, failures = run(port, body, args.requests, args.clients, args.seconds)
        finally:
            server.terminate()
            server.wait(timeout=10)
    if failures:
        raise SystemExit(f"{len(failures)} requests failed: statuses {sorted(set(failures))}")
    cuts = statistics.quantiles(latencies, n=100)
    print(f"command: {' '.join([os.path.relpath(sys.executable, ROOT), 'benchmarks/api_throughput.py'] + sys.argv[1:])}")
    print(f"POST /v1/validate, one Guandan match of {len(record['deals'])} deals ({len(body)} bytes), "
          f"{args.clients} keep-alive clients on {HOST}, waitress with 8 threads")
    print(f"{len(latencies)} requests in {elapsed:.2f} s: {len(latencies) / elapsed:.1f} requests/s")
    print(f"latency: median {statistics.median(latencies) * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms")


if __name__ == "__main__":
    main()

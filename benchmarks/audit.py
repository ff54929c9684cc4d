"""`referee audit` on Dask beside `referee validate -j N` on the same archive, in CPU time.

Run: .venv/bin/python benchmarks/audit.py [--files F] [--deals D] [--repeat R] (part of `make bench`).
It writes an archive of F JSON Lines files of D deals each (distinct Guandan matches of up to 10
deals of real length, seeds no other corpus uses) and, R times in turn, runs as a user runs them:
`referee validate -j N --json FILES` (N: the cores), `referee audit FILES -o FOLDER` (a local cluster
of N worker processes), and `referee audit --scheduler ADDRESS FILES -o FOLDER` on a cluster started
as a user starts one, `dask scheduler` and `dask worker --nworkers N --nthreads 1` on loopback in the
environment docs/cli.md gives them (CLUSTER_ENVIRONMENT). It prints the medians of their CPU time (user
+ system of every process: the command and its children, and for the distributed cluster the
scheduler's and the workers' processes during the run) and wall time, the median of each run's ratio
to the validate run before it, and whether each audit wrote validate's reports byte for byte.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import COMMAND, GAMES, corpus, process_times  # noqa: E402

SEEDS = 6 * 10**8
HOST = "127.0.0.1"
BIN = os.path.dirname(sys.executable)
# The environment docs/cli.md gives `dask scheduler` and `dask worker` for an audit: the housekeeping a local
# cluster has (cli/audit.py LOCAL_CLUSTER), without the statistical profiler every worker runs every 10 ms
# for the dashboard.
CLUSTER_ENVIRONMENT = {
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
    "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
    "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
    "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "5s",
}


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def write_archive(folder: str, files: int, deals: int) -> list[str]:
    paths = []
    for number in range(files):
        lines, _ = corpus(GAMES["guandan"], deals, 10, SEEDS + number * 10**6)
        paths.append(os.path.join(folder, f"part{number:02d}.jsonl"))
        with open(paths[-1], "w") as handle:
            handle.writelines(line + "\n" for line in lines)
    return paths


def tree_cpu(processes: list[psutil.Process]) -> float:
    """CPU seconds (user + system) of running processes and their children alive now."""
    total = 0.0
    for process in processes:
        for one in [process, *process.children(recursive=True)]:
            try:
                times = one.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_cluster(workers: int, folder: str) -> tuple[str, list[subprocess.Popen]]:
    """`dask scheduler` and `dask worker` as a user starts them (in CLUSTER_ENVIRONMENT), on loopback; (address,
    processes)."""
    port = free_port()
    address = f"tcp://{HOST}:{port}"
    log = open(os.path.join(folder, "cluster.log"), "wb")  # noqa: SIM115 (the cluster's, open while it runs)
    env = dict(os.environ, PYTHONPATH=ROOT, **CLUSTER_ENVIRONMENT)
    scheduler = subprocess.Popen(
        [os.path.join(BIN, "dask"), "scheduler", "--host", HOST, "--port", str(port), "--dashboard-address", ":0"],
        stdout=log,
        stderr=log,
        env=env,
    )
    worker = subprocess.Popen(
        [
            os.path.join(BIN, "dask"),
            "worker",
            address,
            "--nworkers",
            str(workers),
            "--nthreads",
            "1",
            "--host",
            HOST,
            "--dashboard-address",
            ":0",
        ],
        stdout=log,
        stderr=log,
        env=env,
    )
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(workers, timeout=120)
    return address, [scheduler, worker]


def audited(output: str) -> bytes:
    return b"".join(open(part, "rb").read() for part in sorted(glob.glob(os.path.join(output, "part-*.jsonl"))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--deals", type=int, default=1500, help="deals a file (default 1500)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jobs = cores()
    env = dict(os.environ, PYTHONPATH=ROOT)
    runs = {"validate": [], "local": [], "distributed": []}
    same = {"local": True, "distributed": True}
    with tempfile.TemporaryDirectory(prefix="audit-") as folder:
        paths = write_archive(folder, args.files, args.deals)
        reports, output = os.path.join(folder, "validate.jsonl"), os.path.join(folder, "out")
        address, cluster = start_cluster(jobs, folder)
        try:
            load = os.getloadavg()[0]
            for _ in range(args.repeat):
                with open(reports, "wb") as sink:
                    runs["validate"].append(
                        process_times(
                            COMMAND + ["validate", "-j", str(jobs), "--json", *paths],
                            stdout=sink,
                            stderr=subprocess.DEVNULL,
                            env=env,
                        )
                    )
                expected = Path(reports).read_bytes()
                for kind, where in (("local", []), ("distributed", ["--scheduler", address])):
                    shutil.rmtree(output, ignore_errors=True)
                    before = tree_cpu([psutil.Process(p.pid) for p in cluster])
                    wall, cpu = process_times(
                        COMMAND + ["audit", *where, *paths, "-o", output],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        env=env,
                    )
                    if kind == "distributed":
                        cpu += tree_cpu([psutil.Process(p.pid) for p in cluster]) - before
                    runs[kind].append((wall, cpu))
                    same[kind] &= audited(output) == expected
        finally:
            for process in reversed(cluster):
                process.terminate()
                process.wait(timeout=30)
    deals = args.files * args.deals
    print(f"command: python benchmarks/audit.py {' '.join(sys.argv[1:])}")
    print(
        f"an archive of {args.files} files, {deals} deals (distinct Guandan matches); {jobs} processes; medians of "
        f"{args.repeat} runs in turn (load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)"
    )
    ratio = {
        kind: statistics.median(c / v for (_, c), (_, v) in zip(runs[kind], runs["validate"]))
        for kind in ("local", "distributed")
    }
    names = {
        "validate": f"validate -j {jobs} --json",
        "local": f"audit, a local cluster of {jobs} workers",
        "distributed": f"audit --scheduler, dask scheduler and dask worker --nworkers {jobs} on loopback (docs/cli.md's environment)",
    }
    for kind, name in names.items():
        wall, cpu = (statistics.median(t[i] for t in runs[kind]) for i in (0, 1))
        tail = (
            ""
            if kind == "validate"
            else (
                f", {ratio[kind]:.2f}x validate's CPU in the same run; reports "
                f"{'byte-identical' if same[kind] else 'DIFFERENT'}"
            )
        )
        print(f"  {name}: {cpu:.2f} CPU-s, {wall:.2f} s wall ({deals / cpu:,.0f} deals per CPU-second){tail}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How a crawler command scales on one WARC archive: wall clock, CPU, peak RSS and first output.

Runs `BINARY COMMAND -q -j N WARC` for each N in JOBS (default 1 2), ROUNDS times (default 5), the
jobs alternating within each round so that the load of a shared machine falls on all of them
alike: once under `/usr/bin/time -f` (wall clock, user and system CPU, peak RSS) with its output
thrown away, once with its output read through a pipe up to its first byte (the first-output
time; the run is then ended by closing the pipe). Prints every run, then for each N the medians,
and the speed-up of each N over the first one.

Build the archive with perf/build-warc.py and the binary with `cargo build --release`.

Usage: perf/warc-jobs.py BINARY COMMAND WARC [ROUNDS] [JOBS...]
       e.g. perf/warc-jobs.py target/release/tagstream links /tmp/corpus-100.warc.gz 5 1 2
"""

import os
import statistics
import subprocess
import sys
import time


def run(binary, command, warc, jobs):
    """(wall s, user s, sys s, peak RSS KiB) of one run, its output thrown away."""
    args = ["/usr/bin/time", "-f", "%e %U %S %M", binary, command, "-q", "-j", str(jobs), warc]
    # Write-only: a read-write /dev/null (subprocess.DEVNULL) is a closed standard output to
    # tagstream (cli/src/cli/output.rs).
    with open(os.devnull, "wb") as null:
        done = subprocess.run(args, stdout=null, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{done.stderr}")
    wall, user, system, rss = done.stderr.split()[-4:]
    return float(wall), float(user), float(system), int(rss)


def first_output(binary, command, warc, jobs):
    """Seconds from the start of a run to its first output byte; the run is then ended by
    closing its output (a broken pipe)."""
    started = time.monotonic()
    args = [binary, command, "-q", "-j", str(jobs), warc]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    os.read(child.stdout.fileno(), 1)
    first = time.monotonic() - started
    child.stdout.close()
    child.wait()
    return first


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, command, warc = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    all_jobs = [int(j) for j in sys.argv[5:]] or [1, 2]
    runs = {jobs: [] for jobs in all_jobs}
    print(f"{command} on {warc} ({os.path.getsize(warc) / 1e6:.1f} MB), {rounds} rounds")
    for round_ in range(rounds):
        for jobs in all_jobs:
            r = run(binary, command, warc, jobs) + (first_output(binary, command, warc, jobs),)
            runs[jobs].append(r)
            print(
                f"  round {round_ + 1} -j {jobs}: {r[0]:.2f} s wall, {r[1]:.2f} user + {r[2]:.2f} sys, "
                f"peak RSS {r[3] / 1024:.1f} MiB, first output {r[4] * 1000:.0f} ms"
            )
    base = statistics.median(r[0] for r in runs[all_jobs[0]])
    for jobs in all_jobs:
        med = [statistics.median(r[i] for r in runs[jobs]) for i in range(5)]
        print(
            f"median -j {jobs}: {med[0]:.2f} s wall ({base / med[0]:.2f}x -j {all_jobs[0]}), "
            f"{med[1]:.2f} user + {med[2]:.2f} sys, peak RSS {med[3] / 1024:.1f} MiB, "
            f"first output {med[4] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()

"""The issue's six goals across several full `bench/e2e.sh` runs, as one Markdown table.

    python3 bench/goals.py .build/e2e/<run> [.build/e2e/<run> ...]

Reads each run's report.md (the lines e2e.py writes under "Ratios"), prints a column per run with
the goals met in bold, then how many runs met each goal. bench/README.md's goal table comes from it.
"""
import re
import sys


def first(pattern, text):
    m = re.search(pattern, text)
    return m.groups() if m else None


# (row label, pattern on report.md, goal test, format of the cell)
GOALS = [
    ("≥ 5× the peer's notifications/s", r"peer notifications/s: ([0-9.]+)x", lambda v: v >= 5, "{}×"),
    ("≥ 10× less CPU per notification than the peer", r"peer CPU / Herald CPU per notification: ([0-9.]+)x",
     lambda v: v >= 10, "{}×"),
    ("Herald CPU/notification ≤ 2× floor", r"= ([0-9.]+)x  \(goal <= 2x\)", lambda v: v <= 2, "{}×"),
    ("throughput ≥ 75% of the ceiling", r"Herald reaches (\d+)% \(goal", lambda v: v >= 75, "{}%"),
    ("p99 < 50 ms at half the maximum", r"half the closed-loop maximum [^:]*: ([0-9.]+) ms \(goal", lambda v: v < 50, "{} ms"),
    ("RSS < 100 MB at prefetch 1024", r"peak RSS at prefetch 1024: (\d+) MB", lambda v: v < 100, "{} MB"),
]

CONTEXT = [
    ("Herald CPU µs/notification", r"default config: [0-9 ]+ notif/s, ([0-9.]+) CPU", "{}"),
    ("Herald notif/s (default config)", r"default config: ([0-9 ]+) notif/s", "{}"),
    ("half the maximum, events/s", r"half the closed-loop maximum \(([0-9 ]+) events/s", "{}"),
    ("p99 of each 3.5 s stretch of the half point; stretches ≥ 50 ms", r"stretch: ([0-9.]+-[0-9.]+ ms, \d+ of \d+)", "{}"),
    ("control: raw C echo at the half rate + synthetic load, p99", r"the raw C echo at [0-9 ]+ events/s with ([0-9.]+) cores[^:]*: p99 ([0-9.]+) ms",
     "{1} ms ({0} cores)"),
    ("control: raw C echo at half its own maximum, p99", r"half of its own maximum: the raw C echo at ([0-9 ]+) events/s: p99 ([0-9.]+) ms",
     "{1} ms ({0}/s)"),
    ("host steal, cores: half point / closed-loop points", r"host steal [^:]*: ([0-9.]+) cores during the half point(?:, ([0-9.]+))?",
     "{} / {}"),
    ("floor µs (libcurl ref + rabbitmq-c loop per outcome)",
     r"floor ([0-9.]+) µs \(libcurl ([0-9.]+) \+ rabbitmq-c loop ([0-9.]+)\)", "{} ({} + {})"),
    ("broker µs per notification: chain / live echo / Herald",
     r"broker CPU per notification: ([0-9.]+) µs in the chain.*?; ([0-9.]+) µs with events.*?; ([0-9.]+) µs in Herald",
     "{} / {} / {}"),
]


def main(dirs):
    if not dirs:
        sys.exit(__doc__)
    reports = []
    for d in dirs:
        try:
            with open(f"{d.rstrip('/')}/report.md") as fh:
                reports.append(fh.read())
        except OSError as error:
            sys.exit(f"goals.py: {d}: {error}")
    heads = [(first(r"end-to-end benchmark \d+-\d+-\d+ (\d+:\d+)", t) or ("?",))[0] for t in reports]
    print("| goal | " + " | ".join(heads) + " | runs met |")
    print("|---|" + "---|" * (len(heads) + 1))
    for label, pattern, met, cell in GOALS:
        cells, count, measured = [], 0, 0
        for t in reports:
            found = first(pattern, t)
            if not found:
                cells.append("—")
                continue
            text = found[0].strip()
            value = float(text)
            measured += 1
            ok = met(value)
            count += ok
            cells.append(f"**{cell.format(text)}**" if ok else cell.format(text))
        print(f"| {label} | " + " | ".join(cells) + f" | {count} of {measured} |")
    for label, pattern, cell in CONTEXT:
        cells = []
        for t in reports:
            found = first(pattern, t)
            cells.append(cell.format(*((g or "—").strip() for g in found)) if found else "—")
        print(f"| {label} | " + " | ".join(cells) + " | |")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Channel fan-out benchmark (run by bench/channel.sh; Python only orchestrates and reports).

Fills a registry (a SQLite file and a PostgreSQL schema of this run's own) with --devices devices on one
channel through `herald-bench registry-fill` (register operations/s per backend), then runs `herald run`
against the simulator (bench/e2e.py's Bench: simulator, generated config, queue names, warm-up) and
publishes with bench/loadgen (LOADGEN_EVENTS): one channel event reaching every device, expanded through
each backend, and the same devices as explicit-token events. Each phase is a fresh Herald process; the
phase ends when loadgen has counted an outcome per device on the results exchange.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import DEAD_APNS, ROOT, Bench, fmt, log, machine_busy, proc_cpu, vm_hwm_mb, vm_rss_mb  # noqa: E402

CHANNEL = "room:big"
WARM_CHANNEL = "room:warm"
WARM_DEVICES = 1000


def event_line(outcomes, seq, event_id, targets):
    """One LOADGEN_EVENTS line: the outcomes the event produces, then the event (the same notification for
    every phase; bench_t last, stamped by loadgen at publish)."""
    event = {"id": event_id, "app": "bench", "targets": targets,
             "notification": {"title": "New message in room:big",
                              "body": "Anna: the slides for tomorrow's meeting are in the shared folder"},
             "push_type": "alert", "priority": "high", "ttl": 3600,
             "context": {"bench_seq": seq, "bench_t": "0000000000000000"}}
    return f"{outcomes} {json.dumps(event, separators=(',', ':'))}\n"


class ChannelBench:
    def __init__(self, args):
        self.a = args
        self.b = Bench(args, kind="channel")
        self.bench_bin = os.path.join(ROOT, ".build/release/herald-bench")
        self.sqlite = os.path.join(self.b.work, "registry.sqlite")
        self.schema = "bench_channel_" + re.sub(r"[^a-z0-9]", "_", self.b.run_id)
        self.app_name = f"herald-{self.schema}"
        base = args.postgres_url
        self.pg_admin = base
        self.pg_url = f"{base}?options=-c%20search_path%3D{self.schema}&application_name={self.app_name}"
        self.phases = []
        self.fills = []

    # ---- registry ----
    def psql(self, sql):
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", self.pg_admin, "-c", sql], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def store_args(self, backend):
        if backend == "sqlite":
            return ["--backend", "sqlite", "--path", self.sqlite]
        return ["--backend", "postgres", "--url", self.pg_url, "--pool", str(self.a.pool)]

    def fill(self, backend, channel, first, devices, tokens_out=None, measured=True):
        argv = [self.bench_bin, "registry-fill", *self.store_args(backend), "--channel", channel, "--first", str(first),
                "--devices", str(devices), "--concurrency", str(self.a.register_concurrency), "--provider", self.a.provider]
        if tokens_out:
            argv += ["--tokens-out", tokens_out]
        out = subprocess.run(argv, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"registry-fill failed: {out.stdout} {out.stderr}")
        fields = dict(kv.split("=", 1) for kv in out.stdout.split()[1:])
        if measured:
            self.fills.append({"backend": backend, "rate": float(fields["rate"].removesuffix("/s")),
                               "seconds": float(fields["seconds"]), "client_cpu_us": float(fields["client_cpu_us_per_op"]),
                               "on_channel": int(fields["on_channel"])})
        log(f"  {out.stdout.strip()}")

    def registry_yaml(self, backend):
        # Every phase publishes the same event ids to a registry that outlives it: with duplicate_window on,
        # the registry database would make all but the first phase duplicates.
        if backend == "sqlite":
            return f"duplicate_window: 0s\nregistry: {{backend: sqlite, path: \"{self.sqlite}\"}}\n"
        return f"duplicate_window: 0s\nregistry: {{backend: postgres, url: \"{self.pg_url}\", pool: {self.a.pool}}}\n"

    def postgres_backends(self):
        """The server processes of this run's Herald connections (application_name in the URL)."""
        out = subprocess.run(["psql", "-X", "-At", self.pg_admin, "-c",
                              f"SELECT pid FROM pg_stat_activity WHERE application_name = '{self.app_name}'"],
                             capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    # ---- events ----
    def write_events(self, tokens):
        provider = self.a.provider
        per = self.a.per_event
        self.channel_file = os.path.join(self.b.work, "channel-event.txt")
        with open(self.channel_file, "w") as fh:
            fh.write(event_line(len(tokens), 0, "channel-0", [{"channel": CHANNEL}]))
        self.warm_file = os.path.join(self.b.work, "warm-event.txt")
        with open(self.warm_file, "w") as fh:
            fh.write(event_line(WARM_DEVICES, 0, "warm-0", [{"channel": WARM_CHANNEL}]))
        self.explicit_file = os.path.join(self.b.work, "explicit-events.txt")
        self.explicit_events = 0
        with open(self.explicit_file, "w") as fh:
            for seq, start in enumerate(range(0, len(tokens), per)):
                chunk = tokens[start:start + per]
                fh.write(event_line(len(chunk), seq, f"explicit-{seq}",
                                    [{"provider": provider, "token": t} for t in chunk]))
                self.explicit_events += 1

    def loadgen(self, n, events_file, count, window):
        r = subprocess.run([self.b.loadgen, "run", self.b.url, n["events"], n["results"], str(count), "0", str(window),
                            str(self.b.point_no), DEAD_APNS], capture_output=True, text=True,
                           env=dict(os.environ, LOADGEN_EVENTS=events_file))
        if r.returncode not in (0, 3):
            raise SystemExit(f"loadgen failed: {r.stderr}")
        return json.loads(r.stdout)

    # ---- one phase: a fresh Herald, warmed up, then one measured publish ----
    def phase(self, label, backend, events_file, count, window):
        n = self.b.names()
        perf = None
        try:
            procs = self.b.start_herald(n, extra=self.registry_yaml(backend))
            pid = procs[0].pid
            self.b.warm_up(n)
            # the registry path too: a channel of WARM_DEVICES devices, before every phase alike
            self.loadgen(n, self.warm_file, 1, 1)
            time.sleep(0.2)
            pg = self.postgres_backends() if backend == "postgres" else []
            rss0 = vm_rss_mb(pid)
            if self.a.profile:
                data = os.path.join(self.b.work, f"perf-{self.b.point_no}.data")
                perf = (data, subprocess.Popen(["perf", "record", "-F", "499", "-g", "-p", str(pid), "-o", data],
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                time.sleep(0.5)
            before = (proc_cpu(pid), proc_cpu(self.b.sim.pid), sum(proc_cpu(p) for p in pg), machine_busy(), time.time())
            r = self.loadgen(n, events_file, count, window)
            after = (proc_cpu(pid), proc_cpu(self.b.sim.pid), sum(proc_cpu(p) for p in pg), machine_busy(), time.time())
            rss = vm_hwm_mb(pid)
            if perf:
                perf[1].send_signal(signal.SIGINT)
                perf[1].wait()
                report = os.path.join(self.b.work, f"perf-{self.b.point_no}.txt")
                with open(report, "w") as fh:
                    subprocess.run(["perf", "report", "-i", perf[0], "--no-children", "--sort", "dso,symbol", "--stdio",
                                    "-g", "none", "--percent-limit", "0.5"], stdout=fh, stderr=subprocess.DEVNULL)
                log(f"  perf profile of herald ({label}): {report}")
        finally:
            for p in locals().get("procs", []):
                self.b.stop(p)
            self.b.delete(n)
        notes = r["outcomes"]
        wall = after[4] - before[4]
        ours = (after[0] - before[0]) + (after[1] - before[1]) + (after[2] - before[2]) + r["loadgen_cpu_s"]
        result = {
            "label": label, "backend": backend, "outcomes": notes, "expected": r["expected_outcomes"],
            "statuses": r["statuses"], "seconds": r["seconds"], "nps": notes / r["seconds"] if r["seconds"] else 0,
            "cpu_s": after[0] - before[0], "cpu_us": (after[0] - before[0]) / notes * 1e6 if notes else 0,
            "sim_us": (after[1] - before[1]) / notes * 1e6 if notes else 0,
            "postgres_us": (after[2] - before[2]) / notes * 1e6 if notes and pg else None,
            "rss_mb": rss, "rss_start_mb": rss0, "p50": r["p50_ms"], "p99": r["p99_ms"], "max": r["max_ms"],
            "other_cores": max(0.0, ((after[3][0] - before[3][0]) - ours) / wall) if wall > 0 else 0,
            "steal_cores": max(0.0, (after[3][1] - before[3][1]) / wall) if wall > 0 else 0,
        }
        if notes < r["expected_outcomes"] or r["statuses"].get("delivered", 0) < r["expected_outcomes"]:
            log(f"  WARNING: {label}: {notes} of {r['expected_outcomes']} outcomes, statuses {r['statuses']}")
        log(f"  {label:<30} {result['nps']:>8.0f} notif/s  herald {result['cpu_us']:.1f} µs/notif  "
            f"peak RSS {rss:.0f} MB (after warm-up {rss0:.0f})  simulator {result['sim_us']:.1f} µs"
            + (f"  postgres {result['postgres_us']:.1f} µs" if result["postgres_us"] is not None else "")
            + f"  other load {result['other_cores']:.2f} cores (steal {result['steal_cores']:.2f})")
        self.phases.append(result)
        return result

    def run(self):
        backends = self.a.backends.split(",")
        tokens_file = os.path.join(self.b.work, "tokens.txt")
        if "postgres" in backends:
            self.psql(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE; CREATE SCHEMA {self.schema}")
        try:
            log(f"registry: {self.a.devices} {self.a.provider} devices on {CHANNEL}, register concurrency "
                f"{self.a.register_concurrency}")
            for backend in backends:
                self.fill(backend, CHANNEL, 0, self.a.devices, tokens_out=tokens_file)
                self.fill(backend, WARM_CHANNEL, self.a.devices, WARM_DEVICES, measured=False)
            with open(tokens_file) as fh:
                self.write_events(fh.read().split())
            self.b.start_simulator()
            windows = [int(w) or self.explicit_events for w in self.a.explicit_windows.split(",")]
            try:
                for _ in range(self.a.rounds):
                    for window in windows:
                        self.phase(f"explicit, {self.a.per_event} targets/event, {window} in flight", backends[0],
                                   self.explicit_file, self.explicit_events, window)
                    for backend in backends:
                        self.phase(f"channel ({backend})", backend, self.channel_file, 1, 1)
            finally:
                self.b.stop(self.b.sim)
        finally:
            if "postgres" in backends and not self.a.keep:
                self.psql(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        self.report()

    def report(self):
        lines = []
        out = lines.append
        out(f"# Channel fan-out {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
            f"{self.a.devices} {self.a.provider} devices")
        out("")
        # The ratio's base: the mean over rounds of the first explicit phase (--explicit-windows' first).
        first = self.phases[0]["label"] if self.phases else ""
        explicit = [p["cpu_us"] for p in self.phases if p["label"] == first and first.startswith("explicit")]
        base = sum(explicit) / len(explicit) if explicit else 0
        out(f"| path | notifications/s | Herald CPU µs/notification | ratio to {first or 'explicit'} | peak RSS MB | "
            "simulator µs/notif | postgres server µs/notif | other load (cores) |")
        out("|---|---|---|---|---|---|---|---|")
        for p in self.phases:
            ratio = f"{p['cpu_us'] / base:.2f}x" if base else "-"
            pg = f"{p['postgres_us']:.1f}" if p["postgres_us"] is not None else "-"
            out(f"| {p['label']} | {fmt(p['nps'])} | {p['cpu_us']:.1f} | {ratio} | {p['rss_mb']:.0f} | "
                f"{p['sim_us']:.1f} | {pg} | {p['other_cores']:.2f} |")
        out("")
        out(f"register (one device, one channel per call; {self.a.register_concurrency} calls in flight; PostgreSQL "
            f"pool {self.a.pool}):")
        out("")
        out("| backend | register ops/s | client CPU µs/op |")
        out("|---|---|---|")
        for f in self.fills:
            out(f"| {f['backend']} | {fmt(f['rate'])} | {f['client_cpu_us']:.1f} |")
        text = "\n".join(lines)
        print(text)
        with open(os.path.join(self.b.work, "report.md"), "w") as fh:
            fh.write(text + "\n")
        with open(os.path.join(self.b.work, "phases.json"), "w") as fh:
            json.dump({"phases": self.phases, "fills": self.fills}, fh, indent=1)
        log(f"report: {self.b.work}/report.md")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", type=int, default=100000)
    ap.add_argument("--per-event", type=int, default=1000, help="explicit targets per event")
    ap.add_argument("--explicit-windows", default="1,0",
                    help="explicit events in flight, one phase each (0: all at once); the first is the ratios' base")
    ap.add_argument("--provider", default="apns", choices=["apns", "fcm"])
    ap.add_argument("--backends", default="sqlite,postgres")
    ap.add_argument("--rounds", type=int, default=1, help="times the phases run, in turn")
    ap.add_argument("--register-concurrency", type=int, default=16)
    ap.add_argument("--pool", type=int, default=4, help="PostgreSQL connections (Herald's and the fill's)")
    ap.add_argument("--postgres-url", default=os.environ.get("HERALD_POSTGRES_URL", ""))
    ap.add_argument("--keep", action="store_true", help="keep the PostgreSQL schema")
    ap.add_argument("--profile", action="store_true", help="perf record Herald during every phase")
    ap.add_argument("--herald", default="", help="herald binary to measure (default .build/release/herald)")
    ap.add_argument("--amqp-url", default=os.environ.get("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
    ap.add_argument("--sim-port", type=int, default=22198)
    args = ap.parse_args()
    if not args.postgres_url:
        args.postgres_url = subprocess.run([os.path.join(ROOT, "scripts/postgres"), "url"], capture_output=True,
                                           text=True, check=True).stdout.strip()
    # what bench/e2e.py's Bench reads from its own options
    args.concurrency, args.amqp_extra, args.config_extra = 0, "", ""
    ChannelBench(args).run()


if __name__ == "__main__":
    main()

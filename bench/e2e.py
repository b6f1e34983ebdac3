"""End-to-end benchmark glue (run by bench/e2e.sh; Python only orchestrates and reports).

Starts the simulator, runs each measurement point (Herald with a generated
config, the Python peer, the raw limits), drives load with bench/loadgen (C),
samples CPU from /proc, and prints the tables. Every point uses its own
queue and exchange names and deletes them afterwards.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")
DEAD_APNS = "de" * 32
STATUSES = ["delivered", "invalid_token", "failed", "retrying", "expired", "dropped", "rejected"]


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_port(preferred=0):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", preferred))
        except OSError:
            s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError):
        return 0.0


def machine_line(loadgen):
    """The CPU, the VM's idle policy and what a wake-up from another thread costs here, measured before the
    points: the same code gives different figures on different VMs, and hand-offs between threads are where
    they part most."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            model = next((l.split(":", 1)[1].strip() for l in fh if l.startswith("model name")), model)
    except OSError:
        pass
    parts = [model]
    try:
        with open("/sys/module/haltpoll/parameters/guest_halt_poll_ns") as fh:
            parts.append(f"guest halt polling {int(fh.read())} ns (kernel default 200000)")
    except (OSError, ValueError):
        pass
    wake = subprocess.run([loadgen, "wake", "50000"], capture_output=True, text=True)
    try:
        w = json.loads(wake.stdout)
        parts.append(f"wake-up round trip between two threads {w['round_trip_us']:.1f} µs "
                     f"({w['one_cpu_round_trip_us']:.1f} µs on one CPU; `loadgen wake`)")
    except (ValueError, KeyError):
        pass
    return "Machine: " + "; ".join(parts) + "."


def vm_hwm_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def ctx_switches(pid):
    """Voluntary + involuntary context switches summed over the process's threads."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/status") as f:
                    for line in f:
                        if "ctxt_switches" in line:
                            total += int(line.split()[1])
            except OSError:
                pass
    except OSError:
        pass
    return total


def vm_rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


P99_WINDOW_S = 3.5  # how long the open-loop points ran before the half point got --half-seconds


def dump_stretches(dump, seconds):
    """The outcomes of a LOADGEN_DUMP file in `seconds`-long stretches of their publish times, the partial
    last one left out: (start of the stretch, seconds since the epoch; latencies µs), one read of the file
    for both the p99 and the host's steal of each stretch."""
    try:
        with open(dump) as fh:
            rows = [(int(f[8]), int(f[1])) for f in map(str.split, fh) if len(f) >= 9 and int(f[1]) >= 0]
    except OSError:
        return []
    if not rows:
        return []
    t0 = min(t for t, _ in rows)
    windows = {}
    for t, latency in rows:
        windows.setdefault(int((t - t0) / 1e6 / seconds), []).append(latency)
    last = max(windows)  # the last stretch is partial
    return [(t0 / 1e6 + k * seconds, v) for k, v in sorted(windows.items()) if k < last]


def stretch_p99s(spans):
    """p99 publish->outcome (ms) of each stretch (a p99 over a few seconds is decided by whether one stall of
    the shared machine fell inside)."""
    return [sorted(v)[int(len(v) * 0.99)] / 1000 for _, v in spans]


class StealSampler:
    """The host's steal (`/proc/stat`) every 100 ms while a point runs, so that each 3.5 s stretch's p99 can
    be read beside what the hypervisor took from the VM meanwhile."""

    def __init__(self):
        self.samples = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            self.samples.append((time.time(), machine_busy()[1]))
            self._stop.wait(0.1)

    def stop(self):
        self._stop.set()
        self._thread.join()

    def cores(self, start, end):
        """Mean steal in cores between two wall-clock times (seconds), or None without two samples there."""
        inside = [(t, v) for t, v in self.samples if start <= t <= end]
        if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
            return None
        return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


def stretch_pairs(p):
    """Each stretch's p99 beside the host's steal over it, e.g. "33 ms / 0.01, 170 ms / 0.41"."""
    pairs = zip(p["p99_windows"], p["steal_windows"])
    return ", ".join(f"{w:.0f} ms / {'?' if st is None else f'{st:.2f}'}" for w, st in pairs)


def stretches(w):
    """The 3.5 s stretches of a point in the report: their p99 range and how many reached the goal's 50 ms."""
    return f"{min(w):.1f}-{max(w):.1f} ms, {sum(x >= 50 for x in w)} of {len(w)} at 50 ms or more"


# The two controls beside the half point (labels, as report() finds them).
LOADED_ECHO = "AMQP echo + synthetic load"
# Herald's default amqp.prefetch (docs/configuration.md): the wan part measures the defaults.
HERALD_PREFETCH = 1024
OWN_HALF_ECHO = "AMQP echo, open at half its own maximum"


def machine_busy():
    """CPU seconds the machine was not idle, and of those the host's steal: time the hypervisor gave
    this VM's vCPUs to someone else while they had work (`/proc/stat`, all CPUs)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICK, values[7] / TICK


def broker_pid():
    out = subprocess.run(["pgrep", "-o", "beam.smp"], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else 0


def wait_port(port, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def wait_ready(port, proc, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.1)
    return False


def scrape(port):
    """Herald's /metrics as {"name{labels}": value}; {} when it does not answer."""
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1).read().decode()
    except OSError:
        return {}
    values = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name_labels, _, value = line.rpartition(" ")
        values[name_labels] = float(value)
    return values


class PoolSampler:
    """Samples Herald's connection-pool metrics every 100 ms while a point runs: the most connections and streams
    in flight per provider host, and the GOAWAYs received (herald_http_*, docs/metrics.md)."""

    def __init__(self, ports):
        self.ports = ports
        self.peak = {}
        self.goaways = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.wait(0.1):
            self.sample()

    def sample(self):
        now = {}
        for port in self.ports:
            for key, value in scrape(port).items():
                for metric in ("herald_http_connections", "herald_http_streams"):
                    if key.startswith(metric + "{"):
                        host = key.split('host="', 1)[1].split('"', 1)[0]
                        now[(metric, host)] = now.get((metric, host), 0) + value
                if key.startswith("herald_http_goaways_received_total{"):
                    self.goaways[key] = value
        for key, value in now.items():
            self.peak[key] = max(self.peak.get(key, 0), value)

    def stop(self):
        self.done.set()
        self.thread.join()
        self.sample()

    def peaks(self):
        hosts = sorted({host for _, host in self.peak})
        return {"hosts": {h: {"connections": self.peak.get(("herald_http_connections", h), 0),
                              "streams": self.peak.get(("herald_http_streams", h), 0)} for h in hosts},
                "goaways": self.goaways}


class Bench:
    """Herald, the simulator and the loadgen for one run; `kind` names the run's directory, .build/<kind>/<run id>
    (bench/channel.py uses it too)."""

    def __init__(self, args, kind="e2e"):
        self.a = args
        self.bin = args.herald or os.path.join(ROOT, ".build/release/herald")
        self.amqp_bench = os.path.join(ROOT, ".build/release/herald-bench-amqp")
        self.loadgen = os.path.join(ROOT, ".build/bench/loadgen")
        self.ref = os.path.join(ROOT, ".build/bench/curl-ref")
        self.dev = os.path.join(ROOT, ".herald/dev")
        self.run_id = f"{time.strftime('%H%M%S')}-{os.getpid()}"
        self.work = os.path.join(ROOT, ".build", kind, self.run_id)
        os.makedirs(self.work, exist_ok=True)
        self.url = args.amqp_url
        self.broker = broker_pid()
        self.points = []
        self.point_no = 0
        self.sim = None
        self.split_hosts = False

    # ---- simulator ----
    def start_simulator(self, extra=(), name="simulator"):
        """Starts a simulator (`extra`: more `herald simulate` flags) and makes it the one points use."""
        self.port = free_port(self.a.sim_port)
        self.write_account()
        self.sim_log = open(os.path.join(self.work, f"{name}.log"), "w")
        self.sim = subprocess.Popen(
            [self.bin, "simulate", "--listen", f"127.0.0.1:{self.port}", "--tls-dir", self.dev,
             "--apns-key", os.path.join(self.dev, "apns-AuthKey.p8"), "--key-id", "HERALDKEY1",
             "--team-id", "HERALDTEAM", "--fcm-service-account", self.account, "--dead-token", DEAD_APNS, *extra],
            stdout=self.sim_log, stderr=subprocess.STDOUT)
        if not wait_port(self.port):
            raise SystemExit(f"simulator did not start; see {self.work}/{name}.log")
        log(f"{name} on 127.0.0.1:{self.port} (pid {self.sim.pid}) {' '.join(extra)}")

    def write_account(self):
        """The FCM service account, its token_uri at the current simulator's /token."""
        with open(os.path.join(self.dev, "fcm-service-account.json")) as f:
            account = json.load(f)
        account["token_uri"] = f"https://127.0.0.1:{self.port}/token"
        self.account = os.path.join(self.work, "fcm-service-account.json")
        with open(self.account, "w") as f:
            json.dump(account, f)
        os.chmod(self.account, 0o600)

    def with_provider_limits(self, latency, streams, body):
        """Runs `body` against a second simulator that answers after `latency` and allows
        `streams` concurrent streams per connection, then returns to the main one."""
        main = (self.sim, self.port, self.sim_log)
        try:
            self.start_simulator(["--latency", latency, "--max-streams", str(streams)], name=f"simulator-{streams}-streams")
            body()
        finally:
            if self.sim is not main[0]:
                self.stop(self.sim)
            self.sim, self.port, self.sim_log = main
            self.write_account()

    def with_latency(self, latency_ms, body):
        """Runs `body` against a second simulator whose answers wait `latency_ms` (a provider that far away, the
        providers' own stream limits), then returns to the main one."""
        main = (self.sim, self.port, self.sim_log)
        try:
            self.start_simulator(["--latency", f"{latency_ms}ms"], name=f"simulator-{latency_ms}ms")
            return body()
        finally:
            if self.sim is not main[0]:
                self.stop(self.sim)
            self.sim, self.port, self.sim_log = main
            self.write_account()

    def wan(self):
        """Herald with `connections: auto` and its default prefetch against providers 0, 50, 100 and 200 ms away,
        and the peer at 100 ms (bench/README.md, "At a distance")."""
        events = self.a.wan_events
        self.split_hosts = True
        self.wan_points = {"loopback": self.point("wan: herald, loopback", apns_conns="auto", fcm_conns="auto",
                                                  prefetch=self.a.wan_prefetch, events=events)}
        for ms in (50, 100, 200):
            self.wan_points[ms] = self.with_latency(ms, lambda: self.point(
                f"wan: herald, {ms} ms away", apns_conns="auto", fcm_conns="auto", prefetch=self.a.wan_prefetch,
                events=events))
            self.wan_points[ms]["rtt_ms"] = ms
        self.wan_points["peer"] = self.with_latency(100, lambda: self.point(
            "wan: peer, 100 ms away", system="peer", prefetch=self.a.wan_prefetch, events=self.a.peer_events))
        self.split_hosts = False

    def stop(self, proc, timeout=15):
        if proc and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    # ---- names ----
    def names(self):
        self.point_no += 1
        p = f"bench.{self.run_id}.{self.point_no}"
        return {"events": p + ".events", "queue": p + ".q", "retry": p + ".retry", "dead": p + ".dead",
                "results": p + ".results"}

    def delete(self, n, extra=()):
        targets = [f"queue:{n['queue']}", f"queue:{n['dead']}", f"queue:{n['retry']}.5s",
                   f"exchange:{n['events']}", f"exchange:{n['retry']}", f"exchange:{n['dead']}",
                   f"exchange:{n['results']}", f"queue:{n['queue']}.registry", f"exchange:{n['events']}.registry", *extra]
        subprocess.run([self.loadgen, "delete", self.url, *targets], capture_output=True)

    # ---- Herald ----
    def herald_config(self, n, prefetch, queue_type, apns_conns, fcm_conns, metrics_port, extra=""):
        key = os.path.join(self.dev, "apns-AuthKey.p8")
        ca = os.path.join(self.dev, "ca.pem")
        endpoint = f"https://127.0.0.1:{self.port}"
        # Apple and Google are different hosts, each with its own connections and stream limit: the wan part
        # sends FCM to the simulator by another name, so the two providers do not share connections.
        fcm_endpoint = f"https://localhost:{self.port}" if self.split_hosts else endpoint
        amqp_lines = f"\n  concurrency: {self.a.concurrency}" if self.a.concurrency else ""
        amqp_lines += "".join(f"\n  {line}" for line in self.a.amqp_extra.split("\\n") if line)
        if "registry:" in extra + self.a.config_extra:
            # Each phase's own registry exchange and queue, like its other names.
            amqp_lines += f"\n  registry_exchange: {n['events']}.registry\n  registry_queue: {n['queue']}.registry"
        text = f"""# generated by bench/e2e.py
amqp:
  url: "{self.url}"
  prefetch: {prefetch}{amqp_lines}
  queue: {n['queue']}
  queue_type: {queue_type}
  bindings: ["#"]
  events_exchange: {n['events']}
  retry_exchange: {n['retry']}
  dead_letter_exchange: {n['dead']}
  dead_letter_queue: {n['dead']}
  results_exchange: {n['results']}
apps:
  bench:
    apns:
      team_id: HERALDTEAM
      key_id: HERALDKEY1
      key_file: {key}
      topic: com.example.chat
      endpoint: {endpoint}
      ca_file: {ca}
      connections: {apns_conns}
    fcm:
      project_id: herald-dev
      service_account_file: {self.account}
      endpoint: {fcm_endpoint}
      ca_file: {ca}
      connections: {fcm_conns}
retry: {{max_attempts: 5, delays: [5s]}}
outcomes:
  publish: [delivered, invalid_token, failed, retrying, expired, dropped, rejected]
http: {{listen: "127.0.0.1:{metrics_port}"}}
log: {{level: warning, format: json}}
"""
        if self.a.config_extra:
            text += self.a.config_extra.replace("\\n", "\n") + "\n"
        text += extra
        path = os.path.join(self.work, f"herald-{n['queue']}.yaml")
        with open(path, "w") as f:
            f.write(text)
        return path

    def start_herald(self, n, prefetch=256, queue_type="quorum", apns_conns=2, fcm_conns=1, instances=1, extra=""):
        """Starts `instances` Herald processes on the point's names and waits until they are ready; `extra` is
        YAML appended to their config."""
        procs = []
        self.metrics_ports = []
        for i in range(instances):
            metrics = free_port(0)
            self.metrics_ports.append(metrics)
            config = self.herald_config(n, prefetch, queue_type, apns_conns, fcm_conns, metrics, extra)
            out = open(os.path.join(self.work, f"herald-{self.point_no}-{i}.log"), "w")
            proc = subprocess.Popen([self.bin, "run", "--config", config], stdout=out, stderr=subprocess.STDOUT)
            if not wait_ready(metrics, proc):
                raise SystemExit(f"herald did not become ready; see {out.name}")
            procs.append(proc)
        return procs

    def start_peer(self, n, prefetch, queue_type):
        out = open(os.path.join(self.work, f"peer-{self.point_no}.log"), "w")
        proc = subprocess.Popen(
            [os.path.join(ROOT, "bench/.venv/bin/python"), os.path.join(ROOT, "bench/peers/python_peer.py"),
             "--amqp-url", self.url, "--events-exchange", n["events"], "--queue", n["queue"],
             "--queue-type", queue_type, "--results-exchange", n["results"], "--prefetch", str(prefetch),
             "--endpoint", f"127.0.0.1:{self.port}", "--ca", os.path.join(self.dev, "ca.pem"),
             "--apns-key", os.path.join(self.dev, "apns-AuthKey.p8"), "--key-id", "HERALDKEY1",
             "--team-id", "HERALDTEAM", "--topic", "com.example.chat", "--service-account", self.account],
            stdout=subprocess.PIPE, stderr=out, text=True)
        line = proc.stdout.readline()
        if "ready" not in line:
            raise SystemExit(f"peer did not start; see {out.name}")
        return [proc]

    def start_echo(self, n, prefetch, queue_type):
        ready = os.path.join(self.work, f"echo-{self.point_no}.ready")
        proc = subprocess.Popen([self.loadgen, "echo", self.url, n["events"], n["queue"], queue_type, n["results"],
                                 str(prefetch), ready])
        deadline = time.time() + 10
        while not os.path.exists(ready):
            if proc.poll() is not None or time.time() > deadline:
                raise SystemExit("loadgen echo did not start")
            time.sleep(0.05)
        return [proc]

    def warm_up(self, n):
        """300 events through the point (not measured): connections, TLS, provider tokens, OAuth, cold caches."""
        warm = subprocess.run([self.loadgen, "run", self.url, n["events"], n["results"], "300", "0", "100",
                               "999", DEAD_APNS], capture_output=True, text=True)
        if warm.returncode != 0:
            raise SystemExit(f"warm-up failed: {warm.stderr} {warm.stdout}")
        time.sleep(0.2)

    # ---- one end-to-end point ----
    def point(self, label, system="herald", events=None, rate=0, prefetch=256, queue_type=None, apns_conns=2,
              fcm_conns=1, instances=1, window=None, burn_cores=0.0):
        queue_type = queue_type or self.a.queue_type
        events = events or self.a.events
        n = self.names()
        try:
            if system == "herald":
                procs = self.start_herald(n, prefetch, queue_type, apns_conns, fcm_conns, instances)
            elif system == "echo":
                procs = self.start_echo(n, prefetch, queue_type)
            else:
                procs = self.start_peer(n, prefetch, queue_type)
            self.warm_up(n)
            window = window or max(2 * prefetch * instances, 256)
            pids = [p.pid for p in procs]
            rss0 = sum(vm_rss_mb(p) for p in pids)
            before = ([proc_cpu(p) for p in pids], proc_cpu(self.broker), proc_cpu(self.sim.pid), machine_busy(),
                      time.time(), sum(ctx_switches(p) for p in pids))
            perfs = []
            profiled = self.a.profile_point or f"herald closed ({self.a.queue_type})"
            if self.a.profile and label == profiled:
                for name, pid in (("herald", pids[0]), ("simulator", self.sim.pid)):
                    data = os.path.join(self.work, f"perf-{name}.data")
                    perfs.append((name, data, subprocess.Popen(
                        ["perf", "record", "-F", os.environ.get("PERF_FREQ", "499"), "-g", "-p", str(pid), "-o", data],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
                time.sleep(0.5)
            if self.a.strace and label == f"herald closed ({self.a.queue_type})":
                data = os.path.join(self.work, "strace-herald.txt")
                perfs.append(("strace", data, subprocess.Popen(
                    ["strace", "-c", "-f", "-p", str(pids[0]), "-o", data],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
                time.sleep(0.5)
            dump = os.path.join(self.work, f"latency-{self.point_no}.txt")
            burner = None
            if burn_cores > 0 and rate > 0:
                # synthetic CPU load beside the system measured, for as long as the load is offered
                burner = subprocess.Popen([self.loadgen, "burn", "4", f"{burn_cores:.3f}", f"{events / rate + 0.5:.1f}"],
                                          stdout=subprocess.PIPE, text=True)
            sampler = StealSampler()
            pools = PoolSampler(self.metrics_ports) if system == "herald" else None
            lg = subprocess.run([self.loadgen, "run", self.url, n["events"], n["results"], str(events), str(int(rate)),
                                 str(window), str(self.point_no), DEAD_APNS], capture_output=True, text=True,
                                env=dict(os.environ, LOADGEN_DUMP=dump))
            sampler.stop()
            if pools:
                pools.stop()
            spans = dump_stretches(dump, P99_WINDOW_S)
            after = ([proc_cpu(p) for p in pids], proc_cpu(self.broker), proc_cpu(self.sim.pid), machine_busy(),
                     time.time(), sum(ctx_switches(p) for p in pids))
            burned = json.loads(burner.communicate()[0] or "{}").get("cores", 0.0) if burner else 0.0
            rss = max(vm_hwm_mb(p) for p in pids)
            rss_end = sum(vm_rss_mb(p) for p in pids)
            for name, data, perf in perfs:
                perf.send_signal(signal.SIGINT)
                perf.wait()
                if name == "strace":
                    log(f"  strace -c of herald: {data}")
                    continue
                report_path = os.path.join(self.work, f"perf-{name}.txt")
                with open(report_path, "w") as fh:
                    subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol",
                                    "--stdio", "-g", "none", "--percent-limit", "0.7"], stdout=fh,
                                   stderr=subprocess.DEVNULL)
                with open(os.path.join(self.work, f"perf-{name}-dso.txt"), "w") as fh:
                    subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso", "--stdio",
                                    "-g", "none"], stdout=fh, stderr=subprocess.DEVNULL)
                log(f"  perf profile of {name}: {report_path}")
            if lg.returncode not in (0, 3):
                raise SystemExit(f"loadgen failed: {lg.stderr}")
            r = json.loads(lg.stdout)
        finally:
            for p in locals().get("procs", []):
                self.stop(p)
            self.delete(n)
        cpu = sum(a - b for a, b in zip(after[0], before[0]))
        notes = r["outcomes"]
        wall = after[4] - before[4]
        ours = cpu + (after[1] - before[1]) + (after[2] - before[2]) + r["loadgen_cpu_s"]
        result = {
            "label": label, "system": system, "queue_type": queue_type, "prefetch": prefetch,
            "apns_conns": apns_conns, "fcm_conns": fcm_conns, "instances": instances,
            "offered_eps": rate, "events": events,
            "nps": r["notifications_per_s"], "eps": r["events_per_s"],
            "p50": r["p50_ms"], "p90": r["p90_ms"], "p99": r["p99_ms"], "max": r["max_ms"],
            "outcomes": notes, "expected": r["expected_outcomes"], "statuses": r["statuses"],
            "cpu_s": cpu, "cpu_per_10k": cpu / notes * 1e4 if notes else 0,
            "cpu_us_per_notif": cpu / notes * 1e6 if notes else 0,
            "rss_mb": rss, "rss_start_mb": rss0, "rss_growth_kb_per_event": (rss_end - rss0) * 1024 / events,
            "ctx_per_notif": (after[5] - before[5]) / notes if notes else 0,
            "broker_cpu_s": after[1] - before[1], "sim_cpu_s": after[2] - before[2],
            "loadgen_cpu_s": r["loadgen_cpu_s"], "seconds": r["seconds"],
            "other_cpu_cores": max(0.0, ((after[3][0] - before[3][0]) - ours) / wall) if wall > 0 else 0,
            "steal_cores": max(0.0, (after[3][1] - before[3][1]) / wall) if wall > 0 else 0,
            "p99_windows": stretch_p99s(spans),
            "steal_windows": [sampler.cores(start, start + P99_WINDOW_S) for start, _ in spans],
            "burn_cores": burned,
            "pools": pools.peaks() if pools else {},
        }
        if notes < r["expected_outcomes"]:
            log(f"  WARNING: {label}: {notes} of {r['expected_outcomes']} outcomes")
        log(f"  {label:<34} {queue_type:<7} {result['nps']:>8.0f} notif/s {result['eps']:>7.0f} ev/s "
            f"p50 {result['p50']:.1f} p99 {result['p99']:.1f} max {result['max']:.1f} ms  "
            f"cpu {result['cpu_per_10k']:.2f} s/10k  ctxsw/notif {result['ctx_per_notif']:.2f}  rss {rss:.0f} MB  broker {result['broker_cpu_s']:.2f}s "
            f"sim {result['sim_cpu_s']:.2f}s  other load {result['other_cpu_cores']:.2f} cores (host steal {result['steal_cores']:.2f})")
        self.points.append(result)
        return result

    # ---- limits ----
    def apns_jwt(self):
        import jwt
        with open(os.path.join(self.dev, "apns-AuthKey.p8")) as f:
            key = f.read()
        return jwt.encode({"iss": "HERALDTEAM", "iat": int(time.time())}, key, algorithm="ES256",
                          headers={"kid": "HERALDKEY1"})

    def waited(self, argv, env=None):
        sim0 = proc_cpu(self.sim.pid)
        start = time.time()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.time() - start
        out = proc.stdout.read().decode()
        err = proc.stderr.read().decode()
        return out, err, usage.ru_utime + usage.ru_stime, wall, proc_cpu(self.sim.pid) - sim0, status

    def limits(self):
        requests = self.a.limit_requests
        token = "ab" * 32
        body = os.path.join(self.work, "apns-body.json")
        with open(body, "w") as f:
            f.write(json.dumps({"aps": {"alert": {"title": "Hello", "body": "x" * 380}, "sound": "default"}}))
        size = os.path.getsize(body)
        auth = "bearer " + self.apns_jwt()
        url = f"https://127.0.0.1:{self.port}/3/device/{token}"
        out, err, cpu, wall, sim, status = self.waited(
            ["h2load", "-n", str(requests), "-c", "1", "-m", "100", "-t", "1", "-d", body, "-H",
             "apns-topic: com.example.chat", "-H", "apns-push-type: alert", "-H", f"authorization: {auth}", url])
        done = next((l for l in out.splitlines() if l.startswith("requests:")), "")
        codes = next((l for l in out.splitlines() if l.startswith("status codes:")), "")
        self.h2load = {"rps": requests / wall, "cpu_us": cpu / requests * 1e6, "sim_us": sim / requests * 1e6,
                       "detail": f"{done.strip()} | {codes.strip()}"}
        log(f"  h2load -> simulator: {self.h2load['rps']:.0f} req/s, client {self.h2load['cpu_us']:.1f} µs/req, "
            f"simulator {self.h2load['sim_us']:.1f} µs/req ({self.h2load['detail']})")
        with open(body) as fh:
            env = dict(os.environ, REF_AUTHORIZATION=auth, REF_BODY=fh.read())
        out, err, cpu, wall, sim, status = self.waited(
            [self.ref, url, os.path.join(self.dev, "ca.pem"), str(requests), "100", "1", str(size)], env=env)
        self.curl = {"rps": requests / wall, "cpu_us": cpu / requests * 1e6, "sim_us": sim / requests * 1e6,
                     "detail": out.strip() + (" " + err.strip() if err.strip() else "")}
        log(f"  C libcurl ref -> simulator: {self.curl['rps']:.0f} req/s, client {self.curl['cpu_us']:.1f} µs/req, "
            f"simulator {self.curl['sim_us']:.1f} µs/req ({self.curl['detail']})")
        # the same reference with its sockets corked and pushed once per pass, as HeraldHTTPClient does
        # (reported beside the floor; the floor itself is the plain libcurl client)
        out, err, cpu, wall, sim, status = self.waited(
            [self.ref, url, os.path.join(self.dev, "ca.pem"), str(requests), "100", "1", str(size)],
            env=dict(env, REF_CORK="1"))
        self.curl_cork = {"rps": requests / wall, "cpu_us": cpu / requests * 1e6, "sim_us": sim / requests * 1e6}
        log(f"  C libcurl ref, corked -> simulator: {self.curl_cork['rps']:.0f} req/s, "
            f"client {self.curl_cork['cpu_us']:.1f} µs/req, simulator {self.curl_cork['sim_us']:.1f} µs/req")
        # raw rabbitmq-c loop: consume + ack + confirmed publish per message
        self.floor = {}
        for qt in ("quorum", "classic"):
            n = self.names()
            b0 = proc_cpu(self.broker)
            t0 = time.time()
            subprocess.run([self.loadgen, "fill", self.url, n["queue"], qt, str(self.a.limit_messages), "7"],
                           check=True)
            fill_wall, fill_broker = time.time() - t0, proc_cpu(self.broker) - b0
            r = subprocess.run([self.loadgen, "floor", self.url, n["queue"], n["results"],
                                str(self.a.limit_messages), "256", str(self.broker)],
                               capture_output=True, text=True, check=True)
            f = json.loads(r.stdout)
            f["fill_rate"] = self.a.limit_messages / fill_wall
            f["broker_fill_us"] = fill_broker / self.a.limit_messages * 1e6
            self.floor[qt] = f
            self.delete(n)
            log(f"  rabbitmq-c loop ({qt}): {f['rate']:.0f} events/s consumed+acked, {f['outcome_rate']:.0f} outcomes/s "
                f"confirmed and consumed, {f['cpu_us_per_outcome']:.1f} µs/outcome client, "
                f"broker {f['broker_cpu_us_per_outcome']:.1f} µs/outcome; "
                f"confirmed fill {f['fill_rate']:.0f} msg/s, broker {f['broker_fill_us']:.1f} µs/msg")
        # Herald's AMQP layer alone (herald-bench-amqp), classic queue as in bench/amqp.sh
        q = f"bench.{self.run_id}.amqp"
        subprocess.run([self.amqp_bench, "setup", "--url", self.url, "--queue", q], check=True)
        pub = subprocess.run([self.amqp_bench, "publish", "--url", self.url, "--queue", q, "--count",
                              str(self.a.limit_messages), "--size", "550", "--window", "512"],
                             capture_output=True, text=True, check=True).stdout
        con = subprocess.run([self.amqp_bench, "consume", "--url", self.url, "--queue", q, "--count",
                              str(self.a.limit_messages), "--prefetch", "256"],
                             capture_output=True, text=True, check=True).stdout
        subprocess.run([self.amqp_bench, "teardown", "--url", self.url, "--queue", q], check=True)
        rate = lambda s: float(s.split("rate=")[1].split("/s")[0])
        self.herald_amqp = {"publish": rate(pub), "consume": rate(con)}
        log(f"  herald-bench-amqp (classic, 550 B): publish confirmed {rate(pub):.0f}/s, consume+ack {rate(con):.0f}/s")


def fmt(v, digits=0):
    return f"{v:,.{digits}f}".replace(",", " ")


def report(b, args):
    P = b.points
    by = {p["label"]: p for p in P}
    qt = args.queue_type
    # Herald's default configuration (prefetch 256, 2 APNs + 1 FCM connections) is measured twice,
    # "herald closed" and "herald prefetch 256": the ratios use the mean of the two.
    defaults = [by[k] for k in (f"herald closed ({qt})", "herald prefetch 256") if k in by]
    herald = None
    if defaults:
        herald = dict(defaults[0])
        for key in ("nps", "cpu_us_per_notif", "other_cpu_cores", "loadgen_cpu_s", "outcomes", "expected", "events"):
            herald[key] = sum(d[key] for d in defaults) / len(defaults)
    peer = by.get(f"peer closed ({qt})")
    lines = []
    out = lines.append
    out(f"# Herald end-to-end benchmark {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{os.cpu_count()} cores, {args.events} events/point (1-3 targets, 300-800 B)")
    out("")
    out(b.machine)
    out("")
    out("| point | queue | notif/s | events/s | p50 ms | p90 ms | p99 ms | max ms | CPU s/10k notif | ctx sw/notif | RSS after warm-up MB | peak RSS MB | RSS growth KB/event | broker CPU s/10k | simulator CPU s/10k | other load (cores) | host steal (cores) |")
    out("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in P:
        k = 1e4 / p["outcomes"] if p["outcomes"] else 0
        out(f"| {p['label']} | {p['queue_type']} | {fmt(p['nps'])} | {fmt(p['eps'])} | {p['p50']:.1f} | {p['p90']:.1f} | "
            f"{p['p99']:.1f} | {p['max']:.1f} | {p['cpu_per_10k']:.3f} | {p['ctx_per_notif']:.1f} | {p['rss_start_mb']:.0f} | {p['rss_mb']:.0f} | {p['rss_growth_kb_per_event']:.1f} | "
            f"{p['broker_cpu_s'] * k:.3f} | {p['sim_cpu_s'] * k:.3f} | {p['other_cpu_cores']:.2f} | {p['steal_cores']:.2f} |")
    if hasattr(b, "curl"):
        out("")
        out("Limits (same machine, same run):")
        out("")
        out("| limit | rate | client CPU µs/op | server/broker CPU µs/op |")
        out("|---|---|---|---|")
        out(f"| h2load -> simulator (APNs POST, 1 conn x 100 streams) | {fmt(b.h2load['rps'])} req/s | {b.h2load['cpu_us']:.1f} | simulator {b.h2load['sim_us']:.1f} |")
        out(f"| C libcurl ref.c -> simulator (1 conn x 100 streams) | {fmt(b.curl['rps'])} req/s | {b.curl['cpu_us']:.1f} | simulator {b.curl['sim_us']:.1f} |")
        out(f"| C libcurl ref.c, sockets corked as Herald's (REF_CORK=1; not the floor) | {fmt(b.curl_cork['rps'])} req/s | {b.curl_cork['cpu_us']:.1f} | simulator {b.curl_cork['sim_us']:.1f} |")
        for q, f in b.floor.items():
            out(f"| rabbitmq-c loop: consume+ack events, confirmed publish of an outcome per target, outcomes consumed; prefetch 256 ({q}) | {fmt(f['outcome_rate'])} outcomes/s | {f['cpu_us_per_outcome']:.1f} per outcome | broker {f['broker_cpu_us_per_outcome']:.1f} per outcome |")
            out(f"| rabbitmq-c confirmed publish of events ({q}) | {fmt(f['fill_rate'])} msg/s | - | broker {f['broker_fill_us']:.1f} |")
        out(f"| herald-bench-amqp confirmed publish / consume+ack (classic, 550 B) | {fmt(b.herald_amqp['publish'])} / {fmt(b.herald_amqp['consume'])} msg/s | - | - |")
    if herald and hasattr(b, "curl"):
        f = b.floor[qt]
        floor_us = b.curl["cpu_us"] + f["cpu_us_per_outcome"]
        herald_us = herald["cpu_us_per_notif"]
        # CPU the whole chain needs per notification when every part is the raw C floor
        targets = herald["expected"] / herald["events"]
        chain_us = (b.curl["cpu_us"] + b.curl["sim_us"] + f["cpu_us_per_outcome"] + f["broker_cpu_us_per_outcome"]
                    + f["broker_fill_us"] / targets + herald["loadgen_cpu_s"] / herald["outcomes"] * 1e6)
        cores = os.cpu_count()
        ceiling = cores / chain_us * 1e6
        avail = max(0.1, cores - herald["other_cpu_cores"])
        ceiling_avail = avail / chain_us * 1e6
        out("")
        out(f"Ratios ({qt} queue; Herald = mean of {len(defaults)} closed-loop points with the default config: {fmt(herald['nps'])} notif/s, {herald['cpu_us_per_notif']:.1f} CPU µs/notif):")
        out("")
        if peer:
            out(f"- Herald / peer notifications/s: {herald['nps'] / peer['nps']:.2f}x  (goal >= 5x)")
            out(f"- peer CPU / Herald CPU per notification: {peer['cpu_us_per_notif'] / herald_us:.2f}x  (goal >= 10x)")
        out(f"- Herald CPU per notification {herald_us:.1f} µs / floor {floor_us:.1f} µs (libcurl {b.curl['cpu_us']:.1f} + rabbitmq-c loop {f['cpu_us_per_outcome']:.1f}) = {herald_us / floor_us:.2f}x  (goal <= 2x)")
        cork_floor_us = b.curl_cork["cpu_us"] + f["cpu_us_per_outcome"]
        out(f"- for comparison, against the corked reference (not the goal's floor): floor {cork_floor_us:.1f} µs (libcurl corked {b.curl_cork['cpu_us']:.1f} + rabbitmq-c loop {f['cpu_us_per_outcome']:.1f}) = {herald_us / cork_floor_us:.2f}x")
        out(f"- Herald notif/s / h2load req/s on the simulator: {herald['nps'] / b.h2load['rps']:.3f}; / libcurl ref req/s: {herald['nps'] / b.curl['rps']:.3f}; / rabbitmq-c loop outcomes/s: {herald['nps'] / f['outcome_rate']:.3f}")
        out(f"- ceiling implied by the floors for {cores} shared cores: {chain_us:.1f} CPU µs per notification "
            f"(libcurl {b.curl['cpu_us']:.1f} + simulator {b.curl['sim_us']:.1f} + rabbitmq-c {f['cpu_us_per_outcome']:.1f} + broker {f['broker_cpu_us_per_outcome']:.1f} + event publish {f['broker_fill_us'] / targets:.1f} + loadgen {herald['loadgen_cpu_s'] / herald['outcomes'] * 1e6:.1f}) "
            f"-> {fmt(ceiling)} notif/s; Herald reaches {herald['nps'] / ceiling * 100:.0f}% (goal >= 75%); "
            f"with the {herald['other_cpu_cores']:.2f} cores other workers and the host's steal took during the run: ceiling {fmt(ceiling_avail)}, Herald {herald['nps'] / ceiling_avail * 100:.0f}%")
        # Where the chain and the runs part: the broker's CPU per notification with a pre-filled queue drained by
        # the raw loop (the chain's term), with events published live to the raw C echo, and in Herald's runs.
        echo_closed = by.get(f"AMQP echo, no HTTP, closed ({qt})")
        herald_broker = sum(d["broker_cpu_s"] / d["outcomes"] for d in defaults) / len(defaults) * 1e6
        out(f"- broker CPU per notification: {f['broker_cpu_us_per_outcome'] + f['broker_fill_us'] / targets:.1f} µs in the chain "
            f"(queue filled, then drained by the raw loop)"
            + (f"; {echo_closed['broker_cpu_s'] / echo_closed['outcomes'] * 1e6:.1f} µs with events published live to the raw C echo"
               if echo_closed and echo_closed["outcomes"] else "")
            + f"; {herald_broker:.1f} µs in Herald's runs")
    half = [p for p in P if p["label"].startswith("herald open 50%")]
    echo = [p for p in P if p["label"].startswith("AMQP echo, no HTTP, open")]
    if half:
        h = half[0]
        w = h.get("p99_windows") or []
        out(f"- p99 publish->outcome at half the closed-loop maximum ({fmt(h['offered_eps'])} events/s offered for "
            f"{h['seconds']:.0f} s, {h['outcomes']} outcomes): {h['p99']:.1f} ms (goal < 50 ms)"
            + (f"; p99 of each {P99_WINDOW_S:g} s stretch: {stretches(w)} (p99 / host steal in cores, stretch by "
               f"stretch: {stretch_pairs(h)})" if w else "")
            + (f"; the AMQP path alone at the same rate: p99 {echo[0]['p99']:.1f} ms" if echo else ""))
        # Steal is the host running someone else on this VM's vCPUs: every thread on them stalls meanwhile.
        out(f"- host steal (vCPU time the hypervisor gave elsewhere, /proc/stat): {h['steal_cores']:.2f} cores "
            f"during the half point" + (f", {sum(d['steal_cores'] for d in defaults) / len(defaults):.2f} during "
                                        f"Herald's closed-loop points" if defaults else ""))
        # The controls: the raw C echo (no HTTP, ~0.1 core) where the machine is as busy as at Herald's half point.
        for p in P:
            w = p.get("p99_windows") or []
            each = f" (each {P99_WINDOW_S:g} s stretch: {stretches(w)}; p99 / host steal: {stretch_pairs(p)})" if w else ""
            if p["label"].startswith(LOADED_ECHO):
                out(f"- control, a client that costs nothing beside the same load: the raw C echo at "
                    f"{fmt(p['offered_eps'])} events/s with {p['burn_cores']:.2f} cores of synthetic load "
                    f"(Herald's and the simulator's CPU at the half point, less the echo's): p99 {p['p99']:.1f} ms{each}")
            elif p["label"].startswith(OWN_HALF_ECHO):
                out(f"- control, a client that costs nothing at half of its own maximum: the raw C echo at "
                    f"{fmt(p['offered_eps'])} events/s: p99 {p['p99']:.1f} ms{each}")
    if hasattr(b, "wan_points"):
        wan_report(b, out)
    big = [p for p in P if p["label"] == "herald prefetch 1024"]
    if big:
        out(f"- peak RSS at prefetch 1024: {big[0]['rss_mb']:.0f} MB (goal < 100 MB)")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(b.work, "report.md"), "w") as fh:
        fh.write(text + "\n")
    with open(os.path.join(b.work, "points.json"), "w") as fh:
        json.dump({"points": P, "h2load": getattr(b, "h2load", None), "curl": getattr(b, "curl", None), "curl_cork": getattr(b, "curl_cork", None),
                   "floor": getattr(b, "floor", None), "herald_amqp": getattr(b, "herald_amqp", None)}, fh, indent=1)
    log(f"report: {b.work}/report.md, data: {b.work}/points.json")


def wan_report(b, out):
    """The wan part's table: Herald at 0, 50, 100 and 200 ms from its providers, against what bounds it."""
    w = b.wan_points
    loop = w["loopback"]
    out("")
    out(f"At a distance (`--only wan`; `connections: auto`, prefetch {b.a.wan_prefetch}, APNs and FCM on separate "
        f"hosts; bound = the lower of the loopback rate and prefetch x targets per event / round trip):")
    out("")
    out("| provider round trip | notif/s | / loopback | / bound | peak connections APNs, FCM | peak streams APNs, FCM "
        "| CPU µs/notif | peak RSS MB | p99 ms | GOAWAYs received |")
    out("|---|---|---|---|---|---|---|---|---|---|")
    for key in ("loopback", 50, 100, 200):
        p = w[key]
        hosts = p["pools"].get("hosts", {})
        apns = next((v for h, v in hosts.items() if h.startswith("127.0.0.1")), {})
        fcm = next((v for h, v in hosts.items() if h.startswith("localhost")), {})
        targets = p["expected"] / p["events"] if p["events"] else 2
        rtt = p.get("rtt_ms", 0) / 1000
        bound = min(loop["nps"], b.a.wan_prefetch * targets / rtt) if rtt else loop["nps"]
        goaways = sum(p["pools"].get("goaways", {}).values())
        out(f"| {'loopback' if key == 'loopback' else f'{key} ms'} | {fmt(p['nps'])} | {p['nps'] / loop['nps']:.2f} | "
            f"{p['nps'] / bound:.2f} | {apns.get('connections', 0):.0f}, {fcm.get('connections', 0):.0f} | "
            f"{apns.get('streams', 0):.0f}, {fcm.get('streams', 0):.0f} | {p['cpu_us_per_notif']:.1f} | {p['rss_mb']:.0f} | "
            f"{p['p99']:.1f} | {goaways:.0f} |")
    peer = w["peer"]
    at100 = w[100]
    out("")
    out(f"- at 100 ms: Herald {fmt(at100['nps'])} notif/s (goal >= 8 000), {at100['nps'] / loop['nps'] * 100:.0f}% of "
        f"loopback (goal >= 80%), {at100['nps'] / peer['nps']:.1f}x the peer's {fmt(peer['nps'])} (goal >= 20x), "
        f"peak RSS {at100['rss_mb']:.0f} MB (goal < 150 MB)")


def plot(b):
    open_points = sorted([p for p in b.points if p["label"].startswith("herald open")], key=lambda p: p["offered_eps"])
    if not open_points:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    offered = [p["offered_eps"] * p["expected"] / p["events"] for p in open_points]
    ax.plot(offered, [p["nps"] for p in open_points], "o-", color="tab:blue", label="achieved notifications/s")
    ax.plot(offered, offered, ":", color="grey", label="offered")
    ax.set_xlabel("offered load (notifications/s)")
    ax.set_ylabel("notifications/s", color="tab:blue")
    ax2 = ax.twinx()
    ax2.plot(offered, [p["p99"] for p in open_points], "s--", color="tab:red", label="p99 publish->outcome")
    ax2.set_ylabel("p99 latency (ms, log)", color="tab:red")
    ax2.set_yscale("log")
    ax2.axhline(50, color="tab:red", alpha=0.3)
    ax2.text(offered[0], 52, "50 ms goal", color="tab:red", fontsize=7, alpha=0.7)
    ax.set_title(f"Herald end to end, {open_points[0]['queue_type']} queue, {os.cpu_count()} shared cores")
    fig.legend(loc="upper left", bbox_to_anchor=(0.12, 0.88), fontsize=8)
    fig.tight_layout()
    # Only a full run replaces the committed plot; --quick and partial runs keep theirs in the run directory.
    path = os.path.join(b.work, "e2e-load.png")
    fig.savefig(path, dpi=110)
    if not b.a.quick and not b.a.only and not b.a.herald:
        shutil.copy(path, os.path.join(ROOT, "bench/e2e-load.png"))
        path = os.path.join(ROOT, "bench/e2e-load.png")
    log(f"plot: {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--amqp-url", default=os.environ.get("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
    ap.add_argument("--queue-type", default="quorum", choices=["quorum", "classic"])
    ap.add_argument("--events", type=int, default=10000, help="events per point (~2 notifications each)")
    ap.add_argument("--peer-events", type=int, default=4000)
    ap.add_argument("--sim-port", type=int, default=22197)
    ap.add_argument("--profile", action="store_true", help="perf record Herald and the simulator during the main point")
    ap.add_argument("--profile-point", default="", help="the point --profile records (default: the main closed-loop one)")
    ap.add_argument("--strace", action="store_true", help="strace -c -f Herald during the main point (slows it)")
    ap.add_argument("--herald", default="", help="herald binary to measure (default .build/release/herald), for A/B runs")
    ap.add_argument("--concurrency", type=int, default=0, help="amqp.concurrency for Herald (default: Herald's own)")
    ap.add_argument("--rates", default="", help="comma list of open-loop fractions of the closed-loop maximum")
    ap.add_argument("--max-eps", type=float, default=0,
                    help="the closed-loop maximum (events/s) that --rates are fractions of, when main is not run")
    ap.add_argument("--config-extra", default="", help="YAML appended to the generated Herald config (\\n for newlines)")
    ap.add_argument("--amqp-extra", default="", help="lines added to the generated config's amqp section (\\n between)")
    ap.add_argument("--open-seconds", type=float, default=0,
                    help="every open-loop point offers load this long (default: 8 s, 4 with --quick, at most --events events)")
    ap.add_argument("--half-seconds", type=float, default=20,
                    help="the 50%% point, the AMQP echo and the two p99 controls beside it offer load this long (default 20 s)")
    ap.add_argument("--only", default="", help="comma list: main,peer,limits,prefetch,connections,instances,streams,open,"
                                               "wan (wan runs only when named)")
    ap.add_argument("--wan-events", type=int, default=20000, help="events per point of the wan part")
    ap.add_argument("--wan-prefetch", type=int, default=0,
                    help="amqp.prefetch of the wan part's points (default: Herald's default, %d)" % HERALD_PREFETCH)
    args = ap.parse_args()
    if args.quick:
        args.events = min(args.events, 3000)
        args.peer_events = min(args.peer_events, 1500)
        args.half_seconds = min(args.half_seconds, 4)
    args.wan_prefetch = args.wan_prefetch or HERALD_PREFETCH
    if args.quick:
        args.wan_events = min(args.wan_events, 6000)
    args.limit_requests = 20000 if not args.quick else 10000
    args.limit_messages = 20000 if not args.quick else 8000
    parts = set(args.only.split(",")) if args.only else {"main", "peer", "limits", "prefetch", "connections",
                                                           "instances", "streams", "open"}
    if args.quick:
        parts -= {"connections", "instances", "streams"} if not args.only else set()
    b = Bench(args)
    b.machine = machine_line(b.loadgen)
    log(b.machine)
    b.start_simulator()
    qt = args.queue_type
    other = "classic" if qt == "quorum" else "quorum"
    try:
        if "main" in parts:
            b.point(f"herald closed ({qt})")
            b.point(f"herald closed ({other})", queue_type=other)
            b.point(f"AMQP echo, no HTTP, closed ({qt})", system="echo")
        if "peer" in parts:
            b.point(f"peer closed ({qt})", system="peer", events=args.peer_events)
        if "limits" in parts:
            b.limits()
        if "prefetch" in parts:
            for p in ([16, 64, 256, 1024] if not args.quick else [16, 1024]):
                b.point(f"herald prefetch {p}", prefetch=p)
        if "connections" in parts:
            for c in (1, 4):
                b.point(f"herald apns {c} / fcm {c} conns", apns_conns=c, fcm_conns=c)
        if "instances" in parts:
            b.point("herald 2 instances", instances=2)
        if "streams" in parts:
            # A provider 20 ms away that allows few streams: throughput is about
            # connections x streams / latency per provider until something else bounds it.
            for streams, conns in ((10, 1), (10, 4), (100, 1)):
                b.with_provider_limits("20ms", streams, lambda: b.point(
                    f"herald {conns} conn x {streams} streams, 20 ms away", apns_conns=conns, fcm_conns=conns,
                    events=min(args.events, 3000 if streams * conns < 100 else 10000)))
        if "wan" in parts:
            b.wan()
        if "open" in parts:
            mains = [p for p in b.points if p["label"] in (f"herald closed ({qt})", "herald prefetch 256")]
            max_eps = sum(p["eps"] for p in mains) / len(mains) if mains else (args.max_eps or 1500)
            log(f"  open loop: fractions of {max_eps:.0f} events/s (mean closed-loop maximum, default config)")
            fractions = [0.25, 0.5, 0.75, 1.0, 1.25] if not args.quick else [0.5, 1.0]
            if args.rates:
                fractions = [float(x) for x in args.rates.split(",")]
            for f in fractions:
                rate = max(50, int(max_eps * f))
                seconds = args.open_seconds or (args.half_seconds if f == 0.5 else 0)
                events = (max(500, int(rate * seconds)) if seconds
                          else min(args.events, max(500, int(rate * (8 if not args.quick else 4)))))
                b.point(f"herald open {int(f * 100)}% ({rate}/s)", rate=rate, events=events)
                if f == 0.5:
                    half = b.points[-1]
                    echo = b.point(f"AMQP echo, no HTTP, open ({rate}/s)", system="echo", rate=rate, events=events)
                    # Controls for the p99 goal: a client that costs nothing on a machine as busy as Herald's point.
                    # (1) the echo at the same rate beside synthetic load of Herald's and the simulator's CPU there
                    extra = (half["cpu_s"] + half["sim_cpu_s"]) / half["seconds"] - echo["cpu_s"] / echo["seconds"]
                    b.point(f"{LOADED_ECHO}, open ({rate}/s)", system="echo", rate=rate, events=events,
                            burn_cores=max(0.05, extra))
                    # (2) the echo at half of its own closed-loop maximum
                    echo_max = next((p for p in b.points if p["label"] == f"AMQP echo, no HTTP, closed ({qt})"), None)
                    if echo_max:
                        own = int(echo_max["eps"] * 0.5)
                        b.point(f"{OWN_HALF_ECHO} ({own}/s)", system="echo", rate=own,
                                events=max(500, int(own * seconds)))
    finally:
        b.stop(b.sim)
    report(b, args)
    plot(b)


if __name__ == "__main__":
    main()

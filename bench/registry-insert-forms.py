#!/usr/bin/env python3
"""How to write a batch of memberships into PostgreSQL, measured at the SQL
level (psql, no Herald): the multi-row INSERT ... SELECT from a JSON array
parameter that `herald registry import` uses, against COPY into a temporary
table then INSERT ... SELECT from it. Same rows, same batches, same schema
(version 6: the member and device indexes), each in a fresh schema.
See bench/README.md "Registry import".

  bench/registry-insert-forms.py [--devices 100000] [--batch 2000] [--url "$(scripts/postgres url)"]
"""
import argparse, json, os, random, subprocess, tempfile, time

SCHEMA = """
CREATE TABLE herald_registrations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, app text NOT NULL, channel text NOT NULL,
    provider text COLLATE "C" NOT NULL, address_kind text COLLATE "C" NOT NULL, address text COLLATE "C" NOT NULL,
    environment text, topic text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
    CONSTRAINT herald_registrations_member UNIQUE (app, channel, provider, address_kind, address));
CREATE INDEX herald_registrations_device ON herald_registrations (app, provider, address_kind, address);
"""
COLUMNS = "app, provider, address_kind, address, channel, environment, topic, created_at, updated_at"


def rows(devices):
    rng = random.Random(7)
    for i in range(devices):
        token = "%064x" % rng.getrandbits(256)
        for channel in (f"user:{i // 2}", f"room:{i % 1000}", f"segment:{i % 10}"):
            yield ["bench", "apns", "token", token, channel, None, None]


def json_script(batches):
    out = []
    for batch in batches:
        text = json.dumps(batch, separators=(",", ":")).replace("'", "''")
        out.append(f"INSERT INTO herald_registrations ({COLUMNS}) SELECT m ->> 0, m ->> 1, m ->> 2, m ->> 3, m ->> 4, "
                   f"m ->> 5, m ->> 6, now(), now() FROM json_array_elements('{text}'::json) WITH ORDINALITY AS r (m, n) ORDER BY n;")
    return "\n".join(out)


def array(values):
    """A PostgreSQL text[] literal."""
    def item(v):
        if v is None:
            return "NULL"
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "{" + ",".join(item(v) for v in values) + "}"


def unnest_script(batches):
    out = []
    for batch in batches:
        columns = ", ".join("'" + array([row[c] for row in batch]).replace("'", "''") + "'::text[]" for c in range(7))
        out.append(f"INSERT INTO herald_registrations ({COLUMNS}) SELECT a, p, k, d, c, e, t, now(), now() "
                   f"FROM unnest({columns}) AS u (a, p, k, d, c, e, t);")
    return "\n".join(out)


def copy_script(batches):
    out = ["CREATE TEMPORARY TABLE incoming (app text, provider text, address_kind text, address text, channel text, "
           "environment text, topic text);"]
    for batch in batches:
        out.append("COPY incoming FROM STDIN;")
        out += ["\t".join("\\N" if v is None else v for v in row) for row in batch]
        out.append("\\.")
        out.append(f"INSERT INTO herald_registrations ({COLUMNS}) SELECT app, provider, address_kind, address, channel, "
                   "environment, topic, now(), now() FROM incoming;")
        out.append("TRUNCATE incoming;")
    return "\n".join(out)


def run(url, schema, script):
    subprocess.run(["psql", "-X", "-q", url, "-c", f"DROP SCHEMA IF EXISTS {schema} CASCADE", "-c", f"CREATE SCHEMA {schema}",
                    "-c", f"SET search_path = {schema}", "-c", SCHEMA], check=True, capture_output=True)
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(f"SET search_path = {schema};\n" + script + "\n")
        path = f.name
    start = time.perf_counter()
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-f", path], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    os.unlink(path)
    subprocess.run(["psql", "-X", "-q", url, "-c", f"DROP SCHEMA {schema} CASCADE"], check=True, capture_output=True)
    return seconds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--devices", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=2000, help="devices per batch (3 rows each)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--url", default=subprocess.run(["scripts/postgres", "url"], capture_output=True, text=True).stdout.strip())
    a = p.parse_args()
    all_rows = list(rows(a.devices))
    size = a.batch * 3
    batches = [all_rows[i:i + size] for i in range(0, len(all_rows), size)]
    scripts = {"json multi-row INSERT": json_script(batches), "text[] columns, unnest": unnest_script(batches),
               "COPY + INSERT ... SELECT": copy_script(batches)}
    times = {name: [] for name in scripts}
    for _ in range(a.rounds):
        for name, script in scripts.items():
            times[name].append(run(a.url, "bench_insert_forms", script))
    print(f"{len(all_rows)} rows in {len(batches)} batches of {size}; load average {open('/proc/loadavg').read().split()[0]}")
    for name, values in times.items():
        best = min(values)
        print(f"  {name}: {best:.2f} s ({len(all_rows) / best:,.0f} rows/s; rounds {', '.join(f'{v:.2f}' for v in values)})")


if __name__ == "__main__":
    main()

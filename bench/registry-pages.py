#!/usr/bin/env python3
"""Channel pages in id order against device order, at the SQL level, on a
registry bench/registry-import.sh filled (--keep): the query plan of each
and the time to walk a whole channel a page at a time, on SQLite and
PostgreSQL. See docs/registry.md "Channel pages in device order".

  bench/registry-pages.py [--channel segment:0] [--page 1000] [--rounds 3]
      [--sqlite .build/bench/registry-import/registry.sqlite]
      [--postgres "$(scripts/postgres url)" --schema bench_import]
"""
import argparse, sqlite3, statistics, subprocess, time

COLUMNS = "id, provider, address_kind, address, environment, topic, created_at, updated_at"
ORDERS = {
    # (the page query, the cursor it continues from, as (SQLite, PostgreSQL) text)
    "id": ("WHERE app = {a} AND channel = {c} AND id > {k1} ORDER BY id LIMIT {n}",),
    # On PostgreSQL the channel in the row too: the planner then walks the (app, channel, provider,
    # address_kind, address) index; with the device's columns alone it may walk the device index and filter
    # on channel. On SQLite the device's columns alone: with the channel, it picks the id index and sorts.
    "device": ("WHERE app = {a} AND channel = {c} AND (provider, address_kind, address) > ({k1}, {k2}, {k3}) "
               "ORDER BY provider, address_kind, address LIMIT {n}",),
    "device-pg": ("WHERE app = {a} AND channel = {c} AND (channel, provider, address_kind, address) > ({c}, {k1}, {k2}, {k3}) "
                  "ORDER BY provider, address_kind, address LIMIT {n}",),
}


def sqlite_walk(db, order, app, channel, page):
    where = ORDERS[order][0].format(a="?", c="?", k1="?", k2="?", k3="?", n="?")
    sql = f"SELECT {COLUMNS} FROM herald_registrations {where}"
    cursor = (0,) if order == "id" else ("", "", "")
    rows = pages = 0
    start = time.perf_counter()
    while True:
        got = db.execute(sql, (app, channel, *cursor, page + 1)).fetchall()
        pages += 1
        rows += min(len(got), page)
        if len(got) <= page:
            break
        last = got[page - 1]
        cursor = (last[0],) if order == "id" else (last[1], last[2], last[3])
    return time.perf_counter() - start, rows, pages, sql


def postgres_walk(psql, order, app, channel, page):
    if order == "id":
        declare, init, step = "k1 bigint := 0;", "", "k1 := r.id;"
        where = ORDERS[order][0].format(a="$1", c="$2", k1="k1", n=page + 1)
    else:
        declare, init, step = "k1 text := ''; k2 text := ''; k3 text := '';", "", \
            "k1 := r.provider; k2 := r.address_kind; k3 := r.address;"
        where = ORDERS[order][0].format(a="$1", c="$2", k1="k1", k2="k2", k3="k3", n=page + 1)
    where = where.replace("$1", f"'{app}'").replace("$2", f"'{channel}'")
    body = f"""
DO $$
DECLARE {declare} n int; total int := 0; pages int := 0; t0 timestamptz := clock_timestamp(); r record;
BEGIN
  LOOP
    n := 0;
    FOR r IN SELECT {COLUMNS} FROM herald_registrations {where} LOOP
      n := n + 1;
      EXIT WHEN n > {page};
      {step}
    END LOOP;
    pages := pages + 1;
    total := total + least(n, {page});
    EXIT WHEN n <= {page};
  END LOOP;
  RAISE NOTICE 'walk % % %', extract(epoch FROM clock_timestamp() - t0), total, pages;
END $$;"""
    out = subprocess.run(psql + ["-c", body], capture_output=True, text=True, check=True)
    seconds, rows, pages = out.stderr.split("walk", 1)[1].split()[:3]
    return float(seconds), int(rows), int(pages), where


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--app", default="bench")
    p.add_argument("--channel", default="segment:0")
    p.add_argument("--page", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--sqlite", default=".build/bench/registry-import/registry.sqlite")
    p.add_argument("--postgres", default=None)
    p.add_argument("--schema", default="bench_import")
    a = p.parse_args()

    if a.sqlite:
        db = sqlite3.connect(a.sqlite)
        print(f"SQLite {sqlite3.sqlite_version}, {a.sqlite}: rows {db.execute('SELECT count(*) FROM herald_registrations').fetchone()[0]}")
        orders = ["id", "device"]
        times = {o: [] for o in orders}
        walked = {}
        for _ in range(a.rounds):
            for order in orders:
                seconds, rows, pages, sql = sqlite_walk(db, order, a.app, a.channel, a.page)
                times[order].append(seconds)
                walked[order] = (rows, pages)
        for order in orders:
            rows, pages = walked[order]
            args = (a.app, a.channel, 0, a.page + 1) if order == "id" else (a.app, a.channel, "", "", "", a.page + 1)
            plan = db.execute("EXPLAIN QUERY PLAN " + sql_for(order), args).fetchall()
            print(f"  {order} order: {rows} rows in {pages} pages, walk {statistics.median(times[order]) * 1000:.0f} ms "
                  f"(median of {a.rounds}; {statistics.median(times[order]) / pages * 1e6:.0f} µs/page); plan: {' | '.join(r[3] for r in plan)}")
    if a.postgres:
        psql = ["psql", "-X", "-q", "-At", a.postgres, "-c", f"SET search_path = {a.schema}"]
        orders = ["id", "device-pg"]
        times = {o: [] for o in orders}
        walked = {}
        for _ in range(a.rounds):
            for order in orders:
                seconds, rows, pages, where = postgres_walk(psql, order, a.app, a.channel, a.page)
                times[order].append(seconds)
                walked[order] = (rows, pages)
        print(f"PostgreSQL, schema {a.schema}:")
        for order in orders:
            rows, pages = walked[order]
            where = ORDERS[order][0].format(a=f"'{a.app}'", c=f"'{a.channel}'", k1="0" if order == "id" else "''",
                                            k2="''", k3="''", n=a.page + 1)
            plan = subprocess.run(psql + ["-c", f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT {COLUMNS} FROM herald_registrations {where}"],
                                  capture_output=True, text=True, check=True).stdout.strip().splitlines()
            median = statistics.median(times[order])
            print(f"  {order} order: {rows} rows in {pages} pages, walk {median * 1000:.0f} ms (median of {a.rounds}; "
                  f"{median / pages * 1e6:.0f} µs/page); first page:")
            for line in plan:
                print(f"      {line}")


def sql_for(order):
    where = ORDERS[order][0].format(a="?", c="?", k1="?", k2="?", k3="?", n="?")
    return f"SELECT {COLUMNS} FROM herald_registrations {where}"


if __name__ == "__main__":
    main()

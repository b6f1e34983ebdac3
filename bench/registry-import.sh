#!/usr/bin/env bash
# Registry import benchmark: `herald registry import` (release) of generated
# JSON lines into a fresh SQLite file and a fresh PostgreSQL schema
# (scripts/postgres), reporting lines/s, rows/s and the database's size per
# million registrations. See bench/README.md "Registry import".
#   bench/registry-import.sh [--devices N] [--backends sqlite,postgres] [--batch-size N] [--keep]
# Shape: N devices (default 1,000,000), 60% APNs (64 hex digits), 40% FCM
# (152-character tokens), each on 3 channels: user:<n/2> (two devices per
# user), room:<n mod 1000> (1000 rooms of N/1000) and segment:<n mod 10>
# (10 segments of N/10): 3N registrations (rows).
# Env: HERALD_POSTGRES_URL (default scripts/postgres url).
set -euo pipefail
cd "$(dirname "$0")/.."

devices=1000000 backends=sqlite,postgres batch=() keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --devices) devices=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --batch-size) batch=(--batch-size "$2"); shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: bench/registry-import.sh [--devices N] [--backends sqlite,postgres] [--batch-size N] [--keep]" >&2; exit 64 ;;
  esac
done

scripts/dev-keys >/dev/null
scripts/postgres start >&2
echo "bench: building herald (release)" >&2
swift build -c release --product herald 2>&1 | tail -1 >&2
herald="$(swift build -c release --show-bin-path)/herald"
dir=.build/bench/registry-import
mkdir -p "$dir"
input="$dir/registrations-$devices.jsonl"
if [ ! -s "$input" ]; then
  echo "bench: writing $input" >&2
  python3 - "$devices" "$input" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
with open(path, "w") as out:
    for i in range(n):
        channels = f'["user:{i // 2}","room:{i % 1000}","segment:{i % 10}"]'
        if i % 5 < 3:
            token = "%064x" % rng.getrandbits(256)
            out.write(f'{{"app":"bench","provider":"apns","token":"{token}","channels":{channels}}}\n')
        else:
            token = "".join(rng.choice(alphabet) for _ in range(22)) + ":APA91b" + "".join(rng.choice(alphabet) for _ in range(123))
            out.write(f'{{"app":"bench","provider":"fcm","token":"{token}","channels":{channels}}}\n')
PY
fi

pg_url=${HERALD_POSTGRES_URL:-$(scripts/postgres url)}
schema=bench_import
dev=$(pwd)/.herald/dev
config() {  # backend
  local registry
  if [ "$1" = sqlite ]; then
    registry="{backend: sqlite, path: \"$(pwd)/$dir/registry.sqlite\"}"
  else
    registry="{backend: postgres, url: \"$pg_url?options=-c%20search_path%3D$schema\"}"
  fi
  cat > "$dir/config-$1.yaml" <<YAML
apps:
  bench:
    apns: {team_id: HERALDTEAM, key_id: HERALDKEY1, key_file: $dev/apns-AuthKey.p8, topic: com.example.chat}
    fcm: {project_id: herald-dev, service_account_file: $dev/fcm-service-account.json}
registry: $registry
YAML
  echo "$dir/config-$1.yaml"
}

lines=$(wc -l < "$input")
echo "bench: $lines lines, $((lines * 3)) registrations; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for backend in ${backends//,/ }; do
  file=$(config "$backend")
  if [ "$backend" = sqlite ]; then
    rm -f "$dir/registry.sqlite" "$dir/registry.sqlite-wal" "$dir/registry.sqlite-shm"
  else
    psql -X -q "$pg_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" -c "CREATE SCHEMA $schema" >/dev/null
  fi
  "$herald" registry migrate --config "$file" >/dev/null
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time-$backend" "$herald" registry import "$input" "${batch[@]}" --config "$file" \
    > "$dir/summary-$backend" 2> "$dir/errors-$backend" || { cat "$dir/errors-$backend" | tail -5 >&2; exit 1; }
  end=$(date +%s.%N)
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  read -r wall user sys rss < "$dir/time-$backend"
  if [ "$backend" = sqlite ]; then
    sqlite3 "$dir/registry.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null 2>&1 || true
    bytes=$(( $(stat -c %s "$dir/registry.sqlite") + $(stat -c %s "$dir/registry.sqlite-wal" 2>/dev/null || echo 0) ))
  else
    bytes=$(psql -X -At "$pg_url" -c "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$schema' AND c.relkind = 'r'")
  fi
  python3 - "$backend" "$lines" "$start" "$end" "$user" "$sys" "$rss" "$bytes" "$load_before" "$load_after" "$(cat "$dir/summary-$backend")" <<'PY'
import sys
backend, lines, start, end, user, sys_, rss, size, lb, la, summary = sys.argv[1:]
lines, seconds, rows = int(lines), float(end) - float(start), int(lines) * 3
print(f"{backend}: {summary} in {seconds:.1f} s: {lines / seconds:,.0f} lines/s, {rows / seconds:,.0f} registrations/s; "
      f"herald CPU {float(user) + float(sys_):.1f} s, peak RSS {int(rss) / 1024:.0f} MiB; "
      f"database {int(size) / 2**20:.0f} MiB ({int(size) / 2**20 / (rows / 1e6):.0f} MiB per million registrations); "
      f"load average {lb} before, {la} after")
PY
done
[ "$keep" = 1 ] || { rm -f "$dir/registry.sqlite"*; psql -X -q "$pg_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null; }

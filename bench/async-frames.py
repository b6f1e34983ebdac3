#!/usr/bin/env python3
"""The async frame (context) size of each async function of a Swift binary whose demangled name matches a pattern.

An event in flight holds the frames of every async function on its path, from the task allocator, for as long as
it is in flight; the sizes are exact and do not depend on load, so two builds compare without noise.

    bench/async-frames.py .build/release/herald ['HeraldService|HeraldFCM|HeraldAPNs']

An async function pointer ($s...Tu) is {int32 offset of the function, uint32 size of its initial context}.
Needs readelf, nm and `swift demangle`.
"""
import re
import signal
import subprocess
import sys


def sections(binary):
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if m and m.group(1) != ".bss":
            yield int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    binary = sys.argv[1]
    pattern = re.compile(sys.argv[2] if len(sys.argv) > 2 else ".")
    data = open(binary, "rb").read()
    spans = list(sections(binary))
    symbols = []
    for line in subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[2].endswith("Tu"):
            symbols.append((int(parts[0], 16), parts[2]))
    mangled = "\n".join(n for _, n in symbols)
    full, short = (subprocess.run(["swift", "demangle", "--compact"] + flags, input=mangled, capture_output=True,
                                  text=True, check=True).stdout.splitlines() for flags in ([], ["--simplified"]))
    rows = []
    for (address, _), match, name in zip(symbols, full, short):
        if not pattern.search(match):
            continue
        for start, offset, size in spans:
            if start <= address < start + size:
                at = offset + address - start
                rows.append((int.from_bytes(data[at + 4:at + 8], "little"), name))
                break
    for size, name in sorted(rows, reverse=True):
        print(f"{size:7d}  {name.removeprefix('async function pointer to ')[:160]}")


if __name__ == "__main__":
    main()

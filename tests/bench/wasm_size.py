#!/usr/bin/env python3
"""What the page costs to download: gzip -9 of index.wasm and index.js, checked against a limit,
and (given a size-report build) the wasm's code attributed to libraries, modes and folders.

  python3 tests/bench/wasm_size.py SITE [--limit BYTES]
      prints gzip -9 of SITE/index.wasm and SITE/index.js; exit 1 when their sum is over the limit
      (default 1 MiB), the CTest test `web_size`.
  python3 tests/bench/wasm_size.py SITE --report BUILD [--top N]
      also attributes the wasm's function bodies: SITE/index.html.symbols holds the final function
      names (a build configured with -DCHAIBA_WEB_SIZE_REPORT=ON, the page linked with
      --emit-symbol-map), and llvm-nm-14 over BUILD's objects and emscripten's system libraries says
      which library defines each. Sizes are bytes after wasm-opt; "gz alone" is gzip -9 of that
      group's bodies alone (the groups' sum is more than the file's, which shares one dictionary).
      wasm-ld's --Map would be the direct answer, but emcc 3.1.6 drops it (it takes it for -M).

Debian tools only: Python's standard library parses the wasm, gzip compresses, llvm-nm (clang-14,
which Debian's emscripten depends on) lists the objects' functions; twiggy and bloaty are not in Debian 12.
"""
import argparse
import collections
import gzip
import os
import re
import shutil
import subprocess
import sys

LIMIT_DEFAULT = 1 << 20


def gz_size(data):
    """Bytes of `gzip -9 -n` (Debian's gzip; Python's zlib at level 9 comes out ~0.3 % smaller)."""
    if shutil.which("gzip"):
        return len(subprocess.run(["gzip", "-9", "-n", "-c"], input=data, capture_output=True, check=True).stdout)
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def leb(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def parse_wasm(data):
    """Returns (sections as (id, custom name, start, size), the imported function count, code bodies)."""
    assert data[:4] == b"\0asm", "not a wasm file"
    pos = 8
    sections, bodies, imported_funcs = [], [], 0
    while pos < len(data):
        sid = data[pos]
        size, p = leb(data, pos + 1)
        end = p + size
        name = ""
        if sid == 0:
            n, q = leb(data, p)
            name = data[q:q + n].decode("utf-8", "replace")
        sections.append((sid, name, pos, end - pos))
        if sid == 2:  # imports
            count, q = leb(data, p)
            for _ in range(count):
                for _field in range(2):
                    n, q = leb(data, q)
                    q += n
                kind = data[q]
                q += 1
                if kind == 0:
                    _, q = leb(data, q)
                    imported_funcs += 1
                elif kind == 1:
                    q += 1
                    flags = data[q]
                    _, q = leb(data, q + 1)
                    if flags & 1:
                        _, q = leb(data, q)
                elif kind == 2:
                    flags = data[q]
                    _, q = leb(data, q + 1)
                    if flags & 1:
                        _, q = leb(data, q)
                elif kind == 3:
                    q += 2
                else:
                    raise ValueError(f"unknown import kind {kind}")
        elif sid == 10:  # code
            count, q = leb(data, p)
            for _ in range(count):
                n, q2 = leb(data, q)
                bodies.append(data[q:q2 + n])  # the size prefix counts as the function's
                q = q2 + n
        pos = end
    return sections, imported_funcs, bodies


SECTION_NAMES = {0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
                 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount"}


def read_symbols(path):
    names = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            idx, _, name = line.rstrip("\n").partition(":")
            if idx.isdigit():
                names[int(idx)] = name
    return names


def unescape(name):
    """wasm-opt's function map escapes bytes as \\xx (hex): '\\20' is a space, '\\28' '('."""
    return re.sub(r"\\([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), name)


SYSTEM_ARCHIVES = ("libc.a", "libc-optz.a", "libc++.a", "libc++-noexcept.a", "libc++abi.a", "libc++abi-noexcept.a",
                   "libdlmalloc.a", "libemmalloc.a", "libcompiler_rt.a", "libGL-webgl2-full_es3.a", "libhtml5.a",
                   "libstubs.a", "libnoexit.a", "libsockets.a", "libal.a")


def defined_functions(build):
    """name -> set of defining files: every object of the build and emscripten's system archives, by
    llvm-nm (clang-14, which Debian's emscripten uses)."""
    nm = shutil.which("llvm-nm-14") or shutil.which("llvm-nm")
    if not nm:
        sys.exit("llvm-nm not found (Debian's emscripten brings llvm-14)")
    objects = []
    for root, _dirs, files in os.walk(os.path.join(build, "CMakeFiles")):
        objects += [os.path.join(root, f) for f in files if f.endswith(".o")]
    cache = os.environ.get("EM_CACHE", "/usr/share/emscripten/cache")
    libdir = os.path.join(cache, "sysroot", "lib", "wasm32-emscripten")
    objects += [os.path.join(libdir, a) for a in SYSTEM_ARCHIVES if os.path.exists(os.path.join(libdir, a))]
    origin = collections.defaultdict(set)
    for i in range(0, len(objects), 64):
        out = subprocess.run([nm, "--defined-only", "--demangle", "--print-file-name", *objects[i:i + 64]],
                             capture_output=True, text=True, errors="replace").stdout
        for line in out.splitlines():
            # '<file>[:<member>]: <addr> <type> <name>'
            head, sep, rest = line.partition(": ")
            parts = rest.split(" ", 2)
            if sep and len(parts) == 3 and parts[1] in "TtWw":
                origin[parts[2]].add(head)
    return origin


# The table's rows: a build target (CMakeFiles/<target>.dir/) -> its row.
TARGET_ROWS = {
    "chaiba_imgui": "ImGui 1.86 (core, tables, widgets, GLFW/GL3 backends)",
    "chaiba_engine": "engine/chess + engine/search (rules, built-in engine)",
    "chaiba_werewolf": "Werewolf: rules (engine/werewolf)",
    "chaiba_werewolf_mode": "Werewolf: mode (prompts, AI seat, session, tournament)",
    "chaiba_werewolf_ui": "Werewolf: screens (game, arena)",
    "chaiba_werewolf_arena_ui": "Werewolf: screens (game, arena)",
    "chaiba_chess": "chess: mode (agent, match, sessions, arena, analysis)",
    "chaiba_chess_ui": "chess: screens and widgets (match, arena, board, API)",
    "chaiba_story": "Story: mode (world files, tools, orchestrator, turn)",
    "chaiba_story_ui": "Story: screen (views, markdown renderer)",
    "chaiba_yaml": "Story: yaml-cpp 0.7.0",
    "chaiba_md4c": "Story: md4c 0.4.8",
    "chaiba_planner": "Plan with AI: mode (plan, text, tools, layout, chat)",
    "chaiba_planner_ui": "Plan with AI: screen",
    "chaiba_llm": "src/llm (chat clients, tool loop, catalog, call log)",
    "chaiba_play": "src/play (seats, scheduler, runner, ratings, bundles)",
    "chaiba_persist": "src/persist + src/net",
    "chaiba_net": "src/persist + src/net",
    "chaiba_ui_base": "src/ui (widgets, formatting, images)",
    "chaiba_ui": "src/ui (widgets, formatting, images)",
    "chaiba_app_core": "src/app (shell, settings, screens' host)",
    "chaiba_app": "src/app (shell, settings, screens' host)",
    "chaiba_web": "web/ (main loop, fetch, storage, GL shim, workers' clients)",
}
# A template or inline function several libraries instantiated: the row of the first of our
# namespaces in its name.
NAMESPACE_ROWS = {
    "chess": "chaiba_engine", "search": "chaiba_engine", "chessmode": "chaiba_chess", "werewolf": "chaiba_werewolf",
    "werewolfmode": "chaiba_werewolf_mode", "story": "chaiba_story", "planner": "chaiba_planner", "llm": "chaiba_llm",
    "play": "chaiba_play", "persist": "chaiba_persist", "net": "chaiba_net", "ui": "chaiba_ui", "web": "chaiba_web",
}
SYSTEM_ROWS = [
    (re.compile(r"libc\+\+abi"), "libc++abi (exceptions, new/delete, demangler)"),
    (re.compile(r"libc\+\+"), "libc++ (compiled parts: strings, streams, locale)"),
    (re.compile(r"lib(dl|em)malloc"), "libc (musl) + malloc + compiler-rt"),
    (re.compile(r"libc(-optz)?\.a|libcompiler_rt"), "libc (musl) + malloc + compiler-rt"),
    (re.compile(r"libGL|libhtml5|libstubs|libnoexit|libsockets|libal"), "emscripten C libraries (GL, html5, stubs)"),
]
JSON_ROW = "nlohmann::json instantiations (every user)"
STD_ROW = "libc++ templates shared by several libraries"


def target_of(path):
    m = re.search(r"/CMakeFiles/([^/]+)\.dir/", path)
    if m:
        return m.group(1)
    for pattern, row in SYSTEM_ROWS:
        if pattern.search(os.path.basename(path.split(":")[0])):
            return row
    return "other: " + os.path.basename(path)


def row_of(name, objs):
    if name.startswith("nlohmann::") or (name.startswith("std::") and "nlohmann::" in name):
        return JSON_ROW
    targets = {target_of(o) for o in objs}
    if len(targets) == 1:
        t = targets.pop()
        return TARGET_ROWS.get(t, t)
    if targets:
        m = re.search(r"chaiba::(\w+)::", name)
        if m and m.group(1) in NAMESPACE_ROWS:
            return TARGET_ROWS[NAMESPACE_ROWS[m.group(1)]]
        if name.startswith("Im") or "ImGui" in name[:40]:
            return TARGET_ROWS["chaiba_imgui"]
        if name.startswith("std::"):
            return STD_ROW
        return "inline functions shared by several libraries"
    if name.startswith(("invoke_", "dynCall_", "legalstub$", "legalfunc$", "__wasm", "stackSave", "stackRestore",
                        "stackAlloc", "emscripten_stack")):
        return "emscripten C libraries (GL, html5, stubs)"
    return "not found in any object (made by the linker or wasm-opt)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site")
    ap.add_argument("--limit", type=int, default=LIMIT_DEFAULT, help="bytes for gzip(wasm)+gzip(js)")
    ap.add_argument("--report", metavar="BUILD", help="a -DCHAIBA_WEB_SIZE_REPORT=ON build dir")
    ap.add_argument("--top", type=int, default=0, help="also list the N largest functions")
    args = ap.parse_args()

    files = {}
    for f in ("index.wasm", "index.js"):
        with open(os.path.join(args.site, f), "rb") as fh:
            files[f] = fh.read()
    total = 0
    for f, data in files.items():
        g = gz_size(data)
        total += g
        print(f"{f:12} {len(data):>10,} bytes  gzip -9 {g:>9,} ({g / 1024:.1f} KiB)")
    print(f"{'both':12} {'':>10}        gzip -9 {total:>9,} ({total / 1024:.1f} KiB), limit {args.limit:,}")

    if args.report:
        report(files["index.wasm"], args.site, args.report, args.top)
    if total > args.limit:
        print(f"FAIL: the page's index.wasm + index.js are {total - args.limit:,} bytes over the limit")
        return 1
    return 0


def report(wasm, site, build, top):
    sections, imported, bodies = parse_wasm(wasm)
    sym = [p for p in (os.path.join(site, n) for n in ("index.html.symbols", "index.js.symbols")) if os.path.exists(p)]
    if not sym:
        sys.exit(f"no index.html.symbols in {site}: link with -DCHAIBA_WEB_SIZE_REPORT=ON")
    names = {i: unescape(n) for i, n in read_symbols(sym[0]).items()}
    origin = defined_functions(build)
    print(f"\nsections of index.wasm ({len(wasm):,} bytes):")
    for sid, name, _start, size in sections:
        label = SECTION_NAMES.get(sid, str(sid)) + (f" '{name}'" if name else "")
        print(f"  {label:18} {size:>10,}")
    groups = collections.defaultdict(list)
    rows = []
    for i, body in enumerate(bodies):
        name = names.get(imported + i, f"func{imported + i}")
        objs = origin.get(name) or origin.get(re.sub(r"\.\d+$", "", name)) or set()
        row = row_of(name, objs)
        groups[row].append(body)
        rows.append((len(body), name, row))
    code_total = sum(len(b) for b in bodies)
    print(f"\ncode by library, mode and folder ({len(bodies):,} functions, {code_total:,} bytes):")
    print(f"  {'':64} {'bytes':>9} {'share':>6} {'gz alone':>9} {'functions':>9}")
    for row, funcs in sorted(groups.items(), key=lambda kv: -sum(len(b) for b in kv[1])):
        size = sum(len(b) for b in funcs)
        print(f"  {row[:64]:64} {size:>9,} {100 * size / code_total:5.1f}% {gz_size(b''.join(funcs)):>9,}"
              f" {len(funcs):>9,}")
    if top:
        print(f"\nthe {top} largest functions:")
        for size, n, row in sorted(rows, reverse=True)[:top]:
            print(f"  {size:>8,}  {n[:120]}  [{row[:24]}]")


if __name__ == "__main__":
    sys.exit(main())

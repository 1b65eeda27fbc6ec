#!/usr/bin/env python3
"""Layer check, run by the build: every #include "..." of the project must point down the layers
(engine, net <- llm, persist <- play <- modes/* <- app <- web, cli; ui is used by modes and app
and uses nothing above it), and the game-independent folders must know no game: no include of
engine/ (but engine/common/, the game-free utilities), no chess words (SAN, FEN, PGN, chess).
Exits 1 with each offending line."""
import os
import re
import sys

BELOW_MODES = ["src/play/", "src/llm/", "src/net/", "src/persist/", "src/ui/"]
RULES = [  # folder prefix -> include prefixes it may use (besides its own folder)
    ("engine/", ["engine/"]),
    ("src/net/", []),
    ("src/llm/", ["src/net/"]),
    ("src/persist/", []),
    ("src/play/", ["src/llm/", "src/net/", "src/persist/"]),
    ("src/ui/", ["src/llm/", "src/net/", "src/persist/", "src/play/"]),
    ("src/modes/", BELOW_MODES + ["engine/"]),  # plus its own mode's folder
    ("src/app/", BELOW_MODES + ["engine/", "src/modes/"]),
    ("src/cli/", BELOW_MODES + ["engine/", "src/modes/"]),
    ("web/", BELOW_MODES + ["engine/", "src/modes/", "src/app/"]),
]
GAME_FREE = ["src/net/", "src/llm/", "src/persist/", "src/play/", "src/ui/"]
COMMON = "engine/common/"  # game-free utilities of the engine (the seeded generator): any layer may use them
CHESS_WORDS = re.compile(r"\b(chess|Chess|CHESS|SAN|FEN|PGN|chess960|Chess960)\b")
ENGINE_FORBIDDEN = re.compile(r"#include\s*<(nlohmann/|imgui|emscripten|curl/)")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def own_folder(path):
    if path.startswith("src/modes/"):
        parts = path.split("/")
        return "/".join(parts[:3]) + "/"
    for prefix, _ in RULES:
        if path.startswith(prefix):
            return prefix
    return None


def check(root):
    problems = []
    for top in ("engine", "src", "web"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp", ".hpp")):
                    continue
                full = os.path.join(dirpath, name)
                path = os.path.relpath(full, root).replace(os.sep, "/")
                rule = next((r for r in RULES if path.startswith(r[0])), None)
                if rule is None:
                    continue
                allowed = [own_folder(path), COMMON] + rule[1]
                game_free = any(path.startswith(p) for p in GAME_FREE)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        where = f"{path}:{number}"
                        m = INCLUDE.match(line)
                        if m:
                            target = m.group(1)
                            if "/" in target and not any(target.startswith(a) for a in allowed):
                                problems.append(f"{where}: includes {target}, above or beside its layer")
                        if path.startswith("engine/") and ENGINE_FORBIDDEN.search(line):
                            problems.append(f"{where}: engine/ is standard library only")
                        if game_free and CHESS_WORDS.search(line):
                            problems.append(f"{where}: a game-independent folder mentions chess: {line.strip()}")
    return problems


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
    found = check(root)
    for p in found:
        print(p)
    if found:
        print(f"layer check: {len(found)} problem(s)")
        sys.exit(1)
    print("layer check: ok")

#!/usr/bin/env python3
"""`chaiba werewolf --rules`: the three presets from the command line (a few seconds, bots only).

kaggle runs whole bot games, and its games' records show its rules (the Seer's inspections name a
role, votes may abstain); a run folder keeps the preset in its manifest and --resume refuses another
one by name; an unknown preset is refused with the choices; --help names kaggle.
Usage: werewolf_rules_cli_test.py PATH_TO_CHAIBA
"""
import json
import os
import subprocess
import sys
import tempfile

CHAIBA = sys.argv[1]
failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message)


def run(args):
    return subprocess.run([CHAIBA, "werewolf"] + args, capture_output=True, text=True, timeout=120)


# Whole bot games under each preset.
for preset in ("balanced", "plain", "kaggle"):
    out = run(["--players", "bot*8", "--games", "30", "--seed", "5", "--quiet", "--rules", preset])
    expect(out.returncode == 0, "--rules %s: exit %d\n%s" % (preset, out.returncode, out.stderr[-800:]))

bad = run(["--players", "bot*8", "--rules", "kagle"])
expect(bad.returncode == 2 and "--rules must be balanced, plain or kaggle" in bad.stderr,
       "--rules kagle: exit %d, stderr %r" % (bad.returncode, bad.stderr[-300:]))
help_out = run(["--help"])
expect(help_out.returncode == 0 and "kaggle" in help_out.stdout, "--help names the kaggle preset")

with tempfile.TemporaryDirectory() as tmp:
    folder = os.path.join(tmp, "run")
    out = run(["--players", "bot*8", "--games", "12", "--seed", "3", "--rules", "kaggle", "--out", folder])
    expect(out.returncode == 0, "--rules kaggle --out: exit %d\n%s" % (out.returncode, out.stderr[-800:]))
    records = [json.loads(line.split(" ", 1)[1]) for line in open(os.path.join(folder, "tournament.log"))]
    expect(records and records[0].get("config", {}).get("rules") == "kaggle", "the manifest keeps the preset: %r" % records[:1])
    games = [r["record"] for r in records if "record" in r]
    expect(len(games) == 12, "12 game records, found %d" % len(games))
    rules = games[0]["setup"]["rules"] if games else {}
    expect(rules.get("seer_sees_role") is True and rules.get("abstain_allowed") is True and
           rules.get("tie_rule") == "random", "a record's rules are kaggle's: %r" % rules)
    events = [e for g in games for e in g["events"]]
    inspections = [e for e in events if e["kind"] == "seer_inspect"]
    expect(inspections and all("revealed_role" in e for e in inspections), "every inspection names a role")
    expect(any(e["kind"] == "vote_cast" and e.get("target") == "abstain" for e in events),
           "some bot vote abstains under kaggle")
    summary = json.load(open(os.path.join(folder, "summary.json")))
    expect(summary.get("rules") == "kaggle", "summary.json names the preset: %r" % summary.get("rules"))
    other = run(["--resume", folder, "--games", "14", "--rules", "plain"])
    expect(other.returncode != 0 and "rules" in other.stderr,
           "--resume with another preset is refused by name: exit %d, %r" % (other.returncode, other.stderr[-300:]))
    grown = run(["--resume", folder, "--games", "14"])
    expect(grown.returncode == 0, "--resume grows a kaggle run: exit %d\n%s" % (grown.returncode, grown.stderr[-800:]))

print("werewolf rules CLI: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""End-to-end tests of `chaiba plan` against the local stand-in (no internet): a person's message
builds a plan through OpenRouter's and through Anthropic's API (the scripted mistakes of
mock/planner corrected after their error results), a text-only model, the round cap with its
closing call, --check, --run of a two-stage plan of engine levels and of two werewolf stages of bots. Prints the figures: rounds
per request, tool error rate, self-correction rate.
Usage: plan_e2e.py --chaiba PATH [--only NAME] [--keep DIR]
"""
import argparse
import os
import shutil
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "sk-or-v1-e2e-PLAN-SECRET-9c2"
FIGURES = []  # (rounds, calls, errors, corrected) per request


class Mock:
    def __init__(self, chaiba):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_openrouter.py"), "--chaiba", chaiba,
                                      "--key", KEY], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError("mock server did not start: " + line)
        self.root = "http://127.0.0.1:%s" % line.split()[1]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def run(chaiba, args, timeout=60):
    env = dict(os.environ, OPENROUTER_API_KEY=KEY, ANTHROPIC_API_KEY=KEY)
    out = subprocess.run([chaiba, "plan"] + args, capture_output=True, text=True, env=env, timeout=timeout)
    for where, content in (("stdout", out.stdout), ("stderr", out.stderr)):
        expect(KEY not in content, "the API key leaked into " + where)
    return out


def say(chaiba, mock, plan, text, provider="openrouter", model="mock/planner", extra=()):
    base = mock.root + ("/api/v1" if provider == "openrouter" else "")
    return run(chaiba, ["--plan", plan, "--say", text, "--provider", provider, "--model", model,
                        "--base-url", base] + list(extra))


def measure(stdout):
    """Rounds, calls, errors and errors corrected (a later success of the same tool) of one request."""
    rounds = int(re.search(r"after (\d+) round", stdout).group(1))
    cards = re.findall(r"^  ([✓✗]) (?:Error: )?(\w+)", stdout, re.M)
    errors = corrected = 0
    for i, (mark, tool) in enumerate(cards):
        if mark == "✗":
            errors += 1
            corrected += any(m == "✓" and t == tool for m, t in cards[i + 1:])
    FIGURES.append((rounds, len(cards), errors, corrected))


def check_built(chaiba, out, plan):
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    expect("✗ Error: add_task: a task 'qual' already exists" in out.stdout, "no duplicate-id error: " + out.stdout)
    expect("depends on a missing task: no task 'qualifying'" in out.stdout, "no missing-dependency error")
    expect("✓ add_task final: Final" in out.stdout, "the final was not fixed: " + out.stdout)
    expect("answered after 6 round(s), 6 tool call(s), 2 error(s)" in out.stdout, "unexpected summary: " + out.stdout)
    expect("Built the plan" in out.stdout, "no reply printed")
    checked = run(chaiba, ["--check", plan])
    expect(checked.returncode == 0 and checked.stdout.strip() == "ok", "--check: " + checked.stdout + checked.stderr)
    text = open(plan).read()
    expect("player top 2 of qual" in text and "needs qual" in text, "the plan lacks the fixed final:\n" + text)
    expect(not os.path.exists(plan + ".tmp"), "the temporary file was left behind")
    measure(out.stdout)


def scenario_openrouter_builds_plan(chaiba, mock, workdir):
    """Through OpenRouter (streamed): a plan from nothing, the two scripted mistakes corrected."""
    plan = os.path.join(workdir, "openrouter.plan")
    check_built(chaiba, say(chaiba, mock, plan, "Rank the engine levels"), plan)


def scenario_anthropic_builds_plan(chaiba, mock, workdir):
    """Through Anthropic's Messages API (SSE content blocks, tool_use/tool_result): the same plan."""
    plan = os.path.join(workdir, "anthropic.plan")
    out = say(chaiba, mock, plan, "Rank the engine levels", "anthropic", "claude-mock-planner",
              ["--chat", os.path.join(workdir, "anthropic.chat.json")])
    check_built(chaiba, out, plan)
    # The saved chat continues: the next message sees the conversation (a text answer here).
    again = say(chaiba, mock, plan, "Thanks", "anthropic", "claude-mock-planner",
                ["--chat", os.path.join(workdir, "anthropic.chat.json")])
    expect(again.returncode == 0, "second message: " + again.stderr[-1500:])
    expect('"version": 1' in open(os.path.join(workdir, "anthropic.chat.json")).read(), "no saved chat")


def scenario_text_only(chaiba, mock, workdir):
    """A text-only answer changes nothing and writes no plan."""
    plan = os.path.join(workdir, "chatty.plan")
    out = say(chaiba, mock, plan, "Hello", model="mock/planner-chatty")
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    expect("What should the tournament find out?" in out.stdout, "no text answer: " + out.stdout)
    expect("answered after 1 round(s), 0 tool call(s)" in out.stdout, "unexpected summary: " + out.stdout)
    expect(not os.path.exists(plan), "a plan was written without a change")


def scenario_round_cap(chaiba, mock, workdir):
    """Three tool rounds at most, then one closing call without tools that says what remains."""
    plan = os.path.join(workdir, "capped.plan")
    out = say(chaiba, mock, plan, "Rank the engine levels", extra=["--max-rounds", "3"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    expect("capped after 4 round(s)" in out.stdout, "no capped summary: " + out.stdout)
    expect("I reached the round limit" in out.stdout, "no closing answer: " + out.stdout)
    expect(run(chaiba, ["--check", plan]).stdout.strip() == "ok", "the capped plan is not valid")


def scenario_check_problems(chaiba, mock, workdir):
    """--check names every problem with its line and exits 1."""
    del mock
    plan = os.path.join(workdir, "bad.plan")
    with open(plan, "w") as f:
        f.write("task a: A\n  stauts planned\n  needs zz\n\ntask b: B\n  player random\n")
    out = run(chaiba, ["--check", plan])
    expect(out.returncode == 1, "exit %d" % out.returncode)
    lines = out.stdout.strip().splitlines()
    expect(len(lines) == 3 and "line 2:" in lines[0] and "line 6:" in lines[1] and "line 1:" in lines[2],
           "expected three located problems: " + out.stdout)
    # Each real problem once: a cycle is one problem (not missing tasks and "no tasks" after it), a
    # missing task is never suggested to the task that names it, a binary file is not echoed.
    with open(plan, "w") as f:
        f.write("task plan: Root\n  needs a\n\ntask a: A\n  needs b\n\ntask b: B\n  needs a\n")
    out = run(chaiba, ["--check", plan])
    expect(out.returncode == 1 and out.stdout.strip().splitlines() == [plan + ": line 4: dependency cycle: a → b → a"],
           "a cycle is one problem: " + out.stdout)
    with open(plan, "w") as f:
        f.write("task plan: Root\n  needs b\n\ntask b: B\n  needs a\n")
    out = run(chaiba, ["--check", plan])
    expect("no task 'a'; did you mean 'plan'?" in out.stdout and len(out.stdout.strip().splitlines()) == 1,
           "the suggestion names another task: " + out.stdout)
    with open(plan, "wb") as f:
        f.write(b"\x7fELF\x02\x01\x01\x00task plan: \x00\x01\x02")
    out = run(chaiba, ["--check", plan])
    expect(out.returncode == 1 and "binary file" in out.stdout and "ELF" not in out.stdout,
           "a binary file is refused without its bytes: " + repr(out.stdout))


def scenario_run_two_stages(chaiba, mock, workdir):
    """--run: the qualifying round robin, then its top 2 against engine:4; every status done."""
    plan = os.path.join(workdir, "run.plan")
    with open(plan, "w") as f:
        f.write(open(os.path.join(workdir, "openrouter.plan")).read() if os.path.exists(
            os.path.join(workdir, "openrouter.plan")) else RUN_PLAN)
    out_dir = os.path.join(workdir, "stages")
    out = run(chaiba, ["--run", plan, "--out", out_dir, "--base-url", mock.root + "/api/v1"], timeout=120)
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    expect("stage qual done" in out.stdout and "stage final done" in out.stdout, "stages missing: " + out.stdout)
    final_line = re.search(r"^stage final \(Final\): (.+)$", out.stdout, re.M)
    expect(final_line and len(final_line.group(1).split(", ")) == 3 and "engine:4" in final_line.group(1),
           "the final should seat the top 2 of qual and engine:4: " + out.stdout)
    statuses = re.findall(r"^  status (\w+)$", open(plan).read(), re.M)
    expect(statuses == ["done", "done", "done"], "statuses: %s" % statuses)
    for stage in ("qual", "final"):
        expect(os.path.exists(os.path.join(out_dir, stage, "tournament.json")), "no bundle for " + stage)
    expect(run(chaiba, ["--check", plan]).stdout.strip() == "ok", "the run plan is not valid afterwards")
    # A stage left running (the plan stopped after some of its games): the games its log holds
    # count, the rest are played, and it ends with every game once.
    log = os.path.join(out_dir, "final", "tournament.log")
    records = open(log).read().splitlines()
    expect(len(records) >= 3, "the final's log holds %d records" % len(records))
    with open(log, "w") as f:
        f.write("\n".join(records[:2]) + "\n")  # the manifest and its first game
    for snapshot in ("tournament.json", "games.pgn"):  # written at a run's end: not there yet
        os.remove(os.path.join(out_dir, "final", snapshot))
    head, rest = open(plan).read().split("task final:")
    with open(plan, "w") as f:
        f.write(head.replace("status done", "status planned", 1) + "task final:" + rest.replace("status done", "status running", 1))
    again = run(chaiba, ["--run", plan, "--out", out_dir, "--base-url", mock.root + "/api/v1"], timeout=120)
    expect(again.returncode == 0, "a stopped final: exit %d: %s" % (again.returncode, again.stderr[-1500:]))
    expect("note: 1 finished game(s) of the stage were played before; the rest follow" in again.stderr,
           "the stopped final did not continue its run: " + again.stdout + again.stderr)
    expect("stage final done" in again.stdout, "the final is not done: " + again.stdout)
    import json
    bundle = json.load(open(os.path.join(out_dir, "final", "tournament.json")))
    ids = [g["id"] for g in bundle["games"]]
    expect(len(ids) == len(set(ids)) and all(g["result"] != "*" for g in bundle["games"]),
           "the continued final's games: %s" % [(g["id"], g["result"]) for g in bundle["games"]])
    # A later run continues: the final reset by hand to planned takes its players from the bundle
    # the done qualifying stage left in --out DIR.
    text = open(plan).read().split("task final:")
    with open(plan, "w") as f:
        f.write(text[0].replace("status done", "status planned", 1) + "task final:" +
                text[1].replace("status done", "status planned"))
    again = run(chaiba, ["--run", plan, "--out", out_dir, "--base-url", mock.root + "/api/v1"], timeout=120)
    expect(again.returncode == 0, "second run: exit %d: %s" % (again.returncode, again.stderr[-1500:]))
    expect("stage qual: already done, ranking read from its bundle" in again.stdout, "no bundle ranking: " + again.stdout)
    expect(re.findall(r"^  status (\w+)$", open(plan).read(), re.M) == ["done", "done", "done"], "not all done")


def scenario_run_werewolf_stages(chaiba, mock, workdir):
    """--run of werewolf stages (bots only): a table of six bots, then its top 1 with four more
    bots; both played to the end natively, statuses done, the leaderboard in summary.json. Then a
    table with the stand-in's werewolf model."""
    plan = os.path.join(workdir, "werewolf.plan")
    with open(plan, "w") as f:
        f.write(WEREWOLF_PLAN)
    out_dir = os.path.join(workdir, "werewolf-stages")
    out = run(chaiba, ["--run", plan, "--out", out_dir, "--seed", "5"], timeout=120)
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    expect(re.search(r"^stage table \(Six bots, werewolf, 3 games\): bot, bot, bot, bot, bot, bot$", out.stdout, re.M),
           "the first table should seat six bots: " + out.stdout)
    expect(re.search(r"^stage rematch \(.*\): bot, bot, bot, bot, bot$", out.stdout, re.M),
           "the rematch should seat the top 1 (the bot) and four bots: " + out.stdout)
    expect("stage table done: bot first" in out.stdout and "stage rematch done: bot first" in out.stdout,
           "stages not done: " + out.stdout)
    expect(re.findall(r"^  status (\w+)$", open(plan).read(), re.M) == ["done", "done", "done"], "not all done")
    import json
    summary = json.load(open(os.path.join(out_dir, "table", "summary.json")))
    expect(len(summary["results"]) == 3 and summary["leaderboard"][0]["player"] == "bot",
           "summary.json: %d results, leaderboard %s" % (len(summary["results"]), summary["leaderboard"]))
    expect(sum(row["games"] for row in summary["leaderboard"]) == 18, "six seats x 3 games in the leaderboard")
    # Run again with the rematch (and the root) planned: the done table's ranking comes from its summary.json.
    text = open(plan).read().split("task rematch:")
    with open(plan, "w") as f:
        f.write(text[0].replace("status done", "status planned", 1) + "task rematch:" +
                text[1].replace("status done", "status planned"))
    again = run(chaiba, ["--run", plan, "--out", out_dir, "--seed", "5"], timeout=120)
    expect(again.returncode == 0, "second run: exit %d: %s" % (again.returncode, again.stderr[-1500:]))
    expect("stage table: already done, ranking read from its summary.json" in again.stdout and
           "stage rematch done" in again.stdout, "the second run: " + again.stdout)
    # A stage left running (the plan was stopped after its first game): its logged game counts,
    # the rest are played, and the ranking is the uninterrupted run's.
    log = os.path.join(out_dir, "table", "tournament.log")
    # (each game is a result record, {"game": ...}, then its whole record, {"record": ...})
    records = open(log).read().splitlines()
    games = lambda lines: sum(1 for l in lines if l.split(" ", 1)[1].startswith('{"game":'))
    expect(games(records) == 3 and records[0].split(" ", 1)[1].startswith('{"format":"chaiba-tournament-log"'),
           "the table's folder has no log of its 3 games: %d records" % len(records))
    with open(log, "w") as f:
        f.write("\n".join(records[:3]) + "\n")
    board = json.load(open(os.path.join(out_dir, "table", "summary.json")))["leaderboard"]
    head, rest = open(plan).read().split("task table:")
    table, rematch = rest.split("task rematch:")
    expect("status done" in table, "the table is not done: " + table)
    with open(plan, "w") as f:
        f.write(head.replace("status done", "status planned") + "task table:" +
                table.replace("status done", "status running") + "task rematch:" +
                rematch.replace("status done", "status planned"))
    third = run(chaiba, ["--run", plan, "--out", out_dir, "--seed", "5"], timeout=120)
    expect(third.returncode == 0, "resumed stage: exit %d: %s" % (third.returncode, third.stderr[-1500:]))
    expect("note: 1 of 3 games of the stage were played before; the rest follow" in third.stderr,
           "the stopped stage did not continue its run: " + third.stdout + third.stderr)
    expect(games(open(log).read().splitlines()) == 3, "the two missing games were not logged")
    expect(json.load(open(os.path.join(out_dir, "table", "summary.json")))["leaderboard"] == board,
           "the continued stage's leaderboard differs from the uninterrupted run's")
    # A model at the table: the stand-in's werewolf model plays through the same client.
    with open(plan, "w") as f:
        f.write("task plan: A model at the table\n  needs table\n\ntask table: A model and bots\n"
                "  stage werewolf arena\n  games 2\n  budget 1\n  player llm:mock/wolf-smart\n  player bot*6\n")
    out = run(chaiba, ["--run", plan, "--out", out_dir + "-llm", "--base-url", mock.root + "/api/v1"], timeout=120)
    expect(out.returncode == 0, "with a model: exit %d: %s" % (out.returncode, out.stderr[-1500:]))
    summary = json.load(open(os.path.join(out_dir + "-llm", "table", "summary.json")))
    players = {row["player"]: row for row in summary["leaderboard"]}
    expect("llm:mock/wolf-smart" in players and players["llm:mock/wolf-smart"]["tokens"] > 0 and summary["cost_usd"] > 0,
           "the model played and was paid for: %s" % summary["leaderboard"])


def scenario_cap_caps(chaiba, mock, workdir):
    """The root's cap limits the whole run: two werewolf stages with a priced model and no budget of
    their own share a 0.01 USD cap; no game starts once a stage's share is spent (one game at a time,
    so at most one game runs past it), the games played are kept, and the second stage is not started
    once the cap is gone. Without the cap the same plan plays every game."""
    import json
    capped = ("task plan: Capped\n  cap 0.01\n  needs second\n\n"
              "task first: First table\n  stage werewolf arena\n  games 30\n  player llm:mock/wolf-smart\n  player bot*6\n\n"
              "task second: Second table\n  needs first\n  stage werewolf arena\n  games 30\n"
              "  player llm:mock/wolf-smart\n  player bot*6\n")
    plan = os.path.join(workdir, "capped-run.plan")
    with open(plan, "w") as f:
        f.write(capped)
    expect(run(chaiba, ["--check", plan]).stdout.strip() == "ok", "the capped plan is not valid")
    out_dir = os.path.join(workdir, "capped-stages")
    out = run(chaiba, ["--run", plan, "--out", out_dir, "--concurrency", "1", "--base-url", mock.root + "/api/v1"],
              timeout=240)
    expect(out.returncode != 0, "a plan over its cap ended as if every game was played: " + out.stdout)
    expect("stage first may spend 0.005 USD of the plan's 0.01 USD cap" in out.stdout,
           "the first stage's share of the cap was not stated: " + out.stdout)
    summary = json.load(open(os.path.join(out_dir, "first", "summary.json")))
    costs = [r.get("cost_usd", 0) for r in summary["results"]]
    spent = summary["cost_usd"]
    expect(0 < len(costs) < 30, "the capped stage played %d of 30 games" % len(costs))
    expect(max(costs) > 0, "the stand-in's games cost nothing: %s" % costs)
    # The stage's share, plus the one game that was running when it was reached.
    expect(spent <= 0.005 + max(costs) + 1e-9, "spent %.6f USD over a 0.005 USD share (games %s)" % (spent, costs))
    expect(spent <= 0.01 + max(costs) + 1e-9, "spent %.6f USD over the plan's 0.01 USD cap and one game" % spent)
    expect("budget was reached; the games played are kept" in out.stderr, "no word of the cap: " + out.stderr[-800:])
    expect(not os.path.exists(os.path.join(out_dir, "second")), "the second stage started after the first was capped")
    statuses = re.findall(r"^  status (\w+)$", open(plan).read(), re.M)
    expect(statuses[1] == "failed" and statuses[2] == "planned", "statuses after the capped run: %s" % statuses)
    FIGURES_CAP.append((spent, len(costs), max(costs)))


FIGURES_CAP = []


WEREWOLF_PLAN = """task plan: Bots at the werewolf table
  needs rematch

task table: Six bots
  stage werewolf arena
  games 3
  player bot*6

task rematch: The best of the table and four bots
  needs table
  stage werewolf arena
  games 2
  rules plain
  roles werewolf,seer,villager:3
  player top 1 of table
  player bot*4
"""


RUN_PLAN = """task plan: Rank the engine levels
  needs final

task qual: Qualifying round robin
  stage chess roundrobin
  player engine:1
  player engine:2
  player engine:3
  player random

task final: Final
  needs qual
  stage chess roundrobin
  player top 2 of qual
  player engine:4
"""

SCENARIOS = [scenario_openrouter_builds_plan, scenario_anthropic_builds_plan, scenario_text_only,
             scenario_round_cap, scenario_check_problems, scenario_run_two_stages, scenario_run_werewolf_stages,
             scenario_cap_caps]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="chaiba-plan-e2e-")
    os.makedirs(workdir, exist_ok=True)
    chaiba = os.path.abspath(args.chaiba)
    mock = Mock(chaiba)
    failures = 0
    try:
        for scenario in SCENARIOS:
            name = scenario.__name__[len("scenario_"):]
            if args.only and args.only not in name:
                continue
            try:
                scenario(chaiba, mock, workdir)
                print("ok   " + name)
            except (Failure, subprocess.TimeoutExpired) as error:
                failures += 1
                print("FAIL " + name + ": " + str(error))
            sys.stdout.flush()
    finally:
        mock.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)  # --keep DIR keeps what the runs wrote
    if FIGURES:
        requests = len(FIGURES)
        rounds, calls, errors, corrected = (sum(f[i] for f in FIGURES) for i in range(4))
        print("figures: %d requests, %.1f rounds per request, tool error rate %d/%d = %.0f%%, "
              "self-correction rate %d/%d = %.0f%%" % (requests, rounds / requests, errors, calls,
                                                      100.0 * errors / max(calls, 1), corrected, errors,
                                                      100.0 * corrected / max(errors, 1)))
    for spent, games, most in FIGURES_CAP:
        print("figures: a 0.01 USD cap, its first stage's share 0.005 USD: spent %.6f USD over %d games "
              "(the costliest %.6f USD)" % (spent, games, most))
    print("%d failed" % failures if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

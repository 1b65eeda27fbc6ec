#!/usr/bin/env python3
"""The planner's benchmark (a benchmark, not a test: it prints figures): ten requests of a person
building and editing one plan through `chaiba plan --say` (one saved conversation, as in the page),
against the local stand-in's mock/planner-batch, which batches its calls and writes its summary
beside them when the request allows parallel calls. Prints, per request and on average, the model
calls and the input tokens (the stand-in's count: request characters / 4), and the plan's --check.
Usage: plan_calls.py --chaiba PATH [--keep DIR]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "mock_modes"))
from plan_e2e import KEY, Mock  # noqa: E402
from planner import BATCH_SCRIPT  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="chaiba-plan-bench-")
    os.makedirs(workdir, exist_ok=True)
    log = os.path.join(workdir, "requests.jsonl")
    if os.path.exists(log):
        os.remove(log)
    os.environ["PLAN_BENCH_LOG"] = log
    chaiba = os.path.abspath(args.chaiba)
    mock = Mock(chaiba)
    plan, chat = os.path.join(workdir, "bench.plan"), os.path.join(workdir, "bench.chat.json")
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    failed = 0
    try:
        for request, _, _, _ in BATCH_SCRIPT:
            out = subprocess.run([chaiba, "plan", "--plan", plan, "--say", request, "--model", "mock/planner-batch",
                                  "--base-url", mock.root + "/api/v1", "--chat", chat],
                                 capture_output=True, text=True, env=env, timeout=120)
            if out.returncode != 0:
                failed += 1
                print("request failed: %s\n%s%s" % (request, out.stdout[-800:], out.stderr[-800:]))
        check = subprocess.run([chaiba, "plan", "--check", plan], capture_output=True, text=True)
    finally:
        mock.stop()
    rows = {}
    for line in open(log):
        r = json.loads(line)
        calls, tokens = rows.get(r["request"], (0, 0))
        rows[r["request"]] = (calls + 1, tokens + r["prompt_tokens"])
    print("%-58s %6s %8s" % ("request", "calls", "input"))
    total_calls = total_tokens = 0
    for request, _, _, _ in BATCH_SCRIPT:
        calls, tokens = rows.get(request, (0, 0))
        total_calls += calls
        total_tokens += tokens
        print("%-58s %6d %8d" % (request, calls, tokens))
    n = len(BATCH_SCRIPT)
    print("figures: %d requests, %.2f model calls per request, %.0f input tokens per request; "
          "plan --check: %s" % (n, total_calls / n, total_tokens / n, (check.stdout + check.stderr).strip()))
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed or check.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())

"""Models of the planner's chat ("Plan with AI") for `chaiba plan --say` end-to-end checks.

mock/planner builds a two-stage plan of engine levels in a few rounds of tool calls and makes two
scripted mistakes on the way, each fixed only after its error result comes back:
  round 1  add_task the root and the qualifying stage
  round 2  add_task the qualifying stage again            -> duplicate id (error)
  round 3  add_task the final, depending on "qualifying"  -> missing dependency (error)
  round 4  add_task the final, fixed (needs qual, top 2 of qual vs engine:4)
  round 5  add_dependency root -> final
  round 6  a text answer: what was done and what remains
A request without tools (or with tool_choice none) gets the text answer at once. mock/planner-chatty
answers in text only. mock/planner-slow waits 8 s, then answers in text (the page's loading state
and Stop); mock/planner-down answers 402 (an HTTP error the page must show). claude-mock-planner is mock/planner spoken through the Anthropic Messages API
(the stand-in translates, see ../mock_anthropic.py).

mock/planner-batch serves the planner benchmark (tests/bench/plan_calls.py): ten requests, each
with the calls it needs. When the request allows parallel calls it sends every call still needed in
one answer with its summary beside them (as models do with parallel calls on); under
"parallel_tool_calls": false it sends one call an answer, then its summary. Request 6 makes one
mistake (a dependency on a task that does not exist) the first time, fixed after its error came
back. With PLAN_BENCH_LOG set, each request appends {"request", "prompt_tokens"} (the stand-in's
token count: the body's characters / 4) to that file.
"""
import json
import os

PARAMS = ["temperature", "max_tokens", "tools", "tool_choice"]
MODELS = [("mock/planner", PARAMS), ("mock/planner-chatty", PARAMS), ("mock/planner-slow", PARAMS),
          ("mock/planner-down", PARAMS), ("claude-mock-planner", PARAMS), ("mock/planner-batch", PARAMS)]

QUAL = {"id": "qual", "name": "Qualifying round robin",
        "stage": {"game": "chess", "format": "roundrobin", "games": 1,
                  "participants": ["engine:1", "engine:2", "engine:3", "random"]}}
FINAL_WRONG = {"id": "final", "name": "Final", "depends_on": ["qualifying"],
               "stage": {"game": "chess", "format": "roundrobin", "games": 1,
                         "participants": ["top 2 of qualifying", "engine:4"]}}
FINAL = {"id": "final", "name": "Final", "depends_on": ["qual"],
         "stage": {"game": "chess", "format": "roundrobin", "games": 1,
                   "participants": ["top 2 of qual", "engine:4"]}}


def text_of(message):
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def this_message(messages):
    """The person's latest message and what followed it (assistant answers, tool results)."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return (text_of(messages[last]) if last >= 0 else ""), messages[last + 1:]


def call(count, step, index, name, arguments):
    return {"id": "call_%d_%d_%d" % (count, step, index), "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def answer(model, body, count):
    if model == "mock/planner-batch":
        return batch_answer(body, count)
    if model == "mock/planner-down":
        return {"status": 402, "error": "Insufficient credits (mock): add credits to continue"}
    if model == "mock/planner-slow":
        return {"sleep": 8, "content": "Slow answer: nothing changed."}
    messages = body.get("messages") or []
    request, after = this_message(messages)
    tools_open = bool(body.get("tools")) and body.get("tool_choice") != "none"
    if model == "mock/planner-chatty" or not tools_open:
        if "limit of" in request:
            return {"content": "I reached the round limit: the plan has its stages; check the budgets next."}
        return {"content": "A plan needs a goal first. What should the tournament find out?"}
    results = [text_of(m) for m in after if m.get("role") == "tool"]
    step = sum(1 for m in after if m.get("role") == "assistant")
    last_failed = bool(results) and results[-1].startswith("Error")
    goal = (request.strip().splitlines() or ["A plan"])[-1][:60] or "A plan"
    script = [
        [("add_task", {"id": "plan", "name": goal}), ("add_task", QUAL)],
        [("add_task", QUAL)],
        [("add_task", FINAL_WRONG)],
        [("add_task", FINAL)],
        [("add_dependency", {"task": "plan", "depends_on": "final"})],
    ]
    # A mistake is fixed only once its error came back (the scripted rounds 2 and 3 expect one).
    if step in (2, 3) and not last_failed:
        return {"content": "The previous call should have been refused; stopping here."}
    if step < len(script):
        return {"content": "", "tool_calls": [call(count, step, i, n, a) for i, (n, a) in enumerate(script[step])]}
    return {"content": "Built the plan: a qualifying round robin of engine:1, engine:2, engine:3 and random, "
                       "then a final of its top 2 against engine:4. Remaining: set budgets if models join."}


WARMUP = {"id": "warmup", "name": "Warm-up games",
          "stage": {"game": "chess", "format": "roundrobin", "games": 1, "participants": ["engine:1", "random"]}}
WOLVES = {"id": "wolves", "name": "Werewolf side table", "depends_on": ["final"],
          "stage": {"game": "werewolf", "format": "arena", "games": 2, "participants": ["bot*8"]}}
QUAL_TWICE = dict(QUAL["stage"], games=2)

# (the person's request, the calls it needs, the summary, (index of a call first sent wrong, its wrong arguments))
BATCH_SCRIPT = [
    ("Plan a tournament that ranks the engine levels",
     [("add_task", {"id": "plan", "name": "Rank the engine levels"}), ("add_task", QUAL),
      ("add_dependency", {"task": "plan", "depends_on": "qual"})],
     "Added the plan and a qualifying round robin of engine:1-3 and the random mover.", None),
    ("Add a final: the top 2 of the qualifier against engine 4",
     [("add_task", FINAL), ("add_dependency", {"task": "plan", "depends_on": "final"})],
     "Added the final: the qualifier's top 2 against engine:4.", None),
    ("Play two games per pair in the qualifier",
     [("update_task", {"id": "qual", "stage": QUAL_TWICE})], "The qualifier now plays 2 games per pair.", None),
    ("Note in the final that it decides the winner",
     [("update_task", {"id": "final", "add_decision": "The final decides the winner."})],
     "Noted on the final that it decides the winner.", None),
    ("Add a warm-up before the qualifier",
     [("add_task", WARMUP), ("add_dependency", {"task": "qual", "depends_on": "warmup"})],
     "Added a warm-up of engine:1 against the random mover before the qualifier.", None),
    ("Add a werewolf table of bots after the final",
     [("add_task", WOLVES), ("add_dependency", {"task": "plan", "depends_on": "wolves"})],
     "Added a werewolf table of eight bots after the final.", (0, dict(WOLVES, depends_on=["finale"]))),
    ("Call the final the Grand final",
     [("update_task", {"id": "final", "name": "Grand final"})], "Renamed the final to Grand final.", None),
    ("Drop the warm-up",
     [("remove_dependency", {"task": "qual", "depends_on": "warmup"}), ("remove_task", {"id": "warmup"})],
     "Removed the warm-up.", None),
    ("The qualifier is ready to run",
     [("set_status", {"id": "qual", "status": "ready"})], "The qualifier is ready.", None),
    ("Describe the goal of the plan",
     [("update_task", {"id": "plan", "description": "Which built-in engine level is strongest?"})],
     "Described the plan's goal.", None),
]


def batch_answer(body, count):
    messages = body.get("messages") or []
    request, after = this_message(messages)
    request = (request.strip().splitlines() or [""])[-1]
    log = os.environ.get("PLAN_BENCH_LOG")
    if log:
        with open(log, "a") as out:
            out.write(json.dumps({"request": request,
                                  "prompt_tokens": max(1, len(json.dumps(body, separators=(",", ":"))) // 4)}) + "\n")
    entry = next((e for e in BATCH_SCRIPT if e[0] == request), None)
    if entry is None or not body.get("tools") or body.get("tool_choice") == "none":
        return {"content": "Nothing to change for that."}
    _, calls_needed, summary, mistake = entry
    results = {m.get("tool_call_id"): text_of(m) for m in after if m.get("role") == "tool"}
    done, attempts = set(), {}
    for m in after:
        for tc in m.get("tool_calls") or []:
            index = int(tc["id"].rsplit("_", 1)[1])
            attempts[index] = attempts.get(index, 0) + 1
            if results.get(tc["id"], "").startswith("OK"):
                done.add(index)
    remaining = [i for i in range(len(calls_needed)) if i not in done]
    if not remaining:
        return {"content": summary}
    parallel = body.get("parallel_tool_calls", True) is not False
    emitted = []
    for i in remaining if parallel else remaining[:1]:
        name, arguments = calls_needed[i]
        if mistake and mistake[0] == i and attempts.get(i, 0) == 0:
            arguments = mistake[1]
        emitted.append({"id": "b%d_%d" % (count, i), "type": "function",
                        "function": {"name": name, "arguments": json.dumps(arguments)}})
    return {"content": summary if parallel else "", "tool_calls": emitted}

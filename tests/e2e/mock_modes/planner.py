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
"""
import json

PARAMS = ["temperature", "max_tokens", "tools", "tool_choice"]
MODELS = [("mock/planner", PARAMS), ("mock/planner-chatty", PARAMS), ("mock/planner-slow", PARAMS),
          ("mock/planner-down", PARAMS), ("claude-mock-planner", PARAMS)]

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

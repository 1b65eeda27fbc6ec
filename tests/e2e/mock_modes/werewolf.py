"""Werewolf players for the mock OpenRouter server. Each reads its prompt as a real model would: its
seat and role from the system line, the living players, the allowed targets, its pack, its Seer
results and the chat from the game state, and the task (night action, chat turn, the wolves' night
chat, vote, notes). It
answers in whatever channel the request asks: response_format -> JSON content; a forced tool ->
that tool call; else text with a fenced JSON object.

  mock/wolf-smart    plays sensibly; structured outputs (JSON schema)
  mock/wolf-tools    plays sensibly; tools only (forced tool call)
  mock/wolf-text     plays sensibly; neither (text with fenced JSON)
  mock/wolf-invalid  names a dead or unknown player (or an empty message) first, valid after the
                     rejection; structured outputs
  mock/wolf-silent   never speaks in the day, otherwise sensible; tools only
  mock/wolf-garbage  answers every decision with prose and no JSON (notes are fine); text only
  mock/wolf-slow     sleeps 1.5 s (past a 1 s timeout) on its first chat turn of day 1 in a game,
                     so that turn is retried twice, then falls back; sensible otherwise;
                     structured outputs
"""
import copy
import hashlib
import json
import random
import re
import threading

STRUCTURED = ["temperature", "max_tokens", "tools", "tool_choice", "structured_outputs", "response_format"]
TOOLS = ["temperature", "max_tokens", "tools", "tool_choice"]
TEXT = ["temperature", "max_tokens"]
MODELS = [
    ("mock/wolf-smart", STRUCTURED), ("mock/wolf-tools", TOOLS), ("mock/wolf-text", TEXT),
    ("mock/wolf-invalid", STRUCTURED), ("mock/wolf-silent", TOOLS), ("mock/wolf-garbage", TEXT),
    ("mock/wolf-slow", STRUCTURED),
]
SLOW_SECONDS = 1.5

SEAT_RE = re.compile(r"\bP(\d{1,2})\b")
lock = threading.Lock()


def text_of(message):
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def seats(text):
    return ["P" + n for n in SEAT_RE.findall(text or "")]


def line_after(text, prefix):
    for line in text.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):]
    return None


class View:
    """What the prompt says, read back."""

    def __init__(self, body):
        messages = body.get("messages") or []
        self.system = text_of(messages[0]) if messages else ""
        users = [text_of(m) for m in messages if m.get("role") == "user"]
        self.user = users[-1] if users else ""
        m = re.search(r"as player (P\d+)\. Your role is (\w+)", self.system)
        self.me, self.role = (m.group(1), m.group(2)) if m else ("P0", "Villager")
        living = line_after(self.user, "Living players") or ""
        self.living = [s for s in seats(living.split(":", 1)[-1])]
        allowed = line_after(self.user, "Allowed targets: ")
        self.allowed = seats(allowed) if allowed else []
        pack = line_after(self.user, "Your pack (the other wolves): ")
        self.pack = seats(pack) if pack else []
        dead = line_after(self.user, "Dead players: ") or ""
        self.dead = [s for s in seats(dead)]
        self.wolves_found = [t for t, verdict in re.findall(r"you inspected (P\d+): (a WEREWOLF|not)", self.user)
                             if verdict == "a WEREWOLF" and t in self.living]
        self.rejected = "Your previous answer was not accepted" in self.user
        task = self.user.split("[Task]", 1)[-1]
        if "Rewrite your notes" in task:
            self.kind = "notes"
        elif "talk privately with your pack" in task:
            self.kind = "wolf_chat"
        elif "Decide whether to" in task:
            self.kind = "chat"
        elif "vote is open" in task:
            self.kind = "vote"
        else:
            self.kind = "night"
        m = re.search(r"Round (\d+), phase: (\w+)", self.user)
        self.round = int(m.group(1)) if m else 0
        self.chat = [line for line in self.user.split("Chat history (oldest first):", 1)[-1].splitlines()
                     if line.startswith("[")]
        self.pack_votes = re.findall(r"Night %d: (P\d+) voted to kill (P\d+)" % self.round, self.user)

    def rng(self, model, salt=""):
        key = "%s|%s|%s|%d|%s|%s" % (model, self.me, self.kind, self.round, salt, ",".join(self.allowed))
        return random.Random(hashlib.sha256(key.encode()).hexdigest())

    def spoke_today(self):
        return any(line.startswith("[Day %d] %s:" % (self.round, self.me)) for line in self.chat)

    def accused(self):
        counts = {}
        for line in self.chat:
            if line.startswith("[Day %d]" % self.round):
                for s in seats(line.split(":", 1)[-1])[:1]:
                    counts[s] = counts.get(s, 0) + 1
        return counts


def pick_target(view, model):
    allowed = list(view.allowed)
    if not allowed:
        return "P1"
    rng = view.rng(model)
    if view.kind == "night" and view.role == "Werewolf":
        for _, victim in view.pack_votes:  # follow the pack's first proposal
            if victim in allowed:
                return victim
        return rng.choice(allowed)
    if view.kind == "vote":
        for wolf in view.wolves_found:
            if wolf in allowed:
                return wolf
        choices = [s for s in allowed if s not in view.pack] or allowed
        counts = view.accused()
        best = max([counts.get(s, 0) for s in choices] + [0])
        top = [s for s in choices if counts.get(s, 0) == best] if best > 0 else choices
        return rng.choice(top)
    return rng.choice(allowed)


def chat_answer(view, model):
    others = [s for s in view.living if s != view.me]
    rng = view.rng(model, "chat")
    suspicions = [{"player": s, "level": round(rng.random(), 2)} for s in others if s not in view.pack]
    if model == "mock/wolf-silent" or view.spoke_today() or not others:
        return {"send": False, "message": "", "reasoning": "Nothing new to add.", "suspicions": suspicions}
    if view.role == "Seer" and view.wolves_found:
        message = "I am the Seer. %s is a wolf." % view.wolves_found[0]
    else:
        prey = [s for s in others if s not in view.pack] or others
        message = "I suspect %s: their story does not add up." % rng.choice(prey)
    return {"send": True, "message": message, "reasoning": "Push the discussion.", "suspicions": suspicions}


def wolf_chat_answer(view, model):
    """The wolves' night chat: propose a victim once a night, then stay silent."""
    prey = [s for s in view.living if s != view.me and s not in view.pack]
    spoke = any(line.startswith("[Night %d, wolves only] %s:" % (view.round, view.me)) for line in view.chat)
    if model == "mock/wolf-silent" or spoke or not prey:
        return {"send": False, "message": "", "reasoning": "The pack has a plan.", "suspicions": []}
    # Propose the victim this wolf will vote for: its night choice among the same players.
    night = copy.copy(view)
    night.kind, night.allowed = "night", prey
    victim = pick_target(night, model)
    return {"send": True, "message": "Let's take %s tonight." % victim, "reasoning": "Propose a victim.",
            "suspicions": []}


def decide(view, model):
    if view.kind in ("chat", "wolf_chat"):
        answer = chat_answer(view, model) if view.kind == "chat" else wolf_chat_answer(view, model)
        if model == "mock/wolf-invalid" and not view.rejected:
            answer = dict(answer, send=True, message="")
        return answer
    target = pick_target(view, model)
    if model == "mock/wolf-invalid" and not view.rejected:
        target = view.dead[0] if view.dead else "P42"
    return {"target": target, "reasoning": "As %s I choose %s." % (view.role, target)}


def notes_text(view):
    lines = ["Round %d notes of %s (%s)." % (view.round, view.me, view.role),
             "Living: " + ", ".join(view.living) + ".",
             "Pack: " + (", ".join(view.pack) or "-") + ".",
             "Known wolves: " + (", ".join(view.wolves_found) or "none") + ".",
             "Plan: follow the accusations, vote the most suspected."]
    return "\n".join(lines)


def answer(model, body, count):
    view = View(body)
    first_turn = view.kind == "chat" and view.round == 1 and not any(l.startswith("[Day 1]") for l in view.chat)
    reply = {"sleep": SLOW_SECONDS} if model == "mock/wolf-slow" and first_turn else {}
    if view.kind == "notes":
        reply["content"] = notes_text(view)
        return reply
    if model == "mock/wolf-garbage":
        reply["content"] = "Hmm, I have a bad feeling about this village. Let me think about it some more."
        return reply
    obj = decide(view, model)
    arguments = json.dumps(obj)
    choice = body.get("tool_choice")
    forced = choice.get("function", {}).get("name") if isinstance(choice, dict) else None
    if body.get("response_format"):
        reply["content"] = arguments
    elif body.get("tools") and forced:
        reply["tool_calls"] = [{"id": "call_ww_%d" % count, "type": "function",
                                "function": {"name": forced, "arguments": arguments}}]
        reply["content"] = ""
    else:
        reply["content"] = "My decision:\n```json\n" + arguments + "\n```"
    return reply

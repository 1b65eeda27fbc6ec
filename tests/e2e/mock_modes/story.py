"""Game-master models of the Story mode for the local OpenRouter stand-in.

  mock/gm-orchestrator  the orchestrator's structured decision: a world_advance pre-step when the
                        player's message names a locations/<name>.md the Game Context lacks, a
                        faction_turn for the Lamplighters' Guild when the player waits or sleeps,
                        a suggested twist when the message mentions a risky action. Honours
                        response_format (JSON content), a forced tool (one tool call) and plain text.
  mock/gm-narrator      the narrator and the pre-step agents: as world_advance it writes the missing
                        location file; as faction_turn it adds a line to the faction's Recent Actions
                        in factions.md (edit_file); as narrator it calls twist_of_fate with bands when
                        the request's "# Suggested Dice Rolls" lists a twist, then writes a reply that
                        names the band it got; otherwise it streams a plain reply.
                        When the player says "paint <slug>", it calls create_image for
                        locations/stilt-quay.md first ("paint corrupt-<slug>" asks for a damaged one).
  mock/gm-painter       the image-output model (modalities image+text): a 96x48 PNG, left half
                        magenta (224, 32, 160), right half cyan (16, 192, 224); a prompt containing
                        "corrupt" gets a PNG whose header is right and whose pixel data is garbage
  mock/gm-broken        a misbehaving model: prose instead of JSON when asked for a structured answer,
                        a 500 otherwise
  mock/gm-refuser       answers "REFUSED: ..." to everything
"""
import base64
import json
import re
import struct
import zlib

PARAMS = ["temperature", "max_tokens", "tools", "tool_choice", "structured_outputs", "response_format"]
MODELS = [("mock/gm-orchestrator", PARAMS), ("mock/gm-narrator", PARAMS), ("mock/gm-broken", PARAMS),
          ("mock/gm-refuser", PARAMS), ("mock/gm-painter", ["max_tokens"])]

LOCATION_RE = re.compile(r"locations/([a-z0-9-]+)\.md")
RISKY_RE = re.compile(r"\b(jump|leap|climb|swim|fight|sneak|run across)\b", re.I)
WAIT_RE = re.compile(r"\b(wait|sleep|rest)\b", re.I)
PAINT_RE = re.compile(r"\bpaint ([a-z0-9-]+)", re.I)
ROLL_RE = re.compile(r"Rolled (\d+) on 1-100\.\nOutcome \(([^)]*)\): (.*)")


def png(width, height, pixel):
    """An 8-bit RGB PNG; pixel(x, y) -> (r, g, b)."""
    raw = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PAINTING = png(96, 48, lambda x, y: (224, 32, 160) if x < 48 else (16, 192, 224))
# The same header (96x48) with pixel data no decoder accepts.
DAMAGED = PAINTING[:33] + struct.pack(">I", 40) + b"IDAT" + b"\x13" * 40 + b"\x00" * 4 + PAINTING[-12:]


def painter(messages):
    prompt = " ".join(users(messages))
    picture = DAMAGED if "corrupt" in prompt else PAINTING
    url = "data:image/png;base64," + base64.b64encode(picture).decode()
    return {"content": "Here is the picture.", "images": [{"type": "image_url", "image_url": {"url": url}}]}


def text_of(message):
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def users(messages):
    return [text_of(m) for m in messages if m.get("role") == "user"]


def context(messages):
    for text in users(messages):
        if text.startswith("# Game Context"):
            return text
    return ""


def call(name, arguments, count, index=0):
    return {"id": "call_%d_%d" % (count, index), "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def player_message(messages):
    said = users(messages)
    return said[-1] if said else ""


def decision(messages):
    said = player_message(messages)
    ctx = context(messages)
    pre_steps, twists = [], []
    for name in LOCATION_RE.findall(said):
        if "## locations/%s.md" % name not in ctx:
            pre_steps.append({"type": "world_advance",
                              "description": "create locations/%s.md, which the player is heading to" % name})
    if WAIT_RE.search(said):
        pre_steps.append({"type": "faction_turn", "faction": "The Lamplighters' Guild",
                          "situation": "a night passes while the player waits"})
        pre_steps.append({"type": "faction_turn", "faction": "The Order of the Moon", "situation": "an unknown order"})
    if RISKY_RE.search(said):
        twists.append({"situation": "the risky move: " + said[:60], "reason": "a physical risk"})
    return {"preSteps": pre_steps, "suggestedTwists": twists, "reasoning": "mock: %d pre-steps" % len(pre_steps)}


def structured(body, obj, count):
    """The object through the channel the request asks for."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return {"content": "", "tool_calls": [call(choice["function"]["name"], obj, count)]}
    if body.get("response_format"):
        return {"content": json.dumps(obj)}
    return {"content": "Here is my decision:\n```json\n" + json.dumps(obj) + "\n```"}


def answered_tools(messages):
    """The tool results after the last user message."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return [text_of(m) for m in messages[last_user + 1:] if m.get("role") == "tool"]


def world_advance(messages, system, count):
    if answered_tools(messages):
        return {"content": "Off-screen, the place the player is heading to now exists in the world files."}
    match = LOCATION_RE.search(system)
    if not match:
        return {"content": "REFUSED: no location named in the task"}
    name = match.group(1)
    title = name.replace("-", " ").title()
    content = "# %s\n\nA place of the marsh: damp boards, a guttering blue lamp, and nobody who admits to " \
              "seeing anything.\n" % title
    return {"content": "", "tool_calls": [call("write_file", {"path": "locations/%s.md" % name, "content": content},
                                               count)]}


def faction_turn(messages, system, count):
    if answered_tools(messages):
        return {"content": "The Guild moved in the night."}
    ctx = context(messages)
    section = ctx.split("## factions.md", 1)[-1]
    guild = section.split("## The Lamplighters' Guild", 1)[-1]
    actions = guild.split("### Recent Actions\n", 1)[-1]
    line = actions.split("\n", 1)[0]
    if not line.startswith("- "):
        return {"content": "REFUSED: the Guild has no Recent Actions to add to"}
    new = line + "\n- Doubled the toll on the lit walks overnight."
    return {"content": "", "tool_calls": [call("edit_file", {"path": "factions.md", "old_string": line,
                                                             "new_string": new}, count)]}


def narrator(messages, count):
    results = answered_tools(messages)
    for result in results:
        roll = ROLL_RE.search(result)
        if roll:
            return {"content": "The dice fall (%s): %s. The marsh holds its breath as you see what comes of it; "
                               "what do you do now?" % (roll.group(1), roll.group(3))}
    said = users(messages)
    paint = PAINT_RE.search(said[-1] if said else "")
    if paint and not results:
        slug = paint.group(1).lower()
        return {"content": "You take out a sketchbook. ",
                "tool_calls": [call("create_image", {"prompt": "a painting of " + slug.replace("-", " "), "slug": slug,
                                                     "tags": ["painting"], "file": "locations/stilt-quay.md"},
                                    count)]}
    off_screen = said[-2] if len(said) >= 2 and said[-2].startswith("# What Happened Off-Screen") else ""
    dice = off_screen.split("# Suggested Dice Rolls", 1)[-1] if off_screen else ""
    if "\n- " in dice and not results:
        stakes = "1-40: you slip and fall into the cold channel; 41-85: you make it across, bruised; " \
                 "86-100: you land cleanly and spot something glinting on the boards"
        return {"content": "You gather yourself for it. ",
                "tool_calls": [call("twist_of_fate", {"stakes": stakes}, count)]}
    return {"content": "Fog rolls over the walks and a lamp gutters somewhere behind you. Brackwater waits for "
                       "your next move."}


def answer(model, body, count):
    messages = body.get("messages") or []
    system = text_of(messages[0]) if messages and messages[0].get("role") == "system" else ""
    is_structured = bool(body.get("response_format")) or isinstance(body.get("tool_choice"), dict)
    if model == "mock/gm-refuser":
        return {"content": "REFUSED: this makes no sense in this world"}
    if model == "mock/gm-broken":
        # The orchestrator's own prompt (not the narrator's, which mentions the orchestrator too).
        if is_structured or system.startswith("You are the orchestrator"):
            return {"content": "Well, let me think about the scene... I would suggest something dramatic!"}
        return {"status": 500, "error": "mock: gm-broken is broken"}
    if model == "mock/gm-orchestrator":
        return structured(body, decision(messages), count)
    if model == "mock/gm-painter":
        return painter(messages)
    if "world simulator" in system:
        return world_advance(messages, system, count)
    if "You play one faction" in system:
        return faction_turn(messages, system, count)
    return narrator(messages, count)

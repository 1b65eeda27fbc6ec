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
  (any model)           asked to keep the story's memory (the summary's system prompt), a summary
                        built from the turns it is given: who and what they name, in a few lines
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
DIRECTION_RE = re.compile(r"A direction from the player for this reply only[^:]*: (.*)\)\s*$", re.S)
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
    # The steering controls: a continuation of the last reply, a reply regenerated with a direction.
    if said and "continue your last reply" in said[-1] and not results:
        return {"content": "Then the fog parts for a moment, and the far lamps answer yours."}
    direction = DIRECTION_RE.search(said[-1] if said else "")
    if direction:  # noted in a file first, so the answers differ in the world's files too
        asked = direction.group(1).strip()
        if not results:
            return {"content": "", "tool_calls": [call("write_file", {"path": "notes/direction.md",
                                                                       "content": "Asked: %s\n" % asked}, count)]}
        return {"content": "Again, as asked (%s): the lamps burn low and red over the black water." % asked}
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


TURN_RE = re.compile(r"^## Turn (\d+)\nThe player: (.*)$", re.M)


def summary(messages):
    """The rolling summary: the summary so far (kept to its last 8 lines), then one line per folded turn."""
    text = player_message(messages)
    before = text.split("# The summary so far\n\n", 1)[-1].split("\n\n# The turns to fold in", 1)[0]
    lines = [] if before.startswith("(none yet") else before.splitlines()
    lines += ["Turn %s: the player said \"%s\"." % (n, said[:80]) for n, said in TURN_RE.findall(text)]
    return {"content": "\n".join(lines[-8:])}


def answer(model, body, count):
    messages = body.get("messages") or []
    system = text_of(messages[0]) if messages and messages[0].get("role") == "system" else ""
    if system.startswith("You keep the story's memory") and model != "mock/gm-broken":
        return summary(messages)
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


# --- The scripted sample adventure (assets/story/sample/recording.json, record_story_sample.py) ---
# demo/orchestrator, demo/narrator and demo/painter play crafted turns of the sample world, each
# keyed by the player's line: the orchestrator's reasoning, a world_advance that writes the salt
# tower, rolls whose narration follows the band rolled, a sketch of the tower, a faction turn that
# edits factions.md; a lock picked badly (its note in the tower's file), which the recording takes
# back; and a branch from turn 5 where the player hails Captain Hale instead of climbing. Scripted,
# not written by a model: the page says so.
DEMO_TOWER = """# The Salt Tower

A squat tower of salt-white stone on the flats north of the Stilt Quay, older than the town. The
Exchequer used it to store seized salt until the spring tide cracked its jetty; since then it is
said to be empty, and nobody rows out to check.

- Exits: the broken jetty (a punt can reach it at high tide); an outer stair to the roof.
- Detail: on clear nights a light shows at the top, though the Guild swears it keeps no lamp there.
"""

DEMO_TURNS = [
    {"key": "step off the ferry",
     "reasoning": "Arrival. The quay, the sealed harbourmaster's office and the ferrywoman are all in the "
                  "context; nothing is at stake yet, so no dice and nothing needs to happen off-screen.",
     "prose": "The ferrywoman bites your coin before she lets go of the rope, then pushes off without a word. "
              "The Stilt Quay is longer than it looked from the water: salt barrels under tarred canvas, chalk "
              "tallies on their lids, and at the far end the harbourmaster's door with a fat red seal of "
              "Exchequer wax across the latch.\n\nThe blue lamps hiss every ten paces. Beyond the last one the "
              "Netmakers' Walk runs off into the dark, unlit, and something pale drifts above the reeds out "
              "there, keeping pace with nothing. A clerk in the weighing house is pretending not to watch you."},
    {"key": "salt tower",
     "reasoning": "The player asks about locations/salt-tower.md, which the world does not have yet: a "
                  "world_advance step writes it first so the narrator can describe a real place.",
     "pre": {"type": "world_advance", "description": "create locations/salt-tower.md: the player asks about "
                                                    "it and the world has no such place yet"},
     "prose": "The ferrywoman spits over the side before she answers. \"The salt tower? Exchequer kept seized "
              "salt out there till the spring tide broke the jetty. Empty since.\" She looks north, where a "
              "squat white shape sits on the flats. \"Empty, and still there's a light on top some nights. "
              "The Guild says it's not theirs.\"\n\nShe names a price for a punt, then doubles it when you look "
              "interested."},
    {"key": "leap",
     "reasoning": "Jumping from a moving punt onto a cracked jetty at night over deep water is a real risk: "
                  "a twist of fate decides it.",
     "twist": "the leap from the punt onto the salt tower's broken jetty",
     "stakes": "1-30: the jetty gives way and you go into the black water; 31-80: you land hard, soaked to the "
               "knee, and the punt drifts away; 81-100: you land cleanly and see a lantern moving inside the tower",
     "bands": [(30, "The board you land on is not there a moment later. Black water closes over your head, "
                    "colder than anything inland; you come up spitting salt, one hand on a pile slick with weed, "
                    "and haul yourself onto the stones with the letter still dry in its oilskin. Barely."),
               (80, "You land hard, one boot through a rotten plank and the water to your knee. By the time you "
                    "have pulled free the punt is ten yards off and turning slowly on the tide. Nobody is coming "
                    "back for you tonight."),
               (100, "You land light as a cat on the one sound beam. Above you, through a crack in the tower "
                     "wall, a lantern moves from one window to the next, and stops, as if whoever holds it is "
                     "listening.")]},
    # Taken back in the recording (record_story_sample.py undoes it): a roll that goes badly, and the
    # narrator's note of it in the tower's file.
    {"key": "pick the lock",
     "reasoning": "Wren is good with locks, but this one is old, salt-rusted and in plain view of the flats: a "
                  "twist of fate decides whether it opens quietly.",
     "twist": "picking the salt tower's rusted lock at dusk, in plain view of the flats",
     "stakes": "1-40: the pick snaps in the lock and jams it for good, loudly; 41-80: the lock gives after a long "
               "minute of scraping; 81-100: it opens at a touch, as if someone oiled it recently",
     "bands": [(40, "The lock is older than it looks and full of salt. Halfway round, the pick bends, then snaps "
                    "with a crack that carries across the flats like a shot. The broken half stays wedged in the "
                    "keyhole, and the door will not open now for any key.\n\nHigh above you, the light at the top "
                    "of the tower goes out.",
                {"path": "locations/salt-tower.md",
                 "old": "- Detail: on clear nights a light shows at the top, though the Guild swears it keeps no "
                        "lamp there.",
                 "new": "- Detail: on clear nights a light shows at the top, though the Guild swears it keeps no "
                        "lamp there.\n- The door: its lock is jammed by the snapped half of a lock-pick; no key "
                        "will open it now."}),
               (80, "It takes a long minute of scraping, salt grinding in the wards, before the bolt slides back. "
                    "The door opens on dark and the smell of wet stone."),
               (100, "The lock turns at a touch, smooth as butter. Someone has oiled it, and not long ago.")]},
    {"key": "sketch",
     "reasoning": "A quiet moment: nothing at stake. The narrator may illustrate the tower.",
     "image": {"prompt": "ink and wash sketch of a squat white salt tower on marsh flats at dusk, broken jetty, "
                         "one light at the top", "slug": "salt-tower", "tags": ["location", "sketch"],
               "file": "locations/salt-tower.md"},
     "prose": "You brace the book on your knee and work fast while the light lasts: the squat tower, the "
              "jetty's broken teeth, the one window near the top that will not stay dark. The sketch is "
              "better than you expected. The light in the window goes out while you draw it."},
    {"key": "wait",
     "reasoning": "The player lets a night pass: the Lamplighters' Guild, who claim the tower's light is not "
                  "theirs, act off-screen.",
     "pre": {"type": "faction_turn", "faction": "The Lamplighters' Guild",
             "situation": "a night passes while a stranger watches the salt tower"},
     "faction": "- Sent a boat to the salt tower at dawn to see who had been watching it.",
     "prose": "The night is long and loud with frogs. Twice a marsh-light drifts close enough to show you the "
              "water under it, and twice it goes away again.\n\nAt dawn a Guild boat noses out of the Long "
              "Channel: two lamplighters in blue coats, poles in hand, rowing straight for the tower. One of "
              "them is pointing at the jetty. At you."},
    {"key": "climb",
     "reasoning": "The outer stair is worn, wet and high above the flats, with the Guild's boat coming: a "
                  "twist of fate.",
     "twist": "the climb up the tower's worn outer stair with the Guild boat closing in",
     "stakes": "1-35: a step breaks and you hang by your hands while the Guild boat reaches the jetty; 36-75: you "
               "reach the roof, winded, as the lamplighters tie up below; 76-100: you reach the roof first and "
               "find what glints: a Harrowgate seal on a crate of unweighed salt",
     "bands": [(35, "The fourth step from the top comes away under your boot. For a long breath you hang from "
                    "the edge by your fingers, the flats turning below, and hear the Guild boat bump the jetty. "
                    "\"Stay where you are,\" someone calls up, almost kindly."),
               (75, "You reach the roof on legs that shake, and lie flat behind the parapet as the lamplighters "
                    "tie up below. On the roof: a Guild lamp, cold, its oil reservoir full to the brim. Whoever "
                    "says the light is not theirs is lying."),
               (100, "You are on the roof before the boat reaches the jetty. What glints is brass: the seal of "
                     "the Harrowgate Merchants' Hall on a crate of salt with no Exchequer stamp, and beside it a "
                     "Guild lamp, full of oil. Someone is moving salt out past the weighing house, and the Guild "
                     "is lighting the way.")]},
    # The branch from turn 5 (record_story_sample.py): instead of climbing, the player hails the boat.
    {"key": "hail the guild boat",
     "reasoning": "The player shows themself to the Guild instead of hiding: Captain Hale comes in person. No "
                  "risk in the hailing itself; Hale's interest in the courier is worth recording in his file.",
     "edit": {"path": "NPCs/idris-hale.md",
              "old": "- Mood towards Wren: curious; couriers carry news worth buying.",
              "new": "- Mood towards Wren: met her on the salt tower's jetty at dawn; wants Tolland's letter and "
                     "offered ten silver and a ride back to the quay for it."},
     "prose": "You stand up on the jetty and wave both arms until the bow swings your way. The boat slides in "
              "under the tower's shadow. The man at the front is tall and grey-bearded, a lamp-hook across his "
              "knees: Captain Idris Hale himself, come out at dawn for one wet courier.\n\n\"Harrowgate coat,\" "
              "he says. \"Tolland's letter. Ten silver for it, and a dry seat back to the quay.\" The lamplighter "
              "at the oars does not look at you. Behind Hale, the tower's top window is dark."},
    {"key": "refuse to sell",
     "reasoning": "Refusing the Guild captain to his face, alone on a jetty with his men, and asking about the "
                  "light he denies: how Hale takes it is a real risk, so a twist of fate.",
     "twist": "refusing Captain Hale the letter and asking him about the tower's light",
     "risk": "a social risk: the Guild's captain crossed to his face, with his men",
     "stakes": "1-30: Hale takes it as a threat and his lamplighters take the letter by force; 31-70: Hale says "
               "nothing more and rows you back to the quay under guard; 71-100: Hale, stung, lets slip who "
               "keeps the light on the tower",
     "bands": [(30, "Hale sighs, as if you have made his morning longer. The lamp-hook comes up under your arm, "
                    "the oarsman takes the other, and the letter is out of your coat before you have finished "
                    "saying no."),
               (70, "Hale's face closes like a shutter. \"Guild business.\" He rows you back in silence, and on "
                    "the quay two lamplighters fall in ten paces behind you, all the way to the weighing house."),
               (100, "Hale's eyes go to the top of the tower, just once. \"Not my lamp, courier. Tolland's. He "
                     "came back across the flats three nights ago and he has been up there since, burning my "
                     "oil.\" He leans closer. \"Your letter is for a man who is hiding from the Exchequer. Think "
                     "about who you want to be standing next to when they find him.\"")]},
]


def demo_turn(said):
    for turn in DEMO_TURNS:
        if turn["key"] in said.lower():
            return turn
    return None


def demo_decision(messages):
    turn = demo_turn(player_message(messages))
    if not turn:
        return {"preSteps": [], "suggestedTwists": [], "reasoning": "Nothing scripted for this line."}
    twists = [{"situation": turn["twist"], "reason": turn.get("risk", "a physical risk")}] if "twist" in turn else []
    return {"preSteps": [turn["pre"]] if "pre" in turn else [], "suggestedTwists": twists,
            "reasoning": turn["reasoning"]}


def demo_narrator(messages, system, count):
    if "world simulator" in system:
        if answered_tools(messages):
            return {"content": "The salt tower now stands on the flats north of the quay."}
        return {"content": "", "tool_calls": [call("write_file", {"path": "locations/salt-tower.md",
                                                                  "content": DEMO_TOWER}, count)]}
    if "You play one faction" in system:
        if answered_tools(messages):
            return {"content": "The Guild sent a boat at dawn."}
        line = "- Left the lamps of the Netmakers' Walk unlit two nights running."
        turn = next(t for t in DEMO_TURNS if "faction" in t)
        return {"content": "", "tool_calls": [call("edit_file", {"path": "factions.md", "old_string": line,
                                                                 "new_string": line + "\n" + turn["faction"]}, count)]}
    said = users(messages)
    turn = None
    for text in reversed(said):  # the player's line: the last message that is not the off-screen summary
        if not text.startswith("# "):
            turn = demo_turn(text)
            break
    if not turn:
        return {"content": "The marsh keeps its counsel. What do you do?"}
    results = answered_tools(messages)
    edited = any(result.startswith("Edited ") for result in results)

    def edit(change):  # the narrator notes what lasts in the world's files before it narrates
        return {"content": "", "tool_calls": [call("edit_file", {"path": change["path"], "old_string": change["old"],
                                                                 "new_string": change["new"]}, count)]}
    if "bands" in turn:
        for result in results:
            roll = ROLL_RE.search(result)
            if roll:
                n = int(roll.group(1))
                band = next(b for b in turn["bands"] if n <= b[0])
                if len(band) > 2 and not edited:
                    return edit(band[2])
                return {"content": band[1]}
        return {"content": "", "tool_calls": [call("twist_of_fate", {"stakes": turn["stakes"]}, count)]}
    if "image" in turn and not results:
        return {"content": "", "tool_calls": [call("create_image", turn["image"], count)]}
    if "edit" in turn and not edited:
        return edit(turn["edit"])
    return {"content": turn["prose"]}


def demo_pixel(x, y):
    """An ink-and-wash tower on the flats at dusk, 192x128."""
    if 84 <= x < 108 and 30 <= y < 96:  # the tower, a lit window near its top
        return (250, 214, 120) if 92 <= x < 100 and 38 <= y < 46 else (226, 222, 210)
    if 82 <= x < 110 and 26 <= y < 30:
        return (200, 196, 186)
    if 60 <= x < 84 and 92 <= y < 95 and x % 5 != 0:  # the broken jetty
        return (70, 56, 44)
    if y < 96:  # dusk: amber low, slate high
        t = y / 96.0
        return (int(70 + 150 * t), int(80 + 90 * t), int(110 + 10 * t))
    ripple = 12 if (x + 3 * y) % 17 == 0 else 0
    return (40 + ripple, 58 + ripple, 54 + ripple)  # the flats and the water


DEMO_PAINTING = png(192, 128, demo_pixel)


def demo_answer(model, body, count):
    messages = body.get("messages") or []
    system = text_of(messages[0]) if messages and messages[0].get("role") == "system" else ""
    if model == "demo/orchestrator":
        return structured(body, demo_decision(messages), count)
    if model == "demo/painter":
        url = "data:image/png;base64," + base64.b64encode(DEMO_PAINTING).decode()
        return {"content": "A sketch of the salt tower.", "images": [{"type": "image_url", "image_url": {"url": url}}]}
    return demo_narrator(messages, system, count)


MODELS += [("demo/orchestrator", PARAMS), ("demo/narrator", PARAMS), ("demo/painter", ["max_tokens"])]
_plain_answer = answer


def answer(model, body, count):  # noqa: F811 - the scripted adventure's models first
    messages = body.get("messages") or []
    system = text_of(messages[0]) if messages and messages[0].get("role") == "system" else ""
    if model.startswith("demo/") and not system.startswith("You keep the story's memory"):
        return demo_answer(model, body, count)
    return _plain_answer(model, body, count)

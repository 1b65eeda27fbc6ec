#!/usr/bin/env python3
"""End-to-end test of `chaiba story` against the local mock OpenRouter server (no internet).

On a copy of the sample world: a turn with a world_advance pre-step and a dice roll (files written,
the roll printed with its bands), undo (the files back exactly), the turn again and a second turn
with a faction turn behind a broken orchestrator and its fallback (the conversation kept), a refused
pre-step, export and import, the key in no file or output, and a conversation of the previous
build (format 3, tests/data/story_format3) migrated with a note and undone exactly.
With --figures N it then plays N more turns and prints the per-turn time split, cost and context.
Usage: story_e2e.py --chaiba PATH [--keep DIR] [--figures N]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from play_e2e import Mock, Failure, expect  # noqa: E402  (the same mock server start-up)
import play_e2e  # noqa: E402

KEY = play_e2e.KEY
TURN_RE = re.compile(r"\[turn\] orchestrator (\S+) ms, pre-steps (\S+)(?: ms)?, narrator first token (\S+) ms, "
                     r"total (\d+) ms; cost \$([0-9.]+); (\d+) prompt \+ (\d+) completion tokens; context (\d+) tokens")


def story(chaiba, mock, world, *args, ok=True):
    cmd = [chaiba, "story", "--world", world, "--base-url", mock.base, "--seed", "5"] + list(args)
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OPENROUTER_API_KEY=KEY), timeout=60)
    for where, text in (("stdout", out.stdout), ("stderr", out.stderr)):
        expect(KEY not in text, "the API key leaked into " + where)
    if ok:
        expect(out.returncode == 0, "exit %d: %s\n%s" % (out.returncode, out.stdout[-2000:], out.stderr[-2000:]))
    return out


def snapshot(world):
    """Every world file except the app's own records, path -> bytes."""
    files = {}
    for folder, _, names in os.walk(world):
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), world)
            if path.startswith(("conversations", "logs")):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                files[path] = f.read()
    return files


def conversation(world, cid="main"):
    """The conversation as stored (version 5: a head with the count of its turns, each turn a record
    of its own in conversations/<id>/turn-<n>.json, its file changes as patches), its turns read in."""
    folder = os.path.join(world, "conversations")
    with open(os.path.join(folder, cid + ".json")) as f:
        head = json.load(f)
    expect(head["version"] == 5 and "turns" not in head, "the conversation is not stored turn by turn: %s" % head.keys())
    head["turns"] = []
    for number in range(1, head["turnCount"] + 1):
        with open(os.path.join(folder, cid, "turn-%d.json" % number)) as f:
            turn = json.load(f)
        expect(turn["format"] == "chaiba-story-turn" and turn["version"] == 5, "turn %d's record: %s" % (number, turn.keys()))
        for change in turn["changes"]:
            expect("patch" in change or "afterBytes" in change, "a change holds whole texts: %s" % change.keys())
        head["turns"].append(turn)
    return head


MODELS = ["--model", "mock/gm-narrator", "--orchestrator", "mock/gm-orchestrator"]
LEAP = "I leap from the quay toward the salt tower (locations/salt-tower.md)"


def run(chaiba, mock, world):
    before = snapshot(world)
    # Turn 1: a world_advance pre-step creates the missing location; the narrator rolls and honours it.
    out = story(chaiba, mock, world, "--say", LEAP, *MODELS).stdout
    expect("[orchestrator] pre-steps: world_advance(create locations/salt-tower.md" in out, "no decision: " + out)
    expect("[tool] world_advance write_file: Created locations/salt-tower.md" in out, "no pre-step tool call: " + out)
    roll = re.search(r"\[dice\] narrator: 1-40: [^|]+\| 41-85: [^|]+\| 86-100: .* -> rolled (\d+): (.*)", out)
    expect(roll is not None, "no roll with bands printed: " + out)
    expect("The dice fall (%s): %s." % (roll.group(1), roll.group(2)) in out, "the reply ignores the roll: " + out)
    expect(TURN_RE.search(out), "no time split: " + out)
    expect(os.path.exists(os.path.join(world, "locations", "salt-tower.md")), "the location was not written")
    expect(len(conversation(world)["turns"]) == 1, "turn 1 not saved")

    # Undo would discard a person's edit made since the turn: refused and named, unless --force.
    tower = os.path.join(world, "locations", "salt-tower.md")
    with open(tower, "a") as f:
        f.write("\nA note the player added by hand.\n")
    refused = story(chaiba, mock, world, "--undo", ok=False)
    expect(refused.returncode != 0 and "would discard what was changed since in locations/salt-tower.md" in refused.stderr
           and "--force" in refused.stderr, "undo over a hand edit was not refused: " + refused.stdout + refused.stderr)
    with open(tower) as f:
        expect("added by hand" in f.read(), "the refused undo touched the file")
    expect(len(conversation(world)["turns"]) == 1, "the refused undo dropped the turn")
    # Undo --force: the files come back exactly (the file the turn created goes, hand edit and all), the transcript
    # loses the turn.
    out = story(chaiba, mock, world, "--undo", "--force").stdout
    expect("--force: undoing turn 1 over the edits made since in locations/salt-tower.md" in out, "no --force note: " + out)
    expect("undid turn 1 of main" in out, "undo said: " + out)
    expect(snapshot(world) == before, "undo did not restore the files exactly")
    expect(conversation(world)["turns"] == [], "the undone turn is still in the transcript")

    # The turn again, then a second turn: the primary orchestrator is broken, the fallback decides a
    # faction turn (and an unknown faction that is dropped); the conversation keeps both turns.
    story(chaiba, mock, world, "--say", LEAP, *MODELS)
    out = story(chaiba, mock, world, "--say", "I wait on the walk until morning", "--model", "mock/gm-narrator",
                "--orchestrator", "mock/gm-broken", "--fallback", "mock/gm-orchestrator").stdout
    expect("[note] orchestrator mock/gm-broken failed" in out, "no fallback note: " + out)
    expect("dropped faction_turn for 'The Order of the Moon'" in out, "unknown faction not dropped: " + out)
    expect("[tool] faction_turn edit_file: Edited factions.md" in out, "no faction turn: " + out)
    with open(os.path.join(world, "factions.md")) as f:
        expect("- Doubled the toll on the lit walks overnight." in f.read(), "factions.md not updated")
    turns = conversation(world)["turns"]
    expect([t["number"] for t in turns] == [1, 2], "the conversation lost a turn: %s" % [t["number"] for t in turns])
    expect(turns[0]["entries"][0]["text"] == LEAP, "turn 1's message changed")

    # A refused pre-step changes nothing and the narrator still answers.
    out = story(chaiba, mock, world, "--say", "I head for locations/eel-market.md", *MODELS,
                "--prestep-model", "mock/gm-refuser", "--conversation", "side").stdout
    expect("world_advance refused: this makes no sense" in out, "no refusal: " + out)
    expect(not os.path.exists(os.path.join(world, "locations", "eel-market.md")), "a refused step wrote a file")
    # Each conversation is its own timeline of the world (as in the page): "side" began from the world
    # as it was, without main's changes, and main's come back with main (the CLI never moved the files).
    expect("[world] the files moved from conversation main to where side left them" in out, "no move to side: " + out)
    expect(not os.path.exists(os.path.join(world, "locations", "salt-tower.md")), "main's new location is in side's world")
    out = story(chaiba, mock, world, "--say", "I climb the salt tower's stair", *MODELS).stdout
    expect("[world] the files moved from conversation side to where main left them" in out, "no move back: " + out)
    expect(os.path.exists(os.path.join(world, "locations", "salt-tower.md")), "main's location did not come back")
    with open(os.path.join(world, "factions.md")) as f:
        expect("- Doubled the toll on the lit walks overnight." in f.read(), "main's faction change did not come back")

    # Export and import: the same files elsewhere.
    archive = os.path.join(os.path.dirname(world), "world.json")
    with open(archive, "w") as f:
        f.write("an older export, longer than the new one will be " * 4000)
    story(chaiba, mock, world, "--export", archive)  # replaced whole, through a temporary file renamed over it
    expect(json.load(open(archive)), "the export is not one JSON document")
    expect(not [n for n in os.listdir(os.path.dirname(archive)) if n.endswith(".tmp")], "the export left a temporary file")
    out = story(chaiba, mock, world, "--export", os.path.join(os.path.dirname(world), "no-such-folder", "w.json"), ok=False)
    expect(out.returncode != 0 and "cannot write" in out.stderr, "an export nowhere must fail clearly: " + out.stderr)
    copy = os.path.join(os.path.dirname(world), "imported")
    story(chaiba, mock, copy, "--import", archive)
    expect(snapshot(copy) == snapshot(world), "the imported world differs")
    expect(len(conversation(copy)["turns"]) == 3, "the import lost the conversation")

    for folder, _, names in os.walk(os.path.dirname(world)):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                expect(KEY.encode() not in f.read(), "the API key is in " + os.path.join(folder, name))


def migration(chaiba, mock, work):
    """A world whose conversation the previous build stored (format 3, tests/data/story_format3): the
    CLI says it moves it, writes it as format 4, and undoes its last turn from the patches."""
    old = os.path.join(work, "format3")
    shutil.copytree(os.path.join(ROOT, "tests", "data", "story_format3"), old)
    out = story(chaiba, mock, old, "--undo", "--conversation", "old").stdout
    expect("[note] conversation 'old' was stored by an older build (format 3)" in out, "no migration note: " + out)
    expect("undid turn 3 of old" in out, "undo of the migrated conversation: " + out)
    expect(len(conversation(old, "old")["turns"]) == 2, "the migrated conversation lost a turn")
    with open(os.path.join(old, "conversations", "versions", "e1e875575017fcdc-3043.md")) as f:
        first = f.read()  # the lore before turn 1, as format 3 stored it whole
    story(chaiba, mock, old, "--undo", "--conversation", "old")
    story(chaiba, mock, old, "--undo", "--conversation", "old")
    with open(os.path.join(old, "lore.md")) as f:
        expect(f.read() == first, "undo through the migrated turns did not restore the lore exactly")
    expect(not os.path.exists(os.path.join(old, "NPCs", "osric.md")), "the file turn 2 created is still there")


def memory(chaiba, mock, work):
    """The rolling summary from the command line: with one turn kept whole, the third turn folds the
    first (the stand-in writes the summary); --summary prints it, --edit-summary replaces it as an
    edit of its own, and --undo takes the edit back."""
    world = os.path.join(work, "memory")
    shutil.copytree(os.path.join(ROOT, "assets", "story", "sample"), world)
    with open(os.path.join(world, "config.yaml"), "a") as f:
        f.write("\nmemory:\n  recent_turns: 1\n")
    out = story(chaiba, mock, world, "--summary").stdout
    expect("has no summary yet" in out and "once 2 wait" in out, "--summary before any fold: " + out)
    for n, say in enumerate(["I wave at the ferry", "I count the lamps", "I sit by the water"], 1):
        out = story(chaiba, mock, world, "--say", say, *MODELS).stdout
        folded = "[memory] the summary now covers turns 1-1" in out
        expect(folded == (n == 3), "turn %d: fold %s: %s" % (n, folded, out[-600:]))
    expect("[memory] folding older turns into the summary" in out, "no fold phase: " + out)
    out = story(chaiba, mock, world, "--summary").stdout
    expect("summary of turns 1-1:" in out and "I wave at the ferry" in out, "--summary: " + out)
    out = story(chaiba, mock, world, "--edit-summary", "The ferrywoman owes the courier a crossing.").stdout
    expect("the summary was edited (turn 4 of main" in out, "--edit-summary: " + out)
    expect("The ferrywoman owes" in story(chaiba, mock, world, "--summary").stdout, "the edit is not the summary")
    story(chaiba, mock, world, "--undo")
    expect("I wave at the ferry" in story(chaiba, mock, world, "--summary").stdout, "undo did not take the edit back")


def steering(chaiba, mock, work):
    """The steering flags: --regenerate with a direction (the first answer kept as a swipe), --swipe,
    --delete-answer (refused without --yes), --continue, --edit-reply, --undo printing the player's
    line, --redo (refused once a new turn is played), and clear refusals."""
    world = os.path.join(work, "steering")
    shutil.copytree(os.path.join(ROOT, "assets", "story", "sample"), world)
    line = "I light the lamp at the quay"
    story(chaiba, mock, world, "--say", line, "--simple", *MODELS)
    out = story(chaiba, mock, world, "--regenerate", "make it darker", "--simple", *MODELS).stdout
    expect('[regenerate] turn 1: "%s" with the direction "make it darker"' % line in out, "--regenerate: " + out)
    expect("Again, as asked (make it darker)" in out, "the direction did not reach the narrator: " + out)
    expect("[saved] turn 1 shows answer 2 of 2" in out, "--regenerate saved: " + out)
    turn = conversation(world)["turns"][0]
    expect(turn["instruction"] == "make it darker" and len(turn["answers"]) == 1 and turn["shown"] == 1,
           "the stored swipes: %s" % {k: turn.get(k) for k in ("instruction", "shown")})
    expect("Fog rolls over the walks" in turn["answers"][0]["entries"][-1]["text"], "the first answer was not kept")
    out = story(chaiba, mock, world, "--swipe", "1").stdout
    expect("turn 1 shows answer 1 of 2" in out, "--swipe 1: " + out)
    expect(conversation(world)["turns"][0]["shown"] == 0, "--swipe 1 not stored")
    out = story(chaiba, mock, world, "--swipe", "3", ok=False)
    expect(out.returncode == 1 and "has 2 answer(s): --swipe 1 to 2" in out.stderr, "--swipe 3: " + out.stderr)
    out = story(chaiba, mock, world, "--delete-answer", "2", ok=False)
    expect(out.returncode == 1 and "cannot be undone" in out.stderr and "--yes" in out.stderr, "--delete-answer: " + out.stderr)
    expect(len(conversation(world)["turns"][0]["answers"]) == 1, "a refused delete deleted")
    out = story(chaiba, mock, world, "--delete-answer", "2", "--yes").stdout
    expect("deleted answer 2; turn 1 shows answer 1 of 1" in out, "--delete-answer --yes: " + out)
    out = story(chaiba, mock, world, "--continue", "--simple", *MODELS).stdout
    expect("[saved] turn 1's reply continued" in out, "--continue: " + out)
    texts = [e["text"] for e in conversation(world)["turns"][0]["entries"] if e["kind"] == "narrator"]
    expect(len(texts) == 2 and "the far lamps answer yours" in texts[1], "the continuation: %s" % texts)
    out = story(chaiba, mock, world, "--edit-reply", "1", "--text", "The lamp will not light.").stdout
    expect("You edited the reply of turn 1" in out and "edit 2 of main" in out, "--edit-reply: " + out)
    expect([e["text"] for e in conversation(world)["turns"][0]["entries"] if e["kind"] == "narrator"] ==
           ["The lamp will not light."], "the edited reply is not stored")
    story(chaiba, mock, world, "--undo")
    out = story(chaiba, mock, world, "--undo").stdout
    expect("your line was: %s" % line in out, "--undo did not print the player's line: " + out)
    out = story(chaiba, mock, world, "--redo").stdout
    expect("redid turn 1 of main" in out and "(1 more to redo)" in out, "--redo: " + out)
    out = story(chaiba, mock, world, "--redo").stdout
    expect("redid edit 2 of main" in out, "--redo of the edit: " + out)
    story(chaiba, mock, world, "--undo")
    out = story(chaiba, mock, world, "--say", "I walk on", "--simple", *MODELS).stdout
    expect("[history] the 1 undone turn(s) --redo could bring back are gone" in out,
           "a new turn after --undo did not say it dropped the redo: " + out)
    out = story(chaiba, mock, world, "--redo", ok=False)
    expect(out.returncode == 1 and "no undone turn to redo" in out.stderr, "--redo after a new turn: " + out.stderr)
    out = story(chaiba, mock, world, "--regenerate", "--conversation", "empty", ok=False)
    expect(out.returncode == 1 and "has no turn to regenerate" in out.stderr, "--regenerate of nothing: " + out.stderr)


def imports(chaiba, mock, work):
    """SillyTavern's default card (tests/data/story_cards) made into a world with --import-card: its
    report, a turn played on it where the lorebook entry the player names is sent and the others are
    not; a damaged card refused with its reason and nothing written."""
    world = os.path.join(work, "glade")
    cards = os.path.join(ROOT, "tests", "data", "story_cards")
    out = story(chaiba, mock, world, "--import-card", os.path.join(cards, "default_Seraphina.png")).stdout
    expect("Imported character card V2 \"Seraphina\" (the PNG's chara chunk) into 7 file(s):" in out, "report: " + out)
    expect("Not carried over:" in out and "the creator's notes" in out, "report lacks what was left: " + out)
    for path in ("config.yaml", "characters/seraphina.md", "characters/seraphina.png", "lore/eldoria/shadowfang.md"):
        expect(os.path.exists(os.path.join(world, path)), "the card's world lacks " + path)
    story(chaiba, mock, world, "--say", "What are the shadowfang beasts outside?", *MODELS)
    logs = ""
    for folder, _, names in os.walk(os.path.join(world, "logs")):
        for name in names:
            with open(os.path.join(folder, name)) as f:
                logs += f.read()
    expect("## lore/eldoria/shadowfang.md" in logs, "the named lorebook entry was not sent")
    expect("## lore/eldoria/glade.md" not in logs, "an entry nobody named was sent")
    expect("## characters/seraphina.md" in logs, "the character's file was not sent")
    # A lorebook into the world with a story: an edit turn, which --undo takes away.
    out = story(chaiba, mock, world, "--import-lorebook", os.path.join(cards, "Eldoria.json")).stdout
    expect("[saved] conversation main, turn 2 (an edit: --undo takes the import away)" in out, "lorebook: " + out)
    added = [line.strip()[2:] for line in out.splitlines() if line.strip().startswith("+ ")]
    expect(len(added) == 4 and all(os.path.exists(os.path.join(world, p)) for p in added), "lorebook files: %s" % added)
    turn = conversation(world)["turns"][1]
    expect(turn["kind"] == "edit" and 'You imported the lorebook "Eldoria"' in turn["entries"][0]["text"],
           "the import is not a turn: %s" % turn["entries"])
    story(chaiba, mock, world, "--undo")
    expect(not any(os.path.exists(os.path.join(world, p)) for p in added), "--undo left the lorebook's files")
    expect(os.path.exists(os.path.join(world, "lore/eldoria/shadowfang.md")), "--undo took the card's own entry")
    with open(os.path.join(cards, "default_Seraphina.png"), "rb") as f:
        png = f.read()
    damaged = os.path.join(work, "damaged.png")
    with open(damaged, "wb") as f:
        f.write(png[:len(png) // 2])
    before = snapshot(world)
    out = story(chaiba, mock, world, "--import-card", damaged, ok=False)
    expect(out.returncode == 1 and "the PNG is truncated" in out.stderr, "a truncated card: %d %s" % (out.returncode, out.stderr))
    expect(snapshot(world) == before, "a refused card changed the world")


def figures(chaiba, mock, world, turns):
    """Per-turn time split, cost and context size as the world grows (one new location a turn)."""
    print("turn | orchestrator ms | pre-steps ms | narrator first token ms | total ms | cost USD | context tokens")
    for n in range(1, turns + 1):
        say = "I leap across to locations/place-%d.md" % n if n % 2 else "I wait for the tide"
        out = story(chaiba, mock, world, "--say", say, *MODELS, "--conversation", "figures").stdout
        m = TURN_RE.search(out)
        expect(m is not None, "no figures: " + out)
        print("%4d | %15s | %12s | %23s | %8s | %8s | %14s" % (n, m.group(1), m.group(2), m.group(3), m.group(4),
                                                             m.group(5), m.group(8)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--keep", help="keep the worlds in this folder")
    parser.add_argument("--figures", type=int, default=0)
    args = parser.parse_args()
    mock = Mock(args.chaiba)
    work = args.keep or tempfile.mkdtemp(prefix="story_e2e_")
    world = os.path.join(work, "world")
    shutil.rmtree(world, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "assets", "story", "sample"), world)
    try:
        run(args.chaiba, mock, world)
        migration(args.chaiba, mock, work)
        memory(args.chaiba, mock, work)
        steering(args.chaiba, mock, work)
        imports(args.chaiba, mock, work)
        print("story_e2e: ok")
        if args.figures:
            figures(args.chaiba, mock, world, args.figures)
        return 0
    except Failure as failure:
        print("story_e2e: FAILED: %s" % failure)
        return 1
    finally:
        mock.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

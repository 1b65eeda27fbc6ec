#!/usr/bin/env python3
"""Records the sample world's adventure (assets/story/sample/recording.json) that the page replays
without a key: a real sequence of `chaiba story` turns against the local OpenRouter stand-in on a copy
of the sample world, with an undo and a branch; the recording is a tour ("chaiba-story-demo") holding
the conversations it saved (turns, rolls, off-screen summaries, file changes), the turn it took back
as it was played, and the scenes in order.
Usage: record_story_sample.py --chaiba PATH [--out FILE]
"""
import argparse
import base64
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
from story_e2e import KEY, conversation  # noqa: E402
from play_e2e import Mock  # noqa: E402

# The scripted adventure (tests/e2e/mock_modes/story.py, demo/*): each line with the dice's seed of
# its turn (chosen so the rolls land in different bands: the lock's in its worst one, Hale's in its
# best). The tour: turns 1-3; turn 4 picks the tower's lock, the roll goes badly and the player takes
# the turn back (--undo); a different turn 4, then 5 and 6; a branch from turn 5 (--branch 5) where
# the player hails the Guild boat instead of climbing, two turns of its own.
MAIN_BEFORE_UNDO = [
    ("I step off the ferry onto the Stilt Quay, pay the ferrywoman and look around.", 1),
    ("I ask the ferrywoman about the salt tower out on the flats (locations/salt-tower.md).", 2),
    ("I take her punt out to the tower and leap from it onto the broken jetty.", 3),
]
UNDONE = ("I pick the lock of the tower's door before the last of the light goes.", 11)
MAIN_AFTER_UNDO = [
    ("I sit on the stones and sketch the tower by the last of the light.", 4),
    ("I wait in the tower's doorway until the night is over.", 5),
    ("I climb the tower's outer stair to see what glints at the top.", 6),
]
BRANCH_AT = 5
BRANCH = [
    ("I stand up on the jetty, wave both arms and hail the Guild boat.", 7),
    ("I refuse to sell the letter, and ask Hale whose light burns at the top of the tower.", 17),
]
MODELS_DEMO = ["--model", "demo/narrator", "--orchestrator", "demo/orchestrator", "--prestep-model", "demo/narrator",
               "--image-model", "demo/painter"]


def inline(world, cid, title):
    """The stored conversation (a head and a record a turn, a picture's bytes a stored version) as one
    document with its turns and pictures inline, as the page reads it (conversationFromJson)."""
    recorded = conversation(world, cid)
    recorded.pop("turnCount", None)
    recorded.pop("redoable", None)
    recorded["title"] = title
    for turn in recorded["turns"]:
        turn.pop("format", None)
        turn.pop("version", None)
        for change in turn["changes"]:
            for side in ("beforeBytes", "afterBytes"):
                stored = change.get(side)
                if isinstance(stored, dict):
                    with open(os.path.join(world, "conversations", "versions", stored["version"]), "rb") as f:
                        change[side] = base64.b64encode(f.read()).decode()
    return recorded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--out", default=os.path.join(ROOT, "assets", "story", "sample", "recording.json"))
    args = parser.parse_args()
    mock = Mock(args.chaiba)
    tmp = tempfile.mkdtemp()
    try:
        world = os.path.join(tmp, "world")
        shutil.copytree(os.path.join(ROOT, "assets", "story", "sample"), world,
                        ignore=shutil.ignore_patterns("recording.json"))

        def story(*extra):
            out = subprocess.run([args.chaiba, "story", "--world", world, "--base-url", mock.base] + list(extra),
                                 capture_output=True, text=True, timeout=120, env=dict(os.environ, OPENROUTER_API_KEY=KEY))
            if out.returncode != 0:
                raise SystemExit("chaiba story %s failed:\n%s%s" % (" ".join(extra), out.stdout[-2000:], out.stderr[-2000:]))
            print(out.stdout.strip().splitlines()[-1])
            return out.stdout

        def play(turns, cid="main"):
            for say, seed in turns:
                story("--conversation", cid, "--seed", str(seed), "--say", say, *MODELS_DEMO)

        play(MAIN_BEFORE_UNDO + [UNDONE])
        before_undo = inline(world, "main", "The main line")  # its last turn as played, before it was taken back
        if not before_undo["turns"][-1]["changes"]:
            raise SystemExit("the turn to take back changed no file")
        story("--undo")
        play(MAIN_AFTER_UNDO)
        out = story("--branch", str(BRANCH_AT))
        branch = re.search(r"branched (\S+) from", out)
        if not branch:
            raise SystemExit("no branch made: " + out)
        branch_id = branch.group(1)
        play(BRANCH, branch_id)
        main_line = inline(world, "main", "The main line")
        branched = inline(world, branch_id, "A branch from turn %d" % BRANCH_AT)
        # The tour the page replays (src/modes/story/story_demo.h): the conversations inline, and the
        # scenes in order.
        n = len(MAIN_BEFORE_UNDO)
        demo = {
            "format": "chaiba-story-demo", "version": 1,
            "title": "The Lamps of Brackwater: a scripted sample adventure",
            "conversations": [main_line, branched],
            "scenes": [
                {"kind": "play", "conversation": "main", "turns": [1, n]},
                {"kind": "undo", "conversation": "main", "before": before_undo},
                {"kind": "play", "conversation": "main", "turns": [n + 1, len(main_line["turns"])]},
                {"kind": "branch", "conversation": branch_id},
            ],
        }
        with open(args.out, "w") as f:
            json.dump(demo, f, indent=1)
            f.write("\n")
        print("recorded %d turns of main (one more taken back) and %d of branch %s (from turn %d) into %s" %
              (len(main_line["turns"]), len(branched["turns"]) - BRANCH_AT, branch_id, BRANCH_AT, args.out))
    finally:
        mock.stop()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Records the sample world's adventure (assets/story/sample/recording.json) that the page replays
without a key: a real turn sequence of `chaiba story` against the local OpenRouter stand-in on a copy
of the sample world; the recording is the conversation it saved (turns, rolls, off-screen summaries,
file changes).
Usage: record_story_sample.py --chaiba PATH [--out FILE]
"""
import argparse
import json
import os
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
# its turn (chosen so the two rolls land in different bands).
TURNS = [
    ("I step off the ferry onto the Stilt Quay, pay the ferrywoman and look around.", 1),
    ("I ask the ferrywoman about the salt tower out on the flats (locations/salt-tower.md).", 2),
    ("I take her punt out to the tower and leap from it onto the broken jetty.", 3),
    ("I sit on the stones and sketch the tower by the last of the light.", 4),
    ("I wait in the tower's doorway until the night is over.", 5),
    ("I climb the tower's outer stair to see what glints at the top.", 6),
]
MODELS_DEMO = ["--model", "demo/narrator", "--orchestrator", "demo/orchestrator", "--prestep-model", "demo/narrator",
               "--image-model", "demo/painter"]


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
        for say, seed in TURNS:
            out = subprocess.run([args.chaiba, "story", "--world", world, "--base-url", mock.base, "--seed", str(seed),
                                  "--say", say] + MODELS_DEMO, capture_output=True, text=True, timeout=120,
                                 env=dict(os.environ, OPENROUTER_API_KEY=KEY))
            if out.returncode != 0:
                raise SystemExit("turn failed: %s\n%s%s" % (say, out.stdout[-2000:], out.stderr[-2000:]))
            print(out.stdout.strip().splitlines()[-1])
        # The stored conversation (a head and a file a turn) as one document with its turns inline
        # (version 2, which the page reads from its assets).
        recorded = conversation(world)
        recorded.pop("turnFiles", None)
        recorded["version"] = 2
        recorded["title"] = "The Lamps of Brackwater: a scripted sample adventure"
        with open(args.out, "w") as f:
            json.dump(recorded, f, indent=1)
            f.write("\n")
        print("recorded %d turns into %s" % (len(recorded["turns"]), args.out))
    finally:
        mock.stop()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

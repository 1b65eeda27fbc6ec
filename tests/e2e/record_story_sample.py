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
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from story_e2e import story, MODELS  # noqa: E402
from play_e2e import Mock  # noqa: E402

TURNS = [
    "I step off the ferry onto the stilt quay and look for the lamp-house.",
    "I leap from the quay toward the salt tower (locations/salt-tower.md)",
    "I climb the salt tower's outer stair to see what glints at the top.",
    "I wait in the lamp-house until the night is over.",
]


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
        for say in TURNS:
            story(args.chaiba, mock, world, "--say", say, *MODELS)
        with open(os.path.join(world, "conversations", "main.json")) as f:
            recorded = json.load(f)
        recorded["title"] = "The sample adventure (recorded against the local stand-in)"
        with open(args.out, "w") as f:
            json.dump(recorded, f, indent=1)
            f.write("\n")
        print("recorded %d turns into %s" % (len(recorded["turns"]), args.out))
    finally:
        mock.stop()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""An example bot of the kierki bot protocol (docs/bot-protocol.md) in Python, standard library
only: a legal action at random, seeded from the hello message, answered by its label."""
import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            rng = random.Random(msg["seed"])
            answer = {"type": "ready", "name": "randombot.py"}
        elif msg["type"] == "decide":
            answer = {"action": rng.choice(msg["legal"])["label"]}
        else:  # bye
            return
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

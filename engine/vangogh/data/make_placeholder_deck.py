"""Generate the placeholder painting deck (run once; the output is committed).

The real Van Gogh painting cards are unknown. RULINGS.md (Placeholder data)
fixes the shape of a stand-in deck: 15 cards — 4 spaces x3 (frame 5/3/1), 5 spaces x5 (7/4/2),
6 spaces x4 (9/5/3), 7 spaces x3 (11/6/3) — every space requiring an
orientation, about half the cards with one "+1" space. The orientations and
the +1 positions are drawn with a fixed seed so the file is reproducible, and
the file is committed so the deck never changes silently.

    python engine/vangogh/data/make_placeholder_deck.py
"""
import json
import os
import random

SEED = 20240611
ORIENTATIONS = ["lying down", "sideway", "upright", "upside down"]
SHAPES = [(4, 3, [5, 3, 1]), (5, 5, [7, 4, 2]), (6, 4, [9, 5, 3]), (7, 3, [11, 6, 3])]


def make_deck(seed: int = SEED) -> dict:
    rng = random.Random(seed)
    cards = []
    for n_spaces, copies, frame in SHAPES:
        for _ in range(copies):
            cards.append({"spaces": n_spaces, "frame": list(frame)})
    # Exactly half (rounded down) of the cards get one +1 space: 7 of 15.
    bonus_cards = set(rng.sample(range(len(cards)), len(cards) // 2))
    out = []
    for i, card in enumerate(cards):
        spaces = [{"orientation": rng.choice(ORIENTATIONS), "bonus": 0}
                  for _ in range(card["spaces"])]
        if i in bonus_cards:
            spaces[rng.randrange(len(spaces))]["bonus"] = 1
        out.append({"id": i, "name": f"Placeholder painting {i + 1}",
                    "frame": card["frame"], "spaces": spaces})
    return {
        "placeholder": True,
        "description": ("PLACEHOLDER Van Gogh painting deck: the real cards are unknown. "
                        "Shape from RULINGS.md (15 cards: 4 spaces x3 frame 5/3/1, 5 spaces x5 "
                        "7/4/2, 6 spaces x4 9/5/3, 7 spaces x3 11/6/3; orientations and +1 "
                        f"spaces drawn with seed {seed}). Replace with the real deck when known."),
        "cards": out,
    }


if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paintings-placeholder.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(make_deck(), f, indent=1)
        f.write("\n")
    print(f"wrote {path}")

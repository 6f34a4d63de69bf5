"""Helpers for the web app tests: sample photos and short API calls."""

from __future__ import annotations

import json
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def sample(name: str) -> tuple[bytes, list[int]]:
    """A sample photo's bytes and its labelled die values."""
    for line in (SAMPLES / "labels.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["image"].endswith(name):
            return (SAMPLES / row["image"]).read_bytes(), [d["value"] for d in row["dice"]]
    raise LookupError(name)


def new_game(client, variant="spiffel", players=("Anna", "Ben"), **options) -> dict:
    resp = client.post("/api/games", json={"variant": variant, "players": list(players), "options": options})
    assert resp.status_code == 201, resp.json
    return resp.json


def throw(client, game_id: str, dice: list[int], **extra) -> dict:
    resp = client.post(f"/api/games/{game_id}/throws", json={"dice": dice, **extra})
    assert resp.status_code == 201, resp.json
    return resp.json


def log_of(client, game_id: str) -> dict:
    return client.get(f"/api/games/{game_id}/log").json

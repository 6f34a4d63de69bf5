"""Live camera frames (issue 35) and the count a photo throw is read with (issue 34, item 2).

The frame endpoint reads with the same `DiceReader` as photo throws, told how many dice
the throw should show; it stores nothing and refuses what other writes refuse.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers_webapp import SAMPLES, new_game, throw

SIX_DICE = "byler_d6/IMG_20191209_100248.jpg"  # 1 1 2 3 5 5
FIVE_DICE = "byler_d6/IMG_20191209_100714.jpg"  # 2 2 3 3 3


def photo_bytes(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def reader_sees(name: str, count: int | None) -> list[dict]:
    """What the shipped reader itself answers for a sample photo."""
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    return DiceReader().read(decode_image(photo_bytes(name)), count=count).to_list()


def upload(client, gid, data: bytes, **form):
    return client.post(
        f"/api/games/{gid}/throws",
        data={"photo": (io.BytesIO(data), "photo.jpg"), **form},
        content_type="multipart/form-data",
    )


def photo_files(app) -> set[str]:
    return {p.name for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()}


# --- issue 34, item 2: a photo throw is read with the count the game expects ----------


@pytest.mark.parametrize(
    "variant, count",
    [("spiffel", 5), ("yahtzee", 5), ("wuerfelpoker", 6)],
)
def test_a_photo_throw_is_read_with_the_dice_the_throw_must_show(client, variant, count):
    gid = new_game(client, variant)["id"]
    res = upload(client, gid, photo_bytes(SIX_DICE))
    assert res.status_code == 201, res.json
    assert len(res.json["dice"]) == count
    assert res.json["dice"] == reader_sees(SIX_DICE, count)


def test_wuerfelpoker_reads_the_dice_still_in_play_after_a_set_aside(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [1, 1, 5]})
    assert client.get(f"/api/games/{gid}").json["expected_dice"] == 3
    res = upload(client, gid, photo_bytes(SIX_DICE))
    assert res.status_code == 201, res.json
    assert res.json["dice"] == reader_sees(SIX_DICE, 3)
    assert len(res.json["dice"]) == 3

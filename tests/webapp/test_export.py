"""`dicecam export-throws`: the photo throws players checked, as a labelled photo folder that
`dicecam eval` reads (real photos read by the shipped model, a real SQLite file)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers_webapp import new_game, sample

from dicecam.cli import main
from dicecam.vision.dataset import read_dataset
from dicecam.webapp import export
from dicecam.webapp.db import get_store, photo_store

FIVE = "IMG_20191209_100714.jpg"  # byler_d6: 2 2 3 3 3
FIVE_WOOD = "valid_70.jpg"        # matteop65_wood: 1 4 4 5 5
SIX = "IMG_20191209_100248.jpg"   # byler_d6: 1 1 2 3 5 5


def _photo(client, gid: str, name: str) -> dict:
    data, _values = sample(name)
    resp = client.post(f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")
    assert resp.status_code == 201, resp.json
    return resp.json


def _enter(client, gid: str, throw: dict, box: str) -> None:
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": throw["throw_id"], "box": box})
    assert resp.status_code == 200, resp.json


def _played(client) -> tuple[str, dict[str, dict]]:
    """A Kniffel game with one throw of each kind the export tells apart; its id and throws."""
    gid = new_game(client, "spiffel")["id"]
    out: dict[str, dict] = {}
    # Anna: a photo throw with one die corrected by a player, then entered.
    t = _photo(client, gid, FIVE)
    fixed = [dict(d) for d in t["dice"]]
    fixed[0]["value"] = 6 if fixed[0]["value"] != 6 else 1
    resp = client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice",
                       json={"dice": [{"value": d["value"], "box": d["box"]} for d in fixed], "by": "Ben"})
    assert resp.status_code == 200, resp.json
    out["corrected"] = resp.json
    _enter(client, gid, t, "chance")
    # Ben: a photo throw entered as read.
    out["as_read"] = t = _photo(client, gid, FIVE_WOOD)
    _enter(client, gid, t, "chance")
    # Anna: a photo throw whose fifth die a player removed and typed in again, entered.
    t = _photo(client, gid, FIVE)
    four = [{"value": d["value"], "box": d["box"]} for d in t["dice"][:4]]
    for dice in (four, [*four, {"value": 6}]):
        resp = client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": dice})
        assert resp.status_code == 200, resp.json
    assert resp.json["dice"][4]["box"] is None
    out["typed"] = t
    _enter(client, gid, t, "sixes")
    # Ben: six dice in the photo of a five-dice throw (one left out), entered.
    out["beyond"] = t = _photo(client, gid, SIX)
    assert t["left_out"] == 1
    _enter(client, gid, t, "ones")
    # Anna: typed in; then a photo throw not entered (still open).
    client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]})
    _enter(client, gid, client.get(f"/api/games/{gid}").json["throw"], "twos")
    out["open"] = _photo(client, gid, FIVE_WOOD)
    return gid, out


def _export(app, out: Path, **options) -> export.ExportReport:
    with app.app_context():
        return export.export_throws(get_store(), photo_store(), out, **options)


def test_the_checked_photo_throws_become_a_labelled_folder_eval_reads(client, app, tmp_path):
    gid, thrown = _played(client)
    out = tmp_path / "table"
    report = _export(app, out)
    assert (report.photos, report.corrected) == (2, 1)
    assert report.left_out == {export.TYPED_DIE: 1, export.DICE_BEYOND: 1, export.NOT_CHECKED: 1}
    rows = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    photos = read_dataset(out, split="dev")
    assert [r["throw"] for r in rows] == [thrown["corrected"]["throw_id"], thrown["as_read"]["throw_id"]]
    for row, photo, throw in zip(rows, photos, (thrown["corrected"], thrown["as_read"]), strict=True):
        # The dice as the players left them, in the photo as it was read.
        assert [d["value"] for d in row["dice"]] == [d["value"] for d in throw["dice"]]
        assert np.allclose(photo.dice.boxes, [d["box"] for d in throw["dice"]], atol=0.06)
        assert photo.size == (throw["width"], throw["height"])
        image = cv2.imread(str(photo.path))
        assert image is not None and (image.shape[1], image.shape[0]) == photo.size
        assert row["game"] == gid and row["split"] == "dev"
    assert rows[0]["corrected"] and rows[0]["read"] != [d["value"] for d in rows[0]["dice"]]
    assert not rows[1]["corrected"] and rows[1]["read"] == [d["value"] for d in rows[1]["dice"]]


def test_eval_reads_the_export_and_finds_the_players_correction(client, app, tmp_path, capsys):
    _played(client)
    out = tmp_path / "table"
    _export(app, out)
    assert main(["eval", str(out), "--split", "dev", "--dice", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    # The throw read as the players entered it is exact; the corrected one is not (the
    # correction changed a die the reader read otherwise).
    assert scores["photos"] == 2 and scores["exact"] == 1


def test_corrected_only_keeps_the_throws_a_player_corrected(client, app, tmp_path):
    _gid, thrown = _played(client)
    out = tmp_path / "corrected"
    report = _export(app, out, corrected_only=True)
    assert report.photos == 1
    rows = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    assert [r["throw"] for r in rows] == [thrown["corrected"]["throw_id"]]


def test_a_folder_with_anything_in_it_is_refused_and_left_as_it_was(client, app, tmp_path):
    _played(client)
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(export.ExportError, match="not an empty folder"):
        _export(app, out)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    with pytest.raises(export.ExportError, match="no game nope"):
        _export(app, tmp_path / "new", game_ids=["nope"])
    assert not (tmp_path / "new").exists()


def test_a_photo_gone_from_the_store_is_left_out_and_said(client, app, tmp_path):
    gid, thrown = _played(client)
    with app.app_context():
        row = get_store().throw(gid, thrown["as_read"]["throw_id"])
    assert row is not None and row.photo_sha256
    gone = list(Path(app.config["PHOTO_DIR"]).rglob(row.photo_sha256))
    assert len(gone) == 1
    gone[0].unlink()
    report = _export(app, tmp_path / "out")
    assert report.photos == 1 and report.left_out[export.NO_PHOTO] == 1


def test_the_command_writes_the_folder_and_says_what_it_left_out(make_app, tmp_path, capsys):
    data = tmp_path / "data"
    app = make_app(data)
    _played(app.test_client())
    out = tmp_path / "table"
    url = app.config.get("DATABASE_URL")
    games = ["--data", str(data), *(["--database", url] if url else [])]
    assert main(["export-throws", str(out), *games]) == 0
    said = capsys.readouterr().out
    assert f"wrote 2 photo(s), 10 dice (1 corrected by players) to {out}" in said
    assert f"left out 1: {export.TYPED_DIE}" in said and f"dicecam eval {out} --split dev" in said
    assert main(["export-throws", str(out), *games]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert main(["export-throws", str(tmp_path / "none"), "--data", str(tmp_path / "empty")]) == 0
    assert "no games in" in capsys.readouterr().out

"""Disk use stays bounded (issue 33.7): deleting finished games, `dicecam prune`, a full disk."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers_webapp import new_game, sample, set_updated, throw

from dicecam.cli import main


def finish(client, gid: str) -> dict:
    """Play a one-player Yahtzee game to its end (13 boxes from 6-6-6-5-5)."""
    from dicecam.scoring import get_variant

    state = {}
    for box in get_variant("yahtzee").boxes:
        t = throw(client, gid, [6, 6, 6, 5, 5])
        state = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": box}).json
    assert state["finished"]
    return state


def upload(client, gid: str, data: bytes):
    return client.post(
        f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(data), "p.jpg")}, content_type="multipart/form-data"
    )


def photo_files(app) -> set[str]:
    return {p.name for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()}


def test_a_finished_game_is_deleted_with_its_photos_and_shared_photos_stay(client, app):
    data, _ = sample("IMG_20191209_100714.jpg")
    done = new_game(client, "yahtzee", players=["Anna"])["id"]
    kept = new_game(client, "yahtzee", players=["Ben"])["id"]
    shown_twice = upload(client, done, data).json
    upload(client, kept, data)  # the same photo in a game that stays
    finish(client, done)
    assert client.delete(f"/api/games/{done}").status_code == 204

    assert client.get(f"/api/games/{done}").status_code == 404
    assert client.get(f"/api/games/{done}/throws/{shown_twice['throw_id']}").status_code == 404
    assert [g["id"] for g in client.get("/api/games").json] == [kept]
    # Ben's throw still shows the photo (and the same annotated copy).
    assert {shown_twice["photo_sha256"], shown_twice["annotated_sha256"]} <= photo_files(app)
    ben = client.get(f"/api/games/{kept}/throws").json[0]
    assert client.get(ben["photo_url"]).data == data


def test_deleting_removes_photos_no_other_game_shows(client, app):
    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client, "yahtzee", players=["Anna"])["id"]
    res = upload(client, gid, data).json
    finish(client, gid)
    assert {res["photo_sha256"], res["annotated_sha256"]} <= photo_files(app)
    assert client.delete(f"/api/games/{gid}").status_code == 204
    assert photo_files(app) == set()


def test_a_game_being_played_cannot_be_deleted(client):
    gid = new_game(client)["id"]
    throw(client, gid, [1, 2, 3, 4, 5])
    resp = client.delete(f"/api/games/{gid}")
    assert resp.status_code == 409 and resp.json["code"] == "not_finished"
    assert resp.json["game"]["id"] == gid  # a 409 carries the game as it is
    assert client.get(f"/api/games/{gid}").status_code == 200


def test_deleting_an_unknown_game_is_a_404(client):
    assert client.delete("/api/games/doesnotexist").status_code == 404


def age(app, gid: str, days: int) -> None:
    set_updated(app, gid, (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds"))


def database_args(app) -> list[str]:
    """The `--database URL` a command needs to find the app's games (none for SQLite)."""
    url = app.config.get("DATABASE_URL")
    return ["--database", url] if url else []


def test_dicecam_prune_deletes_old_finished_games_only(client, app, capsys):
    old_done = new_game(client, "yahtzee", players=["Anna"])["id"]
    finish(client, old_done)
    new_done = new_game(client, "yahtzee", players=["Ben"])["id"]
    finish(client, new_done)
    old_open = new_game(client, "yahtzee", players=["Cleo"])["id"]
    for gid in (old_done, old_open):
        age(app, gid, 200)

    where = ["--data", app.config["DATA_DIR"], *database_args(app)]
    assert main(["prune", "--older-than", "90", *where, "--dry-run"]) == 0
    assert old_done in capsys.readouterr().out
    assert len(client.get("/api/games").json) == 3

    assert main(["prune", "--older-than", "90", *where]) == 0
    assert "deleted 1 finished game" in capsys.readouterr().out
    assert {g["id"] for g in client.get("/api/games").json} == {new_done, old_open}


def test_dicecam_prune_on_an_empty_folder_says_so(tmp_path, capsys):
    assert main(["prune", "--data", str(tmp_path / "nothing")]) == 0
    assert "no games" in capsys.readouterr().out


@pytest.fixture
def tiny_disk(tmp_path):
    """A 4 MB file system of its own (tmpfs), so the disk really fills up."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if shutil.which("mount") is None or subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True
    ).returncode:
        pytest.skip("needs permission to mount a small tmpfs (root in the test machine)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_a_clear_507_and_the_game_is_unchanged(tiny_disk, make_app, db_backend):
    client = make_app(tiny_disk / "data").test_client()
    gid = new_game(client)["id"]
    throw(client, gid, [1, 2, 3, 4, 5])
    before = client.get(f"/api/games/{gid}").json
    # Fill the disk up to the last byte.
    with open(tiny_disk / "filler", "wb", buffering=0) as f:  # unbuffered: closing has nothing left to write
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
    data, _ = sample("IMG_20191209_100714.jpg")
    refused = [upload(client, gid, data)]
    if db_backend.name == "sqlite":  # the database is on the full disk too (PostgreSQL's is not)
        refused.append(client.post(f"/api/games/{gid}/throws", json={"dice": [6, 6, 6, 6, 6]}))
    for resp in refused:
        assert resp.status_code == 507, resp.json
        assert "Speicher ist voll" in resp.json["error"]
    assert not any((tiny_disk / "data" / "photos").rglob("*.part-*"))
    # Space again: nothing of the refused throws was kept, and the table plays on.
    (tiny_disk / "filler").unlink()
    after = client.get(f"/api/games/{gid}").json
    assert after["version"] == before["version"] and after["throw"] == before["throw"]
    assert client.post(f"/api/games/{gid}/throws", json={"dice": [6, 6, 6, 6, 6]}).status_code == 201

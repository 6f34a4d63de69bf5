"""Moving a laptop's games into PostgreSQL (`dicecam copy-games`) and back: every game, throw
and piece of evidence arrives as it was, the games play on there, and running it again
copies nothing twice."""

from __future__ import annotations

import io
from typing import Any

import pytest
from helpers_webapp import new_game, sample, stored_rows, throw

from dicecam.cli import main
from dicecam.webapp import create_app, shutdown


def get(client, path: str) -> Any:
    return client.get(path).json


def laptop_games(client) -> dict[str, str]:
    """A finished-looking game with a photo throw, an open game, a Würfelpoker turn."""
    data, _ = sample("IMG_20191209_100714.jpg")
    sheet = new_game(client)["id"]
    t = throw(client, sheet, [2, 2, 3, 3, 3], by="Ben")
    client.post(f"/api/games/{sheet}/throws/{t['throw_id']}/dice", json={"dice": [2, 2, 3, 3, 3], "by": "Anna"})
    client.post(f"/api/games/{sheet}/entries", json={"throw_id": t["throw_id"], "box": "full_house"})
    photo = client.post(f"/api/games/{sheet}/throws", data={"photo": (io.BytesIO(data), "p.jpg")},
                        content_type="multipart/form-data")
    assert photo.status_code == 201, photo.json
    push = new_game(client, "wuerfelpoker")["id"]
    throw(client, push, [1, 1, 5, 5, 3, 6])
    return {"sheet": sheet, "push": push}


@pytest.mark.postgres
@pytest.mark.parametrize("db_backend", ["postgres"], indirect=True)
def test_a_laptops_games_move_into_postgresql_and_play_on(db_backend, tmp_path, capsys):
    data = tmp_path / "data"
    laptop = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False})
    client = laptop.test_client()
    ids = laptop_games(client)
    before = {gid: (get(client, f"/api/games/{gid}"), get(client, f"/api/games/{gid}/throws"))
              for gid in ids.values()}
    shutdown(laptop)

    url = db_backend.database()["DATABASE_URL"]
    try:
        assert main(["copy-games", "--data", str(data), "--to", url]) == 0
        assert "copied 2 game(s) with 3 throw(s)" in capsys.readouterr().out
        server = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False, "DATABASE_URL": url})
        try:
            moved = server.test_client()
            for gid, (state, throws) in before.items():
                assert get(moved, f"/api/games/{gid}") == state
                assert get(moved, f"/api/games/{gid}/throws") == throws
            photo_throw = before[ids["sheet"]][1][-1]
            assert get(moved, f"/api/games/{ids['sheet']}/throws/{photo_throw['throw_id']}")["photo_intact"]
            t = throw(moved, ids["sheet"], [6, 6, 6, 6, 6])  # the game goes on, its next throw numbered on
            assert t["throw_id"] and get(moved, f"/api/games/{ids['sheet']}")["version"] == (
                before[ids["sheet"]][0]["version"] + 1)
            rows = stored_rows(server)
        finally:
            shutdown(server)
        # Again: nothing is copied twice, and what is there already is not touched.
        assert main(["copy-games", "--data", str(data), "--to", url]) == 0
        out = capsys.readouterr().out
        assert "copied 0 game(s)" in out and "2 were there already" in out
        check = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "check"), "ADVICE": False,
                            "DATABASE_URL": url})
        assert stored_rows(check) == rows
        shutdown(check)

        # And back into a new laptop's SQLite file.
        back = tmp_path / "back"
        assert main(["copy-games", "--data", str(back), "--from", url]) == 0
        again = create_app({"TESTING": True, "DATA_DIR": str(back), "ADVICE": False})
        assert {g["id"] for g in get(again.test_client(), "/api/games")} == set(ids.values())
        shutdown(again)
    finally:
        db_backend.release({"DATABASE_URL": url})


def test_copying_from_an_empty_data_folder_says_so(tmp_path, capsys):
    assert main(["copy-games", "--data", str(tmp_path / "none"), "--to", "postgresql://x@127.0.0.1:1/y"]) == 0
    assert "no games" in capsys.readouterr().out

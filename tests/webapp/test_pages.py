"""The HTML pages: escaping, language, start page form, throw log and evidence pages."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from helpers_webapp import new_game, throw

from dicecam.webapp.i18n import TEXTS, t

EVIL = '<script>alert("x")</script>'


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_text_exists_in_german_and_english(key):
    assert TEXTS[key]["de"].strip() and TEXTS[key]["en"].strip()
    # Same placeholders in both languages, or one of them would show "?".
    import string

    fields = [{f for _, f, _, _ in string.Formatter().parse(TEXTS[key][lang]) if f} for lang in ("de", "en")]
    assert fields[0] == fields[1]


def test_german_by_default_english_when_the_browser_asks(client):
    assert 'lang="de"' in client.get("/").get_data(as_text=True)
    assert "Neues Spiel" in client.get("/").get_data(as_text=True)
    en = client.get("/", headers={"Accept-Language": "en-US,en;q=0.8"}).get_data(as_text=True)
    assert 'lang="en"' in en and "New game" in en
    # The players' choice wins over the browser and is remembered.
    resp = client.get("/?lang=en", headers={"Accept-Language": "de"})
    assert "New game" in resp.get_data(as_text=True)
    assert "lang=en" in resp.headers["Set-Cookie"]
    assert "New game" in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)


def test_player_names_are_escaped_everywhere(client):
    game = new_game(client, players=[EVIL, "Ben"])
    gid = game["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3], by=EVIL)
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance", "by": EVIL})
    for path in ("/", f"/g/{gid}", f"/g/{gid}/log", f"/g/{gid}/throws/{t['throw_id']}"):
        html = client.get(path).get_data(as_text=True)
        assert "<script>alert" not in html, path
        assert "&lt;script&gt;" in html or "\\u003cscript\\u003e" in html, path


def test_pages_allow_no_inline_or_foreign_scripts(client):
    resp = client.get("/")
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "http://" not in resp.get_data(as_text=True).replace("http://www.w3.org", "")


def test_the_start_form_starts_a_game_without_javascript(client):
    resp = client.post("/new", data={"variant": "wuerfelpoker", "players": ["Anna", "Ben"], "target": "5000"})
    assert resp.status_code == 303
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{gid}").json
    assert state["variant"] == "wuerfelpoker" and state["options"]["target"] == 5000
    # It is listed for resuming.
    assert f"/g/{gid}" in client.get("/").get_data(as_text=True)


def test_a_bad_start_form_shows_a_readable_error_page(client):
    resp = client.post("/new", data={"variant": "wuerfelware", "players": ["Anna"]})
    assert resp.status_code == 422
    assert "mindestens 2" in resp.get_data(as_text=True)


class _StartForm(HTMLParser):
    """The start page's form as a browser would show it: the game chosen, the player rows
    with their remove buttons, the target, the check box, the error line."""

    def __init__(self) -> None:
        super().__init__()
        self.variant: list[str] = []
        self.players: list[str] = []
        self.removes: list[str] = []
        self.target: str | None = None
        self.finish_round = False
        self.error: str | None = None
        self._in_error = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "input" and a.get("name") == "variant" and "checked" in a:
            self.variant.append(a["value"])
        elif tag == "input" and a.get("name") == "players":
            self.players.append(a.get("value") or "")
        elif tag == "input" and a.get("name") == "target":
            self.target = a.get("value")
        elif tag == "input" and a.get("name") == "finish_round":
            self.finish_round = "checked" in a
        elif tag == "button" and "remove-player" in (a.get("class") or ""):
            self.removes.append(a["aria-label"])
        elif tag == "p" and a.get("id") == "form-error":
            self.error = None if "hidden" in a else ""
            self._in_error = "hidden" not in a

    def handle_endtag(self, tag: str) -> None:
        self._in_error = self._in_error and tag != "p"

    def handle_data(self, data: str) -> None:
        if self._in_error:
            self.error = (self.error or "") + data


def _start_form(html: str) -> _StartForm:
    form = _StartForm()
    form.feed(html)
    return form


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refused_start_form_answers_422_as_the_api_does_and_loses_nothing(client, lang):
    """A target that is no number: the API answers 422; the form (no JavaScript) answers
    422 too, with the start page again: why, in the page's language, and all it held."""
    typed = {"variant": "wuerfelpoker", "players": ["Ann", "", "Ben"], "target": "viel", "finish_round": "on"}
    api = client.post(f"/api/games?lang={lang}", json={"variant": "wuerfelpoker", "players": ["Ann", "Ben"],
                                                        "options": {"target": "viel", "finish_round": True}})
    assert api.status_code == 422
    resp = client.post(f"/new?lang={lang}", data=typed)
    assert resp.status_code == 422
    assert resp.mimetype == "text/html"
    form = _start_form(resp.get_data(as_text=True))
    said = form.error
    assert said is not None and said == api.json["error"]
    assert ("Ziel" in said) == (lang == "de") and ("target" in said) == (lang == "en")
    assert form.variant == ["wuerfelpoker"]
    assert form.players == ["Ann", "", "Ben"]
    assert form.target == "viel" and form.finish_round
    assert form.removes == [t("remove_player_named", lang, name="Ann"), t("remove_player_n", lang, n=2),
                            t("remove_player_named", lang, name="Ben")]
    assert client.get("/api/games").json == []  # nothing was started


@pytest.mark.parametrize("typed", [
    {"variant": "wuerfelware", "players": ["Anna", ""]},  # too few players
    {"variant": "spiffel", "players": ["Anna", "anna"]},  # a name twice
    {"variant": "spiffel", "players": ["A" * 41, "Ben"]},  # a name too long
    {"variant": "wuerfelpoker", "players": ["Anna", "Ben"], "target": "10"},  # a target too low
    {"players": ["Anna", "Ben"]},  # no game chosen (a made-up form)
])
def test_every_refusal_of_the_start_form_is_422_with_the_names_kept(client, typed):
    resp = client.post("/new?lang=de", data=typed)
    assert resp.status_code == 422
    form = _start_form(resp.get_data(as_text=True))
    assert form.error and form.players == typed["players"]
    assert len(form.variant) == 1  # a game is always chosen
    if "variant" in typed:
        assert form.variant == [typed["variant"]]


def test_the_start_form_starts_a_sheet_game_without_javascript(client):
    # The form sends the target field whatever game is chosen: only Würfelpoker reads it.
    resp = client.post("/new", data={"variant": "spiffel", "players": ["Anna", "Ben"], "target": "10000"})
    assert resp.status_code == 303
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{gid}").json["variant"] == "spiffel"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_remove_button_of_the_start_form_names_its_row(client, lang):
    form = _start_form(client.get(f"/?lang={lang}").get_data(as_text=True))
    assert form.removes == [t("remove_player_n", lang, n=1), t("remove_player_n", lang, n=2)]
    assert form.error is None and form.players == ["", ""] and form.target == "10000"


def test_the_game_page_carries_the_state_for_its_script(client):
    gid = new_game(client, "wuerfelware")["id"]
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    state = json.loads(html.split('<script id="state-data" type="application/json">')[1].split("</script>")[0])
    assert state["id"] == gid
    assert state["labels"]["three_kind"] == "Kasse" and state["labels"]["four_kind"] == "ERP2X"
    assert 'capture="environment"' in html and 'accept="image/*"' in html
    # Dice seen from above are read far better than from a steep angle: the camera button says so.
    assert "Handy möglichst von oben" in html


def test_the_throw_log_shows_every_throw_and_its_entry(client):
    gid = new_game(client)["id"]
    t1 = throw(client, gid, [1, 2, 3, 4, 6])
    t2 = throw(client, gid, [2, 2, 3, 3, 3])
    client.post(f"/api/games/{gid}/throws/{t2['throw_id']}/dice", json={"dice": [2, 3, 3, 3, 3], "by": "Ben"})
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t2["throw_id"], "box": "four_kind"})
    html = client.get(f"/g/{gid}/log").get_data(as_text=True)
    assert f"/g/{gid}/throws/{t1['throw_id']}" in html and f"/g/{gid}/throws/{t2['throw_id']}" in html
    assert "Viererpasch · 14" in html
    assert "korrigiert von Ben" in html
    page = client.get(f"/g/{gid}/throws/{t2['throw_id']}").get_data(as_text=True)
    assert "2 2 3 3 3 → 2 3 3 3 3" in page


def test_an_unknown_game_page_is_a_404_page(client):
    resp = client.get("/g/not-a-game")
    assert resp.status_code == 404
    assert "Dieses Spiel gibt es nicht." in resp.get_data(as_text=True)


def _finished_yahtzee() -> dict:
    """A finished two-player game file: Anna fills every box from 6-6-6-5-5, Ben from 1-1-2-2-3."""
    from dicecam.scoring import Game, get_variant

    game = Game.new("yahtzee", ["Anna", "Ben"])
    for box in get_variant("yahtzee").boxes:
        box_id = getattr(box, "id", box)
        game = game.play({"player": "Anna", "dice": [6, 6, 6, 5, 5], "box": box_id})
        game = game.play({"player": "Ben", "dice": [1, 1, 2, 2, 3], "box": box_id})
    assert game.finished and game.winner == "Anna"
    return game.to_dict()


def test_the_start_page_marks_whose_turn_it_is_and_who_won(client):
    open_id = new_game(client, players=["Cleo", "Dana"])["id"]
    done = client.post("/api/games/import", json=_finished_yahtzee())
    assert done.status_code == 201, done.json
    html = client.get("/").get_data(as_text=True)
    unfinished, finished = html.split("game-list")[1], html.split("game-list")[2]
    assert f"/g/{open_id}" in unfinished and done.json["id"] not in unfinished
    assert '<span class="chip chip-active">Cleo' in unfinished
    assert '<span class="chip">Dana' in unfinished
    assert done.json["id"] in finished
    assert '<span class="chip chip-win">Anna' in finished and '<span class="chip">Ben' in finished


@pytest.mark.parametrize(("lang", "written"), [("de", r"\d\d\.\d\d\.\d{4}"), ("en", r"\d{4}-\d\d-\d\d")])
def test_a_finished_game_s_day_is_a_time_the_phone_writes_in_its_language(client, lang, written):
    import re

    done = client.post("/api/games/import", json=_finished_yahtzee()).json
    finished = client.get(f"/?lang={lang}").get_data(as_text=True)  # the only game: a finished one
    # Without script the day reads as the language writes it; local-time.js rewrites it in
    # the phone's zone and language (the same <time> as the log's).
    when = re.search(r'<time datetime="([^"]+)" data-format="date">([^<]+)</time>', finished)
    assert when and when.group(1) == client.get(f"/api/games/{done['id']}").json["updated"]
    assert re.fullmatch(written, when.group(2))


# ---------------------------------------------------------------- every page of every game

VARIANTS = ("spiffel", "wuerfelware", "wuerfelspiel", "yahtzee", "wuerfelpoker")


def _play_a_little(client, variant: str) -> tuple[str, list[str]]:
    """A game with an entered, a rerolled, an undone and an open throw; its id and throw ids."""
    gid = new_game(client, variant)["id"]
    ids = []
    if variant == "wuerfelpoker":
        t = throw(client, gid, [1, 1, 5, 5, 3, 6])
        ids.append(t["throw_id"])
        client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [1, 1]})
        t = throw(client, gid, [5, 2, 3, 4])
        ids.append(t["throw_id"])
        client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [5]})
        assert client.post(f"/api/games/{gid}/entries", json={"bank": True}).status_code == 200
        t = throw(client, gid, [2, 3, 4, 6, 2, 3])  # Ben: nothing scores
        ids.append(t["throw_id"])
        assert client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": []}).status_code == 200
        ids.append(throw(client, gid, [1, 2, 3, 4, 6, 6])["throw_id"])  # Anna's open throw
        return gid, ids
    column = {"column": 2} if variant == "wuerfelspiel" else {}
    ids.append(throw(client, gid, [1, 2, 3, 4, 6])["throw_id"])
    t = throw(client, gid, [2, 2, 3, 3, 3])
    ids.append(t["throw_id"])
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house", **column})
    assert resp.status_code == 200, resp.json
    t = throw(client, gid, [6, 6, 6, 1, 2])
    ids.append(t["throw_id"])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "ones", **column})
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200
    ids.append(throw(client, gid, [5, 5, 5, 5, 5])["throw_id"])
    return gid, ids


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_page_of_every_game_renders(client, variant, lang):
    gid, ids = _play_a_little(client, variant)
    paths = ["/", f"/g/{gid}", f"/g/{gid}/log"] + [f"/g/{gid}/throws/{i}" for i in ids]
    for path in paths:
        resp = client.get(f"{path}?lang={lang}")
        assert resp.status_code == 200, (path, resp.get_data(as_text=True)[-400:])
        html = resp.get_data(as_text=True)
        assert f'lang="{lang}"' in html
    log = client.get(f"/g/{gid}/log?lang={lang}").get_data(as_text=True)
    for i in ids:
        assert f"/g/{gid}/throws/{i}" in log


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_log_names_each_entry_in_the_pages_language(client, variant, lang):
    gid, _ = _play_a_little(client, variant)
    log = client.get(f"/g/{gid}/log?lang={lang}").get_data(as_text=True)
    if variant == "wuerfelpoker":
        assert TEXTS["keep_entry"][lang].format(dice="1 1") + " · 200" in log
        assert TEXTS["bust_entry"][lang] in log
    else:
        from dicecam.scoring import get_variant

        assert get_variant(variant).label("full_house", lang) in log


# ---------------------------------------------------------------- one language per screen


# Words that give a sentence of the other language away (besides the catalogue's phrases).
# ("die" is English too, and "dice" a field name an API message may quote.)
OTHER_WORDS = {"de": ("the", "is", "not", "must", "expected", "player", "players", "event"),
               "en": ("der", "das", "ist", "nicht", "und", "Spieler", "Würfel", "erwartet", "Eintrag")}


def _foreign(lang: str) -> tuple[str, ...]:
    from browser.checks import foreign_phrases

    return foreign_phrases(lang)


def _mixed(said: str, lang: str) -> list[str]:
    """What in `said` belongs to the other language."""
    import re

    words = [w for w in OTHER_WORDS[lang] if re.search(rf"(?<!\w){w}(?!\w)", said)]
    return words + [p for p in _foreign(lang) if p in said]


def _fields(text: str) -> set[str]:
    import string

    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_error_code_reads_in_the_pages_language(app, lang):
    """Each error a player can see comes from the catalogue in the page's language, with
    its parameters filled in, and holds no phrase of the other language."""
    from dicecam.webapp.error_texts import ERROR_TEXTS
    from dicecam.webapp.errors import Unprocessable

    @app.get("/api/_every_error/<key>")
    def raise_it(key):
        raise Unprocessable(key, **{f: "Anna" for f in _fields(ERROR_TEXTS[key][lang])})

    client = app.test_client()
    for key in sorted(ERROR_TEXTS):
        said = client.get(f"/api/_every_error/{key}?lang={lang}").json["error"]
        assert said == ERROR_TEXTS[key][lang].format(**{f: "Anna" for f in _fields(ERROR_TEXTS[key][lang])}), key
        assert not _mixed(said, lang), (key, said)


def _start(client, lang, variant, players):
    return client.post(f"/api/games?lang={lang}", json={"variant": variant, "players": players})


def _import(client, lang, events):
    return client.post(f"/api/games/import?lang={lang}",
                       json={"variant": "spiffel", "players": ["Anna", "Ben"], "events": events})


def _photo(client, lang, data: bytes):
    import io

    gid = new_game(client)["id"]
    return client.post(f"/api/games/{gid}/throws?lang={lang}", data={"photo": (io.BytesIO(data), "p.jpg")},
                       content_type="multipart/form-data")


REFUSALS = {
    "too few players": lambda c, lang: _start(c, lang, "wuerfelware", ["Anna"]),
    "same name twice": lambda c, lang: _start(c, lang, "spiffel", ["Anna", "anna"]),
    "name too long": lambda c, lang: _start(c, lang, "spiffel", ["A" * 41]),
    "not a photo": lambda c, lang: _photo(c, lang, b"not an image at all"),
    "a cut-off photo": lambda c, lang: _photo(c, lang, b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
    "an event with 3 dice": lambda c, lang: _import(c, lang, [{"player": "Anna", "dice": [1, 2, 3], "box": "chance"}]),
    "an event out of turn": lambda c, lang: _import(c, lang, [{"player": "Ben", "dice": [1, 2, 3, 4, 5],
                                                                "box": "chance"}]),
    "an unknown box": lambda c, lang: _import(c, lang, [{"player": "Anna", "dice": [1, 2, 3, 4, 5], "box": "sevens"}]),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refusal_a_player_sees_is_in_one_language(client, case, lang):
    resp = REFUSALS[case](client, lang)
    assert 400 <= resp.status_code < 500
    said = resp.json["error"]
    assert said and not _mixed(said, lang), said


@pytest.mark.parametrize(("lang", "written"), [("de", "1.050"), ("en", "1,050")])
def test_the_start_page_writes_scores_as_the_language_does(client, lang, written):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 1, 5, 2, 3])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [1, 1, 1, 5]})
    assert client.post(f"/api/games/{gid}/entries", json={"bank": True}).status_code == 200
    html = client.get(f"/?lang={lang}").get_data(as_text=True)
    assert f"Anna <b>{written}</b>" in html

"""Every error a player can see, in German and English: the API's and the rules' (by code).

Kept apart from the page's texts (`webapp.i18n.TEXTS`) so that the errors live in one place;
`webapp.i18n` merges both into one catalogue.
"""

from __future__ import annotations

ERROR_TEXTS: dict[str, dict[str, str]] = {
    "err_not_found": {"de": "Dieses Spiel gibt es nicht.", "en": "There is no such game."},
    "err_game_file": {"de": "Die Spieldatei ist fehlerhaft: {reason}", "en": "The game file is broken: {reason}"},
    "err_game_damaged": {"de": "Dieses gespeicherte Spiel lässt sich nicht mehr nachspielen und darum nicht öffnen.",
                         "en": "This stored game can no longer be replayed, so it cannot be opened."},
    # scoring.RuleError codes; English falls back to scoring's own message
    "rule_box_filled": {
        "de": "„{box}“ ist bei {player} schon ausgefüllt.",
        "en": "'{box}' is already filled for {player}.",
    },
    "rule_forced_joker": {
        "de": "Joker-Regel: Mit diesem Wurf darf „{box}“ nicht belegt werden.",
        "en": "Joker rule: this throw may not go into '{box}'.",
    },
    "rule_not_your_turn": {"de": "{player} ist nicht am Zug.", "en": "It is not {player}'s turn."},
    "rule_game_over": {"de": "Das Spiel ist schon zu Ende.", "en": "The game is already over."},
    "rule_keep_empty": {
        "de": "Mindestens einen wertenden Würfel beiseitelegen.",
        "en": "Set aside at least one scoring die.",
    },
    "rule_keep_not_scoring": {
        "de": "Nur wertende Würfel dürfen beiseitegelegt werden.",
        "en": "Only scoring dice can be set aside.",
    },
    "rule_keep_not_thrown": {
        "de": "Nur geworfene Würfel dürfen beiseitegelegt werden.",
        "en": "Only dice that were thrown can be set aside.",
    },
    "rule_keep_on_bust": {
        "de": "Dieser Wurf hat keinen Treffer – nichts kann beiseitegelegt werden.",
        "en": "Nothing in this throw scores: nothing can be set aside.",
    },
    "rule_keep_missing": {
        "de": "Dieser Wurf hat Treffer: mindestens einen Würfel beiseitelegen.",
        "en": "This throw has scoring dice: set at least one aside.",
    },
    "rule_bank_empty": {"de": "Noch nichts zu sichern – erst würfeln.", "en": "Nothing to bank yet: throw first."},
    "rule_players_too_few": {
        "de": "Dieses Spiel braucht mindestens {min_players} Spieler.",
        "en": "This game needs at least {min_players} players.",
    },
    "rule_player_duplicate": {
        "de": "Zwei Spieler heißen {player} – bitte verschiedene Namen.",
        "en": "Two players are called {player}: give them different names.",
    },
    "rule_player_name": {
        "de": "Jeder Spieler braucht einen Namen (höchstens 40 Zeichen).",
        "en": "Every player needs a name (at most 40 characters).",
    },
    "rule_option_target": {
        "de": "Das Ziel muss eine ganze Zahl von 50 bis 1.000.000 sein.",
        "en": "The target must be a whole number from 50 to 1,000,000.",
    },
    "rule_column_missing": {
        "de": "Bitte die Spalte angeben (1 bis 3).",
        "en": "Say which column to write into (1 to 3).",
    },
    "rule_dice_count": {"de": "{expected} Würfel erwartet, nicht {got}.", "en": "{expected} dice expected, not {got}."},
    "rule_unknown_box": {"de": "Dieses Feld gibt es in diesem Spiel nicht.", "en": "This game has no such box."},
    "rule_unknown_variant": {"de": "Dieses Spiel kennt dicecam nicht.", "en": "dicecam does not know that game."},
    "rule_undo_empty": {"de": "Es gibt nichts zurückzunehmen.", "en": "There is nothing to undo."},
    "err_page_not_found": {"de": "Diese Seite gibt es nicht.", "en": "There is no such page."},
    "err_throw_not_found": {
        "de": "Diesen Wurf gibt es in diesem Spiel nicht.",
        "en": "There is no such throw in this game.",
    },
    "err_bad_json": {"de": "Die Anfrage ist kein gültiges JSON.", "en": "The request is not valid JSON."},
    "err_field": {"de": "Feld „{field}“ fehlt oder ist ungültig.", "en": "Field '{field}' is missing or invalid."},
    "err_no_photo": {
        "de": 'Bitte ein Foto (Feld „photo“) oder Würfelwerte ("dice") schicken.',
        "en": "Send a photo (field 'photo') or dice values (\"dice\").",
    },
    "err_image": {"de": "Das Foto ließ sich nicht lesen: {reason}", "en": "The photo could not be read: {reason}"},
    "err_too_large": {
        "de": "Das Foto ist zu groß (höchstens {mb} MB).",
        "en": "The photo is too large (at most {mb} MB).",
    },
    "err_dice": {"de": "Würfelwerte müssen Zahlen von 1 bis 6 sein.", "en": "Dice values must be numbers from 1 to 6."},
    "err_too_many_dice": {"de": "Höchstens {n} Würfel.", "en": "At most {n} dice."},
    "err_dice_count": {
        "de": "Für diesen Eintrag werden genau {n} Würfel gebraucht, nicht {got}.",
        "en": "This entry needs exactly {n} dice, not {got}.",
    },
    "err_three_throws": {
        "de": "{player} hat schon dreimal gewürfelt – jetzt muss ein Feld eingetragen werden.",
        "en": "{player} has already thrown three times: now a box must be filled.",
    },
    "err_pending_push": {
        "de": "Erst Würfel aus dem letzten Wurf beiseitelegen (oder den Zug beenden).",
        "en": "First set dice aside from the last throw (or end the turn).",
    },
    "err_finished": {"de": "Das Spiel ist schon zu Ende.", "en": "The game is already over."},
    "err_no_open_throw": {
        "de": "Es gibt keinen offenen Wurf, der eingetragen werden kann.",
        "en": "There is no open throw to enter.",
    },
    "err_stale_throw": {
        "de": "Dieser Wurf ist nicht mehr aktuell (schon eingetragen oder verworfen).",
        "en": "This throw is no longer current (already entered or discarded).",
    },
    "err_conflict": {
        "de": "Ein anderes Handy war schneller – der Spielstand hat sich geändert.",
        "en": "Another phone was faster: the game has changed.",
    },
    "err_not_your_turn": {
        "de": "{claimed} ist nicht am Zug – {player} ist dran.",
        "en": "It is not {claimed}'s turn: it is {player}'s.",
    },
    "err_nothing_to_undo": {"de": "Es gibt nichts zurückzunehmen.", "en": "There is nothing to undo."},
    "err_no_model": {
        "de": "Die Bilderkennung ist nicht installiert – bitte die Würfel eintippen.",
        "en": "Dice recognition is not installed: please enter the dice by hand.",
    },
    "err_method": {"de": "Diese Methode ist hier nicht erlaubt.", "en": "This method is not allowed here."},
    "err_generic": {"de": "Ungültige Anfrage.", "en": "Bad request."},
    "err_server": {
        "de": "Interner Fehler – der Spielstand ist unverändert.",
        "en": "Internal error: the game is unchanged.",
    },
    "err_players": {
        "de": "Bitte mindestens {n} Spieler mit verschiedenen Namen angeben.",
        "en": "Give at least {n} players with different names.",
    },
    "err_name": {
        "de": "Spielernamen dürfen höchstens 40 Zeichen lang sein.",
        "en": "Player names may be at most 40 characters long.",
    },
    # --- the HTTP edge (webapp.parse, webapp.access)
    "err_bad_number": {
        "de": "Die Anfrage enthält eine ungültige Zahl (NaN oder Infinity).",
        "en": "The request contains an invalid number (NaN or Infinity).",
    },
    "err_content_type": {
        "de": "Die Anfrage hat den falschen Inhaltstyp (JSON als application/json, Fotos als multipart/form-data).",
        "en": "The request has the wrong content type (JSON as application/json, photos as multipart/form-data).",
    },
    "err_body_too_large": {
        "de": "Die Anfrage ist zu groß (höchstens {kb} KB).",
        "en": "The request is too large (at most {kb} KB).",
    },
    "err_request_too_large": {
        "de": "Die Anfrage hat zu viele Teile oder Felder.",
        "en": "The request has too many parts or fields.",
    },
    "err_text_characters": {
        "de": "„{field}“ enthält ein Zeichen, das nicht angezeigt werden kann ({character}).",
        "en": "'{field}' contains a character that cannot be shown ({character}).",
    },
    "err_text_empty": {"de": "„{field}“ darf nicht leer sein.", "en": "'{field}' must not be empty."},
    "err_text_too_long": {
        "de": "„{field}“ darf höchstens {n} Zeichen lang sein.",
        "en": "'{field}' may be at most {n} characters long.",
    },
    "err_players_too_many": {"de": "Höchstens {n} Spieler an einem Tisch.", "en": "At most {n} players at one table."},
    "err_host": {
        "de": (
            "Unbekannte Adresse „{host}“: dicecam antwortet nur unter seinen eigenen Adressen (weitere mit "
            "DICECAM_ALLOWED_HOSTS)."
        ),
        "en": (
            "Unknown address '{host}': dicecam answers only at its own addresses (add more with "
            "DICECAM_ALLOWED_HOSTS)."
        ),
    },
    "err_cross_site": {
        "de": "Diese Anfrage kam von einer anderen Webseite und wurde abgelehnt.",
        "en": "This request came from another website and was refused.",
    },
    # --- imports
    "err_import_too_large": {
        "de": "Die Spieldatei ist zu groß (höchstens {mb} MB).",
        "en": "The game file is too large (at most {mb} MB).",
    },
    "err_import_events": {
        "de": "Die Spieldatei hat zu viele Einträge (höchstens {n}).",
        "en": "The game file has too many entries (at most {n}).",
    },
    "err_game_file_event": {
        "de": "Die Spieldatei ist fehlerhaft: Eintrag {event}: {reason}",
        "en": "The game file is broken: entry {event}: {reason}",
    },
    # --- photos
    "err_image_empty": {"de": "Das Foto ist leer (0 Bytes).", "en": "The photo is empty (0 bytes)."},
    "err_image_not_an_image": {
        "de": "Das ist kein Foto (erwartet: JPEG, PNG oder WebP).",
        "en": "This is not a photo (expected a JPEG, PNG or WebP).",
    },
    "err_image_unsupported": {
        "de": (
            "Dieses Bildformat wird nicht gelesen – bitte JPEG, PNG oder WebP (iPhone: Kamera-Format „Maximale "
            "Kompatibilität“)."
        ),
        "en": (
            "This image format cannot be read: please use JPEG, PNG or WebP (iPhone: camera format 'Most "
            "Compatible')."
        ),
    },
    "err_image_truncated": {
        "de": "Das Foto ist unvollständig angekommen – bitte noch einmal senden.",
        "en": "The photo arrived incomplete: please send it again.",
    },
    "err_image_damaged": {
        "de": "Das Foto ist beschädigt und lässt sich nicht lesen.",
        "en": "The photo is damaged and cannot be read.",
    },
    "err_image_too_large": {
        "de": "Das Foto hat zu viele Pixel (höchstens 50 Megapixel).",
        "en": "The photo has too many pixels (at most 50 megapixels).",
    },
    "err_image_unreadable_file": {
        "de": "Die Fotodatei ließ sich nicht lesen.",
        "en": "The photo file could not be read.",
    },
    "err_photo_pixels": {
        "de": (
            "Das Foto ist zu groß zum Lesen ({width}×{height}, {bits} Bit: {mb} MB, höchstens {budget} MB) – "
            "bitte kleiner aufnehmen."
        ),
        "en": (
            "The photo is too large to read ({width}×{height}, {bits}-bit: {mb} MB, at most {budget} MB): "
            "please take it smaller."
        ),
    },
    "err_busy_photos": {
        "de": "Gerade werden viele Fotos gelesen – bitte gleich noch einmal.",
        "en": "Many photos are being read right now: please try again in a moment.",
    },
    "err_busy_live": {
        "de": "Zu viele Handys folgen gerade live – dieses fragt alle paar Sekunden nach.",
        "en": "Too many phones are following live: this one checks every few seconds instead.",
    },
    # --- storage
    "err_read_only": {
        "de": "Der Datenordner ist schreibgeschützt: Spiele lassen sich ansehen, aber nicht ändern.",
        "en": "The data folder is read-only: games can be viewed but not changed.",
    },
    "err_database": {
        "de": "Die Datenbank antwortet gerade nicht – nichts wurde gespeichert. Bitte gleich noch einmal.",
        "en": "The database is not answering right now: nothing was saved. Please try again in a moment.",
    },
    "err_disk_full": {
        "de": "Der Speicher ist voll – nichts wurde gespeichert. Bitte Platz schaffen (z. B. dicecam prune).",
        "en": "The disk is full: nothing was saved. Please free some space (for example dicecam prune).",
    },
    "err_not_finished": {
        "de": "Nur beendete Spiele können gelöscht werden.",
        "en": "Only finished games can be deleted.",
    },
    # --- scoring codes the rules report (English falls back to scoring's own message)
    "rule_column": {"de": "Diese Spalte gibt es in diesem Spiel nicht.", "en": "This game has no such column."},
    "rule_dice_not_list": {"de": "Die Würfel müssen eine Liste sein.", "en": "The dice must be a list."},
    "rule_dice_values": {"de": "Würfelwerte müssen Zahlen von 1 bis 6 sein.", "en": "Dice must be numbers 1 to 6."},
    "rule_event_shape": {"de": "Ein Eintrag hat die falsche Form.", "en": "An entry has the wrong shape."},
    "rule_event_field": {
        "de": "Unbekanntes Feld „{field}“ in einem Eintrag.",
        "en": "Unknown field '{field}' in an entry.",
    },
    "rule_event_player": {"de": "Ein Eintrag nennt keinen Spieler.", "en": "An entry names no player."},
    "rule_event_dice": {"de": "Ein Eintrag nennt keine Würfel.", "en": "An entry gives no dice."},
    "rule_event_box": {"de": "Ein Eintrag nennt kein Feld.", "en": "An entry names no box."},
    "rule_event_throw": {
        "de": "Ein Eintrag nennt weder Wurf noch Sichern.",
        "en": "An entry gives neither a throw nor a bank.",
    },
    "rule_no_sheet": {
        "de": "Dieses Spiel hat keinen Spielzettel mit Feldern.",
        "en": "This game has no score sheet with boxes.",
    },
    "rule_unknown_player": {
        "de": "Einen Spieler „{player}“ gibt es in diesem Spiel nicht.",
        "en": "There is no player '{player}' in this game.",
    },
    "rule_option_finish_round": {
        "de": "„Runde zu Ende spielen“ muss ja oder nein sein.",
        "en": "'Finish the round' must be yes or no.",
    },
    "rule_option_unknown": {
        "de": "Dieses Spiel hat keine Einstellung „{option}“.",
        "en": "This game has no option '{option}'.",
    },
    "rule_options": {"de": "Die Einstellungen müssen ein Objekt sein.", "en": "The options must be an object."},
    "rule_players": {
        "de": "Die Spieler müssen eine Liste von Namen sein.",
        "en": "The players must be a list of names.",
    },
    "rule_players_too_many": {
        "de": "Höchstens {max_players} Spieler an einem Tisch.",
        "en": "At most {max_players} players at one table.",
    },
    "rule_player_name_characters": {
        "de": "Ein Name enthält ein Zeichen, das nicht angezeigt werden kann ({character}).",
        "en": "A name contains a character that cannot be shown ({character}).",
    },
    "rule_player_name_too_long": {
        "de": "Namen dürfen höchstens {max_length} Zeichen lang sein.",
        "en": "Names may be at most {max_length} characters long.",
    },
    "rule_throw": {"de": "Dieser Wurf passt nicht zum Spielstand.", "en": "This throw does not fit the game."},
    "rule_invalid_file": {"de": "Die Spieldatei ist fehlerhaft.", "en": "The game file is broken."},
    # --- field names, for "field X is missing or invalid"
    "field_players": {"de": "Spielername", "en": "player name"},
    "field_player": {"de": "Spieler", "en": "player"},
    "field_by": {"de": "Dein Name", "en": "your name"},
    "field_variant": {"de": "Spiel", "en": "game"},
    "field_options": {"de": "Einstellungen", "en": "options"},
    "field_dice": {"de": "Würfel", "en": "dice"},
    "field_box": {"de": "Feld", "en": "box"},
    "field_column": {"de": "Spalte", "en": "column"},
    "field_keep": {"de": "Beiseitegelegte Würfel", "en": "dice set aside"},
    "field_throw_id": {"de": "Wurf", "en": "throw"},
    "field_version": {"de": "Spielstand-Version", "en": "game version"},
    "field_retake": {"de": "Foto wiederholen", "en": "retake"},
    "field_file": {"de": "Datei", "en": "file"},
    "field_events": {"de": "Einträge", "en": "entries"},
}

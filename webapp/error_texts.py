"""Every error a player can see, in German and English: the API's and the rules' (by code).

Kept apart from the page's texts (`webapp.i18n.TEXTS`) so that the errors live in one place;
`webapp.i18n` merges both into one catalogue.
"""

from __future__ import annotations

ERROR_TEXTS: dict[str, dict[str, str]] = {
    "err_not_found": {"de": "Dieses Spiel gibt es nicht.", "en": "There is no such game."},
    "err_game_file": {"de": "Die Spieldatei ist fehlerhaft: {reason}", "en": "The game file is broken: {reason}"},
    # scoring.RuleError codes; English falls back to scoring's own message
    "rule_box_filled": {"de": "„{box}“ ist bei {player} schon ausgefüllt.", "en": "'{box}' is already filled for {player}."},
    "rule_forced_joker": {"de": "Joker-Regel: Mit diesem Wurf darf „{box}“ nicht belegt werden.", "en": "Joker rule: this throw may not go into '{box}'."},
    "rule_not_your_turn": {"de": "{player} ist nicht am Zug.", "en": "It is not {player}'s turn."},
    "rule_game_over": {"de": "Das Spiel ist schon zu Ende.", "en": "The game is already over."},
    "rule_keep_empty": {"de": "Mindestens einen wertenden Würfel beiseitelegen.", "en": "Set aside at least one scoring die."},
    "rule_keep_not_scoring": {"de": "Nur wertende Würfel dürfen beiseitegelegt werden.", "en": "Only scoring dice can be set aside."},
    "rule_keep_not_thrown": {"de": "Nur geworfene Würfel dürfen beiseitegelegt werden.", "en": "Only dice that were thrown can be set aside."},
    "rule_keep_on_bust": {"de": "Dieser Wurf hat keinen Treffer – nichts kann beiseitegelegt werden.", "en": "Nothing in this throw scores: nothing can be set aside."},
    "rule_keep_missing": {"de": "Dieser Wurf hat Treffer: mindestens einen Würfel beiseitelegen.", "en": "This throw has scoring dice: set at least one aside."},
    "rule_bank_empty": {"de": "Noch nichts zu sichern – erst würfeln.", "en": "Nothing to bank yet: throw first."},
    "rule_players_too_few": {"de": "Dieses Spiel braucht mindestens {min_players} Spieler.", "en": "This game needs at least {min_players} players."},
    "rule_player_duplicate": {"de": "Zwei Spieler heißen {player} – bitte verschiedene Namen.", "en": "Two players are called {player}: give them different names."},
    "rule_player_name": {"de": "Jeder Spieler braucht einen Namen (höchstens 40 Zeichen).", "en": "Every player needs a name (at most 40 characters)."},
    "rule_option_target": {"de": "Das Ziel muss eine ganze Zahl von 50 bis 1.000.000 sein.", "en": "The target must be a whole number from 50 to 1,000,000."},
    "rule_column_missing": {"de": "Bitte die Spalte angeben (1 bis 3).", "en": "Say which column to write into (1 to 3)."},
    "rule_dice_count": {"de": "{expected} Würfel erwartet, nicht {got}.", "en": "{expected} dice expected, not {got}."},
    "rule_unknown_box": {"de": "Dieses Feld gibt es in diesem Spiel nicht.", "en": "This game has no such box."},
    "rule_unknown_variant": {"de": "Dieses Spiel kennt dicecam nicht.", "en": "dicecam does not know that game."},
    "rule_undo_empty": {"de": "Es gibt nichts zurückzunehmen.", "en": "There is nothing to undo."},
    "err_page_not_found": {"de": "Diese Seite gibt es nicht.", "en": "There is no such page."},
    "err_throw_not_found": {"de": "Diesen Wurf gibt es in diesem Spiel nicht.", "en": "There is no such throw in this game."},
    "err_bad_json": {"de": "Die Anfrage ist kein gültiges JSON.", "en": "The request is not valid JSON."},
    "err_field": {"de": "Feld „{field}“ fehlt oder ist ungültig.", "en": "Field '{field}' is missing or invalid."},
    "err_no_photo": {"de": "Bitte ein Foto (Feld „photo“) oder Würfelwerte (\"dice\") schicken.", "en": "Send a photo (field 'photo') or dice values (\"dice\")."},
    "err_image": {"de": "Das Foto ließ sich nicht lesen: {reason}", "en": "The photo could not be read: {reason}"},
    "err_too_large": {"de": "Das Foto ist zu groß (höchstens {mb} MB).", "en": "The photo is too large (at most {mb} MB)."},
    "err_dice": {"de": "Würfelwerte müssen Zahlen von 1 bis 6 sein.", "en": "Dice values must be numbers from 1 to 6."},
    "err_too_many_dice": {"de": "Höchstens {n} Würfel.", "en": "At most {n} dice."},
    "err_dice_count": {"de": "Für diesen Eintrag werden genau {n} Würfel gebraucht, nicht {got}.", "en": "This entry needs exactly {n} dice, not {got}."},
    "err_three_throws": {"de": "{player} hat schon dreimal gewürfelt – jetzt muss ein Feld eingetragen werden.", "en": "{player} has already thrown three times: now a box must be filled."},
    "err_pending_push": {"de": "Erst Würfel aus dem letzten Wurf beiseitelegen (oder den Zug beenden).", "en": "First set dice aside from the last throw (or end the turn)."},
    "err_finished": {"de": "Das Spiel ist schon zu Ende.", "en": "The game is already over."},
    "err_no_open_throw": {"de": "Es gibt keinen offenen Wurf, der eingetragen werden kann.", "en": "There is no open throw to enter."},
    "err_stale_throw": {"de": "Dieser Wurf ist nicht mehr aktuell (schon eingetragen oder verworfen).", "en": "This throw is no longer current (already entered or discarded)."},
    "err_conflict": {"de": "Ein anderes Handy war schneller – der Spielstand hat sich geändert.", "en": "Another phone was faster: the game has changed."},
    "err_not_your_turn": {"de": "{claimed} ist nicht am Zug – {player} ist dran.", "en": "It is not {claimed}'s turn: it is {player}'s."},
    "err_nothing_to_undo": {"de": "Es gibt nichts zurückzunehmen.", "en": "There is nothing to undo."},
    "err_no_model": {"de": "Die Bilderkennung ist nicht installiert – bitte die Würfel eintippen.", "en": "Dice recognition is not installed: please enter the dice by hand."},
    "err_method": {"de": "Diese Methode ist hier nicht erlaubt.", "en": "This method is not allowed here."},
    "err_generic": {"de": "Ungültige Anfrage.", "en": "Bad request."},
    "err_server": {"de": "Interner Fehler – der Spielstand ist unverändert.", "en": "Internal error: the game is unchanged."},
    "err_players": {"de": "Bitte mindestens {n} Spieler mit verschiedenen Namen angeben.", "en": "Give at least {n} players with different names."},
    "err_name": {"de": "Spielernamen dürfen höchstens 40 Zeichen lang sein.", "en": "Player names may be at most 40 characters long."},
}

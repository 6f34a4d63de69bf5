"""German and English texts of the web page and of the API's error messages.

German is the default; English when the browser prefers it (Accept-Language), or
when the player picks it (`?lang=en`, remembered in a cookie).
"""

from __future__ import annotations

from flask import request

from dicecam.webapp.error_texts import ERROR_TEXTS

LANGS = ("de", "en")
DEFAULT = "de"

TEXTS: dict[str, dict[str, str]] = {
    # start page
    "app_tagline": {"de": "Würfel fotografieren, Punkte eintragen.", "en": "Photograph the dice, keep the score."},
    "new_game": {"de": "Neues Spiel", "en": "New game"},
    "variant": {"de": "Spiel", "en": "Game"},
    "players": {"de": "Mitspieler (in Zugreihenfolge)", "en": "Players (in turn order)"},
    "player_n": {"de": "Spieler {n}", "en": "Player {n}"},
    "add_player": {"de": "+ Spieler", "en": "+ Player"},
    # Each row's remove button names its player, or the row while its name is empty.
    "remove_player_named": {"de": "{name} entfernen", "en": "Remove {name}"},
    "remove_player_n": {"de": "Spieler {n} entfernen", "en": "Remove player {n}"},
    "move_up": {"de": "Nach oben", "en": "Move up"},
    "target": {"de": "Ziel (Punkte)", "en": "Target (points)"},
    "finish_round": {"de": "Runde zu Ende spielen, wenn jemand das Ziel erreicht",
                     "en": "Finish the round when someone reaches the target"},
    "start": {"de": "Spiel starten", "en": "Start game"},
    "resume": {"de": "Weiterspielen", "en": "Resume"},
    "unfinished": {"de": "Offene Spiele", "en": "Unfinished games"},
    "finished_games": {"de": "Beendete Spiele", "en": "Finished games"},
    "no_games": {"de": "Noch keine offenen Spiele.", "en": "No unfinished games yet."},
    "import_game": {"de": "Spiel importieren (Replay-Datei)", "en": "Import a game (replay file)"},
    "import": {"de": "Importieren", "en": "Import"},
    "import_file": {"de": "Spieldatei (.json)", "en": "Game file (.json)"},
    "turn_of": {"de": "{player} ist dran", "en": "{player}'s turn"},
    "updated": {"de": "zuletzt", "en": "last"},
    # game page
    "throw_n": {"de": "Wurf {n} von {max}", "en": "Throw {n} of {max}"},
    "throw_first": {"de": "Erster Wurf", "en": "First throw"},
    "take_photo": {"de": "Würfel fotografieren", "en": "Photograph the dice"},
    # From above, dice are read far more reliably than from a steep angle (models/HISTORY.md, session 12);
    # told the count, the likeliest dice are taken: dice set aside, dominoes (read as dice, session 47),
    # poker chips and a score sheet's printed dice (still read as dice on rendered tables, session 88)
    # belong out of the shot.
    "take_photo_hint": {"de": "Alle Würfel des Wurfs ins Bild, sonst keine Würfel, Dominosteine, Chips oder "
                              "Spielblöcke; Handy möglichst von oben",
                        "en": "Every die of the throw in the shot, no other dice, dominoes, chips or score "
                              "sheets; the phone above them"},
    "retake": {"de": "Foto wiederholen", "en": "Retake photo"},
    "manual": {"de": "Würfel eintippen", "en": "Enter dice by hand"},
    "manual_ok": {"de": "Übernehmen", "en": "Use these dice"},
    "manual_progress": {"de": "{n} von {max} Würfeln: {dice}", "en": "{n} of {max} dice: {dice}"},
    "manual_none": {"de": "Noch kein Würfel eingetippt", "en": "No dice entered yet"},
    "cancel": {"de": "Abbrechen", "en": "Cancel"},
    "reading": {"de": "Würfel werden gelesen …", "en": "Reading the dice …"},
    "shrinking": {"de": "Foto wird verkleinert …", "en": "Shrinking the photo …"},
    "read_dice": {"de": "Gelesen", "en": "Read"},
    "tap_to_fix": {"de": "Würfel antippen, um den Wert zu korrigieren", "en": "Tap a die to correct its value"},
    "closeup_of": {"de": "Würfel {n} auf dem Foto", "en": "Die {n} in the photo"},
    "closeup_changed": {"de": "Würfel {n} auf dem Foto: als {read} gelesen, auf {now} geändert",
                        "en": "Die {n} in the photo: read {read}, changed to {now}"},
    "closeup_added": {"de": "Würfel {n} auf dem Foto: zuerst nicht gezählt, dann als {now} mitgezählt",
                      "en": "Die {n} in the photo: not counted at first, then counted as {now}"},
    "closeup_removed": {"de": "Würfel {n} auf dem Foto: als {read} gelesen, entfernt",
                        "en": "Die {n} in the photo: read {read}, removed"},
    "closeups_caption": {"de": "Jeder Würfel vergrößert aus dem Foto, darunter der gelesene Wert",
                         "en": "Each die enlarged from the photo, with the value read below"},
    "uncertain": {"de": "unsicher", "en": "uncertain"},
    "fix_die": {"de": "Welche Augenzahl?", "en": "Which value?"},
    "remove_die": {"de": "Würfel entfernen", "en": "Remove die"},
    "add_die": {"de": "+ Würfel", "en": "+ Die"},
    "options": {"de": "Eintragen", "en": "Score it"},
    "options_push": {"de": "Beiseitelegen", "en": "Set aside"},
    "points": {"de": "Pkt.", "en": "pts"},
    "column_n": {"de": "Spalte {n}", "en": "Column {n}"},
    "scratch": {"de": "streichen", "en": "scratch"},
    "scratch_fold": {"de": "Feld streichen (0 Punkte)", "en": "Scratch a box (0 points)"},
    "best": {"de": "Bestes", "en": "Best"},
    "joker": {"de": "Joker", "en": "Joker"},
    "undo": {"de": "Rückgängig", "en": "Undo"},
    "undo_confirm": {"de": "Letzten Eintrag zurücknehmen?", "en": "Take back the last entry?"},
    "throw_log": {"de": "Wurfprotokoll", "en": "Throw log"},
    "export": {"de": "Exportieren", "en": "Export"},
    "home": {"de": "Start", "en": "Home"},
    "sheet": {"de": "Spielzettel", "en": "Score sheet"},
    "upper": {"de": "Oben", "en": "Upper"},
    "bonus": {"de": "Bonus", "en": "Bonus"},
    "lower": {"de": "Unten", "en": "Lower"},
    "total": {"de": "Summe", "en": "Total"},
    "extra_bonus": {"de": "Extra-Bonus", "en": "Extra bonus"},
    "grand_total": {"de": "Gesamt", "en": "Grand total"},
    "finished": {"de": "Spiel beendet", "en": "Game over"},
    "winner": {"de": "{player} gewinnt!", "en": "{player} wins!"},
    "tie": {"de": "Unentschieden: {players}", "en": "Tie: {players}"},
    "score": {"de": "Punkte", "en": "Score"},
    "turn_total": {"de": "In diesem Zug", "en": "This turn"},
    "dice_left": {"de": "Würfel übrig", "en": "dice left"},
    "bank": {"de": "Punkte sichern", "en": "Bank points"},
    "throw_again": {"de": "Weiterwürfeln", "en": "Throw again"},
    "hot_dice": {"de": "Alle sechs gelegt: alle Würfel neu werfen!", "en": "Hot dice: throw all six again!"},
    "hot_dice_tag": {"de": "alle sechs!", "en": "hot dice"},
    "target_short": {"de": "Ziel", "en": "Target"},
    "bust": {"de": "Kein Treffer – der Zug ist verloren.", "en": "Bust: no scoring dice, the turn is lost."},
    "bust_ok": {"de": "Zug beenden", "en": "End turn"},
    "to_target": {"de": "noch {n} bis {target}", "en": "{n} to go to {target}"},
    "turns": {"de": "Züge", "en": "Turns"},
    "i_am": {"de": "Dieses Handy:", "en": "This phone:"},
    "nobody": {"de": "niemand Bestimmtes", "en": "anyone"},
    "advice": {"de": "Tipp", "en": "Tip"},
    "advice_pending": {"de": "Tipp wird berechnet …", "en": "Working out the best move …"},
    "advice_building": {"de": "Der Tippgeber berechnet einmalig seine Tabellen für dieses Spiel "
                              "(je nach Spiel und Rechner Sekunden bis einige Minuten) – "
                              "bis dahin nach Punkten sortiert.",
                        "en": "The advisor is working out its tables for this game, once "
                              "(seconds to a few minutes, depending on the game and the computer); "
                              "sorted by points until then."},
    "advice_elapsed": {"de": "Läuft seit {time}.", "en": "Running for {time}."},
    "advice_progress": {"de": "Läuft seit {time}, Schritt {step}: {percent} %.",
                        "en": "Running for {time}, step {step}: {percent} %."},
    "keep_hint": {"de": "Tipp: diese Würfel liegen lassen", "en": "Tip: keep these dice"},
    "keep_all_hint": {"de": "Tipp: nicht mehr würfeln – jetzt eintragen", "en": "Tip: stop throwing and score now"},
    "reroll_all_hint": {"de": "Tipp: alle Würfel neu werfen", "en": "Tip: throw all the dice again"},
    "reroll_all": {"de": "alle neu werfen", "en": "throw all again"},
    "keep_all": {"de": "alle liegen lassen", "en": "keep all"},
    "keep_tag": {"de": "halten", "en": "keep"},
    "set_aside_tag": {"de": "beiseite", "en": "set aside"},
    "keep_alternatives": {"de": "Andere Möglichkeiten", "en": "Other choices"},
    "options_now": {"de": "Oder jetzt eintragen", "en": "Or score now"},
    "then_bank": {"de": "dann sichern", "en": "then bank"},
    "then_again": {"de": "dann weiterwürfeln", "en": "then throw again"},
    "bank_tip": {"de": "Tipp: Punkte sichern – Weiterwürfeln brächte im Schnitt nur {again}.",
                 "en": "Tip: bank now; throwing on averages only {again}."},
    "again_tip": {"de": "Tipp: weiterwürfeln – im Schnitt {again} statt {bank}.",
                  "en": "Tip: throw again; on average {again} instead of {bank}."},
    "expected": {"de": "Erwartung", "en": "Expected"},
    "estimate": {"de": "geschätzt", "en": "estimate"},
    "loss": {"de": "Verlust", "en": "loss"},
    "review_title": {"de": "Spielanalyse", "en": "Game review"},
    "review_intro": {"de": "Die teuersten Entscheidungen, in erwarteten Endpunkten.",
                     "en": "The costliest choices, in expected final points."},
    "review_pending": {"de": "Analyse wird berechnet …", "en": "Working out the review …"},
    "review_clean": {"de": "Keine teure Entscheidung – stark gespielt!", "en": "No costly choice: well played!"},
    "review_turn": {"de": "Zug {n}", "en": "Turn {n}"},
    "review_instead": {"de": "{chosen} statt {best}", "en": "{chosen} instead of {best}"},
    "language": {"de": "English", "en": "Deutsch"},
    "dice_count": {"de": "{n} Würfel erwartet, {got} gelesen – bitte korrigieren.",
                   "en": "{n} dice expected, {got} read: please correct."},
    "no_dice_read": {"de": "Keine Würfel auf dem Foto gefunden – Foto wiederholen (alle Würfel im Bild, "
                           "Handy von oben) oder Würfel eintippen.",
                     "en": "No dice found in the photo: retake it (every die in the shot, the phone above "
                           "them) or enter the dice by hand."},
    "no_model": {"de": "Die Bilderkennung ist nicht installiert – bitte Würfel eintippen.",
                 "en": "Dice recognition is not installed: please enter the dice by hand."},
    "offline": {"de": "Keine Verbindung zum Server.", "en": "No connection to the server."},
    "saved": {"de": "Eingetragen", "en": "Entered"},
    "changed_elsewhere": {"de": "Ein anderes Handy hat gerade eingetragen – der Stand wurde aktualisiert.",
                          "en": "Another phone just entered: the sheet was refreshed."},
    # game page: entries in words, confirmations, joining
    "menu": {"de": "Menü", "en": "Menu"},
    "scores": {"de": "Punktestand", "en": "Scores"},
    "box": {"de": "Feld", "en": "Box"},
    "throw_k": {"de": "Wurf {n}", "en": "Throw {n}"},
    "die_n": {"de": "Würfel {n}: {value}", "en": "Die {n}: {value}"},
    "face_n": {"de": "Augenzahl {n}", "en": "Value {n}"},
    "fix_die_n": {"de": "Würfel {n} (gelesen: {value}) – welche Augenzahl?",
                  "en": "Die {n} (read as {value}): which value?"},
    "add_die_title": {"de": "Welcher Würfel fehlt?", "en": "Which die is missing?"},
    "backspace": {"de": "Letzten Würfel löschen", "en": "Delete the last die"},
    "dice_list": {"de": "Würfel {dice}", "en": "Dice {dice}"},
    "photo_of": {"de": "Foto des Wurfs von {player} mit den gelesenen Würfeln",
                 "en": "Photo of {player}'s throw with the dice as read"},
    "unsure_one": {"de": "Würfel {dice} ist unsicher gelesen (gestrichelt markiert) – bitte auf dem Foto prüfen.",
                   "en": "Die {dice} was read unsurely (dashed outline): please check it on the photo."},
    "unsure_n": {"de": "Die Würfel {dice} sind unsicher gelesen (gestrichelt markiert) – "
                       "bitte auf dem Foto prüfen.",
                 "en": "Dice {dice} were read unsurely (dashed outline): please check them on the photo."},
    "tip_waits": {"de": "Der Tipp hängt an unsicher gelesenen Würfeln: erst auf dem Foto prüfen "
                        "(zum Korrigieren antippen).",
                  "en": "The tip depends on dice read unsurely: check them on the photo first "
                        "(tap one to correct it)."},
    "tip_waits_one": {"de": "Der Tipp hängt an einem unsicher gelesenen Würfel: erst auf dem Foto prüfen "
                            "(zum Korrigieren antippen).",
                      "en": "The tip depends on a die read unsurely: check it on the photo first "
                            "(tap it to correct it)."},
    "small_dice": {"de": "Die Würfel sind auf dem Foto sehr klein: näher herangehen oder heranzoomen, "
                         "dann werden sie sicherer erkannt.",
                   "en": "The dice are very small in the photo: move closer or zoom in and they are read "
                         "more reliably."},
    "left_out_one": {"de": "Auf dem Foto ist noch 1 Würfel mehr, als der Wurf hat (grau umrandet, nicht gezählt). "
                           "Liegen andere Würfel mit im Bild? Dann die gezählten prüfen: gehört der graue zum Wurf, "
                           "ihn antippen, um ihn mitzuzählen – oder neu fotografieren.",
                     "en": "The photo shows 1 die more than the throw has (grey outline, not counted). "
                           "Are other dice in the shot? Then check the counted ones: if the grey one belongs to the "
                           "throw, tap it to count it, or take the photo again."},
    "left_out_n": {"de": "Auf dem Foto sind noch {n} Würfel mehr, als der Wurf hat (grau umrandet, nicht gezählt). "
                         "Liegen andere Würfel mit im Bild? Dann die gezählten prüfen: gehört ein grauer zum Wurf, "
                         "ihn antippen, um ihn mitzuzählen – oder neu fotografieren.",
                   "en": "The photo shows {n} dice more than the throw has (grey outline, not counted). "
                         "Are other dice in the shot? Then check the counted ones: if a grey one belongs to the "
                         "throw, tap it to count it, or take the photo again."},
    "left_out_die": {"de": "Nicht gezählter Würfel, als {value} gelesen", "en": "Die not counted, read as {value}"},
    "take_left_out": {"de": "Diesen Würfel mitzählen?", "en": "Count this die?"},
    "take_left_out_body": {"de": "Als {value} gelesen. Der Wurf hat dann {n} Würfel: den, der nicht dazugehört, "
                                 "antippen und entfernen.",
                           "en": "Read as {value}. The throw then has {n} dice: tap the one that does not belong "
                                 "and remove it."},
    "take_left_out_ok": {"de": "Mitzählen", "en": "Count it"},
    "not_counted": {"de": "Nicht gezählt", "en": "Not counted"},
    "left_out_evidence": {"de": "{n} Würfel mehr auf dem Foto als im Wurf, grau umrandet",
                          "en": "{n} more on the photo than in the throw, outlined in grey"},
    "unsure_ok": {"de": "Geprüft – stimmt so", "en": "Checked: they are right"},
    "unsure_ok_one": {"de": "Geprüft – stimmt so", "en": "Checked: it is right"},
    "score_now": {"de": "Jetzt eintragen", "en": "Score it now"},
    "score_now_hint": {"de": "Kein Wurf mehr – unten ein Feld wählen", "en": "No throw left: pick a box below"},
    "set_aside_first": {"de": "Erst Würfel beiseitelegen", "en": "Set dice aside first"},
    "set_aside_first_hint": {"de": "Unten wählen, welche Würfel zählen", "en": "Pick below which dice count"},
    "set_aside_now": {"de": "Beiseite in diesem Zug:", "en": "Set aside this turn:"},
    "set_aside_dice": {"de": "beiseite: {dice}", "en": "set aside: {dice}"},
    "dice_left_n": {"de": "{n} Würfel übrig", "en": "{n} dice left"},
    "bank_n": {"de": "Punkte sichern ({points})", "en": "Bank points ({points})"},
    "best_box": {"de": "bestes Feld", "en": "best box"},
    "most_points": {"de": "meiste Punkte", "en": "most points"},
    "box_tip": {"de": "Tipp: {box}", "en": "Tip: {box}"},
    "scratch_tip": {"de": "Tipp: {box} streichen, 0 Punkte", "en": "Tip: scratch {box}, 0 points"},
    "scratch_fold_n": {"de": "Feld streichen, 0 Punkte ({n})", "en": "Scratch a box, 0 points ({n})"},
    "bonus_tag": {"de": "+{points} Bonus", "en": "+{points} bonus"},
    "points_n": {"de": "{points} Punkte", "en": "{points} points"},
    "points_weighted": {"de": "{points} Punkte, gewichtet {weighted}", "en": "{points} points, weighted {weighted}"},
    "weighted": {"de": "Gewichtet", "en": "Weighted"},
    "more_boxes_n": {"de": "Weitere Felder, die punkten ({n})", "en": "More boxes that score ({n})"},
    "sheet_of": {"de": "Zettel eines Spielers zeigen", "en": "Show one player's sheet"},
    "enter_cell": {"de": "{box}: {points} eintragen", "en": "Enter {points} in {box}"},
    "scratch_cell": {"de": "{box} streichen (0 Punkte)", "en": "Scratch {box} (0 points)"},
    "scratch_confirm": {"de": "{box} mit 0 Punkten streichen?", "en": "Scratch {box} for 0 points?"},
    "scratch_ok": {"de": "Streichen", "en": "Scratch"},
    "recap_fill": {"de": "{player}: {box} · {points}", "en": "{player}: {box} · {points}"},
    "recap_fill_weighted": {"de": "{player}: {box} · {points} → {weighted}",
                            "en": "{player}: {box} · {points} → {weighted}"},
    "recap_scratch": {"de": "{player}: {box} gestrichen (0)", "en": "{player}: {box} scratched (0)"},
    "recap_keep": {"de": "{player}: {dice} beiseite · +{points} (Zug: {total})",
                   "en": "{player}: set aside {dice} · +{points} (turn: {total})"},
    "recap_bank": {"de": "{player}: {points} gesichert · jetzt {score}",
                   "en": "{player}: banked {points} · now {score}"},
    "recap_bust": {"de": "{player}: nichts gewertet – Zug verloren", "en": "{player}: bust, the turn is lost"},
    "undone_toast": {"de": "Zurückgenommen: {entry}", "en": "Taken back: {entry}"},
    "conflict_by": {"de": "Ein anderes Handy war schneller – {entry}", "en": "Another phone was faster: {entry}"},
    "delete": {"de": "Löschen", "en": "Delete"},
    "delete_game": {"de": "Spiel löschen", "en": "Delete game"},
    "delete_confirm": {"de": "Das Spiel mit allen Fotos endgültig löschen? Das lässt sich nicht rückgängig machen.",
                       "en": "Delete this game and all its photos for good? This cannot be undone."},
    "join": {"de": "Mitspieler einladen (QR-Code)", "en": "Invite players (QR code)"},
    "join_title": {"de": "Auf einem anderen Handy mitspielen", "en": "Join on another phone"},
    "join_hint": {"de": "Mit der Kamera eines anderen Handys scannen: Es öffnet dieses Spiel.",
                  "en": "Scan it with another phone's camera: it opens this game."},
    "join_qr": {"de": "QR-Code mit dem Link zu diesem Spiel", "en": "QR code with the link to this game"},
    "copy_link": {"de": "Link kopieren", "en": "Copy link"},
    "link_copied": {"de": "Link kopiert", "en": "Link copied"},
    "close": {"de": "Schließen", "en": "Close"},
    "what_scores": {"de": "Was zählt?", "en": "What scores?"},
    "game_deleted": {"de": "Dieses Spiel wurde gelöscht.", "en": "This game was deleted."},
    # live camera (docs/LIVE.md)
    "live": {"de": "Live", "en": "Live"},
    "live_video": {"de": "Kamerabild mit den erkannten Würfeln", "en": "Camera picture with the dice found"},
    "live_insecure": {"de": "Live braucht eine sichere Seite: dicecam serve --https starten (oder localhost öffnen).",
                      "en": "Live needs a secure page: start dicecam serve --https (or open localhost)."},
    "live_close": {"de": "Live beenden", "en": "Stop live"},
    "live_starting": {"de": "Kamera startet …", "en": "Starting the camera …"},
    "live_denied": {"de": "Kein Zugriff auf die Kamera – bitte im Browser erlauben.",
                    "en": "No access to the camera: please allow it in the browser."},
    "live_no_camera": {"de": "Keine Kamera gefunden.", "en": "No camera found."},
    "live_failed": {"de": "Die Kamera ließ sich nicht starten.", "en": "The camera could not be started."},
    "live_moving": {"de": "Würfel rollen …", "en": "Dice rolling …"},
    "live_looking": {"de": "Ruhig halten …", "en": "Hold still …"},
    "live_empty": {"de": "Keine Würfel im Bild", "en": "No dice in view"},
    "live_count": {"de": "{seen} von {n} Würfeln – nichts übernommen", "en": "{seen} of {n} dice: nothing taken"},
    "live_more": {"de": "Mehr Würfel im Bild als im Wurf – nichts übernommen",
                  "en": "More dice in view than the throw: nothing taken"},
    "live_same": {"de": "Diese Würfel sind schon eingetragen.", "en": "These dice are already in."},
    "live_take_anyway": {"de": "Trotzdem übernehmen", "en": "Take it anyway"},
    "live_taking": {"de": "Wurf wird übernommen …", "en": "Taking the throw …"},
    "live_took": {"de": "Wurf {n} übernommen", "en": "Throw {n} taken"},
    "live_taken": {"de": "Übernommen – die Kamera wartet auf den nächsten Wurf.",
                   "en": "Taken: the camera waits for the next throw."},
    "live_paused": {"de": "Erst unten Würfel beiseitelegen, dann weiterwürfeln.",
                    "en": "Set dice aside below first, then throw on."},
    "live_keep": {"de": "Liegen lassen: {dice} – die anderen neu werfen", "en": "Keep {dice}, throw the others again"},
    "live_left_out": {"de": "Mehr Würfel im Bild, als der Wurf hat: beiseitegelegte oder fremde Würfel "
                            "aus dem Bild nehmen.",
                      "en": "More dice in view than the throw has: move set-aside or other dice out of the picture."},
    "live_small_dice": {"de": "Die Würfel sind im Bild sehr klein: näher heran, dann werden sie sicherer erkannt.",
                        "en": "The dice are very small in view: move closer and they are read more reliably."},
    "live_check_unsure": {"de": "Erst die unsicheren Würfel unten prüfen.", "en": "Check the unsure dice below first."},
    "err_frame_type": {"de": "Ein Live-Bild muss ein JPEG, PNG oder WebP sein.",
                       "en": "A live frame must be a JPEG, PNG or WebP image."},
    "err_frame_too_large": {"de": "Das Live-Bild ist zu groß (höchstens {kb} KB).",
                            "en": "The live frame is too large (at most {kb} KB)."},
    "err_frame_pixels": {"de": "Das Live-Bild ist zu groß ({width}×{height}, höchstens {side} Pixel je Seite).",
                         "en": "The live frame is too large ({width}×{height}, at most {side} pixels a side)."},
    "err_busy_frames": {"de": "Gerade werden viele Live-Bilder gelesen – dieses wird übersprungen.",
                        "en": "Many live frames are being read right now: this one is skipped."},
    # throw log / evidence
    "log_title": {"de": "Wurfprotokoll", "en": "Throw log"},
    "when": {"de": "Zeit", "en": "Time"},
    "player": {"de": "Spieler", "en": "Player"},
    "dice": {"de": "Würfel", "en": "Dice"},
    "entry": {"de": "Eintrag", "en": "Entry"},
    "corrections": {"de": "Korrekturen", "en": "Corrections"},
    "corrected_by": {"de": "korrigiert von {who}", "en": "corrected by {who}"},
    "corrected": {"de": "korrigiert", "en": "corrected"},
    "photo": {"de": "Foto", "en": "Photo"},
    "annotated": {"de": "Erkannt", "en": "As read"},
    "original": {"de": "Original", "en": "Original"},
    "no_photo": {"de": "eingetippt", "en": "typed in"},
    "sha": {"de": "SHA-256 des Fotos", "en": "Photo SHA-256"},
    "sha_ok": {"de": "Foto unverändert (Prüfsumme stimmt)", "en": "Photo unchanged (checksum matches)"},
    "sha_bad": {"de": "Foto fehlt oder wurde verändert!", "en": "Photo missing or altered!"},
    "status_open": {"de": "offen", "en": "open"},
    "status_entered": {"de": "eingetragen", "en": "entered"},
    "status_rerolled": {"de": "nachgewürfelt", "en": "thrown again"},
    "status_void": {"de": "verworfen", "en": "discarded"},
    "undone": {"de": "zurückgenommen", "en": "undone"},
    "back_to_game": {"de": "Zurück zum Spiel", "en": "Back to the game"},
    "no_throws": {"de": "Noch keine Würfe.", "en": "No throws yet."},
    "read_as": {"de": "Gelesen als", "en": "Read as"},
    "by": {"de": "von", "en": "by"},
    "bust_entry": {"de": "Nichts – Zug verloren", "en": "Nothing: bust"},
    "keep_entry": {"de": "beiseite: {dice}", "en": "set aside: {dice}"},
}
# One catalogue: the page's texts and every error message.
TEXTS.update(ERROR_TEXTS)


def current_lang() -> str:
    """The language of this request: ?lang=, then the cookie, then Accept-Language."""
    asked = request.args.get("lang") or request.cookies.get("lang")
    if asked in LANGS:
        return asked
    return request.accept_languages.best_match(LANGS, default=DEFAULT) or DEFAULT


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def t(key: str, lang: str | None = None, **values: object) -> str:
    """The text `key` in `lang` (default: the request's), with `{name}` filled in."""
    entry = TEXTS[key]
    text = entry.get(lang or current_lang()) or entry[DEFAULT]
    return text.format_map(_Blank(values)) if "{" in text else text


def error_message(key: str, detail: str | None, values: dict) -> str:
    """A web error in the request's language; scoring's English message when we have none."""
    lang = current_lang()
    values = dict(values)
    if f"box_{lang}" in values:  # the box's label on this variant's sheet, in this language
        values["box"] = values[f"box_{lang}"]
    if key in TEXTS and not (detail and lang == "en" and key.startswith("rule_")):
        return t(key, lang, **values)
    return detail or t("err_generic", lang)


def number(value: float, lang: str, digits: int = 1) -> str:
    """`1704.14` as the players write it: "1.704,1" in German, "1,704.1" in English."""
    text = f"{value:,.{digits}f}"
    if lang == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def bundle(lang: str) -> dict[str, str]:
    """Every text in one language, for the page's script."""
    return {key: entry.get(lang) or entry[DEFAULT] for key, entry in TEXTS.items()}

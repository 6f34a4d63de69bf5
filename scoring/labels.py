"""Box labels and one-line rule summaries, German first, then English."""

from __future__ import annotations

from dicecam.scoring.boxes import Box

LANGS = ("de", "en")

_UPPER_DE = {Box.ONES: "1er", Box.TWOS: "2er", Box.THREES: "3er",
             Box.FOURS: "4er", Box.FIVES: "5er", Box.SIXES: "6er"}
_UPPER_EN = {Box.ONES: "Ones", Box.TWOS: "Twos", Box.THREES: "Threes",
             Box.FOURS: "Fours", Box.FIVES: "Fives", Box.SIXES: "Sixes"}
_LOWER_EN = {
    Box.THREE_KIND: "Three of a kind",
    Box.FOUR_KIND: "Four of a kind",
    Box.FULL_HOUSE: "Full house",
    Box.SMALL_STRAIGHT: "Small straight",
    Box.LARGE_STRAIGHT: "Large straight",
    Box.FIVE_KIND: "Five of a kind",
    Box.CHANCE: "Chance",
}

SPIFFEL = {
    "de": {**_UPPER_DE, Box.THREE_KIND: "Dreierpasch", Box.FOUR_KIND: "Viererpasch",
           Box.FULL_HOUSE: "Full House", Box.SMALL_STRAIGHT: "Kleine Straße",
           Box.LARGE_STRAIGHT: "Große Straße", Box.FIVE_KIND: "Spiffel", Box.CHANCE: "Chance"},
    "en": {**_UPPER_EN, **_LOWER_EN, Box.FIVE_KIND: "Spiffel"},
}

YAHTZEE = {
    "de": {**SPIFFEL["de"], Box.FIVE_KIND: "Yahtzee"},
    "en": {**_UPPER_EN, **_LOWER_EN, Box.FIVE_KIND: "Yahtzee"},
}

# WÜRFELWARE's own names are what the players read on their block, so the English
# labels keep them and add the common name.
_WARE = {Box.THREE_KIND: "Kasse", Box.FOUR_KIND: "ERP2X", Box.FULL_HOUSE: "WEBWARE",
         Box.SMALL_STRAIGHT: "PAN-Aufgabe", Box.LARGE_STRAIGHT: "PAN-Prozess",
         Box.FIVE_KIND: "ERP", Box.CHANCE: "Reorg."}
WUERFELWARE = {
    "de": {**_UPPER_DE, **_WARE},
    "en": {**_UPPER_EN, **{box: f"{name} ({_LOWER_EN[box].lower()})" for box, name in _WARE.items()}},
}

WUERFELSPIEL = {
    "de": {**{box: f"{box.face}-er" for box in _UPPER_DE}, Box.THREE_KIND: "3 Gleiche",
           Box.FOUR_KIND: "4 Gleiche", Box.FULL_HOUSE: "Full House",
           Box.SMALL_STRAIGHT: "Kleine Straße", Box.LARGE_STRAIGHT: "Große Straße",
           Box.FIVE_KIND: "5 Gleiche", Box.CHANCE: "Chance"},
    "en": {**_UPPER_EN, **_LOWER_EN},
}

NAMES = {
    "spiffel": {"de": "Spiffel (Kniffel)", "en": "Spiffel (Kniffel)"},
    "wuerfelware": {"de": "WÜRFELWARE", "en": "WÜRFELWARE"},
    "wuerfelspiel": {"de": "Würfelspiel (3 Spalten)", "en": "Würfelspiel (3 columns)"},
    "yahtzee": {"de": "Yahtzee", "en": "Yahtzee"},
    "wuerfelpoker": {"de": "Würfelpoker (Zehntausend)", "en": "Würfelpoker (Ten thousand)"},
}

SUMMARIES = {
    "spiffel": {
        "de": "5 Würfel, 13 Runden zu höchstens 3 Würfen; +35 Bonus ab 63 oben; "
              "der zweite Spiffel bringt einmal +100 und ist ein freier Joker; "
              "jedes Feld darf gestrichen werden.",
        "en": "5 dice, 13 turns of up to 3 throws; +35 bonus at 63 in the upper section; "
              "the second Spiffel earns +100 once and is a free joker; any box may be scratched.",
    },
    "wuerfelware": {
        "de": "5 Würfel, 13 Runden, mindestens 2 Bediener; +35 Bonus ab 65 oben; "
              "jede weitere ERP bringt +100, ohne Joker.",
        "en": "5 dice, 13 turns, at least 2 players; +35 bonus at 65 in the upper section; "
              "every further ERP earns +100, no joker.",
    },
    "wuerfelspiel": {
        "de": "5 Würfel, 3 Spalten zählen einfach, doppelt und dreifach, 39 Runden; "
              "+35 Bonus ab 63 je Spalte; kein Joker.",
        "en": "5 dice, 3 columns counted once, twice and three times, 39 turns; "
              "+35 bonus at 63 in each column; no joker.",
    },
    "yahtzee": {
        "de": "5 Würfel, 13 Runden; +35 Bonus ab 63 oben; jeder weitere Yahtzee +100 "
              "und Pflicht-Joker, sobald das Yahtzee-Feld belegt ist.",
        "en": "5 dice, 13 turns; +35 bonus at 63 in the upper section; every further Yahtzee "
              "earns +100 and is a forced joker once the Yahtzee box is filled.",
    },
    "wuerfelpoker": {
        "de": "6 Würfel, ab 2 Spielern; Einsen 100, Fünfen 50, drei Gleiche Augenzahl x 100 "
              "(drei Einsen 1.000), Straße 1.000; wer nichts wertet, verliert die Runde; "
              "wer zuerst {target} Punkte hat, gewinnt.",
        "en": "6 dice, 2 or more players; ones 100, fives 50, three of a kind face x 100 "
              "(three ones 1,000), straight 1,000; a throw with nothing to score loses the "
              "turn; first to {target} points wins.",
    },
}

"""The sentences scoring hands to a page or the CLI, German first, then English.

Box labels and game names live in `labels`; this module words the rules (bonus rows,
alias notes, Würfelpoker's card) and what an event did (recaps).
"""

from __future__ import annotations

from dicecam.scoring.recaps import BankRecap, BustRecap, FillRecap, KeepRecap, Recap

UPPER_BONUS_LABEL = {"de": "Bonus (+{points})", "en": "Bonus (+{points})"}
UPPER_BONUS_RULE = {
    "de": "+{points}, sobald die Felder oben zusammen {threshold} erreichen",
    "en": "+{points} once the upper boxes reach {threshold} together",
}
EXTRA_BONUS_LABEL = {"de": "{box}-Bonus", "en": "{box} bonus"}
EXTRA_BONUS_RULE = {
    ("once", "free"): {
        "de": "Der zweite {box} bringt einmal +{points}, wenn das Feld {box} schon 50 hat; "
              "dieser Wurf ist ein freier Joker",
        "en": "The second {box} earns +{points} once, if the {box} box already holds 50; "
              "that throw is a free joker",
    },
    ("each", "none"): {
        "de": "Jede weitere {box} bringt +{points}, wenn das Feld {box} schon 50 hat",
        "en": "Every further {box} earns +{points} while the {box} box holds 50",
    },
    ("each", "forced"): {
        "de": "Jeder weitere {box} bringt +{points}, wenn das Feld {box} schon 50 hat; "
              "ist das Feld belegt, ist er ein Pflicht-Joker",
        "en": "Every further {box} earns +{points} while the {box} box holds 50; "
              "once that box is filled, the throw is a forced joker",
    },
}
COLUMN_LABEL = "×{weight}"

ALIAS_NOTE = {
    ("kniffel", "spiffel"): {
        "de": "kniffel: ein anderer Name für Spiffel; das Feld für fünf Gleiche heißt "
              "in diesem Spiel Spiffel",
        "en": "kniffel: an alias of Spiffel; the five-of-a-kind box is called Spiffel "
              "in this game",
    },
    ("zehntausend", "wuerfelpoker"): {
        "de": "zehntausend: ein anderer Name für Würfelpoker (Zehntausend), "
              "dieselben Regeln",
        "en": "zehntausend: an alias of Würfelpoker (Ten thousand), the same rules",
    },
}


def number(value: int, lang: str) -> str:
    """A whole number as the language writes it: 10.000 in German, 10,000 in English."""
    return f"{value:,}".replace(",", "." if lang == "de" else ",")

PUSH_GOAL = {
    "de": "Wer zuerst {target} Punkte hat, gewinnt",
    "en": "First to {target} points wins",
}
PUSH_GOAL_ROUND = {
    "de": "Wer {target} Punkte erreicht, beendet das Spiel nach dieser Runde; "
          "die meisten Punkte gewinnen",
    "en": "Reaching {target} points ends the game after that round; the most points win",
}
# Würfelpoker's rules card, as RULES.md states the points (id, label, points).
PUSH_COMBINATIONS = {
    "de": (("single_1", "Jede einzelne 1", "100"),
           ("single_5", "Jede einzelne 5", "50"),
           ("three_kind", "Drei Gleiche", "Augenzahl × 100"),
           ("three_ones", "Drei 1er", "1.000"),
           ("more_kind", "Vier, fünf, sechs Gleiche", "× 2, × 4, × 8 von drei Gleichen"),
           ("six_ones", "Sechs 1er", "10.000"),
           ("straight", "Straße 1–6", "1.000")),
    "en": (("single_1", "Each single 1", "100"),
           ("single_5", "Each single 5", "50"),
           ("three_kind", "Three of a kind", "face × 100"),
           ("three_ones", "Three 1s", "1,000"),
           ("more_kind", "Four, five, six of a kind", "× 2, × 4, × 8 three of a kind"),
           ("six_ones", "Six 1s", "10,000"),
           ("straight", "Straight 1–6", "1,000")),
}

_RECAP = {
    "scratched": {"de": "gestrichen", "en": "scratched"},
    "joker": {"de": "Joker", "en": "joker"},
    "bonus": {"de": "Bonus +{points}", "en": "bonus +{points}"},
    "extra": {"de": "{label} +{points}", "en": "{label} +{points}"},
    "keep": {"de": "{player}: {keep} beiseite · {points} (Runde {turn_total})",
             "en": "{player}: set aside {keep} · {points} (turn {turn_total})"},
    "hot": {"de": "alle sechs Würfel wieder frei", "en": "hot dice: all six again"},
    "bust": {"de": "{player}: Niete", "en": "{player}: bust"},
    "bust_lost": {"de": "{player}: Niete, {lost} Punkte verloren",
                  "en": "{player}: bust, {lost} points lost"},
    "bank": {"de": "{player}: schreibt {points} an · {score}",
             "en": "{player}: banks {points} · {score}"},
    "target": {"de": "Ziel erreicht", "en": "target reached"},
}


def recap_text(recap: Recap, lang: str, *, box_label: str = "", extra_label: str = "",
               scratch_mark: str | None = None) -> str:
    """One line saying what the event did, e.g. "Anna: Full House ×3 · 25 (75)"."""
    t = {key: forms[lang] for key, forms in _RECAP.items()}
    if isinstance(recap, FillRecap):
        head = f"{recap.player}: {box_label}"
        if recap.column is not None:
            head += " " + COLUMN_LABEL.format(weight=recap.weight)
        if recap.points == 0:
            parts = [head, scratch_mark or f"0 ({t['scratched']})"]
        elif recap.weight > 1:
            parts = [head, f"{recap.points} ({recap.weighted})"]
        else:
            parts = [head, str(recap.points)]
        if recap.joker:
            parts.append(t["joker"])
        if recap.upper_bonus:
            parts.append(t["bonus"].format(points=recap.upper_bonus))
        if recap.extra_bonus:
            parts.append(t["extra"].format(label=extra_label, points=recap.extra_bonus))
        return " · ".join(parts)
    if isinstance(recap, KeepRecap):
        line = t["keep"].format(player=recap.player, keep=", ".join(map(str, recap.keep)),
                                points=recap.points, turn_total=recap.turn_total)
        return f"{line} · {t['hot']}" if recap.hot_dice else line
    if isinstance(recap, BustRecap):
        return (t["bust_lost"] if recap.lost else t["bust"]).format(player=recap.player,
                                                                     lost=recap.lost)
    assert isinstance(recap, BankRecap)
    line = t["bank"].format(player=recap.player, points=recap.points, score=recap.score)
    return f"{line} · {t['target']}" if recap.reached_target else line

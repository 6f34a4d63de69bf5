-- A game is its replay file (the event log); state is always derived from it.
-- `version` goes up on every change so that concurrent writers can compare-and-swap.
CREATE TABLE IF NOT EXISTS game (
    id        TEXT PRIMARY KEY,
    variant   TEXT NOT NULL,
    players   TEXT NOT NULL,          -- JSON list, for the start page
    log       TEXT NOT NULL,          -- the replay file (JSON)
    version   INTEGER NOT NULL DEFAULT 1,
    finished  INTEGER NOT NULL DEFAULT 0,
    created   TEXT NOT NULL,
    updated   TEXT NOT NULL
);

-- Every throw is evidence: what was photographed, what was read, who changed what,
-- and which entry it became.
CREATE TABLE IF NOT EXISTS throw (
    id              TEXT PRIMARY KEY,
    game_id         TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,       -- 1, 2, ... within the game
    base_event      INTEGER NOT NULL,       -- number of log events when it was thrown
    number          INTEGER NOT NULL,       -- throw of the turn, 1..3 (sheet games)
    player          TEXT NOT NULL,
    source          TEXT NOT NULL,          -- 'photo' or 'manual'
    status          TEXT NOT NULL DEFAULT 'open',  -- 'open', 'entered', 'void'
    photo_sha256    TEXT,
    photo_type      TEXT,
    annotated_sha256 TEXT,
    width           INTEGER,                -- of the annotated photo; dice boxes are in it
    height          INTEGER,
    dice_read       TEXT NOT NULL,          -- JSON [{"value","box","confidence"}] as read
    dice            TEXT NOT NULL,          -- JSON, after corrections
    corrections     TEXT NOT NULL DEFAULT '[]',
    entry           TEXT,                   -- JSON of the entry made from this throw
    entry_event     INTEGER,                -- index of that entry in the log
    history         TEXT NOT NULL DEFAULT '[]',  -- undone entries, retakes
    low_confidence  REAL,                   -- the model's threshold for "uncertain"
    read_ms         REAL,
    created         TEXT NOT NULL,
    created_by      TEXT,
    UNIQUE (game_id, seq)
);

CREATE INDEX IF NOT EXISTS throw_game ON throw (game_id, base_event);

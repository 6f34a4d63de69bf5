/* What an entry did, in one line of the page's language: "Anna: Full House ×3 · 25 → 75". */
import {fmt, num, T} from './i18n.js';

/** A box with its column label where the sheet has columns ("Full House ×3"). */
export function boxName(display, label, column) {
  if (!column || display.columns.length < 2) return label;
  const col = display.columns.find((c) => c.column === column);
  return label + ' ' + (col ? col.label : column);
}

/** The line for an entry (`Game.describe` as the state JSON carries it). */
export function recapText(display, r) {
  if (!r) return '';
  if (r.kind === 'fill') {
    const box = boxName(display, r.label, r.column);
    let text = r.points === 0
      ? fmt('recap_scratch', {player: r.player, box})
      : fmt(r.weight > 1 ? 'recap_fill_weighted' : 'recap_fill',
        {player: r.player, box, points: num(r.points), weighted: num(r.weighted)});
    const bonus = r.gain - r.weighted;  // an upper bonus reached, an extra bonus earned
    if (bonus > 0) text += ' · ' + fmt('bonus_tag', {points: num(bonus)});
    return text;
  }
  if (r.kind === 'keep') return fmt('recap_keep', {player: r.player, dice: r.keep.join(' '), points: num(r.points), total: num(r.turn_total)});
  if (r.kind === 'bank') return fmt('recap_bank', {player: r.player, points: num(r.points), score: num(r.score)});
  if (r.kind === 'bust') return fmt('recap_bust', {player: r.player});
  return r.text || T.saved;
}

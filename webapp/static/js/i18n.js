/* The page's texts (one language per page, from the server's catalogue) and number,
 * time and text formatting in that language. */

const node = document.getElementById('texts-data');
/** Every text of the page's language, by key (webapp/i18n.py). */
export const T = node ? JSON.parse(node.textContent) : {};
export const LANG = document.documentElement.lang === 'en' ? 'en' : 'de';
const LOCALE = LANG === 'en' ? 'en-GB' : 'de-DE';

/** The text `key` with `{name}` filled from `values` ("?" where a value is missing). */
export function fmt(key, values) {
  const text = T[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) =>
    values && values[k] !== undefined && values[k] !== null ? String(values[k]) : '?');
}

/** `x` rounded to `digits` decimals: the one rounding every shown value goes through. */
export function rounded(x, digits = 0) {
  const f = 10 ** digits;
  return Math.round(Number(x) * f) / f;
}

/** 1704.14 -> "1.704,1" (German) or "1,704.1" (English); `digits` decimals. */
export function num(x, digits = 0) {
  return rounded(x, digits).toLocaleString(LOCALE, {minimumFractionDigits: digits, maximumFractionDigits: digits});
}

const TIME_STYLES = {time: {timeStyle: 'medium'}, date: {dateStyle: 'medium'}};

/** An ISO time (UTC) as this phone's local date and time; `format` "time" or "date" for one of them. */
export function localTime(iso, format = null) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  return when.toLocaleString(LOCALE, TIME_STYLES[format] || {dateStyle: 'medium', timeStyle: 'medium'});
}

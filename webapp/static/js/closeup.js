/* A die as the photo shows it: a square tile whose background is the photo, enlarged and
 * shifted so the die fills it. Used by the open throw (throw-view.js) and the throw's
 * evidence page (closeups-page.js). */

/** How much of the photo a close-up shows around a die's box (its longer side times this). */
export const CLOSEUP_CONTEXT = 1.5;

/**
 * Draw die `box` ([x0, y0, x1, y1] in the photo as read, `width` x `height` pixels) into
 * `tile`, whose side is its CSS `--size`: the uploaded photo at `photoUrl` (no boxes drawn
 * over the die), the annotated copy at `annotatedUrl` where the browser cannot show it
 * (e.g. a HEIC photo sent as it was).
 */
export function placeCloseup(tile, box, width, height, photoUrl, annotatedUrl) {
  const [x0, y0, x1, y1] = box;
  const side = Math.max(x1 - x0, y1 - y0, 1) * CLOSEUP_CONTEXT;
  // In tile sides: the photo is drawn `width / side` tiles wide, whatever its own pixel size
  // (the boxes are in the photo as it was read, the same shape), and shifted so the die's
  // centre lies at the tile's centre. A background, not an <img>: nothing outside the tile.
  const tiles = (v) => `calc(var(--size) * ${v.toFixed(4)})`;
  tile.style.backgroundSize = `${tiles(width / side)} ${tiles(height / side)}`;
  tile.style.backgroundPosition = `${tiles(0.5 - (x0 + x1) / 2 / side)} ${tiles(0.5 - (y0 + y1) / 2 / side)}`;
  const show = (url) => { tile.style.backgroundImage = `url("${encodeURI(url)}")`; };
  show(photoUrl);
  const probe = new Image();
  probe.addEventListener('error', () => { if (annotatedUrl) show(annotatedUrl); }, {once: true});
  probe.src = photoUrl;
}

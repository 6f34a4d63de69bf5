/* The game's API: plain fetch calls in the page's language; errors carry status and code. */
import {T, LANG} from './i18n.js';

/** An API answer that is not 2xx: `message` is already in the page's language. */
export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.code = data && data.code;
    this.game = data && data.game;  // a 409 carries the game as it is now
  }
}

function withLang(url) {
  return url + (url.includes('?') ? '&' : '?') + 'lang=' + LANG;
}

/** `method` `url` with a JSON body or FormData; resolves to the answer's JSON. */
export async function request(method, url, body) {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'};
  if (body instanceof FormData) {
    opts.body = body;
  } else if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(withLang(url), opts);
  } catch (e) {
    throw new ApiError(T.offline, 0, null);
  }
  const data = await resp.json().catch(() => null);
  if (!resp.ok) {
    const message = data && data.error ? data.error : (resp.status >= 500 ? T.err_server : T.err_generic);
    throw new ApiError(message, resp.status, data);
  }
  return data;
}

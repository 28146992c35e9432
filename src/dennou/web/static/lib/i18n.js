// Japanese and English: `?lang=ja|en`, else the browser's language. Strings live in
// /static/i18n/<lang>.json (flat keys); `t(key, params)` fills `{name}` placeholders.

/** @type {readonly string[]} */
export const LANGS = ['ja', 'en'];

/** @type {Record<string, string>} */
let dict = {};
/** @type {Record<string, string>} */
let english = {};
let current = 'en';

/** Keys asked for that neither language has (the browser tests check it stays empty). */
export const missing = new Set();
/** @type {any} */ (globalThis).dennouMissingKeys = missing;

/** @returns {string} the language the URL or the browser asks for */
export function pickLang() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked && LANGS.includes(asked)) return asked;
  for (const l of navigator.languages || [navigator.language]) {
    const base = (l || '').slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** @returns {string} the language in use */
export function lang() {
  return current;
}

/**
 * Load the strings of the chosen language (and English, the fallback).
 * @returns {Promise<string>} the language
 */
export async function loadI18n() {
  current = pickLang();
  const get = async (/** @type {string} */ l) => {
    const reply = await fetch(`/static/i18n/${l}.json`);
    return /** @type {Record<string, string>} */ (await reply.json());
  };
  english = await get('en');
  dict = current === 'en' ? english : await get(current);
  document.documentElement.lang = current;
  return current;
}

/**
 * A string in the current language.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  let text = dict[key] ?? english[key];
  if (text === undefined) {
    missing.add(key);
    text = key;
  }
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
  }
  return text;
}

/**
 * A string if the key exists, else `fallback` (for data-driven keys such as a rules option's
 * description, where the server's English text is the fallback).
 * @param {string} key
 * @param {string} fallback
 * @returns {string}
 */
export function tOr(key, fallback) {
  return dict[key] ?? english[key] ?? fallback;
}

/**
 * A link to `path` that keeps an explicit `?lang=` choice.
 * @param {string} path
 * @returns {string}
 */
export function href(path) {
  const asked = new URLSearchParams(location.search).get('lang');
  if (!asked) return path;
  const url = new URL(path, location.origin);
  url.searchParams.set('lang', asked);
  return url.pathname + url.search + url.hash;
}

/**
 * This page in another language.
 * @param {string} l
 * @returns {string}
 */
export function langUrl(l) {
  const url = new URL(location.href);
  url.searchParams.set('lang', l);
  return url.pathname + url.search + url.hash;
}

/** @typedef {typeof t} Translate */

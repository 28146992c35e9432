// Telling a person that it is their turn: a short tone (off until they switch it on), and while
// the page is in the background the tab's title and icon flash and, when they allowed it, the
// system shows a notification. The switches are remembered in this browser (localStorage).

import { h } from './dom.js';
import { t } from './i18n.js';

const SOUND_KEY = 'dennou.turn-sound';
const NOTIFY_KEY = 'dennou.turn-notify';
const TURN_ICON = '/static/img/turn.svg';

/**
 * What the page did to call the person, counted (read by the tests).
 * @type {{beeps: number, flashes: number, notices: number}}
 */
const counts = { beeps: 0, flashes: 0, notices: 0 };
/** @type {any} */ (globalThis).dennouTurnSignals = counts;

/**
 * @param {string} key
 * @returns {boolean}
 */
function remembered(key) {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false; // storage refused (private mode): the switch starts off
  }
}

/**
 * @param {string} key
 * @param {boolean} on
 */
function remember(key, on) {
  try {
    localStorage.setItem(key, on ? '1' : '0');
  } catch {
    // the switch still works for this page
  }
}

export class TurnSignal {
  /** @param {string} what the table, in words (the notification's text) */
  constructor(what) {
    this.what = what;
    this.title = document.title;
    /** @type {HTMLLinkElement | null} */
    this.icon = document.querySelector('link[rel=icon]');
    this.iconHref = this.icon?.getAttribute('href') || '';
    this.flashTimer = 0;
    this.flashOn = false;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** @type {Notification | null} */
    this.shown = null;
    this.sound = h('input', { type: 'checkbox', id: 'turn-sound', 'data-testid': 'turn-sound' });
    this.sound.checked = remembered(SOUND_KEY);
    this.sound.addEventListener('change', () => {
      remember(SOUND_KEY, this.sound.checked);
      if (this.sound.checked) this.beep(); // a click is the gesture that lets the page play sound
    });
    this.notify = h('input', { type: 'checkbox', id: 'turn-notify', 'data-testid': 'turn-notify' });
    this.notify.checked = remembered(NOTIFY_KEY) && typeof Notification !== 'undefined' && Notification.permission === 'granted';
    this.notify.addEventListener('change', async () => {
      if (this.notify.checked && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
        const answer = await Notification.requestPermission().catch(() => 'denied');
        if (answer !== 'granted') this.notify.checked = false;
      }
      remember(NOTIFY_KEY, this.notify.checked);
    });
    this.el = h(
      'div',
      { class: 'turn-signal inline-list small' },
      h('label', { for: 'turn-sound' }, this.sound, ' ', t('turn.sound')),
      typeof Notification !== 'undefined' ? h('label', { for: 'turn-notify' }, this.notify, ' ', t('turn.notify')) : null,
    );
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.quiet();
    });
  }

  /** A new decision is this person's: call them. */
  start() {
    if (this.sound.checked) this.beep();
    if (document.visibilityState === 'visible') return;
    if (!this.flashTimer) {
      counts.flashes += 1;
      this.flashTimer = window.setInterval(() => this.flash(), 1000);
      this.flash();
    }
    if (this.notify.checked && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      this.shown?.close();
      this.shown = new Notification(t('turn.title'), { body: this.what, tag: 'dennou-turn', icon: TURN_ICON });
      this.shown.onclick = () => window.focus();
      counts.notices += 1;
    }
  }

  /** The decision was made (or the page is looked at): the title and icon are back. */
  quiet() {
    if (this.flashTimer) window.clearInterval(this.flashTimer);
    this.flashTimer = 0;
    this.flashOn = false;
    document.title = this.title;
    if (this.icon) this.icon.setAttribute('href', this.iconHref);
    this.shown?.close();
    this.shown = null;
  }

  flash() {
    this.flashOn = !this.flashOn;
    document.title = this.flashOn ? `▶ ${t('turn.title')} — ${this.title}` : this.title;
    if (this.icon) this.icon.setAttribute('href', this.flashOn ? TURN_ICON : this.iconHref);
  }

  /** A short, quiet two-note tone. */
  beep() {
    try {
      this.audio = this.audio || new AudioContext();
      const ctx = this.audio;
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.3);
      gain.connect(ctx.destination);
      [660, 880].forEach((hz, i) => {
        const osc = ctx.createOscillator();
        osc.frequency.value = hz;
        osc.connect(gain);
        osc.start(ctx.currentTime + i * 0.12);
        osc.stop(ctx.currentTime + i * 0.12 + 0.12);
      });
      counts.beeps += 1;
    } catch {
      // no audio here: the title and notification still call
    }
  }
}

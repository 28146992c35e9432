// Motion on the boards: things move where they go (a played card from its player to the field, a
// new judgement into its table). Every movement is short (at most 250 ms), any key or click
// finishes the running ones at once, and with `prefers-reduced-motion: reduce` nothing moves.

/** The longest movement, in ms. */
export const MOTION_MS = 220;

const quiet = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

/**
 * Whether the person asked their system for less motion.
 * @returns {boolean}
 */
export function reduced() {
  return Boolean(quiet && quiet.matches);
}

/**
 * Move an element from where `from` was to where it is now.
 * @param {Element} el
 * @param {DOMRect | null | undefined} from
 */
export function flyFrom(el, from) {
  if (reduced() || !from || typeof el.animate !== 'function') return;
  const to = el.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: 0.6 }, { transform: 'none', opacity: 1 }], { duration: MOTION_MS, easing: 'ease-out' });
}

/**
 * Let an element appear where it is (a new row, a judgement).
 * @param {Element} el
 */
export function appear(el) {
  if (reduced() || typeof el.animate !== 'function') return;
  el.animate([{ transform: 'translateY(-0.5rem) scale(0.96)', opacity: 0 }, { transform: 'none', opacity: 1 }], { duration: MOTION_MS, easing: 'ease-out' });
}

/** Finish every running movement at once (a key or a click skips them). */
export function skipMotion() {
  if (typeof document.getAnimations !== 'function') return;
  for (const a of document.getAnimations()) {
    try {
      if (a.playState === 'running') a.finish();
    } catch {
      // an endless animation cannot finish; it is none of ours
    }
  }
}

if (typeof document !== 'undefined') {
  document.addEventListener('keydown', skipMotion, true);
  document.addEventListener('pointerdown', skipMotion, true);
}

// Which board draws which game. A game without its own board uses the generic one.

/**
 * @typedef {import('./base.js').GameEvent} GameEvent
 * @typedef {import('./base.js').Translate} Translate
 * @typedef {(e: GameEvent, t: Translate, players: string[], view?: any) => string | null} EventText
 * @typedef {{tag: string, eventText: EventText}} BoardModule
 */

/** Games with a board of their own (the module is boards/<game>.js). */
export const BOARDS = ['numeron', 'daifugo', 'stud10', 'hilo', 'smuggling', 'pandemic', 'chairs'];

/**
 * Load a game's board: its custom element's tag name and its event translator.
 * @param {string} game
 * @returns {Promise<BoardModule>}
 */
export async function loadBoard(game) {
  if (BOARDS.includes(game)) {
    const module = await import(`./${game}.js`);
    return { tag: `dennou-board-${game}`, eventText: module.eventText || (() => null) };
  }
  await import('./generic.js');
  return { tag: 'dennou-board-generic', eventText: () => null };
}

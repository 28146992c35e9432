// Which board draws which game: the host names each game's board module (`board` in
// /api/games, from the game's spec); the generic one draws any game from its views.

/**
 * @typedef {import('./base.js').GameEvent} GameEvent
 * @typedef {import('./base.js').Translate} Translate
 * @typedef {(e: GameEvent, t: Translate, players: string[], view?: any) => string | null} EventText
 * @typedef {{tag: string, eventText: EventText}} BoardModule
 */

/**
 * Load a board module by name (boards/<board>.js): its custom element's tag name and its event
 * translator.
 * @param {string | undefined} board the module name the host gives for the game
 * @returns {Promise<BoardModule>}
 */
export async function loadBoard(board) {
  if (board && board !== 'generic' && /^[a-z][a-z0-9_]*$/.test(board)) {
    const module = await import(`./${board}.js`);
    return { tag: `dennou-board-${board}`, eventText: module.eventText || (() => null) };
  }
  await import('./generic.js');
  return { tag: 'dennou-board-generic', eventText: () => null };
}

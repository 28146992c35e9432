// The replay page (/games/{id}, /replay). Built in the next step of issue 13; for now it says so.

import { h } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { startPage } from '../lib/page.js';

const { main } = await startPage('replay.title');
main.append(h('h1', {}, t('replay.title')), h('p', {}, t('replay.not_yet')));

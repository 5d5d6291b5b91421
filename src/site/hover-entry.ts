// Browser entry of assets/hover.js: byte/tree hover linking on the static API pages.
import { attachAll } from './hover.js';

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => attachAll());
else attachAll();

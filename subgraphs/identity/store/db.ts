export { namedQuery as query } from '../../../lib/db/named-query.js';

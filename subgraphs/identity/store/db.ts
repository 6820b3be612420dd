export { namedQuery as query, toDate, toDateOrNull } from '../../../lib/db/named-query.js';

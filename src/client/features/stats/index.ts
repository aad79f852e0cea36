export { statsQuery } from './api';

export { settingsQuery } from './api';

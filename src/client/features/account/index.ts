export { useChangePassword, useSetDisplayName } from './api';

export {
  exportHref,
  importRunQuery,
  isBusy,
  useConfirmImport,
  useRefreshAfterImport,
  useStartImport,
} from './api';
export { TransferActions } from './transfer-actions';

// The admin's pin placement, kept out of index.ts so shopper screens do not load it.
export { PinEditor } from './pin-editor';

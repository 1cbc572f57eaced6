/** Tool annotation presets (the SDK's defaults assume destructive and open-world, so say it); declared with the operations. */
export { EDIT, PUBLISH, READ, SAVE } from '../../operations/operation.ts';

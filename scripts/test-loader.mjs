// The tests' TypeScript loader: `node --import ./scripts/test-loader.mjs --test <file>` runs the
// .ts sources as they are, as `--import tsx` does, at a fraction of tsx's start-up (the hooks below
// do one thing: strip the types). Stack traces point at the .ts lines (inline source maps).
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./test-loader-hooks.mjs', import.meta.url);

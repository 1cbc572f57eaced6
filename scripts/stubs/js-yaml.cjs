// Bundle-time stand-in for js-yaml: gray-matter loads it for its default YAML engine, which axme
// never uses (src/model/frontmatter.ts always passes the `yaml` package as the engine). Loading
// the real one costs ~100 KB of compile and an optional require of esprima on every start.
'use strict';
function unused() {
  throw new Error('internal: gray-matter default YAML engine called; axme passes its own engine');
}
module.exports = { safeLoad: unused, safeDump: unused, load: unused, dump: unused };

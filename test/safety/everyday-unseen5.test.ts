/**
 * A seventh day of commands, written before the guard ran from ground no earlier corpus drew on:
 * the command lines coding agents themselves ran inside their sessions — mini-swe-agent's
 * SWE-bench trajectories, Codex CLI's session plans, Claude Code transcripts and the lines issue
 * reports show (test/fixtures/safety/everyday-unseen5.txt, each group under a `#` line naming its
 * sources): `sed -n`, `nl -ba`, `rg -n`, `bash -lc '…'`, heredocs and `python - <<'PY'` scripts
 * writing files, `git checkout -- FILE`, the agent's own dev server killed by its port, the
 * edit-test loop. No line is denied or asked about. The lines the docs stop by design (a push from
 * main, the agent's own ~/.codex read, `manage.py migrate APP zero` after the line removed a sqlite
 * file: the guard cannot tell which database the app's settings name) are not in it. The false
 * alarm it found (an empty folder of the home's configuration removed: `rmdir ~/.pylint.d`) and the
 * line left asked are falsealarm7.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen5.txt', { name: 'the fifth unseen corpus', atLeast: 3000, infraAsks: false });

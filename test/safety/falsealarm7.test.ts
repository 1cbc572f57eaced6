/**
 * False alarms a seventh gathering of everyday command lines found (everyday-unseen5.txt: the
 * lines coding agents ran in their own sessions), each with the dangerous neighbours the same
 * rule must still deny — and the one it left, asked by design.
 */
import { testAsks, testHoles } from './context.ts';

testHoles({
  // families/empty-folders.ts: rmdir refuses a folder that holds anything; in the home's configuration it loses nothing
  "an empty folder of the home's configuration removed loses nothing": [
    ['rmdir /home/u/.pylint.d', 'rm -r /home/u/.pylint.d'],
    ['rmdir ~/.pylint.d', 'rm -d ~/.pylint.d'],
    ['rmdir -p ~/.config/tool/cache', 'rm -rf ~/.config/tool'],
    ['rmdir ~/.local/bin', 'rmdir ~/.local/bin && ln -s /tmp/x ~/.local/bin'],
    ['rmdir ~/.ssh', 'rmdir ~/.ssh; touch ~/.ssh'],
    ['rmdir ~/.pylint.d && mkdir -p ~/.pylint.d', 'rmdir ~/.pylint.d; echo x > ~/.pylint.d'],
    // the interpreters' own rmdir is read as rmdir; their recursive removal is not
    [`python3 -c "import os; os.rmdir('/home/u/.pylint.d')"`, `python3 -c "import shutil; shutil.rmtree('/home/u/.pylint.d')"`],
    [`node -e "require('fs').rmdirSync('/home/u/.cache-x')"`, `node -e "require('fs').rmdirSync('/home/u/.cache-x', {recursive: true})"`],
    // a system folder stays guarded even empty: programs across the machine expect it there
    ['rmdir ~/.npm/_logs', 'rmdir /etc/nginx/conf.d'],
    ['rmdir ~/.cache/pylint', 'sudo rmdir /root/.cache'],
  ],
});

testAsks({
  // left by design (families/infra-migrations.ts): the guard cannot tell that the database an app's
  // migrations are unapplied from is the scratch sqlite file the same line removed and remade —
  // settings may name a shared one — so `migrate APP zero` stays asked, whatever came before it
  "a migration's unapply is asked even after the line removed a sqlite file": [
    [
      'cd reproduction && rm db.sqlite3 && python3 manage.py migrate',
      'cd reproduction && rm db.sqlite3 && python3 manage.py migrate && python3 manage.py migrate fonte zero',
    ],
    ['python3 manage.py migrate fonte 0001', 'rm -f db.sqlite3; python manage.py migrate app zero'],
    ['python3 manage.py showmigrations fonte', 'python3 manage.py migrate fonte zero'],
  ],
});

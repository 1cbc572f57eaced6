/**
 * A glob whose name ends in `*` names no extension in particular: `tail logs/app-*`, `zcat
 * /var/log/syslog.*`, `mocha test/test-*` read what the glob was written for, though `app-x.pem`
 * could exist — as `cat dir/*` does; so does a name closed by an unknown expansion (`tail -f
 * "logs/app.$(date +%F)"`) (docs/safety.md "Paths"). A glob that writes part of a
 * secret's extension or name out still names it (`cat *.p*`, `cat key.pem*`, `cat .env*`,
 * `cat id_*`), and so does a listed folder's glob (`cat ~/.ssh/*`). Found as false alarms in the
 * scripts of the packages under node_modules (`run-s build:*`, `mocha test/test-*`).
 */
import { testHoles } from './context.ts';

testHoles({
  'a closing * supplies no secret extension': [
    ['tail -n 50 logs/app-*', 'tail -n 50 logs/*.pem'],
    ['zcat /var/log/syslog.*', 'cat certs/*.p*'],
    ['less /var/log/nginx/access.log.*', 'less deploy/key.pem*'],
    ['mocha test/test-*', 'mocha test/.env*'],
    ['vitest run test/unit-*', 'cat secrets/*.ke*'],
    ['grep ERROR logs/2024-*', 'grep ERROR config/*.key'],
    ['head migrations/0001_*', 'head ~/.ssh/*'],
    ['cat dist/main-*', 'cat dist/id_*'],
    ['run-s build:*', 'cat build/*.p12'],
    ['cp fixtures/user-* /tmp/', 'cp fixtures/*.pfx /tmp/'],
    ['cat coverage/lcov-report/index.*', 'cat coverage/.env.*'],
    ['cat *.*', 'cat *.pe?'],
    ['find . -name "app-*" | xargs cat', 'find . -name "*.pe*" | xargs cat'],
    ['tar czf out.tgz src/app-*', 'tar czf out.tgz src/*.key'],
  ],
  'a closing unknown supplies no secret extension either': [
    ['tail -f "logs/app.$(date +%F)"', 'tail -f "logs/app.$(date +%F).pem"'],
    ['cat "v.$(git rev-parse --short HEAD)"', 'cat "$X".pem'],
    ['cat "build.$N"', 'cat "build.p$N"'],
    ['go run x.go "hotfix.$(date +%s)"', 'cat .env.$STAGE'],
    ['cat "$DIR/report.$EXT"', 'cat "id_rsa.$X"'],
  ],
});

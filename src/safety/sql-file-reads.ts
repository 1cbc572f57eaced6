import type { Invocation } from './command.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { plainWord } from './syntax.ts';

/**
 * The local files a database client reads on the server's behalf, named inside the SQL it is
 * handed: psql's `\copy t FROM 'file'` and `\i file` (`\ir`, `\include`), MySQL's and MariaDB's
 * `LOAD DATA LOCAL INFILE 'file'` and `source file`. The client opens the file and sends its
 * content to the server, wherever that is; so a secret named there is judged as `curl -T .env`
 * is, by the path rules. Their words are otherwise any program's (path-access.ts generic).
 */

const PSQL_READS = [/\\copy\b[^;\n]*?\bfrom\s+'([^']+)'/gi, /\\copy\b[^;\n]*?\bfrom\s+"([^"]+)"/gi, /\\(?:ir?|include(?:_relative)?)\s+'?([^\s';]+)/gi];
const MYSQL_READS = [/\bload\s+data\s+(?:low_priority\s+|concurrent\s+)?local\s+infile\s+(['"])(.+?)\1/gi, /(?:^|;)\s*(?:source|\\\.)\s+([^\s;]+)/gi];

function sqlReads(patterns: readonly RegExp[]) {
  return (inv: Invocation): PathUse[] => {
    const out = generic(inv);
    for (const w of inv.args) {
      if (!/\\|infile|source/i.test(w.value)) continue;
      for (const re of patterns)
        for (const m of w.value.matchAll(re)) {
          const path = m[m.length - 1]!;
          out.push(use(plainWord(path), path, 'read'));
        }
    }
    return out;
  };
}

export const SQL_FILE_USES: Record<string, (inv: Invocation) => PathUse[]> = {
  psql: sqlReads(PSQL_READS),
  mysql: sqlReads(MYSQL_READS),
  mariadb: sqlReads(MYSQL_READS),
};

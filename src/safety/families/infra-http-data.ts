import { curlMethod } from '../request-hosts.ts';
import type { ArgsCheck, Hit } from './args.ts';
import { searchIndexDelete } from './infra-backups.ts';
import { readSql } from './infra-sql.ts';

/**
 * What a data store's HTTP API is told through curl that deletes in bulk (docs/safety.md, "Rule
 * families past the lists", infra): Elasticsearch's and OpenSearch's indices deleted
 * (infra-backups.ts searchIndexDelete); a collection or an index of a search engine or a vector
 * store deleted by its path — `DELETE …/collections/<name>` (Typesense, Qdrant, Chroma),
 * `DELETE …/indexes/<name>` (Meilisearch); a `_delete_by_query` that matches every document
 * (`match_all`, or no query at all); and SQL handed in a request's `query`, `q`, `sql` or `stmt`
 * parameter or JSON field (QuestDB's `/exec?query=`, ClickHouse's `?query=`, InfluxDB's `/query?q=`,
 * CrateDB's `_sql`), read as a database shell's SQL is (infra-sql.ts: `DROP TABLE`, `TRUNCATE`,
 * `DELETE` with no `WHERE`…). One document (`DELETE …/collections/c/documents/1`), a query with
 * a filter and a `SELECT` pass.
 */
export const httpDataWipe: ArgsCheck = (args) => searchIndexDelete(args) ?? collectionDelete(args) ?? deleteEverything(args) ?? httpSql(args);

/** The options whose value is a request's body or its form fields. */
const DATA_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '-F', '--form']);

/** The request's addresses (words with a scheme or a host and a path) and its data values. */
function request(args: readonly string[]): { urls: string[]; data: string[] } {
  const urls: string[] = [];
  const data: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (DATA_OPTIONS.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v !== undefined) data.push(v);
      continue;
    }
    if (name === '--url') {
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v !== undefined) urls.push(v);
      continue;
    }
    if (!a.startsWith('-') && /^(?:https?:\/\/)?[\w.\-[\]@]+(?::\d+)?\/\S*$/.test(a)) urls.push(a);
  }
  return { urls, data };
}

/** A URL's path segments, decoded. */
function segments(url: string): string[] {
  const path = /^(?:https?:\/\/)?[^/]+(\/[^?#]*)?/.exec(url)?.[1] ?? '';
  return path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

const COLLECTIONS = new Set(['collections', 'indexes']);

/** `curl -X DELETE …/collections/<name>`, `…/indexes/<name>`: the collection or index and every document in it. */
function collectionDelete(args: readonly string[]): Hit | null {
  if (curlMethod(args)?.toUpperCase() !== 'DELETE') return null;
  for (const url of request(args).urls) {
    const s = segments(url);
    if (s.length >= 2 && COLLECTIONS.has(s[s.length - 2]!))
      return hit(`curl -X DELETE …/${s[s.length - 2]}/<name>`, 'deletes a collection or an index and every document in it');
  }
  return null;
}

/** `…/_delete_by_query` with a query that matches every document (`match_all`) or none given. */
function deleteEverything(args: readonly string[]): Hit | null {
  const { urls, data } = request(args);
  if (!urls.some((u) => segments(u).at(-1) === '_delete_by_query')) return null;
  const body = data.join(' ');
  return !/"query"/.test(body) || /match_all/.test(body) ? hit('curl …/_delete_by_query match_all', 'deletes every document of the indices it names') : null;
}

/** The parameter and field names that carry a statement to a database's HTTP API. */
const SQL_FIELDS = new Set(['query', 'q', 'sql', 'stmt', 'statement']);

/** SQL in a `query=`/`q=`/`sql=` parameter (the URL's or the data's) or a JSON field of those names, read as SQL. */
function httpSql(args: readonly string[]): Hit | null {
  const { urls, data } = request(args);
  const texts: string[] = [];
  const fields = (pairs: string) => {
    for (const pair of pairs.split('&')) {
      const eq = pair.indexOf('=');
      if (eq <= 0 || !SQL_FIELDS.has(pair.slice(0, eq))) continue;
      try {
        texts.push(decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' ')));
      } catch {
        texts.push(pair.slice(eq + 1));
      }
    }
  };
  for (const u of urls) if (u.includes('?')) fields(u.slice(u.indexOf('?') + 1));
  for (const d of data) {
    if (d.trimStart().startsWith('{')) {
      try {
        const json = JSON.parse(d) as Record<string, unknown>;
        for (const [k, v] of Object.entries(json)) if (SQL_FIELDS.has(k) && typeof v === 'string') texts.push(v);
      } catch {
        // not JSON: no field read
      }
      continue;
    }
    // `--data-urlencode 'query=DROP TABLE t'`: the value as written
    const eq = d.indexOf('=');
    if (eq > 0 && SQL_FIELDS.has(d.slice(0, eq))) texts.push(d.slice(eq + 1));
    else fields(d);
  }
  if (!texts.length) return null;
  const wipe = readSql(texts, { mysql: true }).wipes[0];
  return wipe
    ? hit(
        `curl … ${wipe.what}`,
        `hands a database's HTTP API \`${wipe.what}${wipe.tables.length ? ` ${wipe.tables.slice(0, 3).join(', ')}` : ''}\`, which deletes data in bulk`,
      )
    : null;
}

function hit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}; only a backup brings it back` };
}

/**
 * The MCP sessions `axme serve --http` holds, by id and by token: at most `max` in all and
 * `perToken` for one token (the sessions being initialised counted too), so one token cannot
 * take the places every other token needs. A token at its limit makes room by closing its own
 * least recently used session with no request in flight; when every one of them is busy, the new
 * one is refused.
 */

/** What the table needs of a session. */
export interface HeldSession {
  /** the MCP session id (null until initialize is answered) */
  id: string | null;
  /** the identity of the token that opened it (its hash: never its name, which a revoked token's successor may take; '' for an open loopback server's callers) */
  token: string;
  /** when a request last came for it (ms) */
  lastSeen: number;
  /** requests of it in flight (POSTs; the event stream's GET is not one) */
  busy: number;
}

export type Room = { ok: true } | { ok: false; status: 429 | 503; retryAfterS: number; message: string };

/** The sessions table of one server. */
export interface SessionTable<S extends HeldSession> {
  /** the registered session `id` */
  get(id: string): S | undefined;
  /** makes a place for a new session of `token` (evicting with `evict`), or says why there is none */
  makeRoom(token: string, evict: (s: S) => void): Room;
  /** holds a session being initialised */
  add(s: S): void;
  /** registers `s` under its new id */
  register(s: S, id: string): void;
  /** forgets `s` (closed, or its initialize failed); false when it was not held */
  remove(s: S): boolean;
  /** the registered sessions */
  all(): S[];
}

/** A table of at most `max` sessions, `perToken` for each token. */
export function sessionTable<S extends HeldSession>(opts: { max: number; perToken: number }): SessionTable<S> {
  const byId = new Map<string, S>();
  const byToken = new Map<string, Set<S>>();
  let count = 0;
  return {
    get: (id) => byId.get(id),
    makeRoom(token, evict) {
      const own = byToken.get(token);
      if (own && own.size >= opts.perToken) {
        let oldest: S | null = null;
        for (const s of own) if (s.id !== null && s.busy === 0 && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s;
        if (!oldest)
          return {
            ok: false,
            status: 429,
            retryAfterS: 5,
            message: `this token holds ${opts.perToken} sessions, each with a request in flight: wait for one to finish, or close one (DELETE /mcp); --sessions-per-token on the server raises the limit`,
          };
        evict(oldest);
      }
      if (count >= opts.max) return { ok: false, status: 503, retryAfterS: 30, message: `the server holds ${opts.max} sessions: try again later` };
      return { ok: true };
    },
    add(s) {
      let own = byToken.get(s.token);
      if (!own) byToken.set(s.token, (own = new Set()));
      if (!own.has(s)) count++;
      own.add(s);
    },
    register(s, id) {
      s.id = id;
      byId.set(id, s);
    },
    remove(s) {
      if (s.id !== null && byId.get(s.id) === s) byId.delete(s.id);
      const own = byToken.get(s.token);
      if (!own?.delete(s)) return false;
      count--;
      if (!own.size) byToken.delete(s.token);
      return true;
    },
    all: () => [...byId.values()],
  };
}

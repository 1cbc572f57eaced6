/** The names a request for this machine carries in its Host header (no port; IPv6 in brackets). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** True when `host` (a name or an address, without port; IPv6 with or without brackets) names this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

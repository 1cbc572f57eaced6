/** True when `host` (a name or an address, without port; IPv6 with or without brackets) names this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

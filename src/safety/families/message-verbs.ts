/**
 * `publish` as some programs use it: a message sent to a topic's or a channel's subscribers
 * (docs/safety.md, "How an unknown command is judged") — a notification, as a chat webhook's
 * post is, not a release others install from. What the message carries is the exfiltration
 * rule's (`--message "$(env)"` stays denied); the unknown-command rule does not read the word as
 * the publish family's verb. A program's entry lists the words that must stand right before the
 * verb (`sns publish`: `aws sns publish`, not `aws publish`).
 */
const MESSAGE_VERBS: Readonly<Record<string, readonly string[]>> = {
  // Amazon SNS topics (one message, a batch), AWS IoT's MQTT topics
  aws: ['sns publish', 'sns publish-batch', 'iot-data publish'],
  // Azure Event Grid's events to a topic
  az: ['eventgrid event publish'],
  // Redis pub/sub: a message to a channel's subscribers, kept nowhere
  'redis-cli': ['publish', 'spublish'],
  'valkey-cli': ['publish', 'spublish'],
  // push notifications and message buses: a message to a topic's subscribers (network-sinks.ts reads what it carries)
  ntfy: ['publish', 'pub', 'send', 'trigger'],
  nats: ['publish', 'pub'],
};

/** The entries split into words once: each a verb and the words that must stand right before it. */
const ENTRIES = new Map(Object.entries(MESSAGE_VERBS).map(([program, list]) => [program, list.map((e) => e.split(' '))]));

/** Whether the subcommand word `path[at]` of `program` sends a message to subscribers (`aws sns publish`, `redis-cli publish ch hi`). */
export function messageVerb(program: string, path: readonly string[], at: number): boolean {
  const entries = ENTRIES.get(program);
  if (!entries) return false;
  return entries.some((words) => {
    const before = words.length - 1;
    return at >= before && words.every((w, k) => path[at - before + k] === w);
  });
}

/**
 * The positions of the positive scores, highest first (the lower position first on a tie): the
 * best `first` or so sorted from one pass that finds the `first`-th score, then — only when they
 * are all taken — the others from a heap. The same order as a sort of them all.
 */
export function* bestFirst(score: Float32Array, first: number): Generator<number> {
  const atLeast = nthHighest(score, first);
  const best: number[] = [];
  for (let i = 0; i < score.length; i++) if (score[i]! >= atLeast && score[i]! > 0) best.push(i);
  yield* best.sort((a, b) => score[b]! - score[a]! || a - b);
  const rest = new Int32Array(score.length);
  let count = 0;
  for (let i = 0; i < score.length; i++) if (score[i]! < atLeast && score[i]! > 0) rest[count++] = i;
  yield* descending(score, rest.subarray(0, count));
}

/** The `n`-th highest of `score` (the lowest when there are fewer): a pass keeping the best `n` in a small min-heap. */
function nthHighest(score: Float32Array, n: number): number {
  const heap = new Float32Array(Math.max(1, Math.min(n, score.length)));
  let size = 0;
  const down = () => {
    for (let c = 0; ; ) {
      const l = 2 * c + 1;
      const r = l + 1;
      let m = c;
      if (l < size && heap[l]! < heap[m]!) m = l;
      if (r < size && heap[r]! < heap[m]!) m = r;
      if (m === c) return;
      const t = heap[c]!;
      heap[c] = heap[m]!;
      heap[m] = t;
      c = m;
    }
  };
  for (let i = 0; i < score.length; i++) {
    const x = score[i]!;
    if (size < heap.length) {
      // up: the new score to its place above the larger ones
      let c = size++;
      heap[c] = x;
      while (c > 0 && heap[(c - 1) >> 1]! > heap[c]!) {
        const p = (c - 1) >> 1;
        heap[c] = heap[p]!;
        heap[p] = x;
        c = p;
      }
    } else if (x > heap[0]!) {
      heap[0] = x;
      down();
    }
  }
  return size ? heap[0]! : Number.POSITIVE_INFINITY;
}

/**
 * The positions `candidates` by `score`, highest first (the lower position first on a tie), one
 * at a time from a binary heap made in one pass: taking the best m of N costs N + m log N.
 */
function* descending(score: Float32Array, candidates: Int32Array): Generator<number> {
  const heap = candidates;
  let size = heap.length;
  const above = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && a < b);
  const down = (from: number) => {
    for (let c = from; ; ) {
      const l = 2 * c + 1;
      const r = l + 1;
      let m = c;
      if (l < size && above(heap[l]!, heap[m]!)) m = l;
      if (r < size && above(heap[r]!, heap[m]!)) m = r;
      if (m === c) return;
      const t = heap[c]!;
      heap[c] = heap[m]!;
      heap[m] = t;
      c = m;
    }
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) down(i);
  while (size > 0) {
    const top = heap[0]!;
    heap[0] = heap[--size]!;
    down(0);
    yield top;
  }
}

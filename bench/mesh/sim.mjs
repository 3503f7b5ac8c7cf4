// The mesh routing simulator (bench/mesh): generated topologies of phones in radio range of each other, and an
// event simulation of one envelope at a time spreading through them under a routing rule. The rules call the
// client's own decisions in web/app/mesh/logic.ts (SeenIds, forwardEnvelope, firstHearing, hearCopy, relayWait,
// listenAgain, shouldRelay).
import {
  firstHearing,
  forwardEnvelope,
  hearCopy,
  listenAgain,
  MAX_TTL,
  relayWait,
  SeenIds,
  shouldRelay,
} from "../../web/app/mesh/logic.ts";

/** The client's rule before managed flooding: relay the first copy at once, starting with 8 hops to live. */
const PREVIOUS_TTL = 8;

/** A small seeded generator, so every run measures the same topologies and losses. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Links between points closer than `range` (a grid of buckets keeps a town of thousands fast). */
function linkByRange(points, range) {
  const cell = new Map();
  const key = (x, y) => `${Math.floor(x / range)},${Math.floor(y / range)}`;
  points.forEach(([x, y], i) => {
    const k = key(x, y);
    if (!cell.has(k)) cell.set(k, []);
    cell.get(k).push(i);
  });
  const adj = points.map(() => []);
  points.forEach(([x, y], i) => {
    const cx = Math.floor(x / range);
    const cy = Math.floor(y / range);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (const j of cell.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (j !== i && (points[j][0] - x) ** 2 + (points[j][1] - y) ** 2 <= range * range) adj[i].push(j);
        }
  });
  return adj;
}

/** Phones scattered over a square of `side` metres, linked within `range` metres. */
export function scattered(n, side, range, random) {
  return linkByRange(
    Array.from({ length: n }, () => [random() * side, random() * side]),
    range,
  );
}

/** A road: phones one after another, each reaching the next one or two. */
export function chain(n, random) {
  return linkByRange(
    Array.from({ length: n }, (_, i) => [i * 10 + random() * 4, random() * 4]),
    18,
  );
}

/** Dense groups (compounds, a church, a bus park) 50 m apart in a ring, each joined to the next by 3 phones between. */
export function clusters(groups, perGroup, random) {
  const points = [];
  const R = 50 / (2 * Math.sin(Math.PI / groups));
  const at = (a) => [R * Math.cos(a), R * Math.sin(a)];
  for (let g = 0; g < groups; g++) {
    const [cx, cy] = at((2 * Math.PI * g) / groups);
    for (let i = 0; i < perGroup; i++) points.push([cx + (random() - 0.5) * 16, cy + (random() - 0.5) * 16]);
    const [nx, ny] = at((2 * Math.PI * (g + 1)) / groups);
    for (const f of [0.25, 0.5, 0.75]) points.push([cx + (nx - cx) * f + random() - 0.5, cy + (ny - cy) * f + random() - 0.5]);
  }
  return linkByRange(points, 15);
}

/** A binary heap of timed events. */
class Events {
  items = [];
  push(e) {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p].t <= a[i].t) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop() {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].t < a[m].t) m = l;
        if (r < a.length && a[r].t < a[m].t) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
  get size() {
    return this.items.length;
  }
}

/**
 * The rules compared. `ttl` is what the sender starts with; `managed` relays after a wait (and a second one
 * when listenAgain asks for it) only when shouldRelay says so, otherwise a node relays the first copy it hears
 * at once.
 */
export const RULES = {
  flood: { label: `flooding (every node relays once, TTL ${MAX_TTL})`, ttl: MAX_TTL, managed: false },
  current: { label: `previous client rule (dedupe, TTL ${PREVIOUS_TTL})`, ttl: PREVIOUS_TTL, managed: false },
  managed: {
    label: `managed flooding (wait, second round for 1–2 uncovered, neighbour-aware, TTL ${MAX_TTL})`,
    ttl: MAX_TTL,
    managed: true,
  },
};

/**
 * One envelope from `source` through `adj`. `online[i]` false keeps a phone out (churn); each reception is lost
 * with probability `loss`. Returns how many online phones besides the source got it, and how many relays it took.
 */
export function spread(adj, rule, { source, online, loss, random, id, lost = () => random() < loss }) {
  const hop = (i) => `n${i}`;
  const seen = new Map(); // node -> SeenIds (the client keeps one per node)
  const hearing = new Map();
  const events = new Events();
  let relays = 0;
  let delivered = 0;
  const transmit = (t, from, env) => {
    for (const to of adj[from]) {
      if (!online[to] || lost(from, to)) continue;
      events.push({ t: t + 20 + random() * 20, kind: "rx", node: to, from, env });
    }
  };
  const seenBy = (node) => {
    if (!seen.has(node)) seen.set(node, new SeenIds());
    return seen.get(node);
  };
  seenBy(source).add(id);
  transmit(0, source, { id, ttl: rule.ttl, meshRoute: [hop(source)] });
  while (events.size) {
    const e = events.pop();
    if (e.kind === "rx") {
      const first = seenBy(e.node).add(e.env.id);
      if (first) delivered++;
      if (!rule.managed) {
        const next = first ? forwardEnvelope(e.env, hop(e.node)) : null;
        if (next) {
          relays++;
          transmit(e.t, e.node, next);
        }
        continue;
      }
      if (first) {
        const h = firstHearing(e.node, e.env, e.from, adj[e.from]);
        hearing.set(e.node, h);
        events.push({ t: e.t + relayWait(h, adj[e.node], random), kind: "fire", node: e.node });
      } else if (hearing.has(e.node)) hearCopy(hearing.get(e.node), e.env, e.from, adj[e.from]);
    } else {
      const h = hearing.get(e.node);
      const next = forwardEnvelope(h.envelope, hop(e.node));
      const more = next ? listenAgain(h, adj[e.node], random) : 0;
      if (more > 0) {
        events.push({ t: e.t + more, kind: "fire", node: e.node });
        continue;
      }
      hearing.delete(e.node);
      if (next && shouldRelay(h, adj[e.node])) {
        relays++;
        transmit(e.t, e.node, next);
      }
    }
  }
  return { delivered, relays };
}

/** Runs `messages` envelopes from random online sources; churn takes a share of phones offline per message. */
/** A uniform number in [0, 1) fixed by its inputs (an integer hash, so no stream order is involved). */
function unit(...parts) {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return (h >>> 0) / 4294967296;
}

export function measure(adj, rule, { messages, loss = 0, churn = 0, seed = 1 }) {
  // Who is away and who sends come from their own stream, so every rule faces the same senders on the same
  // topology; the losses and waits draw from another, which moves with the rule's own events.
  const draw = rng(seed);
  const random = rng(seed ^ 0x5bd1e995);
  let delivered = 0;
  let possible = 0;
  let relays = 0;
  for (let m = 0; m < messages; m++) {
    const online = adj.map(() => draw() >= churn);
    const candidates = online.flatMap((on, i) => (on ? [i] : []));
    const source = candidates[Math.floor(draw() * candidates.length)];
    // A phone sends each message at most once under every rule, so whether a link drops it is fixed per message,
    // sender and receiver: every rule meets the same radio weather.
    const lost = (from, to) => loss > 0 && unit(seed, m, from, to) < loss;
    const r = spread(adj, rule, { source, online, loss, random, lost, id: `m${m}` });
    delivered += r.delivered;
    relays += r.relays;
    possible += candidates.length - 1;
  }
  return { ratio: delivered / possible, relaysPerDelivered: relays / Math.max(1, delivered) };
}

// bench/mesh: delivery ratio and relays per delivered message of the client's mesh routing rule against plain
// flooding and the previous rule, over generated topologies with churn and lossy links (bench/mesh/sim.mjs).
// Writes the "mesh" section of bench/README.md. Goal (issue 19): the delivery of flooding with at most half its relays.
import { writeSection } from "../readme.mjs";
import { chain, clusters, measure, RULES, rng, scattered } from "./sim.mjs";

const SCENARIOS = [
  { name: "market: 200 phones, 60 m square, 15 m range", build: (r) => scattered(200, 60, 15, r), messages: 40 },
  { name: "market, 20% of links lossy", build: (r) => scattered(200, 60, 15, r), messages: 40, loss: 0.2 },
  { name: "market, 30% of phones away (churn)", build: (r) => scattered(200, 60, 15, r), messages: 40, churn: 0.3 },
  { name: "town: 2,000 phones, 1.2 km square, 60 m range", build: (r) => scattered(2000, 1200, 60, r), messages: 15 },
  { name: "town, 20% lossy and 20% churn", build: (r) => scattered(2000, 1200, 60, r), messages: 15, loss: 0.2, churn: 0.2 },
  { name: "chain: 40 phones along a road", build: (r) => chain(40, r), messages: 40 },
  { name: "chain, 10% lossy", build: (r) => chain(40, r), messages: 40, loss: 0.1 },
  { name: "clusters: 8 groups of 25 joined by 3 phones", build: (r) => clusters(8, 25, r), messages: 40 },
  { name: "clusters, 20% lossy and 20% churn", build: (r) => clusters(8, 25, r), messages: 40, loss: 0.2, churn: 0.2 },
];

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const rows = [];
let met = true;
for (const [i, s] of SCENARIOS.entries()) {
  const adj = s.build(rng(100 + i));
  const degree = adj.reduce((n, a) => n + a.length, 0) / adj.length;
  const result = {};
  for (const [key, rule] of Object.entries(RULES)) result[key] = measure(adj, rule, { ...s, seed: 7 + i });
  const { flood, current, managed } = result;
  // "Same delivery": within one percentage point of flooding. Along a road (about two neighbours each) every
  // phone is the only way on, so no rule can drop relays there without dropping delivery: delivery alone counts.
  const sparse = degree < 4;
  const ok = managed.ratio >= flood.ratio - 0.01 && (sparse || managed.relaysPerDelivered <= flood.relaysPerDelivered / 2);
  met &&= ok;
  rows.push(
    `| ${s.name} | ${degree.toFixed(1)} | ${pct(flood.ratio)} / ${flood.relaysPerDelivered.toFixed(2)} | ${pct(current.ratio)} / ${current.relaysPerDelivered.toFixed(2)} | ${pct(managed.ratio)} / ${managed.relaysPerDelivered.toFixed(2)} | ${ok ? "yes" : "no"} |`,
  );
  console.log(rows.at(-1));
}

const date = new Date().toISOString().slice(0, 10);
writeSection(
  "mesh",
  `Measured ${date} with \`npm run bench -- mesh\` (a seeded simulation, the same numbers on every machine).

- Each rule runs the client's own decisions from \`web/app/mesh/logic.ts\` (\`SeenIds\`, \`forwardEnvelope\`, and for
  managed flooding \`firstHearing\`, \`hearCopy\`, \`relayWait\`, \`listenAgain\`, \`shouldRelay\`) in an event simulation (\`bench/mesh/sim.mjs\`): phones
  in radio range hear each broadcast 20–40 ms later; a lossy link drops each reception with the given chance;
  churn takes a share of phones away for each message. Known neighbour lists are the whole topology (stale under
  churn), as periodic hellos would leave them.
- Delivery is the share of the phones present that got the message; relays count every rebroadcast but the sender's.
- Rules: ${Object.values(RULES)
    .map((r) => r.label)
    .join("; ")}.
- Goal: managed flooding delivers as flooding does (within 1 point) with at most half its relays per delivered
  message; where phones have fewer than 4 neighbours on average (a road) only delivery counts, since each phone
  is the only way on.

| topology | mean neighbours | flooding: delivery / relays per delivered | previous rule | managed flooding | goal met |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

${met ? "Goal met in every topology." : "Goal not met everywhere: see the rows marked no."}`,
);

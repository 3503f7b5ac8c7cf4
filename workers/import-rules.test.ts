// The layout's import rules (docs/architecture.md §2) that the linter cannot say: no module reaches back into
// one that imports it. A circle makes load order decide what a module sees at start-up, and a type-only circle
// still ties two modules so neither can be read, moved or tested without the other: both count.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["core", "db", "workers", "durable-objects", "web/app"];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!["node_modules", "build", ".react-router"].includes(entry.name)) sources(path, out);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.|\.d\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Each module's imports of our own modules, type-only ones included. */
function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap((root) => sources(root));
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    if (!spec.startsWith(".")) return null;
    const base = join(dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => known.has(c)) ?? null;
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const deps = new Set<string>();
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+["']([^"']+)["']/g)) {
      const target = resolve(file, m[1]);
      if (target) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Strongly connected groups of more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import rules", () => {
  it("no modules import each other in a circle, not even for types", () => {
    expect(circles(importGraph())).toEqual([]);
  });

  it("finds a circle when there is one (the check can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("no module of durable-objects/ imports the Worker's modules", () => {
    const reaching = [...importGraph()].filter(
      ([file, deps]) => file.startsWith("durable-objects/") && deps.some((d) => d.startsWith("workers/")),
    );
    expect(reaching.map(([file]) => file)).toEqual([]);
  });
});

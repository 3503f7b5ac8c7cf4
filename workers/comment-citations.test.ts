// Comments cite what a reader can open in this repository: docs/ (docs/product/ for what the product does, says
// and charges; docs/architecture.md; docs/decisions/). A citation of a document outside it (the product brief
// LinkUp was first described in, a design or style note, an absolute path) sends the reader nowhere.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["core", "db", "workers", "durable-objects", "web", "tests", "bench", "scripts"];
const TOP_FILES = [
  "wrangler.toml",
  "vite.config.ts",
  "vitest.unit.config.ts",
  "vitest.workers.config.ts",
  "react-router.config.ts",
  "drizzle.config.ts",
];
const SKIP = new Set(["node_modules", "build", ".react-router", ".wrangler", ".out", "test-results", "playwright-report"]);
const SOURCE = /\.(?:ts|tsx|mts|js|mjs|cjs|css|sql|toml|sh)$/;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) sources(path, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The comment on a line: a whole comment line, or what follows ` // ` after code (not a URL's `//`). */
function commentOf(line: string): string | null {
  const trimmed = line.trim();
  if (/^(?:\/\/|\/\*|\*|#|--)/.test(trimmed)) return trimmed;
  const trailing = line.match(/(?<![:"'`\w])\/\/\s.*$/);
  return trailing ? trailing[0] : null;
}

const OUTSIDE: [string, RegExp][] = [
  ["the specification", /(?<![\w./-])spec(?:'s|s)?(?![\w.-])/i],
  ["DESIGN.md or STYLE.md", /\b(?:DESIGN|STYLE)\.md\b/],
  ["a path outside the repository", /(?:^|[\s(`'"])(?:\/work|\/home|\/tmp|\/Users|~)\/|\bshared\/spec\b/],
];

/** What a comment cites that a reader cannot open here, or a docs/ file that does not exist. */
function badCitations(comment: string, docExists: (path: string) => boolean): string[] {
  const found = OUTSIDE.filter(([, pattern]) => pattern.test(comment)).map(([what]) => what);
  for (const m of comment.matchAll(/\bdocs\/[\w./-]*\w\.md\b/g)) if (!docExists(m[0])) found.push(`${m[0]} (missing)`);
  return found;
}

describe("comment citations", () => {
  it("no source comment cites a document outside the repository or a docs/ file that is not there", () => {
    // This file is left out: its examples are the citations it refuses.
    const files = [...ROOTS.flatMap((root) => sources(root)), ...TOP_FILES.filter((f) => existsSync(f))].filter(
      (f) => f !== "workers/comment-citations.test.ts",
    );
    const problems: string[] = [];
    for (const file of files) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const comment = commentOf(line);
          if (!comment) return;
          for (const what of badCitations(comment, existsSync)) problems.push(`${file}:${i + 1}: ${what}`);
        });
    }
    expect(files.length).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  });

  it("catches the citations it is meant to (the check can fail)", () => {
    const none = () => false;
    expect(badCitations("// Toasts per spec part 1 §9: one at a time.", none)).toEqual(["the specification"]);
    expect(badCitations("/** The spec's defaults. */", none)).toEqual(["the specification"]);
    expect(badCitations("# Must match what workerd supports (DESIGN.md §13).", none)).toEqual(["DESIGN.md or STYLE.md"]);
    expect(badCitations("// as /work/shared/notes.md says", none)).toEqual(["a path outside the repository"]);
    expect(badCitations("// see docs/product/nowhere.md", none)).toEqual(["docs/product/nowhere.md (missing)"]);
    expect(commentOf('const url = "https://example.com"; // the spec says so')).toBe("// the spec says so");
    expect(commentOf('fetch("https://example.com/spec")')).toBeNull();
  });

  it("lets the repository's own citations and test file names through", () => {
    const all = () => true;
    expect(badCitations("// Toasts (docs/product/client-conventions.md): one at a time.", all)).toEqual([]);
    expect(badCitations("// As tests/e2e/offline.spec.ts checks, and docs/architecture.md §2 says.", all)).toEqual([]);
  });
});

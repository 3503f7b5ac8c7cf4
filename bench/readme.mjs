// Each benchmark owns one section of bench/README.md, between markers, and rewrites only that section.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const FILE = new URL("./README.md", import.meta.url);

/** The body of one section as last written, or null. */
export function readSection(name) {
  if (!existsSync(FILE)) return null;
  const m = readFileSync(FILE, "utf8").match(new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`));
  return m ? m[1] : null;
}

export function writeSection(name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmarks\n";
  const block = `${start}\n${body.trim()}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  text = re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n## ${name}\n\n${block}\n`;
  writeFileSync(FILE, text);
}

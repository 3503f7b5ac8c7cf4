// Each benchmark owns one section of bench/README.md, between markers, and rewrites only that section.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const FILE = new URL("./README.md", import.meta.url);

export function writeSection(name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmarks\n";
  const block = `${start}\n${body.trim()}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  text = re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n## ${name}\n\n${block}\n`;
  writeFileSync(FILE, text);
}

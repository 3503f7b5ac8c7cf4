// A page's messages as one string in the root loader's data (docs/decisions/078-each-page-carries-its-own-words.md):
// "key=message" a line. React Router's data stream writes an object of N messages as 2N strings plus a map of
// indexes, each quote escaped twice; one string is measured at about a third less, gzipped, than that object.
// A plural message is "key=={json}". Keys never hold "=" and messages never hold a line break (words-codec.test.ts).
import type { Message } from "../../../core/i18n/translate";

export function encodeWords(messages: Record<string, Message | undefined>): string {
  let out = "";
  for (const [key, message] of Object.entries(messages)) {
    if (message === undefined) continue;
    out += `${out ? "\n" : ""}${key}=${typeof message === "string" ? message : `=${JSON.stringify(message)}`}`;
  }
  return out;
}

export function decodeWords(text: string): Record<string, Message> {
  const messages: Record<string, Message> = {};
  if (!text) return messages;
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    const value = line.slice(eq + 1);
    messages[line.slice(0, eq)] = value.startsWith("=") ? (JSON.parse(value.slice(1)) as Message) : value;
  }
  return messages;
}

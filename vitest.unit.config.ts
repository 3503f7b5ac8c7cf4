// Unit tests in Node: pure modules of core/, the client's helpers, and the query modules on libSQL.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{core,db,web,workers,durable-objects,bench}/**/*.test.{ts,tsx}"],
    exclude: ["**/*.worker.test.ts", "node_modules/**"],
    environment: "node",
  },
});

import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "web/app",
  // Browser tests and benchmarks build into their own folder so parallel runs never share one.
  buildDirectory: process.env.LINKUP_BUILD_DIR ?? "build",
  ssr: true,
} satisfies Config;

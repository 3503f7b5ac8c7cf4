// The worker test configuration, running only this benchmark's measurement (bench/presence/run.mjs).
import workers from "../../vitest.workers.config";

export default { ...workers, test: { ...workers.test, include: ["bench/presence/*.worker.test.ts"] } };

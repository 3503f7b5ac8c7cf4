// The story pages' live figures (founder, showcase): the same public counts as the landing page.
import type { PublicStats } from "../../../../core/api-types";
import { apiGet } from "../../lib/api.server";

export async function loadPublicStats(context: Parameters<typeof apiGet>[0]) {
  return { stats: (await apiGet<PublicStats>(context, "/api/stats/public")) as PublicStats };
}

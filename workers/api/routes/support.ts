// /api/support: the support bot (docs/product/assistant.md). Open to visitors who are not signed in; escalation opens a
// call-back ticket with the phone.
import { Hono } from "hono";
import { SalesEnquirySchema, SupportFollowupRequestSchema, SupportQueryRequestSchema } from "../../../core/ai-schemas";
import { salesEnquiry, supportFollowup, supportQuery } from "../../assistant";
import { staffList, staffSupportQueue } from "../../../db/queries/support";
import { requireStaff } from "../../auth/session";
import { supportPhone } from "../../contact-config";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { TicketReplySchema } from "../../../core/admin-schemas";
import { closeTicket, replyToTicket } from "../../admin/tickets";

export const support = new Hono<AppBindings>()
  // Staff's call-back queue: paying people first (Premium's priority support, docs/decisions/018-billing.md).
  .get("/tickets", async (c) => {
    const staff = requireStaff(c);
    const [rows, named] = await Promise.all([staffSupportQueue(c.var.db), staff.role === "admin" ? staffList(c.var.db) : []]);
    return c.json({
      // Whom an admin may name as a team's dedicated support.
      staff: named,
      tickets: rows.map((r) => ({
        ...r,
        // A team's ticket is Enterprise support, whatever the member's own tier (docs/decisions/067-enterprise-teams.md).
        tier: r.team ? "enterprise" : (r.tier ?? "free"),
        priority: Number(r.priority) >= 1,
        team: r.team ?? null,
        orgId: r.orgId ?? null,
        supportStaffId: r.team ? (r.supportStaffId ?? null) : null,
        supportStaff: r.team ? (r.supportStaff ?? null) : null,
        createdAt: r.createdAt.toISOString(),
      })),
    });
  })
  .post("/tickets/:id/reply", async (c) => {
    const staff = requireStaff(c);
    const body = await parseJson(c, TicketReplySchema);
    return c.json(await replyToTicket(c.env, c.var.db, staff, c.req.param("id"), body));
  })
  .post("/tickets/:id/close", async (c) => c.json(await closeTicket(c.var.db, requireStaff(c), c.req.param("id"))))
  .post("/query", async (c) => {
    const body = await parseJson(c, SupportQueryRequestSchema);
    return c.json(await supportQuery(c.env, c.var.db, { message: body.message, userPhone: body.userPhone || undefined, user: c.var.user }));
  })
  .post("/sales", async (c) => {
    const body = await parseJson(c, SalesEnquirySchema);
    return c.json(await salesEnquiry(c.var.db, { phone: body.phone, message: body.message, user: c.var.user }));
  })
  .post("/followup", async (c) => {
    const body = await parseJson(c, SupportFollowupRequestSchema);
    return c.json(
      await supportFollowup(c.var.db, {
        originalQuery: body.originalQuery,
        response: body.response,
        userPhone: body.userPhone || undefined,
        user: c.var.user,
        supportPhone: supportPhone(c.env),
      }),
    );
  });

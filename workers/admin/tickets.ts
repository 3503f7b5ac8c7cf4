// Staff answer support call-back tickets: the person reads the reply in the notification centre and by
// WhatsApp (SMS when WhatsApp fails), through the messaging adapter; every step audited.
import type { Db } from "../../db";
import { findTicket, setTicketStatus } from "../../db/queries/support";
import { findUserById, findUserByPhone } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { notify } from "../notifications";
import { sendMessage } from "../services/messaging";
import { auditAction } from ".";

async function ticketOrFail(db: Db, id: string) {
  const ticket = await findTicket(db, id);
  if (!ticket) throw new DomainError("ticket_not_found", "Ticket not found");
  return ticket;
}

export async function replyToTicket(env: AppEnv, db: Db, staff: User, id: string, input: { message: string; close: boolean }) {
  const ticket = await ticketOrFail(db, id);
  if (ticket.status !== "open") throw new DomainError("ticket_closed", "This ticket is already closed");
  // A ticket left by phone only (the support bot's call-back form) belongs to the account that owns the phone.
  const person = ticket.userId ? await findUserById(db, ticket.userId) : ticket.phone ? await findUserByPhone(db, ticket.phone) : undefined;
  const delivered = { notification: false, whatsapp: false, sms: false };
  if (person) {
    const result = await notify(env, db, person.id, {
      type: "system",
      title: "LinkUp support replied",
      content: input.message,
      priority: "high",
      url: "/support",
      source: "support",
    });
    delivered.notification = result.id !== null;
  }
  const phone = ticket.phone ?? (person?.authMode === "verified" ? person.phone : null);
  if (phone) {
    const body = `LinkUp support: ${input.message}`;
    const wa = await sendMessage(env, db, { to: phone, channel: "whatsapp", body });
    delivered.whatsapp = wa.status !== "failed";
    if (!delivered.whatsapp) delivered.sms = (await sendMessage(env, db, { to: phone, channel: "sms", body })).status !== "failed";
  }
  if (!delivered.notification && !delivered.whatsapp && !delivered.sms)
    throw new DomainError("reply_not_delivered", "The reply could not reach the person");
  const status = input.close ? "closed" : "open";
  if (input.close) await setTicketStatus(db, id, status);
  await auditAction(db, staff, "support.ticket_replied", id, { status: ticket.status }, { status }, { reply: input.message, delivered });
  return { id, status, delivered };
}

export async function closeTicket(db: Db, staff: User, id: string) {
  const ticket = await ticketOrFail(db, id);
  if (ticket.status !== "closed") {
    await setTicketStatus(db, id, "closed");
    await auditAction(db, staff, "support.ticket_closed", id, { status: ticket.status }, { status: "closed" });
  }
  return { id, status: "closed" as const };
}

import { Hono } from "hono";
import { normalizePhone } from "../../../core/phone";
import { ContactSchema, type EmergencyContactView, MAX_EMERGENCY_CONTACTS } from "../../../core/sos-schemas";
import { type ContactRow, countContacts, deleteContact, insertContact, listContacts, updateContact } from "../../../db/queries/emergency";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";

const view = (r: ContactRow): EmergencyContactView => ({ id: r.id, name: r.name, phone: r.phone });

async function parseContact(c: Parameters<typeof parseJson>[0]) {
  const body = await parseJson(c, ContactSchema);
  const phone = await normalizePhone(body.phone);
  if (!phone) throw new DomainError("phone_required", "Invalid request: phone: Enter a phone number");
  return { name: body.name, phone };
}

/** The emergency contacts an SOS messages (WhatsApp, or SMS when WhatsApp fails). */
export const contacts = new Hono<AppBindings>()
  .get("/contacts", async (c) => {
    const user = requireUser(c);
    return c.json({ contacts: (await listContacts(c.var.db, user.id)).map(view) });
  })
  .post("/contacts", async (c) => {
    const user = requireUser(c);
    const values = await parseContact(c);
    if ((await countContacts(c.var.db, user.id)) >= MAX_EMERGENCY_CONTACTS)
      throw new DomainError("contacts_limit", `You can keep at most ${MAX_EMERGENCY_CONTACTS} emergency contacts`, {
        values: { limit: MAX_EMERGENCY_CONTACTS },
      });
    return c.json({ contact: view(await insertContact(c.var.db, user.id, values)) }, 201);
  })
  .put("/contacts/:id", async (c) => {
    const user = requireUser(c);
    const values = await parseContact(c);
    const row = await updateContact(c.var.db, user.id, c.req.param("id"), values);
    if (!row) throw new DomainError("contact_not_found", "Contact not found");
    return c.json({ contact: view(row) });
  })
  .delete("/contacts/:id", async (c) => {
    const user = requireUser(c);
    if (!(await deleteContact(c.var.db, user.id, c.req.param("id")))) throw new DomainError("contact_not_found", "Contact not found");
    return c.json({ ok: true });
  });

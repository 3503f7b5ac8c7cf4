// /api/files (docs/decisions/023-encrypted-files-in-rooms.md): thin handlers over workers/files.
import { Hono } from "hono";
import { CreateUploadSchema, FILE_TEXTS, FileIdSchema, PartNumberSchema } from "../../core/files";
import type { User } from "../../db/schema";
import { requireUser } from "../auth/session";
import type { AppBindings } from "../env";
import { parseJson } from "../errors";
import { DomainError } from "../../core/domain-error";
import { completeUpload, createUpload, deleteFile, listFiles, openDownload, uploadedParts, uploadPart } from "./index";

function fileParam(id: string | undefined): string {
  const parsed = FileIdSchema.safeParse(id);
  if (!parsed.success) throw new DomainError("file_not_found", "File not found");
  return parsed.data;
}

/** Sending files needs a verified phone (docs/decisions/023-encrypted-files-in-rooms.md); screens title it 'Premium Feature'. */
function requireFileSender(user: User): User {
  if (user.authMode !== "verified")
    throw new DomainError("file_verify", FILE_TEXTS.verificationRequired, {
      title: FILE_TEXTS.premiumFeatureTitle,
    });
  return user;
}

export const filesApi = new Hono<AppBindings>()
  .get("/", async (c) => c.json({ files: await listFiles(c.var.db, requireUser(c)) }))
  .post("/", async (c) => {
    const user = requireFileSender(requireUser(c));
    const input = await parseJson(c, CreateUploadSchema);
    return c.json(await createUpload(c.env, c.var.db, user, input), 201);
  })
  .get("/:id/parts", async (c) => {
    const user = requireUser(c);
    return c.json({ parts: await uploadedParts(c.var.db, user, fileParam(c.req.param("id"))) });
  })
  .put("/:id/parts/:n", async (c) => {
    const user = requireFileSender(requireUser(c));
    const n = PartNumberSchema.safeParse(c.req.param("n"));
    if (!n.success) throw new DomainError("part_number_invalid", "Invalid part number");
    const part = await uploadPart(c.env, c.var.db, user, fileParam(c.req.param("id")), n.data, await c.req.arrayBuffer());
    return c.json(part);
  })
  .post("/:id/complete", async (c) => {
    const user = requireFileSender(requireUser(c));
    return c.json({ file: await completeUpload(c.env, c.var.db, user, fileParam(c.req.param("id"))) });
  })
  .get("/:id", async (c) => {
    const user = requireUser(c);
    const { body, size } = await openDownload(c.env, c.var.db, user, fileParam(c.req.param("id")));
    return new Response(body, {
      headers: { "content-type": "application/octet-stream", "content-length": String(size), "cache-control": "private, no-store" },
    });
  })
  .delete("/:id", async (c) => {
    const user = requireUser(c);
    await deleteFile(c.env, c.var.db, user, fileParam(c.req.param("id")));
    return c.json({ ok: true });
  });

// The Africa's Talking USSD callback. Its menus arrive with the feature-phone issue; until then it says so.
import { Hono } from "hono";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";

export const ussd = new Hono<AppBindings>().post("/", (c) => c.json({ error: "USSD menu is not available yet" }, 501));
ussd.onError(onError);
ussd.notFound(notFound);

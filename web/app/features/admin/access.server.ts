// The one guard of the staff and admin screens: the page asks the API who is signed in and refuses with a
// clear 401/403 page; the API's own guards decide every action (docs/decisions/019-staff-and-admins.md).
import { data } from "react-router";
import type { Me } from "../../../../core/api-types";
import { apiGet } from "../../lib/api.server";

type Ctx = Parameters<typeof apiGet>[0];

const WHO = {
  staff: { roles: ["staff", "admin"], signIn: "Sign in with a staff phone", refused: "Staff access required." },
  admin: { roles: ["admin"], signIn: "Sign in with an admin phone", refused: "Admin access required." },
} as const;

/** The signed-in person when their role may open the screen; otherwise throws the 401 or 403 page. */
export async function requireScreenRole(context: Ctx, role: keyof typeof WHO, screen: { opens: string; onlyFor: string }): Promise<Me> {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const who = WHO[role];
  if (!me) throw data({ message: `${who.signIn} to open ${screen.opens}.` }, { status: 401 });
  if (!(who.roles as readonly string[]).includes(me.user.role))
    throw data({ message: `${who.refused} ${screen.onlyFor}` }, { status: 403 });
  return me.user;
}

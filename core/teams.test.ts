// Who may do what in a team (docs/decisions/067-enterprise-teams.md): the one table the server decides by.
import { describe, expect, it } from "vitest";
import { formatInviteCode, TEAM_SEATS, teamRights } from "./teams";
import { PRICES_NGN } from "./constants";

describe("team rights", () => {
  it("give the owner everything but leaving, admins invite, remove members and change settings", () => {
    expect(teamRights("owner", "admins")).toEqual({
      invite: true,
      removeMembers: true,
      removeAdmins: true,
      changeSettings: true,
      changeRoles: true,
      leave: false,
    });
    expect(teamRights("admin", "admins")).toEqual({
      invite: true,
      removeMembers: true,
      removeAdmins: false,
      changeSettings: true,
      changeRoles: false,
      leave: true,
    });
  });

  it("let a member invite only when the team lets every member invite", () => {
    expect(teamRights("member", "admins").invite).toBe(false);
    expect(teamRights("member", "members")).toEqual({
      invite: true,
      removeMembers: false,
      removeAdmins: false,
      changeSettings: false,
      changeRoles: false,
      leave: true,
    });
  });
});

describe("seats and codes", () => {
  it("seat as many people as Enterprise costs Premium subscriptions", () => {
    expect(TEAM_SEATS).toBe(PRICES_NGN.enterprise.monthly / PRICES_NGN.premium.monthly);
    expect(Number.isInteger(TEAM_SEATS)).toBe(true);
  });

  it("show a code as two groups of five", () => {
    expect(formatInviteCode("ABCDE23456")).toBe("ABCDE-23456");
  });
});

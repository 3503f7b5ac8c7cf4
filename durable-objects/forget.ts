// What a room drops when a person deletes their account (docs/decisions/029-security-events-and-my-data.md): their envelopes and
// receipts, and any note naming them. A direct chat with them is theirs as much as the other person's, so it
// drops everything. Kept apart from mesh-room.ts, which only calls it.

/** Deletes the person's traces from the room's storage (or everything the room keeps, for `wholeRoom`). */
export function forgetPerson(sql: SqlStorage, userId: string, wholeRoom: boolean): void {
  if (wholeRoom) {
    sql.exec("DELETE FROM envelopes");
    sql.exec("DELETE FROM receipts");
    sql.exec("DELETE FROM meta");
    return;
  }
  sql.exec("DELETE FROM envelopes WHERE sender_id = ?", userId);
  sql.exec("DELETE FROM receipts WHERE user_id = ?", userId);
  sql.exec("DELETE FROM meta WHERE key LIKE ?", `%${userId}%`);
}

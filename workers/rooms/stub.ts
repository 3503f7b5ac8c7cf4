// The room's Durable Object by room id: one MeshRoom instance per id (docs/architecture.md §5).
export function roomStub(env: Pick<Env, "ROOMS">, roomId: string) {
  return env.ROOMS.get(env.ROOMS.idFromName(roomId));
}

import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";

describe("/v1/keys", () => {
  it("creates a key whose secret is shown once and works immediately", async () => {
    const caller = await seedCaller();
    const created = await api("/v1/keys", { key: caller, json: { name: "ci", scopes: ["images"] } });
    expect(created.status).toBe(201);
    const key = await created.json<{ key_id: string; secret: string; scopes: string[] }>();
    expect(key.secret).toMatch(/^ak_live_/);
    expect(key.scopes).toEqual(["images"]);

    const listed = await api("/v1/keys", { key: caller });
    const list = await listed.json<{ data: Record<string, unknown>[] }>();
    expect(list.data.map((k) => k.key_id)).toContain(key.key_id);
    expect(JSON.stringify(list)).not.toContain(key.secret);
    expect(JSON.stringify(list)).not.toContain("secret_hash");

    const scoped = await api("/v1/account", { key: key.secret });
    expect((await problemOf(scoped)).status).toBe(403);
  });

  it("revokes a key, effective on the next request, and revoking again is a no-op", async () => {
    const caller = await seedCaller();
    const second = await (await api("/v1/keys", { key: caller, json: {} })).json<{ key_id: string; secret: string }>();
    expect((await api("/v1/account", { key: second.secret })).status).toBe(200);

    const revoked = await api(`/v1/keys/${second.key_id}`, { key: caller, method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<{ revoked_at: string | null }>()).revoked_at).not.toBeNull();

    const after = await problemOf(await api("/v1/account", { key: second.secret }));
    expect(after.status).toBe(401);
    expect(after.detail).toMatch(/revoked/);
    expect((await api(`/v1/keys/${second.key_id}`, { key: caller, method: "DELETE" })).status).toBe(200);
  });

  it("refuses to revoke the account's last active key", async () => {
    const caller = await seedCaller();
    const res = await api(`/v1/keys/${caller.keyId}`, { key: caller, method: "DELETE" });
    expect((await problemOf(res)).status).toBe(409);
    expect((await api("/v1/account", { key: caller })).status).toBe(200);
  });

  it("does not reveal or revoke another account's key", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const res = await api(`/v1/keys/${theirs.keyId}`, { key: mine, method: "DELETE" });
    expect((await problemOf(res)).status).toBe(404);
    const list = await (await api("/v1/keys", { key: mine })).json<{ data: { key_id: string }[] }>();
    expect(list.data.map((k) => k.key_id)).not.toContain(theirs.keyId);
  });

  it("does not let a scoped key mint broader keys", async () => {
    const caller = await seedCaller({ scopes: ["keys", "images"] });
    expect((await problemOf(await api("/v1/keys", { key: caller, json: { scopes: ["pdf"] } }))).status).toBe(403);
    expect((await problemOf(await api("/v1/keys", { key: caller, json: {} }))).status).toBe(403);
    expect((await api("/v1/keys", { key: caller, json: { scopes: ["images"] } })).status).toBe(201);
  });

  it("does not let a scoped key re-secret or revoke a key with scopes it lacks", async () => {
    const owner = await seedCaller();
    const keysOnly = await (await api("/v1/keys", { key: owner, json: { scopes: ["keys"] } })).json<{ key_id: string; secret: string }>();
    const imagesOnly = await (await api("/v1/keys", { key: owner, json: { scopes: ["images"] } })).json<{ key_id: string }>();

    const takeover = await problemOf(await api(`/v1/keys/${owner.keyId}/signing-secret`, { key: keysOnly.secret, method: "POST" }));
    expect([takeover.status, takeover.type]).toEqual([403, expect.stringMatching(/forbidden_scope/)]);
    const sideways = await problemOf(await api(`/v1/keys/${imagesOnly.key_id}/signing-secret`, { key: keysOnly.secret, method: "POST" }));
    expect(sideways.status).toBe(403);
    const revoke = await problemOf(await api(`/v1/keys/${owner.keyId}`, { key: keysOnly.secret, method: "DELETE" }));
    expect(revoke.status).toBe(403);
    expect((await api("/v1/account", { key: owner })).status).toBe(200);

    const own = await api(`/v1/keys/${keysOnly.key_id}/signing-secret`, { key: keysOnly.secret, method: "POST" });
    expect(own.status).toBe(200);
    const byOwner = await api(`/v1/keys/${imagesOnly.key_id}/signing-secret`, { key: owner, method: "POST" });
    expect((await byOwner.json<{ signing_secret: string }>()).signing_secret).toMatch(/^tsk_/);
    expect((await api(`/v1/keys/${imagesOnly.key_id}`, { key: owner, method: "DELETE" })).status).toBe(200);
  });

  it("answers 404, not 403, for a key of another account", async () => {
    const keysOnly = await seedCaller({ scopes: ["keys"] });
    const theirs = await seedCaller();
    const res = await api(`/v1/keys/${theirs.keyId}/signing-secret`, { key: keysOnly, method: "POST" });
    expect((await problemOf(res)).status).toBe(404);
  });

  it("validates the body with a pointer to each bad field", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/keys", { key: caller, json: { scopes: ["root"], name: "", extra: 1 } });
    const problem = await problemOf(res);
    expect(problem.status).toBe(400);
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(["/extra", "/name", "/scopes/0"]);
  });
});

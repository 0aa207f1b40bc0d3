// What a transform URL needs besides the file: the key id it names (the pasted key's public id,
// found by its prefix in the key list) and whether the account requires signatures. Both the URLs
// and the Files sections use it, so the App holds it once. Either look-up may be refused for the
// key's scopes; the person then types the key id and ticks "signed" by hand.
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client.ts";
import type { Account, ApiKey } from "../api/types.ts";

export interface TransformAccess {
  keyId: string;
  signed: boolean;
}

export function useTransformAccess(api: ApiClient | null, apiKey: string | null): [TransformAccess, (access: TransformAccess) => void] {
  const [access, setAccess] = useState<TransformAccess>({ keyId: "", signed: false });
  useEffect(() => {
    if (api === null || apiKey === null) return;
    api.get<{ data: ApiKey[] }>("/v1/keys").then(
      ({ data }) => {
        const keyId = data.find((key) => key.revoked_at === null && apiKey.startsWith(key.display_prefix))?.key_id;
        if (keyId !== undefined) setAccess((current) => ({ ...current, keyId }));
      },
      () => undefined,
    );
    api.get<Account>("/v1/account").then(
      (account) => setAccess((current) => ({ ...current, signed: account.require_signed_transforms })),
      () => undefined,
    );
  }, [api, apiKey]);
  return [access, setAccess];
}

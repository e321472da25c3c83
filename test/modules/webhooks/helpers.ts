import { loadConfig, type WebhooksConfig } from '../../../src/config.js';
import { setupApp, type TestContext, type Workspace } from '../../helpers/app.js';

export const SIGNING_KEY = 'test-signing-key-0123456789-abcdefghij';

/** An app whose webhooks may reach 127.0.0.1, with a schedule shrunk so retries come in milliseconds. */
export function setupWebhooksApp(webhooks: Partial<WebhooksConfig> = {}): Promise<TestContext> {
  return setupApp({
    webhooks: {
      ...loadConfig({}).webhooks,
      allowPrivateNetworks: true,
      pollIntervalMs: 20,
      retryScale: 0.00002,
      ...webhooks,
    },
  });
}

export async function setSigningKey(workspace: Workspace, key = SIGNING_KEY): Promise<void> {
  const res = await workspace.api.put('webhooks/signingKey', { signingKey: key });
  if (res.status !== 200) throw new Error(`signing key: ${res.status} ${JSON.stringify(res.body)}`);
}

export const silentLog = { info() {}, error() {} };

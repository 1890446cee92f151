/**
 * The accounts while their database could not be opened at start: every accounts route answers
 * 503 with a message that says so, tokens identify nobody, and the rest of the site (guest play,
 * the AI) runs as usual. A restart once the database is back brings the accounts back.
 */
import type { HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { authErrorReply, errors } from './auth-errors';
import { json, type Reply } from './http';
import { ACCOUNTS_UNAVAILABLE_TEXT, type AccountsModule } from './index';
import { restUnavailable } from './rest-profiles';

function answer(reply: Reply) {
  return (res: HttpResponse): void => {
    res.cork(() => {
      res.writeStatus(`${reply.status} Service Unavailable`);
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.writeHeader(k, v);
      res.writeHeader('Retry-After', '30');
      res.end(reply.body ?? '');
    });
  };
}

export function unavailableAccounts(publicUrl: string): AccountsModule {
  const plain = answer(json(503, { message: ACCOUNTS_UNAVAILABLE_TEXT }));
  return {
    info: { mode: 'embedded', publicUrl, anonKey: '' },
    mount(app: TemplatedApp) {
      app.any('/auth/v1/*', answer(authErrorReply(errors.unavailable(ACCOUNTS_UNAVAILABLE_TEXT))));
      app.any('/rest/v1/*', answer(restUnavailable()));
      app.any('/api/*', plain);
      app.get('/dev/mail', plain);
      app.get('/config.json', plain);
    },
    verifyAccessToken: async () => null,
    health: async () => 'unavailable',
    close: async () => undefined,
  };
}

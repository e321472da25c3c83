import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { principalOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { EmailPreference, SetEmailPreference, UnsubscribeQuery } from './mail.schemas.js';
import type { MailService } from './mail.service.js';

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title}</title></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto">` +
  `<h1>${title}</h1>${body}</body></html>\n`;
// The confirmation page only posts its own form: no script, no other origin.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/** The page a forged or damaged unsubscribe link gets, in a browser: a 400 and no button. */
const invalidLink = (reply: FastifyReply) =>
  reply
    .status(400)
    .header('content-security-policy', PAGE_POLICY)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      page(
        'This unsubscribe link is not valid',
        '<p>The link may have been cut short or changed. Open it again from the email, or sign in to copydesk and turn email off in your settings.</p>',
      ),
    );

/**
 * The signed-in user's email preference, and the unsubscribe link of every email. The link needs
 * no session: its token is the proof. Opening it shows a button (a link checker that follows every
 * URL of an email must not unsubscribe anyone); the button, or a mail client's one-click POST
 * (RFC 8058), turns email off.
 */
export const mailRoutes: FastifyPluginAsyncTypebox<{ mail: MailService }> = async (app, { mail }) => {
  // Mail clients post the one-click form as `List-Unsubscribe=One-Click`; the token is in the URL.
  // RFC 8058 allows either form encoding; the body says nothing the URL does not, so it is not read further.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/users/me/notifications',
    {
      config: { role: 'viewer', cache: false },
      schema: {
        tags: ['users'],
        summary: 'Your email preference: every email at once, a daily digest, or none',
        response: withErrors({ 200: EmailPreference }),
      },
    },
    async (request) => ({ email: await mail.preference(principalOf(request).userId), smtpConfigured: mail.enabled }),
  );

  app.put(
    '/users/me/notifications',
    {
      config: { role: 'viewer', cache: false },
      schema: {
        tags: ['users'],
        summary: 'Set your email preference (anyone, for themselves)',
        body: SetEmailPreference,
        response: withErrors({ 200: EmailPreference }),
      },
    },
    async (request) => ({
      email: await mail.setPreference(principalOf(request).userId, request.body.email),
      smtpConfigured: mail.enabled,
    }),
  );

  app.get(
    '/email/unsubscribe',
    {
      config: { cache: false },
      schema: {
        tags: ['users'],
        summary: 'The page an unsubscribe link opens: a button that turns email off (no sign-in)',
        security: [],
        querystring: UnsubscribeQuery,
      },
    },
    async (request, reply) => {
      // A forged or damaged link says so here, rather than offering a button that cannot work.
      if (!(await mail.isUnsubscribeToken(request.query.token))) return invalidLink(reply);
      const action = `?token=${encodeURIComponent(request.query.token)}`;
      const body =
        '<p>Stop all email from copydesk to this address? You can turn it on again in your settings.</p>' +
        `<form method="post" action="${action}"><button type="submit" name="List-Unsubscribe" value="One-Click">Unsubscribe</button></form>`;
      return reply
        .header('content-security-policy', PAGE_POLICY)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(page('Unsubscribe', body));
    },
  );

  app.post(
    '/email/unsubscribe',
    {
      config: { cache: false },
      schema: {
        tags: ['users'],
        summary: 'Turn email off for the user the token names (one-click unsubscribe, RFC 8058; no sign-in)',
        security: [],
        querystring: UnsubscribeQuery,
      },
    },
    async (request, reply) => {
      // A person's browser (the page's button asks for HTML) is shown a page; a mail client's
      // one-click POST keeps the API's JSON error.
      const browser = /\btext\/html\b/.test(request.headers.accept ?? '');
      if (browser && !(await mail.isUnsubscribeToken(request.query.token))) return invalidLink(reply);
      await mail.unsubscribe(request.query.token);
      return reply
        .header('content-security-policy', PAGE_POLICY)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(page('Unsubscribed', '<p>You will get no more email from copydesk.</p>'));
    },
  );
};

import { type Static, Type } from 'typebox';

export const EmailMode = Type.Union([Type.Literal('instant'), Type.Literal('daily'), Type.Literal('off')], {
  description:
    '`instant`: each email when it happens; `daily`: notifications gathered into one email a day; `off`: no email at all',
});
export type EmailMode = Static<typeof EmailMode>;

export const EmailPreference = Type.Object({
  email: EmailMode,
  smtpConfigured: Type.Boolean({ description: 'Whether this server sends email at all (SMTP_URL)' }),
});

export const SetEmailPreference = Type.Object({ email: EmailMode }, { additionalProperties: false });

export const UnsubscribeQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of an unsubscribe link' }),
});

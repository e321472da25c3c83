import type { Session } from './api';
import { can } from './roles';
import './settings/settings.css';
import { Keys } from './settings/Keys';
import { MachineTranslation } from './settings/MachineTranslation';
import { Notifications } from './settings/Notifications';
import { People } from './settings/People';
import { Pins } from './settings/Pins';
import { Statuses } from './settings/Statuses';
import { StyleGuides } from './settings/StyleGuides';
import { Variables } from './settings/Variables';
import { Variants } from './settings/Variants';
import { Webhooks } from './settings/Webhooks';
import type { WorkspaceData } from './useWorkspaceData';

/**
 * Settings, one section per file under settings/. What a person may change follows their role as
 * the API does: editors change variants, variables and style guides; admins also the workflow,
 * people and webhooks (a section the API refuses others is not shown to them); a commenter or viewer reads.
 * Everyone manages their own API keys and email notifications; admins pin projects to releases.
 */
export function Settings({ session, data }: { session: Session; data: WorkspaceData }) {
  const admin = can(session.role, 'admin');
  const canEdit = can(session.role, 'edit');
  const sections = [
    ['variants', 'Variants'],
    ['variables', 'Variables'],
    ['workflow', 'Status workflow'],
    ['styleguides', 'Style guides'],
    ['people', 'People and roles'],
    ['keys', 'API keys'],
    ['pinned-releases', 'Pinned releases'],
    ['notifications', 'Email notifications'],
    ...(admin
      ? [
          ['webhooks', 'Webhooks'],
          ['machine-translation', 'Machine translation'],
        ]
      : []),
  ];
  return (
    <main className="page settings">
      <h1>Settings</h1>
      {!canEdit && (
        <p className="muted">
          You are a {session.role}: settings are read-only for you, except your own API keys and notifications.
        </p>
      )}
      <nav aria-label="Settings sections">
        <ul className="toc">
          {sections.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Variants data={data} canEdit={canEdit} />
      <Variables data={data} canEdit={canEdit} />
      <Statuses data={data} admin={admin} />
      <StyleGuides data={data} canEdit={canEdit} />
      <People admin={admin} me={session.email} data={data} />
      <Keys admin={admin} />
      <Pins data={data} admin={admin} />
      <Notifications />
      {admin && <Webhooks />}
      {admin && <MachineTranslation />}
    </main>
  );
}

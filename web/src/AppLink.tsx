import type { MouseEvent, ReactNode } from 'react';

/** A link that moves within the app (after asking about unsaved edits); a modified click opens a tab as usual. */
export function AppLink({
  to,
  go,
  current,
  children,
  className,
}: {
  to: string;
  go: (to: string) => void;
  current?: boolean | 'page';
  children: ReactNode;
  className?: string;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(to);
  };
  return (
    <a
      href={to}
      onClick={onClick}
      className={className}
      aria-current={current === 'page' ? 'page' : current ? 'true' : undefined}
    >
      {children}
    </a>
  );
}

import { useEffect, useState } from 'react';
import { API_UNREACHABLE } from '../api/api-error.js';
import { useCall } from '../api/use-call.js';
import { useHashRoute } from './use-hash-route.js';
import { OverviewPage } from '../pages/overview-page.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { ApprovalsPage } from '../pages/approvals-page.js';
import { CatalogPage } from '../pages/catalog-page.js';
import { SkillsPage } from '../pages/skills-page.js';
import { ExtensionsPage } from '../pages/extensions-page.js';
import { AutomationPage } from '../pages/automation-page.js';
import { AuditPage } from '../pages/audit-page.js';

const PAGES = [
  ['overview', 'Overview'],
  ['sessions', 'Sessions'],
  ['approvals', 'Approvals'],
  ['catalog', 'Catalog'],
  ['skills', 'Skills'],
  ['extensions', 'MCP & WASM'],
  ['automation', 'Automation'],
  ['audit', 'Audit'],
] as const;

type Theme = 'light' | 'dark';

function useTheme(): [Theme, () => void] {
  const initial =
    (localStorage.getItem('talon.theme') as Theme | null) ??
    (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const [theme, setTheme] = useState<Theme>(initial);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem('talon.theme', theme);
  }, [theme]);
  return [theme, () => setTheme((value) => (value === 'dark' ? 'light' : 'dark'))];
}

/** The frame: navigation, theme switch, log out, and a banner while the API is unreachable. */
export function Shell({ onLogout }: { onLogout(): void }) {
  const [page = 'overview', ...rest] = useHashRoute();
  const [theme, toggleTheme] = useTheme();
  const health = useCall('system.ping', {}, 5_000);
  const down = health.error && (health.error.code === API_UNREACHABLE || health.error.status >= 500);
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="shell">
      <header className="top">
        <button
          type="button"
          className="menu"
          aria-label="Menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
        <strong>Talon</strong>
        <span className="spacer" />
        <button type="button" onClick={toggleTheme} aria-label="Switch theme">
          {theme === 'dark' ? 'Light' : 'Dark'}
        </button>
        <button type="button" onClick={onLogout}>
          Log out
        </button>
      </header>
      {down && (
        <div className="banner" role="alert" data-testid="api-down">
          The API is not answering ({health.error!.code}: {health.error!.message}). Retrying every 5 s.
        </div>
      )}
      <nav className={menuOpen ? 'side open' : 'side'} aria-label="Pages">
        {PAGES.map(([id, title]) => (
          <a
            key={id}
            href={`#/${id}`}
            aria-current={page === id ? 'page' : undefined}
            onClick={() => setMenuOpen(false)}
          >
            {title}
          </a>
        ))}
      </nav>
      <main className="content">
        {page === 'overview' && <OverviewPage />}
        {page === 'sessions' && <SessionsPage sessionId={rest[0]} />}
        {page === 'approvals' && <ApprovalsPage />}
        {page === 'catalog' && <CatalogPage />}
        {page === 'skills' && <SkillsPage />}
        {page === 'extensions' && <ExtensionsPage />}
        {page === 'automation' && <AutomationPage />}
        {page === 'audit' && <AuditPage />}
      </main>
    </div>
  );
}

import { ActionIcon, AppShell, Burger, Center, Group, Loader, NavLink, ScrollArea, Text, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { AppInfo, ConnectionCheck } from '../../shared/contract/app';
import { bridge } from './bridge';
import { AutoSyncStatus } from './components/AutoSyncStatus';
import { ConnectionBadge } from './components/ConnectionBadge';
import { ErrorNotice } from './components/ErrorNotice';
import { useStandingNotices } from './components/standing/useStandingNotices';
import { ConnectionContext } from './hooks/useConnection';
import { useHashRoute } from './hooks/useHashRoute';
import { AppError, asAppError } from './bridge';
import { ROUTES } from './routes';

function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to ${next} theme`} withArrow>
      <ActionIcon variant="default" size="lg" aria-label={`Switch to ${next} theme`} onClick={() => setColorScheme(next)}>
        {scheme === 'dark' ? '☀' : '☾'}
      </ActionIcon>
    </Tooltip>
  );
}

export function AppFrame() {
  const [opened, { toggle, close }] = useDisclosure();
  const [path, navigate] = useHashRoute('dashboard');
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [online, setOnline] = useState(false);
  const [service, setService] = useState<ConnectionCheck | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  const refresh = useCallback(async () => {
    try {
      setInfo(await bridge.call('app.info', {}));
      setOnline(true);
      setError(null);
    } catch (e) {
      setOnline(false);
      setError(asAppError(e));
      return;
    }
    try {
      setService(await bridge.call('connection.check', {}));
    } catch {
      setService(null);
    }
  }, []);

  useEffect(() => {
    void refresh();
    const unsubscribe = bridge.on('data.changed', (p) => {
      if (p.topics.includes('connection')) {
        setService(null);
        void refresh();
      }
    });
    const timer = window.setInterval(() => void refresh(), 30_000);
    return () => {
      unsubscribe();
      window.clearInterval(timer);
    };
  }, [refresh]);

  // A standing order's run that was bought, failed or waits is told whatever page is open.
  useStandingNotices();

  // Alt+1…9, Alt+0 and Alt+M move between pages.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const route = ROUTES.find((r) => r.key.toLowerCase() === e.key.toLowerCase());
      if (route) {
        e.preventDefault();
        navigate(route.path);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  const route = ROUTES.find((r) => r.path === path) ?? ROUTES[0];
  const Page = route.component;
  const connection = useMemo(() => ({ info, online, service, refresh }), [info, online, service, refresh]);

  useEffect(() => {
    document.title = `${route.label} · vendesk${info?.connection.kind === 'live' ? ' (LIVE)' : info ? ' (SANDBOX)' : ''}`;
  }, [route, info]);

  return (
    <ConnectionContext.Provider value={connection}>
      <AppShell header={{ height: 60 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Open navigation" />
              {/* The name of the app, not a heading: each page's title is its one level-one heading. */}
              <Text fw={700} fz="h3" style={{ letterSpacing: '-0.02em' }}>
                vendesk
              </Text>
            </Group>
            <Group gap="md" wrap="nowrap">
              <AutoSyncStatus />
              <ConnectionBadge />
              <ThemeToggle />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Pages">
          <ScrollArea>
            {ROUTES.map((r) => (
              <NavLink
                key={r.path}
                href={`#/${r.path}`}
                label={r.label}
                title={r.description}
                active={r.path === route.path}
                onClick={close}
                aria-current={r.path === route.path ? 'page' : undefined}
                rightSection={
                  <Text size="xs" c="dimmed" aria-label={`Alt+${r.key}`}>
                    Alt+{r.key}
                  </Text>
                }
              />
            ))}
          </ScrollArea>
        </AppShell.Navbar>
        <AppShell.Main>
          {error && !online && <ErrorNotice error={error} onRetry={() => void refresh()} title="vendesk cannot reach its services" />}
          {/* A page's code loads when it is first shown; meanwhile a spinner, never a blank page. */}
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label={`Loading ${route.label}`} />
              </Center>
            }
          >
            <Page key={route.path} />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </ConnectionContext.Provider>
  );
}

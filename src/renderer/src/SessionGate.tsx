import { Code, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { sessionLink } from '../../shared/webSession';
import { bridge } from './bridge';
import type { SessionState } from './webSession';

/**
 * Shows the app only to a signed-in window. A browser tab without a valid session (opened without
 * vendesk's link, or holding a link from an earlier run) gets one page that says what to do, and
 * nothing that looks live: no navigation, no figures, no buttons.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(bridge.sessionState);
  useEffect(() => bridge.watchSession(setState), []);
  if (state === 'signed-in') return children;
  // The link's code is being exchanged (a moment): nothing is shown rather than the sign-in page.
  if (state === 'signing-in') return null;
  return <SignInNeeded stale={state === 'stale'} />;
}

function SignInNeeded({ stale }: { stale: boolean }) {
  useEffect(() => {
    document.title = 'Open vendesk from its link';
  }, []);
  const example = sessionLink(window.location.origin, '…');
  return (
    <Container component="main" size={640} py={80}>
      <Paper withBorder radius="md" p="xl">
        <Stack gap="md">
          <Text fw={700} c="dimmed" size="sm" style={{ letterSpacing: '-0.02em' }}>
            vendesk
          </Text>
          <Title order={1} size="h2">
            Open vendesk from the link it printed in the terminal
          </Title>
          <Text>
            {stale
              ? 'This tab was opened from a link that has already been used, from an earlier run of vendesk, or from an incomplete copy of its link, so it is not signed in.'
              : 'This browser tab is not signed in to vendesk.'}
          </Text>
          <List type="ordered" spacing="xs">
            <List.Item>
              Go to the terminal window where vendesk is running (where you typed <Code>npm start</Code>).
            </List.Item>
            <List.Item>
              Copy the newest link it printed, which looks like <Code>{example}</Code>, and open it in this tab.
            </List.Item>
            <List.Item>
              If vendesk is no longer running there, start it again with <Code>npm start</Code> and open the new link it prints.
            </List.Item>
          </List>
          <Text size="sm" c="dimmed">
            vendesk answers only the browser tab opened from that link, so other web pages and programs on this computer cannot use it. Reloading a signed-in tab keeps it signed
            in. Each link works once: for another tab, open the new link vendesk prints after each use.
          </Text>
        </Stack>
      </Paper>
    </Container>
  );
}

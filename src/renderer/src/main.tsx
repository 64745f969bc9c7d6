import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { MantineProvider, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppFrame } from './AppFrame';
import { SessionGate } from './SessionGate';

const theme = createTheme({
  primaryColor: 'teal',
  fontFamily: 'Inter, "Segoe UI", system-ui, -apple-system, sans-serif',
  fontFamilyMonospace: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace',
  defaultRadius: 'md',
});

const colorSchemeManager = localStorageColorSchemeManager({ key: 'vendesk-color-scheme' });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={colorSchemeManager}>
      <Notifications position="bottom-right" />
      <SessionGate>
        <AppFrame />
      </SessionGate>
    </MantineProvider>
  </StrictMode>,
);

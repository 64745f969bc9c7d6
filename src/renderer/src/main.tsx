import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { Alert, Drawer, FileInput, MantineProvider, Modal, Notification, Select, createTheme, localStorageColorSchemeManager } from '@mantine/core';
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
  // Text on a filled colour (a yellow badge) is dark where white would not be readable.
  autoContrast: true,
  // Every × has a name a screen reader says.
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Alert: Alert.extend({ defaultProps: { closeButtonLabel: 'Close' } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    FileInput: FileInput.extend({ defaultProps: { clearButtonProps: { 'aria-label': 'Clear the chosen file' } } }),
    Select: Select.extend({ defaultProps: { clearButtonProps: { 'aria-label': 'Clear' } } }),
  },
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

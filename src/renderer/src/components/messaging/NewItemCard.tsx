import { Button, Card, Group, Stack, TextInput, Title, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AppError } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';

/**
 * A form that creates one named thing on the service (a phonebook, a template): its title, the Name
 * field, the other fields, why it was not created, and the create button with a hint beside it.
 */
export function NewItemCard(props: {
  /** What it creates, in the words on the screen: "New phonebook", "Create phonebook". */
  thing: string;
  /** How large its title looks (it is a section heading of the page either way). */
  titleSize: 'h4' | 'h5';
  gap: MantineSpacing;
  name: string;
  onName: (name: string) => void;
  namePlaceholder: string;
  error: AppError | null;
  busy: boolean;
  canCreate: boolean;
  onCreate: () => void;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} size={props.titleSize} mb="xs">
        New {props.thing}
      </Title>
      <Stack gap={props.gap}>
        <TextInput label="Name" placeholder={props.namePlaceholder} value={props.name} onChange={(e) => props.onName(e.currentTarget.value)} />
        {props.children}
        <ErrorNotice error={props.error} title={`The ${props.thing} was not created`} />
        <Group>
          <Button onClick={props.onCreate} loading={props.busy} disabled={!props.canCreate}>
            Create {props.thing}
          </Button>
          {props.hint}
        </Group>
      </Stack>
    </Card>
  );
}

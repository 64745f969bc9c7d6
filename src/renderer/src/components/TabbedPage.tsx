import { Tabs, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from './PageHeader';

export interface PageTab<T extends string> {
  value: T;
  label: string;
  content: ReactNode;
}

/**
 * A page made of tabs under its header. Only the open tab is mounted, so each tab loads its data
 * when it is opened.
 */
export function TabbedPage<T extends string>({
  title,
  description,
  tabs,
  value,
  onChange,
  listSpacing = 'md',
}: {
  title: string;
  description: string;
  tabs: PageTab<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Space between the tab list and the open tab. */
  listSpacing?: MantineSpacing;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Tabs value={value} onChange={(v) => v && onChange(v as T)} keepMounted={false}>
        <Tabs.List mb={listSpacing}>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value}>
            {tab.content}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}

/** The pages of the app, in navigation order. Each page lives in its own file under pages/, and its own chunk. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A page's component, its code in a chunk of its own that loads when the page is first shown
 * (AppFrame renders it inside Suspense): the first page paints without the others' code.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] }));
}

const DashboardPage = page(() => import('./pages/DashboardPage'), 'DashboardPage');
const PurchasesPage = page(() => import('./pages/PurchasesPage'), 'PurchasesPage');
const TransactionsPage = page(() => import('./pages/TransactionsPage'), 'TransactionsPage');
const PendingPage = page(() => import('./pages/PendingPage'), 'PendingPage');
const ReconcilePage = page(() => import('./pages/ReconcilePage'), 'ReconcilePage');
const MessagingPage = page(() => import('./pages/MessagingPage'), 'MessagingPage');
const CatalogPage = page(() => import('./pages/CatalogPage'), 'CatalogPage');
const SettingsPage = page(() => import('./pages/SettingsPage'), 'SettingsPage');
const ApprovalsPage = page(() => import('./pages/ApprovalsPage'), 'ApprovalsPage');
const StandingOrdersPage = page(() => import('./pages/StandingOrdersPage'), 'StandingOrdersPage');
const MonthEndPage = page(() => import('./pages/MonthEndPage'), 'MonthEndPage');

export interface Route {
  path: string;
  label: string;
  description: string;
  /** Keyboard shortcut: Alt + this key. */
  key: string;
  component: LazyExoticComponent<ComponentType>;
}

export const ROUTES: Route[] = [
  { path: 'dashboard', label: 'Dashboard', description: 'Wallet, spend and what needs attention', key: '1', component: DashboardPage },
  {
    path: 'purchases',
    label: 'Purchases',
    description: 'Electricity and cable TV one at a time; airtime, data, electricity and cable TV in bulk',
    key: '2',
    component: PurchasesPage,
  },
  { path: 'transactions', label: 'Transactions', description: 'The vending log mirrored on this computer', key: '3', component: TransactionsPage },
  { path: 'pending', label: 'Pending', description: 'Purchases waiting for a final answer', key: '4', component: PendingPage },
  { path: 'reconcile', label: 'Reconcile', description: 'Vendor exports against local records', key: '5', component: ReconcilePage },
  { path: 'month-end', label: 'Month-end', description: 'Spend by cost centre, the close pack, the journal, closing a month', key: 'M', component: MonthEndPage },
  { path: 'messaging', label: 'Messaging', description: 'SMS, phonebooks, templates and one-time codes', key: '6', component: MessagingPage },
  { path: 'catalog', label: 'Catalog', description: 'Products, prices and the codes a purchase sends', key: '7', component: CatalogPage },
  {
    path: 'settings',
    label: 'Settings',
    description: 'Connection profiles, the team database, the connection check, automatic sync and the data folder',
    key: '8',
    component: SettingsPage,
  },
  { path: 'approvals', label: 'Approvals', description: 'Team jobs waiting for approval, approved and rejected, and the audit trail', key: '9', component: ApprovalsPage },
  {
    path: 'standing',
    label: 'Standing orders',
    description: 'Allowances and subscriptions bought on a schedule: their next dates, their runs and what waits',
    key: '0',
    component: StandingOrdersPage,
  },
];

/** The pages of the app, in navigation order. Each page lives in its own file under pages/. */
import type { ComponentType } from 'react';
import { ApprovalsPage } from './pages/ApprovalsPage';
import { CatalogPage } from './pages/CatalogPage';
import { DashboardPage } from './pages/DashboardPage';
import { MessagingPage } from './pages/MessagingPage';
import { PendingPage } from './pages/PendingPage';
import { PurchasesPage } from './pages/PurchasesPage';
import { ReconcilePage } from './pages/ReconcilePage';
import { SettingsPage } from './pages/SettingsPage';
import { TransactionsPage } from './pages/TransactionsPage';

export interface Route {
  path: string;
  label: string;
  description: string;
  /** Keyboard shortcut: Alt + this key. */
  key: string;
  component: ComponentType;
}

export const ROUTES: Route[] = [
  { path: 'dashboard', label: 'Dashboard', description: 'Wallet, spend and what needs attention', key: '1', component: DashboardPage },
  { path: 'purchases', label: 'Purchases', description: 'Electricity and cable TV one at a time; airtime, data, electricity and cable TV in bulk', key: '2', component: PurchasesPage },
  { path: 'transactions', label: 'Transactions', description: 'The vending log mirrored on this computer', key: '3', component: TransactionsPage },
  { path: 'pending', label: 'Pending', description: 'Purchases waiting for a final answer', key: '4', component: PendingPage },
  { path: 'reconcile', label: 'Reconcile', description: 'Vendor exports against local records', key: '5', component: ReconcilePage },
  { path: 'messaging', label: 'Messaging', description: 'SMS, phonebooks, templates and one-time codes', key: '6', component: MessagingPage },
  { path: 'catalog', label: 'Catalog', description: 'Products, prices and the codes a purchase sends', key: '7', component: CatalogPage },
  { path: 'settings', label: 'Settings', description: 'Connection profiles, the team database, the connection check, automatic sync and the data folder', key: '8', component: SettingsPage },
  { path: 'approvals', label: 'Approvals', description: 'Team jobs waiting for approval, approved and rejected, and the audit trail', key: '9', component: ApprovalsPage },
];

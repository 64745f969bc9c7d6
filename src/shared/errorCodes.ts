/**
 * Every code an error of vendesk carries (`AppError.code`, the `code` of an error shape over IPC,
 * HTTP and the CLI's JSON): one typed union instead of free strings, so a program that reacts to
 * a code (the CLI's hints and exit codes, the window) names one that exists. Adding a code means
 * adding it here.
 */

/** What the user (or vendesk) should do about a service's answer; a service error's code is `service_<action>`. */
export type ServiceAction = 'retry_later' | 'wait' | 'hand_to_support' | 'do_not_resend' | 'fix_input' | 'configuration' | 'credentials' | 'not_found' | 'unknown';

/** Why a file could not be read; an import error's code is `import_<code>`. */
export type ImportErrorCode =
  | 'empty'
  | 'too_large'
  | 'too_many_rows'
  | 'too_many_cells'
  | 'too_wide'
  | 'too_long'
  | 'corrupt'
  | 'encrypted'
  | 'zip_bomb'
  | 'no_header'
  | 'missing_column'
  | 'unsupported'
  | 'no_sheet';

export const APP_ERROR_CODES = [
  'already_settled',
  'amount_below_meter_minimum',
  'amount_out_of_range',
  'approval_cancelled',
  'approval_mismatch',
  'approval_rejected',
  'approval_used',
  'awaiting_approval',
  'bad_response',
  'cancelled',
  'confirmation_mismatch',
  'connection_changed',
  'cost_changed',
  'duplicate_pending',
  'export_bad_value',
  'export_failed',
  'export_no_columns',
  'export_no_sheets',
  'export_unreadable',
  'file_missing',
  'file_not_chosen',
  'import_no_sheet',
  'import_running',
  'internal',
  'invalid_dates',
  'invalid_input',
  'invalid_mapping',
  'invalid_meter',
  'invalid_phone',
  'invalid_purchase',
  'invalid_rows',
  'invalid_smartcard',
  'items_not_found',
  'job_cancelled',
  'job_not_confirmed',
  'job_not_draft',
  'job_not_found',
  'job_other_connection',
  'job_refused',
  'job_running_elsewhere',
  'live_confirmation_needed',
  'log_entry_invalid',
  'log_row_missing',
  'message_not_found',
  'network_fixed_by_plan',
  'no_airtime_product',
  'no_keyring',
  'no_sheet',
  'no_wallet',
  'not_connected',
  'not_sandbox',
  'nothing_to_resolve',
  'offline',
  'other_connection',
  'otp_expired',
  'otp_refused',
  'otp_unknown',
  'otp_used',
  'otp_wrong',
  'path_refused',
  'path_required',
  'phonebook_ambiguous',
  'phonebook_count_unknown',
  'phonebook_empty',
  'phonebook_id_unknown',
  'phonebook_not_found',
  'profile_ambiguous',
  'profile_in_use',
  'profile_not_found',
  'profile_readonly',
  'purchase_in_progress',
  'purchase_not_found',
  'range_needed',
  'recent_duplicate',
  'reconcile_running',
  'requery_not_due',
  'run_not_done',
  'run_not_found',
  'sender_not_approved',
  'sender_unknown',
  'settle_on_pending_page',
  'still_sending',
  'sync_cancelled',
  'sync_failed',
  'sync_runaway',
  'sync_running',
  'team_auth_failed',
  'team_bad_url',
  'team_database',
  'team_invalid',
  'team_job_not_found',
  'team_job_state',
  'team_no_database',
  'team_not_joined',
  'team_not_member',
  'team_password_in_url',
  'team_password_missing',
  'team_refused',
  'team_schema_newer',
  'team_schema_outdated',
  'team_unreachable',
  'template_id_unknown',
  'template_invalid',
  'template_not_approved',
  'template_text_unknown',
  'template_unknown',
  'template_values',
  'token_file_exposed',
  'token_missing',
  'uncertain_outcome',
  'unknown_bouquet',
  'unknown_disco',
  'unknown_operation',
  'unknown_provider',
  'unsafe_address',
  'untrusted_sender',
  'upload_missing',
  'usage',
  'wallet_short',
] as const;

export type ErrorCode = (typeof APP_ERROR_CODES)[number] | `service_${ServiceAction}` | `import_${ImportErrorCode}`;

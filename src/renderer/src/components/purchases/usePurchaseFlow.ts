import { useState } from 'react';
import type { PurchaseView } from '../../../../shared/contract/purchases';
import { normalizePhone } from '../../../../shared/phone';
import { AppError, asAppError } from '../../bridge';

/**
 * The steps every single purchase goes through, whatever it buys: check the account with the
 * service (a meter, a smartcard, a number), enter the customer's phone, review, buy, and show the
 * receipt. `Checked` is what the check returns (the customer's name and details); `Result` is the
 * receipt (an electricity or cable purchase unless said otherwise).
 */
export function usePurchaseFlow<Checked, Result = PurchaseView>() {
  const [phone, setPhone] = useState('');
  const [checked, setChecked] = useState<Checked | null>(null);
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [buying, setBuying] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [errorTitle, setErrorTitle] = useState('Not bought');
  const [result, setResult] = useState<Result | null>(null);
  const [recentKey, setRecentKey] = useState(0);

  const phoneCheck = phone.trim() === '' ? null : normalizePhone(phone);
  const phoneProblem = phoneCheck && !phoneCheck.ok ? phoneCheck.reason : null;

  /** Asks the service about the account; a failure is shown under `failedTitle`. */
  const check = async (failedTitle: string, call: () => Promise<Checked>) => {
    setErrorTitle(failedTitle);
    setChecking(true);
    setError(null);
    try {
      setChecked(await call());
    } catch (e) {
      setChecked(null);
      setError(asAppError(e));
    } finally {
      setChecking(false);
    }
  };

  const buy = async (call: () => Promise<Result>) => {
    setErrorTitle('Not bought');
    setBuying(true);
    setError(null);
    try {
      setResult(await call());
      setRecentKey((k) => k + 1);
    } catch (e) {
      setError(asAppError(e));
    } finally {
      setConfirming(false);
      setBuying(false);
    }
  };

  /** What was checked no longer holds (another account, company or type was chosen). */
  const forgetCheck = () => {
    setChecked(null);
    setError(null);
  };

  /** Back to the form after a receipt; the caller clears its own fields. */
  const startOver = () => {
    setResult(null);
    setChecked(null);
    setError(null);
  };

  return {
    phone,
    setPhone,
    phoneCheck,
    phoneProblem,
    checked,
    checking,
    check,
    forgetCheck,
    confirming,
    setConfirming,
    buying,
    buy,
    error,
    errorTitle,
    result,
    recentKey,
    startOver,
  };
}

export type PurchaseFlow<Checked, Result = PurchaseView> = ReturnType<typeof usePurchaseFlow<Checked, Result>>;

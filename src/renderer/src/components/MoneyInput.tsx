/**
 * The one box for an amount of Naira in the window. What is typed stays as typed (no reformatting,
 * no rounding, no dropped characters); it is read by the shared `parseNairaText`, and anything it
 * cannot read exactly is refused with its sentence under the box. The message waits until the user
 * pauses or leaves the box, so half-typed amounts (`5,` on the way to `5,000`) do not flash errors.
 */
import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { parseNairaText, type Kobo } from '../../../shared/money';

/** A money box's text read: kobo when it is an amount, the reason when it is not, neither when it is empty and may be. */
export interface MoneyField {
  kobo: Kobo | null;
  reason: string | null;
}

/** Reads a money box's text. `optional`: empty is an answer (e.g. "no cap"), not a problem. */
export function readMoneyField(text: string, optional = false): MoneyField {
  if (optional && text.trim() === '') return { kobo: null, reason: null };
  const r = parseNairaText(text);
  return r.ok ? { kobo: r.kobo, reason: null } : { kobo: null, reason: r.reason };
}

export interface MoneyInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'error' | 'type'> {
  value: string;
  onChange: (text: string) => void;
  /** Empty means "none" (a cap left empty is no cap). */
  optional?: boolean;
  /** A problem with an amount that was read (out of range, not the total shown). */
  problem?: string | null;
}

export function MoneyInput({ value, onChange, optional = false, problem, onBlur, ...rest }: MoneyInputProps) {
  const [left, setLeft] = useState(false);
  const [settled] = useDebouncedValue(value, 700);
  const field = readMoneyField(value, optional);
  const typing = settled !== value && !left;
  const empty = value.trim() === '';
  const error = typing || (empty && !left) ? null : (field.reason ?? (field.kobo !== null ? problem : null) ?? null);
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      {...rest}
      value={value}
      onChange={(e) => {
        setLeft(false);
        onChange(e.currentTarget.value);
      }}
      onBlur={(e) => {
        setLeft(true);
        onBlur?.(e);
      }}
      error={error || undefined}
    />
  );
}
